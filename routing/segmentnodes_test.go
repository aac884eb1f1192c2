package routing

import (
	"context"
	"math/rand"
	"slices"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// TestSegmentNodes: a route's OSM node ids, point by point, against the
// fixtures' node ids worked out by hand (oneway.osm: Oneway Street
// A(1)-B(2)-C(3) north only, Detour Road A(1)-D(4)-E(5)-C(3)); a start or
// end between two nodes names the node beyond it, as OSRM does.
func TestSegmentNodes(t *testing.T) {
	g := fixtureGraph(t, "oneway.osm")
	for _, tc := range []struct {
		name     string
		from, to orb.Point
		want     []int64
	}{
		{"A to C, between nodes", orb.Point{10, 0.0001}, orb.Point{10, 0.0019}, []int64{1, 2, 3}},
		{"A to B's north", orb.Point{10, 0.0001}, orb.Point{10, 0.0015}, []int64{1, 2, 3}},
		{"within one stretch", orb.Point{10, 0.0001}, orb.Point{10, 0.0009}, []int64{1, 2}},
		{"C to A: on to C (behind: B), the detour against its way, A ahead", orb.Point{10, 0.0019}, orb.Point{10.0002, 0}, []int64{2, 3, 5, 4, 1}},
		{"E's south to D's north", orb.Point{10.001, 0.0015}, orb.Point{10.001, 0.0005}, []int64{5, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snaps := g.SnapAll(Fastest, []orb.Point{tc.from, tc.to}, 0)
			r, err := g.Route(context.Background(), Fastest, snaps[0], snaps[1])
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			var line []orb.Point
			for _, s := range r.Segments {
				n := g.SegmentNodes(s)
				if len(n) != len(s.Geometry) {
					t.Fatalf("segment %d: %d nodes for %d points", s.Edge, len(n), len(s.Geometry))
				}
				for k, p := range s.Geometry {
					if k == 0 && len(line) > 0 && line[len(line)-1] == p {
						continue
					}
					line = append(line, p)
					got = append(got, n[k])
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("nodes %v, want %v (line %v)", got, tc.want, line)
			}
		})
	}
}

// TestCutIndexes: cutIndexes names, for every point cutLine gives, the
// shape point it is (inner points) or lies next to (the cut ends), on
// random cuts of a zigzag shape.
func TestCutIndexes(t *testing.T) {
	shape := []orb.Point{{0, 0}, {0.001, 0}, {0.001, 0.002}, {0.003, 0.002}, {0.003, 0.0021}, {0.004, 0.001}}
	total := 0.0
	for i := 1; i < len(shape); i++ {
		total += geo.HaversineM(shape[i-1], shape[i])
	}
	rng := rand.New(rand.NewSource(9))
	for n := 0; n < 2000; n++ {
		a, b := rng.Float64()*1.2-0.1, rng.Float64()*1.2-0.1
		if a > b {
			a, b = b, a
		}
		line := cutLine(shape, total, a, b)
		idx := cutIndexes(shape, total, a, b)
		if len(idx) != len(line) {
			t.Fatalf("cut %.3f..%.3f: %d indexes for %d points", a, b, len(idx), len(line))
		}
		for k := 1; k+1 < len(line); k++ {
			if shape[idx[k]] != line[k] {
				t.Fatalf("cut %.3f..%.3f: point %d is %v, index %d is %v", a, b, k, line[k], idx[k], shape[idx[k]])
			}
		}
		// The ends lie on the stretch from their index's neighbour.
		if k := len(idx) - 1; idx[0] > idx[k] || (idx[0] < idx[k] && idx[k]-idx[0] != len(line)-1) {
			t.Fatalf("cut %.3f..%.3f: indexes %v for %d points", a, b, idx, len(line))
		}
	}
}
