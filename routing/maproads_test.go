package routing

import (
	"fmt"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/profile"
)

// TestMapRoadsMatchesScan: the grid-indexed MapRoads returns exactly the
// edges a scan of every edge finds (RoadsIn), once each, for bounds
// inside, across and outside the extract.
func TestMapRoadsMatchesScan(t *testing.T) {
	g := testGraph(t, "andorra")
	b := g.Bounds()
	c := b.Center()
	key := func(shape []orb.Point, rt profile.RoadType) string {
		return fmt.Sprint(shape[0], shape[len(shape)-1], len(shape), rt)
	}
	for _, tc := range []struct {
		name string
		b    orb.Bound
	}{
		{"all", b},
		{"centre 0.005", orb.Bound{Min: orb.Point{c[0] - 0.005, c[1] - 0.005}, Max: orb.Point{c[0] + 0.005, c[1] + 0.005}}},
		{"centre 0.05", orb.Bound{Min: orb.Point{c[0] - 0.05, c[1] - 0.03}, Max: orb.Point{c[0] + 0.05, c[1] + 0.03}}},
		{"west edge", orb.Bound{Min: orb.Point{b.Min[0] - 1, c[1] - 0.02}, Max: orb.Point{b.Min[0] + 0.03, c[1] + 0.02}}},
		{"a point", orb.Bound{Min: c, Max: c}},
		{"outside", orb.Bound{Min: orb.Point{b.Max[0] + 1, b.Max[1] + 1}, Max: orb.Point{b.Max[0] + 2, b.Max[1] + 2}}},
	} {
		want := map[string]int{}
		g.RoadsIn(tc.b, func(shape []orb.Point, rt profile.RoadType, _ string) { want[key(shape, rt)]++ })
		got := map[string]int{}
		g.MapRoads(tc.b, func(shape []orb.Point, rt profile.RoadType, _ string) { got[key(shape, rt)]++ })
		if len(got) != len(want) {
			t.Errorf("%s: %d roads, the scan finds %d", tc.name, len(got), len(want))
		}
		for k, n := range want {
			if got[k] != n {
				t.Errorf("%s: road %s found %d times, the scan %d", tc.name, k, got[k], n)
				break
			}
		}
	}
}
