package geocode

import "testing"

// TestForwardComponentFilters: country filters resolve through the
// tables' aliases, and filters run before the score cut-offs so
// lower-ranked matching hits still come back.
func TestForwardComponentFilters(t *testing.T) {
	tiny := tinyIndex(t)
	de := testIndex(t, delaware)
	for _, tc := range []struct {
		name  string
		ix    *Index
		query string
		comps Components
		found bool
	}{
		{"country code", tiny, "main street", Components{Country: "US"}, true},
		{"country USA", tiny, "main street", Components{Country: "USA"}, true},
		{"country name lower", tiny, "main street", Components{Country: "united states of america"}, true},
		{"other country", tiny, "main street", Components{Country: "Andorra"}, false},
		{"unknown country", tiny, "main street", Components{Country: "Narnia"}, false},
		{"low-ranked road in Clayton", de, "road", Components{Locality: "Clayton"}, true},
		{"low-ranked road in Odessa", de, "road", Components{Locality: "Odessa"}, true},
		{"low-ranked road, country USA", de, "road", Components{Locality: "Selbyville", Country: "USA"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := tc.ix.Forward(Query{Text: tc.query, Components: tc.comps})
			if (len(cs) > 0) != tc.found {
				t.Fatalf("%d results, want found=%v", len(cs), tc.found)
			}
			for _, c := range cs {
				if tc.comps.Locality != "" {
					if l, _ := c.Component("locality"); Fold(l) != Fold(tc.comps.Locality) {
						t.Errorf("%q: locality %q", c.FormattedAddress, l)
					}
				}
			}
		})
	}
}
