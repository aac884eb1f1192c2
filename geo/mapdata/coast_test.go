package mapdata

import (
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
)

// coastWay makes a coastline way of points, with node ids from a counter
// shared by the fixture (ids given for points that must join).
func coastWay(ids []int64, pts ...orb.Point) CoastWay {
	return CoastWay{Nodes: ids, Points: pts}
}

// seq returns ids from..from+n-1.
func seq(from int64, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = from + int64(i)
	}
	return out
}

func TestAssembleSea(t *testing.T) {
	// A box near the equator: 0.1 degree is about 11 km.
	box := orb.Bound{Min: orb.Point{0, 0}, Max: orb.Point{1, 1}}
	island := func(base int64, x, y, r float64) CoastWay { // counter-clockwise: land inside
		ids := append(seq(base, 4), base)
		return coastWay(ids, orb.Point{x - r, y - r}, orb.Point{x + r, y - r}, orb.Point{x + r, y + r}, orb.Point{x - r, y + r}, orb.Point{x - r, y - r})
	}
	lake := func(base int64, x, y, r float64) CoastWay { // clockwise: water inside
		w := island(base, x, y, r)
		for i, j := 0, len(w.Points)-1; i < j; i, j = i+1, j-1 {
			w.Points[i], w.Points[j] = w.Points[j], w.Points[i]
		}
		return w
	}
	tests := []struct {
		name     string
		ways     []CoastWay
		sea, not []orb.Point
		polygons int
		rep      CoastReport // the fields compared: GapsClosed, EndsExtended, Islands
	}{
		{
			name:     "chain across the box eastward: land north",
			ways:     []CoastWay{coastWay(seq(1, 3), orb.Point{-0.1, 0.5}, orb.Point{0.5, 0.55}, orb.Point{1.1, 0.5})},
			sea:      []orb.Point{{0.5, 0.2}, {0.05, 0.05}, {0.95, 0.45}},
			not:      []orb.Point{{0.5, 0.8}, {0.5, 0.6}, {0.05, 0.95}},
			polygons: 1,
		},
		{
			name:     "the same chain westward: land south",
			ways:     []CoastWay{coastWay(seq(1, 3), orb.Point{1.1, 0.5}, orb.Point{0.5, 0.55}, orb.Point{-0.1, 0.5})},
			sea:      []orb.Point{{0.5, 0.8}, {0.05, 0.95}},
			not:      []orb.Point{{0.5, 0.2}, {0.5, 0.52}},
			polygons: 1,
		},
		{
			name: "chain in two ways, given out of order, with an island",
			ways: []CoastWay{
				coastWay([]int64{2, 3}, orb.Point{0.5, 0.55}, orb.Point{1.1, 0.5}),
				island(100, 0.5, 0.2, 0.05),
				coastWay([]int64{1, 2}, orb.Point{-0.1, 0.5}, orb.Point{0.5, 0.55}),
			},
			sea:      []orb.Point{{0.5, 0.1}, {0.3, 0.2}},
			not:      []orb.Point{{0.5, 0.2}, {0.5, 0.8}},
			polygons: 1,
			rep:      CoastReport{Islands: 1},
		},
		{
			name: "a peninsula leaving the box's south side: two seas",
			// East along y=0.6, south down x=0.3 out of the box, back
			// north up x=0.7, east again: land on the left of travel is
			// north of the coast and between x=0.3 and 0.7.
			ways: []CoastWay{coastWay(seq(1, 6),
				orb.Point{-0.1, 0.6}, orb.Point{0.3, 0.5}, orb.Point{0.3, -0.1},
				orb.Point{0.7, -0.1}, orb.Point{0.7, 0.5}, orb.Point{1.1, 0.6})},
			sea:      []orb.Point{{0.1, 0.3}, {0.9, 0.3}},
			not:      []orb.Point{{0.5, 0.3}, {0.5, 0.8}},
			polygons: 2,
		},
		{
			name: "the same peninsula in two ways cut by the box",
			ways: []CoastWay{
				coastWay(seq(10, 3), orb.Point{0.7, -0.1}, orb.Point{0.7, 0.5}, orb.Point{1.1, 0.5}),
				coastWay(seq(1, 3), orb.Point{-0.1, 0.5}, orb.Point{0.3, 0.5}, orb.Point{0.3, -0.1}),
			},
			sea:      []orb.Point{{0.1, 0.3}, {0.9, 0.3}},
			not:      []orb.Point{{0.5, 0.3}, {0.5, 0.9}},
			polygons: 2,
		},
		{
			name: "open end inside the box extended to the nearest side",
			// Goes east, then north, ending at (0.3, 0.8): extended to
			// the north side (0.2 away, the nearest).
			ways:     []CoastWay{coastWay(seq(1, 3), orb.Point{-0.1, 0.5}, orb.Point{0.3, 0.5}, orb.Point{0.3, 0.8})},
			sea:      []orb.Point{{0.5, 0.8}, {0.5, 0.2}, {0.1, 0.2}},
			not:      []orb.Point{{0.1, 0.8}},
			polygons: 1,
			rep:      CoastReport{EndsExtended: 1},
		},
		{
			name: "extension that would cross the coast takes the next side",
			// The end at (0.5, 0.45) is nearest the south side, but the
			// chain's leg along y=0.3 lies between: it goes west (0.5
			// away, free) rather than north (0.55). The chain: from the
			// south edge up x=0.2 to (0.2, 0.3), east to (0.8, 0.3), north
			// to (0.8, 0.45), west to (0.5, 0.45), extended to (0, 0.45).
			ways: []CoastWay{coastWay(seq(1, 5), orb.Point{0.2, -0.1}, orb.Point{0.2, 0.3}, orb.Point{0.8, 0.3},
				orb.Point{0.8, 0.45}, orb.Point{0.5, 0.45})},
			polygons: 1,
			rep:      CoastReport{EndsExtended: 1},
			// Land on the left of travel: west of x=0.2 below y=0.45,
			// and the slab between y=0.3 and 0.45.
			sea: []orb.Point{{0.9, 0.1}, {0.5, 0.9}, {0.1, 0.5}, {0.5, 0.1}},
			not: []orb.Point{{0.1, 0.1}, {0.5, 0.4}},
		},
		{
			name: "gap between two cut banks closed",
			// Two chains 0.02 degree (2.2 km) apart inside the box.
			ways: []CoastWay{
				coastWay(seq(1, 2), orb.Point{-0.1, 0.5}, orb.Point{0.49, 0.5}),
				coastWay(seq(10, 2), orb.Point{0.51, 0.5}, orb.Point{1.1, 0.5}),
			},
			sea:      []orb.Point{{0.5, 0.3}},
			not:      []orb.Point{{0.5, 0.7}},
			polygons: 1,
			rep:      CoastReport{GapsClosed: 1},
		},
		{
			name:     "islands only: the box is sea",
			ways:     []CoastWay{island(1, 0.3, 0.3, 0.1), island(10, 0.7, 0.7, 0.1)},
			sea:      []orb.Point{{0.5, 0.5}, {0.05, 0.95}},
			not:      []orb.Point{{0.3, 0.3}, {0.7, 0.7}},
			polygons: 1,
			rep:      CoastReport{Islands: 2},
		},
		{
			name:     "a clockwise ring is water inside land",
			ways:     []CoastWay{lake(1, 0.5, 0.5, 0.1)},
			sea:      []orb.Point{{0.5, 0.5}},
			not:      []orb.Point{{0.1, 0.1}},
			polygons: 1,
		},
		{
			name:     "an island the box cuts",
			ways:     []CoastWay{island(1, 1.0, 0.5, 0.2)},
			sea:      []orb.Point{{0.5, 0.5}, {0.95, 0.2}},
			not:      []orb.Point{{0.9, 0.5}},
			polygons: 1,
		},
		{
			name:     "no coastline: no sea",
			polygons: 0,
			not:      []orb.Point{{0.5, 0.5}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sea, rep := AssembleSea(tc.ways, box)
			if len(sea) != tc.polygons {
				t.Errorf("%d sea polygons, want %d: %v", len(sea), tc.polygons, sea)
			}
			in := func(p orb.Point) bool {
				for _, s := range sea {
					if planar.PolygonContains(s, p) {
						return true
					}
				}
				return false
			}
			for _, p := range tc.sea {
				if !in(p) {
					t.Errorf("%v: not sea, want sea (%v)", p, sea)
				}
			}
			for _, p := range tc.not {
				if in(p) {
					t.Errorf("%v: sea, want land (%v)", p, sea)
				}
			}
			for _, s := range sea {
				if planar.Area(s[0]) <= 0 {
					t.Errorf("outer ring not counter-clockwise: %v", s[0])
				}
				for _, p := range s[0] {
					if !box.Contains(p) {
						t.Errorf("point %v outside the box", p)
					}
				}
			}
			if rep.GapsClosed != tc.rep.GapsClosed || rep.EndsExtended != tc.rep.EndsExtended || rep.Islands != tc.rep.Islands {
				t.Errorf("report %+v, want gaps %d, extended %d, islands %d", rep, tc.rep.GapsClosed, tc.rep.EndsExtended, tc.rep.Islands)
			}
		})
	}
}
