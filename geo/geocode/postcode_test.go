package geocode

import (
	"path/filepath"
	"testing"

	"github.com/paulmach/orb"
)

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

// TestPostcodeFromPostalArea: a feature without addr:postcode or a TIGER
// ZIP takes its postcode from the postal-code area of the boundary layer
// around it; its own tags win.
func TestPostcodeFromPostalArea(t *testing.T) {
	admins := func(p orb.Point) []AdminArea {
		return []AdminArea{{Name: "United States", Level: 2, Code: "US"}, {Name: "99999", Postal: true}}
	}
	ix, err := Build(filepath.Join("testdata", "tiny.osm"), BuildOptions{Admins: admins})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ query, postcode string }{
		{"Carrer de la Unió", "99999"},            // no postcode tag: the area's
		{"10 North Main Street", "19901"},         // addr:postcode
		{"North Main Street, Testville", "19901"}, // tiger:zip_left
	} {
		cs := ix.Forward(Query{Text: tc.query})
		if len(cs) == 0 {
			t.Fatalf("%q: no result", tc.query)
		}
		if pc, _ := cs[0].Component("postal_code"); pc != tc.postcode {
			t.Errorf("%q: %q has postcode %q, want %q", tc.query, cs[0].FormattedAddress, pc, tc.postcode)
		}
	}
}
