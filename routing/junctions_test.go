package routing

import (
	"math"
	"testing"

	"github.com/geosvc/geosvc/geo"
)

// TestReachAgainstDijkstra checks Reach, both ways, against the plain
// Dijkstra oracle (dijkstraTable): the cost from a point to a junction is
// the least over the junction's edges of arriving at the junction's end
// of the edge; from a junction to the point, the least over its edges of
// starting at that end. Junctions whose oracle cost is within a second
// (a metre) of the limit are left out of the membership check, as the
// oracle rounds.
func TestReachAgainstDijkstra(t *testing.T) {
	g := testGraph(t, "andorra")
	for _, tc := range []struct {
		m     Metric
		limit float64 // seconds or metres
	}{
		{Fastest, 240},
		{Shortest, 3000},
	} {
		for i, src := range roadPoints(g, 3, 77, 0) {
			fwd := reachOf(t, g, tc.m, src, tc.limit, false)
			bwd := reachOf(t, g, tc.m, src, tc.limit, true)
			// Every junction the search could reach, within the limit's
			// straight-line bound (150 km/h for Fastest).
			radius := tc.limit
			if tc.m == Fastest {
				radius *= 150 / 3.6
			}
			js := g.JunctionsWithin(src.Point, radius)
			if len(js) == 0 {
				t.Fatalf("%v point %d: no junction within %.0f m", tc.m, i, radius)
			}
			checked := 0
			for k := 0; k < len(js); k++ {
				if k >= 30 && k%max(1, len(js)/10) != 0 {
					continue // the 30 nearest and 10 spread farther out
				}
				j := js[k]
				snaps := g.vertexSnaps(j.Vertex)
				there := g.dijkstraTable(tc.m, []Snap{src}, snaps)
				back := g.dijkstraTable(tc.m, snaps, []Snap{src})
				bestThere, bestBack := int32(math.MaxInt32), int32(math.MaxInt32)
				for k := range snaps {
					bestThere = min(bestThere, primaryOf(tc.m, there, 0, k))
					bestBack = min(bestBack, primaryOf(tc.m, back, k, 0))
				}
				for _, dir := range []struct {
					name string
					got  map[uint32]Cost
					want int32
				}{{"there", fwd, bestThere}, {"back", bwd, bestBack}} {
					c, ok := dir.got[j.Vertex]
					if math.Abs(float64(dir.want)-tc.limit) <= 1 {
						continue
					}
					if wantIn := float64(dir.want) <= tc.limit; ok != wantIn {
						t.Errorf("%v point %d, junction %d %s: reached %v (%+v), oracle %d", tc.m, i, j.Vertex, dir.name, ok, c, dir.want)
						continue
					}
					if !ok {
						continue
					}
					got := c.DurationS
					if tc.m == Shortest {
						got = c.DistanceM
					}
					if math.Abs(got-float64(dir.want)) > 0.5001 {
						t.Errorf("%v point %d, junction %d %s: %.3f, oracle %d", tc.m, i, j.Vertex, dir.name, got, dir.want)
					}
					checked++
				}
			}
			if checked == 0 {
				t.Errorf("%v point %d: no junction within the limit", tc.m, i)
			}
			t.Logf("%v point %d: %d junctions within %.0f m, %d costs checked", tc.m, i, len(js), radius, checked)
		}
	}
}

// vertexSnaps returns a snap at vertex v's end of each edge meeting there.
func (g *Graph) vertexSnaps(v uint32) []Snap {
	var out []Snap
	for e := range g.edgeFrom {
		if g.edgeNode[2*e] < 0 && g.edgeNode[2*e+1] < 0 {
			continue
		}
		sh := g.edgeShape(uint32(e))
		if g.edgeFrom[e] == v {
			out = append(out, Snap{Input: sh[0], Point: sh[0], Edge: uint32(e), Fraction: 0, OK: true})
		}
		if g.edgeTo[e] == v {
			out = append(out, Snap{Input: sh[len(sh)-1], Point: sh[len(sh)-1], Edge: uint32(e), Fraction: 1, OK: true})
		}
	}
	return out
}

func primaryOf(m Metric, t Table, i, j int) int32 {
	d, dist := t.At(i, j)
	if d == NoRoute {
		return math.MaxInt32
	}
	if m == Shortest {
		return dist
	}
	return d
}

// TestJunctionsWithin: every junction found is within the radius and has
// one or three or more roads; the nearest is no farther than a road
// vertex near the point.
func TestJunctionsWithin(t *testing.T) {
	g := testGraph(t, "andorra")
	p := roadPoints(g, 1, 5, 0)[0].Point
	js := g.JunctionsWithin(p, 1000)
	if len(js) == 0 {
		t.Fatal("no junction within 1 km of a road point")
	}
	for k, j := range js {
		if j.Roads == 2 || j.Roads < 1 {
			t.Errorf("junction %d has %d roads", j.Vertex, j.Roads)
		}
		if d := geo.HaversineM(p, j.Point); math.Abs(d-j.DistanceM) > 1e-6 || d > 1000 {
			t.Errorf("junction %d at %.1f m (says %.1f)", j.Vertex, d, j.DistanceM)
		}
		if k > 0 && js[k-1].DistanceM > j.DistanceM {
			t.Errorf("not nearest first at %d", k)
		}
	}
}

// BenchmarkReach: the searches of a ReachableNode proximity request on
// Delaware, 10 minutes both ways (Fastest) and 5 km both ways
// (Shortest), from seeded road points.
func BenchmarkReach(b *testing.B) {
	g := testGraph(b, "delaware")
	pts := roadPoints(g, 64, 11, 0)
	for _, tc := range []struct {
		name  string
		m     Metric
		limit float64
	}{{"fastest-10min", Fastest, 600}, {"shortest-5km", Shortest, 5000}} {
		b.Run(tc.name, func(b *testing.B) {
			n := 0
			for i := 0; b.Loop(); i++ {
				s := pts[i%len(pts)]
				n += len(reachOf(b, g, tc.m, s, tc.limit, false)) + len(reachOf(b, g, tc.m, s, tc.limit, true))
			}
			b.ReportMetric(float64(n)/float64(b.N), "vertices/op")
		})
	}
}

// reachOf is Reach, failing the test on error.
func reachOf(tb testing.TB, g *Graph, m Metric, s Snap, limit float64, backward bool) map[uint32]Cost {
	tb.Helper()
	r, err := g.Reach(bg, m, s, limit, backward)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}
