package routing

import (
	"fmt"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/profile"
)

// TestMapRoadsMatchesScan: the grid-indexed MapRoads returns exactly the
// edges a scan of every edge finds (roadsIn), once each, for bounds
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
		g.roadsIn(tc.b, func(shape []orb.Point, rt profile.RoadType, _ string) { want[key(shape, rt)]++ })
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

// roadsIn calls fn with the shape, road type and OSM class of every road
// of the graph whose shape has a point inside b or crosses it (tested by
// the shape's bounding box), one edge at a time: the plain scan the tests
// check MapRoads's grid index against.
func (g *Graph) roadsIn(b orb.Bound, fn func(shape []orb.Point, rt profile.RoadType, class string)) {
	for e := 0; e+1 < len(g.shapeFirst); e++ {
		shape := g.edgeShape(uint32(e))
		if len(shape) < 2 {
			continue
		}
		eb := orb.LineString(shape).Bound()
		if !eb.Intersects(b) {
			continue
		}
		fn(shape, profile.RoadType(g.edgeRoadType[e]), g.classes[g.edgeClass[e]])
	}
}
