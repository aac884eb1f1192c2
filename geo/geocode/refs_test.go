package geocode

import "testing"

// TestRouteNumbers: roads are found by their route numbers ("I-95", "US
// 13, Dover") as well as their names.
func TestRouteNumbers(t *testing.T) {
	de := testIndex(t, delaware)
	for _, tc := range []struct{ query, route, locality string }{
		{"I-95", "I-95", ""},
		{"I 95, Wilmington", "I-95", "Wilmington"},
		{"US 13, Dover", "US-13", "Dover"},
		{"DE-1", "DE-1", ""},
		{"Delaware Turnpike", "Delaware Tpke", ""},
	} {
		t.Run(tc.query, func(t *testing.T) {
			cs := de.Forward(Query{Text: tc.query})
			if len(cs) == 0 {
				t.Fatal("no result")
			}
			_, route := cs[0].Component("route")
			loc, _ := cs[0].Component("locality")
			if route != tc.route || tc.locality != "" && loc != tc.locality || cs[0].PartialMatch {
				t.Errorf("got %q (partial %v)", cs[0].FormattedAddress, cs[0].PartialMatch)
			}
		})
	}
}
