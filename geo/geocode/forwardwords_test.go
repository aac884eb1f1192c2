package geocode

import "testing"

// TestResultsKeepTheBestMatchWords: a result that leaves out a word the
// best result matched is not listed ("Main St, Newark" gives Newark's Main
// Streets, not New Jersey's; "100 E Main St, Newark" not E Main St in
// Felton).
func TestResultsKeepTheBestMatchWords(t *testing.T) {
	de := testIndex(t, delaware)
	for _, tc := range []struct {
		query, locality string
		min             int
	}{
		{"Main St, Newark", "Newark", 3},
		{"100 E Main St, Newark, DE 19711", "Newark", 1},
		{"Market Street, Wilmington", "Wilmington", 1},
	} {
		t.Run(tc.query, func(t *testing.T) {
			cs := de.Forward(Query{Text: tc.query})
			if len(cs) < tc.min {
				t.Fatalf("%d results, want at least %d", len(cs), tc.min)
			}
			for _, c := range cs {
				if l, _ := c.Component("locality"); l != tc.locality {
					t.Errorf("result %q is not in %s", c.FormattedAddress, tc.locality)
				}
			}
		})
	}
}
