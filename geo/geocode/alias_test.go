package geocode

import "testing"

// TestForwardAreaAliases: a query that is a state code or a country's
// code or alias finds that state or country first.
func TestForwardAreaAliases(t *testing.T) {
	de := testIndex(t, delaware)
	ad := testIndex(t, andorra)
	for _, tc := range []struct {
		name      string
		ix        *Index
		query     string
		typ       string // type of the first result
		first     string // type of its first component
		formatted string
	}{
		{"state code", de, "DE", "administrative_area_level_1", "administrative_area_level_1", "Delaware, USA"},
		{"state code lower", de, "de", "administrative_area_level_1", "administrative_area_level_1", "Delaware, USA"},
		{"state name", de, "Delaware", "administrative_area_level_1", "administrative_area_level_1", "Delaware, USA"},
		{"country alias, no place node", de, "USA", "country", "country", "United States"},
		{"country code", ad, "AD", "country", "country", "Andorra"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := tc.ix.Forward(Query{Text: tc.query})
			if len(cs) == 0 {
				t.Fatal("no result")
			}
			c := cs[0]
			if !c.HasType(tc.typ) || len(c.Components) == 0 || c.Components[0].Types[0] != tc.first || c.FormattedAddress != tc.formatted {
				t.Errorf("first %q %v %+v, want %s, component %s first, %q", c.FormattedAddress, c.Types, c.Components, tc.typ, tc.first, tc.formatted)
			}
		})
	}
}
