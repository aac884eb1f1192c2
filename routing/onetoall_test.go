package routing

import (
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/geosvc/geosvc/routing/osmroad"
)

// oneToAllMetrics are the metrics the one-to-all tests search: the two
// plain ones (on the CH) and customized ones (on the CCH): speeds with
// roads avoided, and shortest with a speed.
func oneToAllMetrics(t testing.TB) []Metric {
	t.Helper()
	speeds, err := NewMetric("fastest", map[string]float64{"LocalRoad": 20, "Motorway": 80}, []string{"toll"})
	if err != nil {
		t.Fatal(err)
	}
	shortest, err := NewMetric("shortest", map[string]float64{"Defaultspeed": 40}, []string{"motorway"})
	if err != nil {
		t.Fatal(err)
	}
	return []Metric{Fastest, Shortest, speeds, shortest}
}

// unlimited is a Reach limit no drive reaches.
const unlimited = 1e9

// checkOneToAll compares OneToAll from s, both ways, with the plain
// Dijkstra of Reach (unbounded) on the vertices given: a vertex is
// reached by one exactly when by the other, at the same time and
// distance. It returns how many vertices were reached.
func checkOneToAll(t *testing.T, g *Graph, m Metric, s Snap, vertices []uint32) int {
	t.Helper()
	reached := 0
	for _, reverse := range []bool{false, true} {
		want := reachOf(t, g, m, s, unlimited, reverse)
		r, err := g.OneToAll(bg, m, s, reverse)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vertices {
			got, ok := r.Vertex(v, unlimited)
			w, wok := want[v]
			if ok != wok || got != w {
				t.Errorf("%s reverse=%v from %v: vertex %d: one-to-all %+v %v, Dijkstra %+v %v", m, reverse, s.Point, v, got, ok, w, wok)
			}
			if ok {
				reached++
			}
		}
	}
	return reached
}

// vertexCount returns the number of road vertices.
func (g *Graph) vertexCount() int {
	n := 0
	for e := range g.edgeFrom {
		n = max(n, int(g.edgeFrom[e])+1, int(g.edgeTo[e])+1)
	}
	return n
}

// TestOneToAllFixtures: on every hand-made fixture (turn restrictions,
// via ways, one-ways, ferries, barriers, roundabouts...), from seeded
// points on its roads, OneToAll agrees with the Dijkstra oracle on every
// vertex, forwards and in reverse, on the CH and on customized metrics.
func TestOneToAllFixtures(t *testing.T) {
	prof := carProfile(t)
	files, err := filepath.Glob(filepath.Join("testdata", "*.osm"))
	if err != nil || len(files) < 10 {
		t.Fatalf("fixtures: %v %v", files, err)
	}
	ms := oneToAllMetrics(t)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			net, err := osmroad.Read(path, prof)
			if err != nil {
				t.Fatal(err)
			}
			g, _, err := Build(net, prof, WithContraction(ContractionDerived))
			if err != nil {
				t.Fatal(err)
			}
			vs := make([]uint32, g.vertexCount())
			for i := range vs {
				vs[i] = uint32(i)
			}
			reached := 0
			for _, m := range ms {
				for _, s := range g.SnapAll(m, g.randomRoadPoints(6, 3), 0) {
					reached += checkOneToAll(t, g, m, s, vs)
				}
			}
			if reached == 0 {
				t.Error("no vertex reached")
			}
		})
	}
}

// TestOneToAllDelaware: on Delaware, from seeded road points, OneToAll
// agrees with the Dijkstra oracle on 1000 random vertices, both ways, on
// the CH (fastest, shortest) and on customized metrics; and Within's
// stretches touch a sampled vertex exactly when the oracle reaches it
// within the limit.
func TestOneToAllDelaware(t *testing.T) {
	g := testGraph(t, "delaware")
	rng := rand.New(rand.NewSource(24))
	nV := g.vertexCount()
	vs := make([]uint32, 1000)
	for i := range vs {
		vs[i] = uint32(rng.Intn(nV))
	}
	for _, m := range oneToAllMetrics(t) {
		t.Run(m.String(), func(t *testing.T) {
			pts := g.SnapAll(m, g.randomRoadPoints(2, 17), 0)
			reached := 0
			for _, s := range pts {
				reached += checkOneToAll(t, g, m, s, vs)
			}
			if reached < len(vs) {
				t.Errorf("only %d of %d vertex searches reached", reached, 4*len(vs))
			}
			limit, q := 900.0, QuantityTime
			if m.Objective == ObjectiveShortest {
				limit, q = 15000, QuantityDistance
			}
			for _, reverse := range []bool{false, true} {
				checkWithin(t, g, m, pts[0], reverse, limit, q, vs)
			}
		})
	}
}

// checkWithin: a vertex is an end of a stretch Within returns exactly
// when the Dijkstra oracle reaches it within the limit (for the nodes
// leaving it, forwards, or entering it, in reverse, a stretch ends
// there when the vertex itself is reached).
func checkWithin(t *testing.T, g *Graph, m Metric, s Snap, reverse bool, limit float64, q Quantity, vs []uint32) {
	t.Helper()
	want := reachOf(t, g, m, s, limit, reverse)
	r, err := g.OneToAll(bg, m, s, reverse)
	if err != nil {
		t.Fatal(err)
	}
	touched := map[uint32]bool{}
	for _, st := range r.Within(limit, q) {
		if st.Lo == 0 {
			touched[g.edgeFrom[st.Edge]] = true
		}
		if st.Hi == 1 {
			touched[g.edgeTo[st.Edge]] = true
		}
	}
	n := 0
	for _, v := range vs {
		_, ok := want[v]
		if ok {
			n++
		}
		if ok && !touched[v] {
			t.Errorf("%s reverse=%v: vertex %d reached within %v but no stretch ends there", m, reverse, v, limit)
		}
		if !ok && touched[v] {
			t.Errorf("%s reverse=%v: a stretch ends at vertex %d, not reached within %v", m, reverse, v, limit)
		}
	}
	if n == 0 {
		t.Errorf("%s reverse=%v: no sampled vertex within %v", m, reverse, limit)
	}
}
