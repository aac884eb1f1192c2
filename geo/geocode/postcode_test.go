package geocode

import "testing"

// TestForwardPostcodeCity: a postcode result lists the postal code first
// and names the postcode's city.
func TestForwardPostcodeCity(t *testing.T) {
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
		{"postcode", de, "19901", "postal_code", "postal_code", "Dover, DE 19901, USA"},
		{"postcode Newark", de, "19711", "postal_code", "postal_code", "Newark, DE 19711, USA"},
		{"postcode Andorra", ad, "AD500", "postal_code", "postal_code", "AD500 Andorra la Vella, Andorra"},
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
