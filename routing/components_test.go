package routing

import (
	"errors"
	"math"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
)

// islandsNetwork is a 30 x 30 grid of two-way streets 0.001 degrees apart
// at the equator (the mainland: 3480 edge-based nodes, a large
// component), and two islands no road joins to it: Near Island, a street
// of three vertices 0.004 degrees (445 m) east of the grid's east edge,
// and Far Island, one 0.03 degrees (3.3 km) east.
func islandsNetwork() *osmroad.Network {
	const side = 30
	net := &osmroad.Network{Names: []string{"", "Grid Street", "Near Island Road", "Far Island Road"}, DrivingSide: "right"}
	vertex := func(p orb.Point) uint32 {
		net.Vertices = append(net.Vertices, p)
		net.Signal = append(net.Signal, false)
		net.Barrier = append(net.Barrier, false)
		return uint32(len(net.Vertices) - 1)
	}
	road := func(a, b uint32, name uint32) {
		pa, pb := net.Vertices[a], net.Vertices[b]
		start := uint32(len(net.Shape))
		net.Shape = append(net.Shape, pa, pb)
		net.Edges = append(net.Edges, osmroad.Edge{From: a, To: b, Forward: true, Backward: true,
			LengthM: geo.HaversineM(pa, pb), SpeedFwdKmh: 36, SpeedBwdKmh: 36, Name: name,
			Class: "residential", RoadType: profile.OtherRoadCity, ShapeStart: start, ShapeEnd: start + 2})
	}
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			vertex(orb.Point{10 + 0.001*float64(x), 0.001 * float64(y)})
		}
	}
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			v := uint32(y*side + x)
			if x+1 < side {
				road(v, v+1, 1)
			}
			if y+1 < side {
				road(v, v+side, 1)
			}
		}
	}
	east := 10 + 0.001*(side-1)
	for _, island := range []struct {
		dx   float64
		name uint32
	}{{0.004, 2}, {0.03, 3}} {
		a := vertex(orb.Point{east + island.dx, 0.010})
		b := vertex(orb.Point{east + island.dx, 0.011})
		c := vertex(orb.Point{east + island.dx, 0.012})
		road(a, b, island.name)
		road(b, c, island.name)
	}
	return net
}

// TestIslandsRoutable: every strongly connected component keeps its
// roads: an island's own routes are answered, routes between components
// no road joins are none (a null matrix cell), and a point snaps to a
// road of the main (largest) component when one lies within the radius,
// else to its own island's road (OSRM's rule of preferring big
// components).
func TestIslandsRoutable(t *testing.T) {
	net := islandsNetwork()
	g, rep, err := buildWith(net, noTurnCost, "right")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Components != 3 || rep.Small != 2 || rep.OffMainNodes != 8 || rep.Largest != 2*(2*30*29) {
		t.Fatalf("report: %d components, %d small, %d nodes off the main one, the largest %d", rep.Components, rep.Small, rep.OffMainNodes, rep.Largest)
	}
	east := 10 + 0.001*29
	nearRoad, farRoad := east+0.004, east+0.03
	tests := []struct {
		name   string
		p      orb.Point
		onRoad string
	}{
		// 150 m from Near Island Road, 295 m from the grid: the grid wins.
		{"near island, grid within the radius", orb.Point{nearRoad - 0.00135, 0.011}, "Grid Street"},
		// On Far Island Road, 3.3 km from the grid.
		{"far island", orb.Point{farRoad + 0.0001, 0.0105}, "Far Island Road"},
		{"grid", orb.Point{10.0105, 0.0152}, "Grid Street"},
	}
	for _, tc := range tests {
		s := g.Snap(Fastest, tc.p, 1000)
		if !s.OK {
			t.Errorf("%s: not snapped", tc.name)
			continue
		}
		if got := g.names[g.edgeName[s.Edge]]; got != tc.onRoad {
			t.Errorf("%s: snapped to %q (%.0f m), want %q", tc.name, got, s.DistanceM, tc.onRoad)
		}
	}
	// Near Island alone (the grid beyond a 200 m radius): its own road.
	if s := g.Snap(Fastest, orb.Point{nearRoad - 0.0001, 0.0105}, 200); !s.OK || g.names[g.edgeName[s.Edge]] != "Near Island Road" {
		t.Errorf("a point on Near Island Road with a 200 m radius: %+v", s)
	}

	far0 := g.Snap(Fastest, orb.Point{farRoad, 0.0101}, 100)
	far1 := g.Snap(Fastest, orb.Point{farRoad, 0.0119}, 100)
	grid := g.Snap(Fastest, orb.Point{10.0105, 0.0152}, 100)
	r, err := g.Route(bg, Fastest, far0, far1)
	if err != nil {
		t.Fatalf("a route on Far Island: %v", err)
	}
	// 0.0018 degrees of latitude at 36 km/h: 200.2 m, 20.0 s.
	if want := 0.0018 * math.Pi / 180 * 6371008.8; math.Abs(float64(r.DistanceM)-want) > 1 || r.DurationS != 20 {
		t.Errorf("Far Island route %d m %d s, want %.0f m 20 s", r.DistanceM, r.DurationS, want)
	}
	if _, err := g.Route(bg, Fastest, grid, far0); !errors.Is(err, ErrNoRoute) {
		t.Errorf("grid to Far Island: %v, want no route", err)
	}
	tab, err := g.Matrix(bg, Fastest, []Snap{grid, far0}, []Snap{far1, grid})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		i, j int
		none bool
	}{{0, 0, true}, {0, 1, false}, {1, 0, false}, {1, 1, true}} {
		if d, _ := tab.At(c.i, c.j); (d == NoRoute) != c.none {
			t.Errorf("cell %d,%d = %d, want none %v", c.i, c.j, d, c.none)
		}
	}
}

// TestDelawareSmallComponentsRoutable: Delaware's small components (one-way
// parking aisles, islands of roads the extract cut off) keep their roads:
// routes along the edges of each, from a tenth to nine tenths of it, equal
// the Dijkstra oracle's, where the old graph kept the largest component
// only and had no road there.
func TestDelawareSmallComponentsRoutable(t *testing.T) {
	g := testGraph(t, "delaware")
	if g.meta.Components < 100 || g.meta.OffMainNodes < 1000 {
		t.Fatalf("Delaware: %d components, %d nodes off the main one", g.meta.Components, g.meta.OffMainNodes)
	}
	var src, dst []Snap
	for e := range g.edgeFlags {
		if g.edgeFlags[e]&edgeOffMain == 0 || len(src) == 300 {
			continue
		}
		s := Snap{Edge: uint32(e), Fraction: 0.1, OK: true}
		s.Point = cutLine(g.edgeShape(uint32(e)), g.edgeLen[e], 0.1, 0.1)[0]
		d := s
		d.Fraction = 0.9
		d.Point = cutLine(g.edgeShape(uint32(e)), g.edgeLen[e], 0.9, 0.9)[0]
		src, dst = append(src, s), append(dst, d)
	}
	routes := 0
	for _, m := range []Metric{Fastest, Shortest} {
		for i := range src {
			want := g.dijkstraTable(m, src[i:i+1], dst[i:i+1])
			wd, wm := want.At(0, 0)
			r, err := g.Route(bg, m, src[i], dst[i])
			if wd == NoRoute {
				if !errors.Is(err, ErrNoRoute) {
					t.Fatalf("edge %d: dijkstra finds no route, Route says %v", src[i].Edge, err)
				}
				continue
			}
			if err != nil || r.DurationS != int(wd) || r.DistanceM != int(wm) {
				t.Fatalf("edge %d %s: route %+v %v, dijkstra %d s %d m", src[i].Edge, m, r, err, wd, wm)
			}
			routes++
		}
	}
	if routes < len(src) {
		t.Fatalf("only %d routes along %d small-component edges (both metrics)", routes, len(src))
	}
}
