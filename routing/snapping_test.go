package routing

import (
	"errors"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
)

// twoRoads is a network of two parallel two-way roads between vertices
// A (10, 0) and C (10, 0.002): edge 0 straight, 222.39 m long at 36 km/h
// (22.239 s), and edge 1 bent east, 314.51 m long at 50.913 km/h, which
// makes it take 22.239 s too. Dead-end spurs S-A and C-N (111.2 m at
// 36 km/h) let a car turn round: without them the two driving directions
// of the ring would be separate components.
func twoRoads() *osmroad.Network {
	a, c := orb.Point{10, 0}, orb.Point{10, 0.002}
	bend := orb.Point{10.001, 0.001}
	s, n := orb.Point{10, -0.001}, orb.Point{10, 0.003}
	return &osmroad.Network{
		Vertices: []orb.Point{a, c, s, n},
		Signal:   []bool{false, false, false, false},
		Barrier:  []bool{false, false, false, false},
		Edges: []osmroad.Edge{
			{From: 0, To: 1, Forward: true, Backward: true, LengthM: 222.39, SpeedFwdKmh: 36, SpeedBwdKmh: 36,
				Name: 1, Class: "residential", RoadType: profile.OtherRoadCity, ShapeStart: 0, ShapeEnd: 2},
			{From: 0, To: 1, Forward: true, Backward: true, LengthM: 314.51, SpeedFwdKmh: 314.51 / 22.239 * 3.6, SpeedBwdKmh: 314.51 / 22.239 * 3.6,
				Name: 2, Class: "primary", RoadType: profile.FederalHighway, ShapeStart: 2, ShapeEnd: 5},
			{From: 2, To: 0, Forward: true, Backward: true, LengthM: 111.2, SpeedFwdKmh: 36, SpeedBwdKmh: 36,
				Name: 3, Class: "residential", RoadType: profile.OtherRoadCity, ShapeStart: 5, ShapeEnd: 7},
			{From: 1, To: 3, Forward: true, Backward: true, LengthM: 111.2, SpeedFwdKmh: 36, SpeedBwdKmh: 36,
				Name: 3, Class: "residential", RoadType: profile.OtherRoadCity, ShapeStart: 7, ShapeEnd: 9},
		},
		Shape:       []orb.Point{a, c, a, bend, c, s, a, c, n},
		Names:       []string{"", "Short Road", "Long Road", "Spur"},
		DrivingSide: "right",
	}
}

func noTurnCost(float64, bool, bool, int, bool) float64 { return 0 }

// TestEqualTimeTieBreak: with two routes of equal time, the fastest
// metric reports the shorter distance, the same in Route, Table and the
// Dijkstra oracle, whatever the edge order.
func TestEqualTimeTieBreak(t *testing.T) {
	g, _, err := buildWith(twoRoads(), noTurnCost, "right")
	if err != nil {
		t.Fatal(err)
	}
	short, long := g.edgeNode[directedID(0, 0)], g.edgeNode[directedID(1, 0)]
	if g.base.nodeTime[short] != g.base.nodeTime[long] {
		t.Fatalf("the two roads take %d ms and %d ms: not a tie", g.base.nodeTime[short], g.base.nodeTime[long])
	}
	from := g.Snap(Fastest, orb.Point{10, 0}, 0)
	to := g.Snap(Fastest, orb.Point{10, 0.002}, 0)
	r, err := g.Route(bg, Fastest, from, to)
	if err != nil {
		t.Fatal(err)
	}
	if r.DurationS != 22 || r.DistanceM != 222 {
		t.Fatalf("route %d s %d m, want 22 s 222 m", r.DurationS, r.DistanceM)
	}
	if r.Segments[0].Name != "Short Road" {
		t.Fatalf("route on %q, want Short Road", r.Segments[0].Name)
	}
	tab := matrixOf(t, g, Fastest, []Snap{from}, []Snap{to})
	dij := g.dijkstraTable(Fastest, []Snap{from}, []Snap{to})
	for _, got := range []Table{tab, dij} {
		if d, m := got.At(0, 0); d != 22 || m != 222 {
			t.Fatalf("table %d s %d m, want 22 s 222 m", d, m)
		}
	}
	// The shortest metric agrees here, and breaks its own ties by time.
	if r, _ := g.Route(bg, Shortest, from, to); r.DistanceM != 222 {
		t.Fatalf("shortest route %d m", r.DistanceM)
	}
}

func TestSnap(t *testing.T) {
	g, _, err := buildWith(twoRoads(), noTurnCost, "right")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		p        orb.Point
		radiusM  float64
		ok       bool
		edge     uint32
		fraction float64
		movedM   float64 // expected distance moved, +-0.5 m
	}{
		{"on the straight road, a quarter up", orb.Point{10, 0.0005}, 0, true, 0, 0.25, 0},
		{"between the roads, nearer the straight one", orb.Point{10.0003, 0.001}, 0, true, 0, 0.5, 33.4},
		// The bend's first leg runs north-east from A: the nearest point is
		// (10.0009, 0.0009), 0.9 of the leg, 0.45 of the edge.
		{"between the roads, nearer the bend", orb.Point{10.0008, 0.001}, 0, true, 1, 0.45, 15.7},
		{"beyond a small radius", orb.Point{9.999, 0.001}, 50, false, 0, 0, 0},
		{"within the default radius", orb.Point{9.999, 0.001}, 0, true, 0, 0.5, 111.2},
		{"beyond the default radius", orb.Point{9.98, 0.001}, 0, false, 0, 0, 0},
		{"not a coordinate", orb.Point{200, 0}, 0, false, 0, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := g.Snap(Fastest, tc.p, tc.radiusM)
			if s.OK != tc.ok {
				t.Fatalf("OK = %v, want %v (%+v)", s.OK, tc.ok, s)
			}
			if !s.OK {
				if _, err := g.Route(bg, Fastest, s, s); !errors.Is(err, ErrNotSnapped) {
					t.Fatalf("Route from an unsnapped point: %v", err)
				}
				return
			}
			if s.Edge != tc.edge || abs(s.Fraction-tc.fraction) > 1e-3 || abs(s.DistanceM-tc.movedM) > 0.5 {
				t.Fatalf("snapped to edge %d at %.4f, moved %.1f m; want edge %d at %.4f, moved %.1f m",
					s.Edge, s.Fraction, s.DistanceM, tc.edge, tc.fraction, tc.movedM)
			}
		})
	}
	// Partial segments count: from a quarter up the straight road to three
	// quarters up is half its length and time.
	a := g.Snap(Fastest, orb.Point{10, 0.0005}, 0)
	b := g.Snap(Fastest, orb.Point{10, 0.0015}, 0)
	if r, err := g.Route(bg, Fastest, a, b); err != nil || r.DurationS != 11 || r.DistanceM != 111 {
		t.Fatalf("half the road: %+v %v, want 11 s 111 m", r, err)
	}
	// Going back down is the same road the other way.
	if r, err := g.Route(bg, Fastest, b, a); err != nil || r.DurationS != 11 || r.DistanceM != 111 {
		t.Fatalf("half the road back: %+v %v, want 11 s 111 m", r, err)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
