package routing

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/routing/cch"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/paulmach/orb"
)

// TestReachCustom checks Reach on customized metrics (speeds with roads
// avoided, efficient, safest, shortest with speeds), both ways, against
// the pair-weight Dijkstra oracle on the same metric: a junction is
// reached exactly when its least weight (over the junction's edges, as
// in TestReachAgainstDijkstra) is within the limit in the metric's own
// unit, and its cost is that path's time and distance.
func TestReachCustom(t *testing.T) {
	g := testGraph(t, "andorra")
	speeds, err := NewMetric("fastest", map[string]float64{"LocalRoad": 20, "RegionalRoad": 120}, []string{"toll", "unpaved"})
	if err != nil {
		t.Fatal(err)
	}
	shortest, err := NewMetric("shortest", map[string]float64{"Defaultspeed": 40}, []string{"motorway"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		m     Metric
		limit float64 // seconds, metres, litres, crash involvements
	}{
		{speeds, 240},
		{shortest, 3000},
		{Metric{Objective: ObjectiveEfficient}, 0.25},
		{Metric{Objective: ObjectiveSafest}, 1.5e-8},
	} {
		t.Run(tc.m.String(), func(t *testing.T) {
			cm, err := g.customMetric(bg, tc.m)
			if err != nil {
				t.Fatal(err)
			}
			phantoms := func(s Snap) []cchPhantom { return customPhantoms(g, cm, s) }
			oracle := func(s Snap, dst []Snap) []cch.Weight {
				return pairOracleRow(g, cm.weights, cm.nodeW, phantoms, s, dst)
			}
			bound := int64(tc.limit * objectiveUnit[tc.m.Objective])
			for i, rp := range roadPoints(g, 2, 78, 0) {
				src := g.Snap(tc.m, rp.Input, 0)
				fwd := reachOf(t, g, tc.m, src, tc.limit, false)
				bwd := reachOf(t, g, tc.m, src, tc.limit, true)
				js := g.JunctionsWithin(src.Point, 12000)
				checked, reached := 0, 0
				for k, j := range js {
					if k >= 25 && k%max(1, len(js)/12) != 0 {
						continue // the 25 nearest and 12 spread farther out
					}
					snaps := g.vertexSnaps(j.Vertex)
					there, back := cch.Inf, cch.Inf
					for k, w := range oracle(src, snaps) {
						there = minWeight(there, w)
						back = minWeight(back, oracle(snaps[k], []Snap{src})[0])
					}
					for _, dir := range []struct {
						name string
						got  map[uint32]Cost
						want cch.Weight
					}{{"there", fwd, there}, {"back", bwd, back}} {
						c, ok := dir.got[j.Vertex]
						if wantIn := !dir.want.IsInf() && dir.want.W <= bound; ok != wantIn {
							t.Errorf("point %d, junction %d %s: reached %v (%+v), oracle %v (bound %d)", i, j.Vertex, dir.name, ok, c, dir.want, bound)
							continue
						}
						checked++
						if !ok {
							continue
						}
						reached++
						ms, dm := unweight(chFastest, dir.want.S)
						if math.Abs(c.DurationS-float64(ms)/1000) > 1e-9 || math.Abs(c.DistanceM-float64(dm)/10) > 1e-9 {
							t.Errorf("point %d, junction %d %s: %+v, oracle %d ms %d dm", i, j.Vertex, dir.name, c, ms, dm)
						}
					}
				}
				if reached == 0 || reached == checked {
					t.Errorf("point %d: %d of %d checked junction costs within the limit: the limit tells nothing", i, reached, checked)
				}
				t.Logf("point %d: %d junctions within 12 km, %d checked, %d within the limit", i, len(js), checked, reached)
			}
		})
	}
}

// minWeight returns the lesser of two pair weights.
func minWeight(a, b cch.Weight) cch.Weight {
	if b.Less(a) {
		return b
	}
	return a
}

// TestReachAvoids: on the motorway fixture (testdata/motorway.osm), from
// a point half way along Island Road J-K, which only the Island Motorway
// joins to the other roads, Reach with motorways avoided drives to and
// from J and K only (55.6 m either way); on the profile's metric it
// reaches every vertex both ways.
func TestReachAvoids(t *testing.T) {
	path := filepath.Join("testdata", "motorway.osm")
	prof := carProfile(t)
	net, err := osmroad.Read(path, prof)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := Build(net, prof)
	if err != nil {
		t.Fatal(err)
	}
	nodes := fixtureNodes(t, path)
	letters := map[int64]string{1: "W", 2: "A", 5: "B", 6: "E", 7: "J", 8: "K"}
	names := map[uint32]string{} // vertex -> letter
	for e := range g.edgeFrom {
		sh := g.edgeShape(uint32(e))
		for _, end := range []struct {
			v uint32
			p orb.Point
		}{{g.edgeFrom[e], sh[0]}, {g.edgeTo[e], sh[len(sh)-1]}} {
			for id, l := range letters {
				if nodes[id] == end.p {
					names[end.v] = l
				}
			}
		}
	}
	noMotorway, err := NewMetric("fastest", nil, []string{"motorway"})
	if err != nil {
		t.Fatal(err)
	}
	p := orb.Point{10.0205, 0}
	for _, tc := range []struct {
		m    Metric
		want string
	}{{noMotorway, "JK"}, {Fastest, "ABEJKW"}} {
		for _, backward := range []bool{false, true} {
			got := reachOf(t, g, tc.m, g.Snap(tc.m, p, 0), 1000, backward)
			var reached []string
			for v, c := range got {
				reached = append(reached, names[v])
				if (names[v] == "J" || names[v] == "K") && math.Abs(c.DistanceM-55.6) > 1e-9 {
					t.Errorf("%s backward %v: %s at %+v, want 55.6 m", tc.m, backward, names[v], c)
				}
			}
			slices.Sort(reached)
			if strings.Join(reached, "") != tc.want {
				t.Errorf("%s backward %v: reached %v, want %s", tc.m, backward, reached, tc.want)
			}
		}
	}
}

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

// BenchmarkReach: the searches of a ReachableNode proximity request on
// Delaware, 10 minutes both ways (Fastest, and custom speeds on a
// customized metric) and 5 km both ways (Shortest), from seeded road
// points.
func BenchmarkReach(b *testing.B) {
	g := testGraph(b, "delaware")
	pts := roadPoints(g, 64, 11, 0)
	custom, err := NewMetric("fastest", map[string]float64{"Motorway": 80, "LocalRoadCity": 25}, nil)
	if err != nil {
		b.Fatal(err)
	}
	reachOf(b, g, custom, pts[0], 0, false) // customized once, outside the timing
	for _, tc := range []struct {
		name  string
		m     Metric
		limit float64
	}{{"fastest-10min", Fastest, 600}, {"shortest-5km", Shortest, 5000}, {"custom-10min", custom, 600}} {
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
