package geocode

import (
	"strings"
	"testing"
)

// TestForwardDroppedWordsPartial: words past MaxQueryWords are ignored and
// the results marked partial_match.
func TestForwardDroppedWordsPartial(t *testing.T) {
	ix := tinyIndex(t)
	pad := strings.Repeat(" testville", MaxQueryWords)
	for _, tc := range []struct {
		query   string
		partial bool
	}{
		{"10 North Main Street, Testville, DE 19901", false},
		{"10 North Main Street" + pad, true},
	} {
		t.Run(tc.query[:20], func(t *testing.T) {
			cs := ix.Forward(Query{Text: tc.query})
			if len(cs) == 0 {
				t.Fatal("no result")
			}
			if cs[0].PartialMatch != tc.partial {
				t.Errorf("partial_match %v, want %v (%q)", cs[0].PartialMatch, tc.partial, cs[0].FormattedAddress)
			}
		})
	}
}
