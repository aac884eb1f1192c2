package geocode

import (
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// TestStreetsJoined: the ways of one street in one place are one street
// feature, not one per unconnected piece.
func TestStreetsJoined(t *testing.T) {
	ix := testIndex(t, delaware)
	for _, tc := range []struct{ street, town string }{
		{"West Main Street", "Newark"},
		{"South Main Street", "Newark"},
		{"Kings Highway", "Dover"},
		{"North Market Street", "Wilmington"},
	} {
		t.Run(tc.street+", "+tc.town, func(t *testing.T) {
			var ids []string
			for i := range ix.feats {
				f := &ix.feats[i]
				if f.kind == KindStreet && Fold(ix.str(f.name)) == Fold(tc.street) && Fold(ix.str(ix.ctx(f).locality)) == Fold(tc.town) {
					ids = append(ids, ix.placeID(f, 0))
				}
			}
			if len(ids) != 1 {
				t.Errorf("%d street features: %v", len(ids), ids)
			}
		})
	}
}

// TestLongStreetSplitByTown: Coastal Highway runs 60 km down the Delaware
// coast through several towns. It is a street in each town, so that a
// search in one town lands there and a point on it is named after the
// town around it, not after whichever town the middle of the whole road
// is nearest (Nassau, 31 km north of Fenwick Island, before).
func TestLongStreetSplitByTown(t *testing.T) {
	ix := testIndex(t, delaware)
	towns := map[string]orb.Point{}
	for _, name := range []string{"Dewey Beach", "Fenwick Island", "Rehoboth Beach"} {
		pid, ok := ix.nearestPlaceNamed(name, orb.Point{-75.1, 38.6})
		if !ok {
			t.Fatalf("no place %s", name)
		}
		towns[name] = ix.feats[pid].pt
	}
	for town, at := range towns {
		t.Run("forward in "+town, func(t *testing.T) {
			cs := ix.Forward(Query{Text: "Coastal Highway, " + town})
			if len(cs) == 0 {
				t.Fatal("no result")
			}
			loc, _ := cs[0].Component("locality")
			if d := geo.HaversineM(cs[0].Location, at); d > 3000 || loc != town {
				t.Errorf("top result %q is %.0f m from %s (locality %q)", cs[0].FormattedAddress, d, town, loc)
			}
		})
	}
	// A kayak shop on the highway just north of Fenwick Island.
	p := orb.Point{-75.0525352, 38.4721268}
	cs := ix.Reverse(p, ReverseOptions{ResultTypes: []string{"route"}})
	if len(cs) == 0 {
		t.Fatal("reverse: no route")
	}
	loc, _ := cs[0].Component("locality")
	if d := geo.HaversineM(cs[0].Location, p); d > 3000 || loc == "Nassau" || loc == "Rehoboth Beach" {
		t.Errorf("reverse: %q located %.0f m from the point", cs[0].FormattedAddress, d)
	}
}
