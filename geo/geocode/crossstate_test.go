package geocode

import "testing"

// TestLocalityInSameState: the city of a result comes from a place node in
// the same state, never from the nearest town across a state line
// ("Main St, Wilmington, NJ").
func TestLocalityInSameState(t *testing.T) {
	ix := testIndex(t, delaware)
	for _, q := range []string{"main", "main st", "market st", "broad st", "church st"} {
		t.Run(q, func(t *testing.T) {
			cs := ix.Forward(Query{Text: q, Limit: 20})
			if len(cs) == 0 {
				t.Fatal("no result")
			}
			for _, c := range cs {
				loc, _ := c.Component("locality")
				_, st := c.Component("administrative_area_level_1")
				if loc == "" || st == "" {
					continue
				}
				if len(ix.placesNamed(Fold(loc))) == 0 {
					continue // a municipality of the boundary layer, not a place node
				}
				ok := false
				for _, fid := range ix.placesNamed(Fold(loc)) {
					if a := ix.area(ix.ctx(&ix.feats[fid]).state); a != nil && ix.str(a.short) == st {
						ok = true
					}
				}
				if !ok {
					t.Errorf("%q: no place %q in state %s", c.FormattedAddress, loc, st)
				}
			}
		})
	}
}
