package geocode

import (
	"strings"
	"testing"
)

// TestForwardNoDuplicates: a street split into several ways in one town
// must not come back as several identical results.
func TestForwardNoDuplicates(t *testing.T) {
	ix := testIndex(t, delaware)
	for _, q := range []string{"Main St Newark", "Kings Hwy, Dover", "Market St Wilmington", "rehoboth"} {
		t.Run(q, func(t *testing.T) {
			seen := map[string]int{}
			for i, c := range ix.Forward(Query{Text: q}) {
				k := c.FormattedAddress + "|" + strings.Join(c.Types, ",")
				if j, ok := seen[k]; ok {
					t.Errorf("results %d and %d are both %q %v", j, i, c.FormattedAddress, c.Types)
				}
				seen[k] = i
			}
		})
	}
}
