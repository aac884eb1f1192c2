package ch

import (
	"container/heap"
	"math/rand"
	"testing"
)

// testGraph mirrors the edge-based road graph: every node v has a weight
// w[v] (the cost of traversing it) and every arc u->v costs a turn cost
// plus w[v].
type testGraph struct {
	n    int
	w    []int64
	arcs []Arc
	out  [][]Arc
	in   [][]Arc
}

func randomGraph(rng *rand.Rand, side int, loops bool) *testGraph {
	n := side * side
	g := &testGraph{n: n, w: make([]int64, n), out: make([][]Arc, n), in: make([][]Arc, n)}
	for v := range g.w {
		g.w[v] = int64(1 + rng.Intn(100))
	}
	add := func(u, v int) {
		if u == v && !loops {
			return
		}
		a := Arc{From: uint32(u), To: uint32(v), Weight: int64(rng.Intn(4)) + g.w[v]}
		g.arcs = append(g.arcs, a)
		g.out[u] = append(g.out[u], a)
		g.in[v] = append(g.in[v], a)
	}
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			v := y*side + x
			// Mostly a grid with some one-way streets and gaps.
			if x+1 < side && rng.Intn(10) > 0 {
				add(v, v+1)
			}
			if x > 0 && rng.Intn(10) > 1 {
				add(v, v-1)
			}
			if y+1 < side && rng.Intn(10) > 0 {
				add(v, v+side)
			}
			if y > 0 && rng.Intn(10) > 1 {
				add(v, v-side)
			}
			if rng.Intn(20) == 0 {
				add(v, rng.Intn(n))
			}
		}
	}
	return g
}

type pqItem struct {
	v uint32
	d int64
}
type pq []pqItem

func (p pq) Len() int            { return len(p) }
func (p pq) Less(i, j int) bool  { return p[i].d < p[j].d }
func (p pq) Swap(i, j int)       { p[i], p[j] = p[j], p[i] }
func (p *pq) Push(x interface{}) { *p = append(*p, x.(pqItem)) }
func (p *pq) Pop() interface{} {
	o := *p
	it := o[len(o)-1]
	*p = o[:len(o)-1]
	return it
}

// oracle is a plain Dijkstra with the endpoint semantics of Query.
func (g *testGraph) oracle(src, dst []Endpoint) int64 {
	d := make([]int64, g.n)
	for i := range d {
		d[i] = Inf
	}
	q := &pq{}
	for _, e := range src {
		if e.Init < d[e.Node] {
			d[e.Node] = e.Init
			heap.Push(q, pqItem{e.Node, e.Init})
		}
	}
	for q.Len() > 0 {
		it := heap.Pop(q).(pqItem)
		if it.d > d[it.v] {
			continue
		}
		for _, a := range g.out[it.v] {
			if nd := it.d + a.Weight; nd < d[a.To] {
				d[a.To] = nd
				heap.Push(q, pqItem{a.To, nd})
			}
		}
	}
	best := Inf
	for _, t := range dst {
		for _, s := range src {
			if s.Node == t.Node && s.Init+t.Init >= 0 && s.Init+t.Init < best {
				best = s.Init + t.Init
			}
		}
		for _, a := range g.in[t.Node] {
			if d[a.From] != Inf {
				if c := d[a.From] + a.Weight + t.Init; c < best {
					best = c
				}
			}
		}
	}
	return best
}

// endpoints returns one or two random endpoints with phantom-style labels.
func (g *testGraph) endpoints(rng *rand.Rand, source bool, near int) []Endpoint {
	var eps []Endpoint
	k := 1 + rng.Intn(2)
	if near >= 0 {
		k = 1
	}
	for i := 0; i < k; i++ {
		v := uint32(rng.Intn(g.n))
		if near >= 0 && i == 0 {
			v = uint32(near)
		}
		p := rng.Int63n(g.w[v] + 1)
		if source {
			eps = append(eps, Endpoint{Node: v, Init: g.w[v] - p})
		} else {
			eps = append(eps, Endpoint{Node: v, Init: p - g.w[v]})
		}
	}
	return eps
}

func (g *testGraph) pathWeight(t *testing.T, path []uint32, src, dst []Endpoint) int64 {
	t.Helper()
	var w int64 = Inf
	for _, s := range src {
		if s.Node == path[0] && s.Init < w {
			w = s.Init
		}
	}
	if w == Inf {
		t.Fatalf("path starts at %d, not a source", path[0])
	}
	for i := 1; i < len(path); i++ {
		best := Inf
		for _, a := range g.out[path[i-1]] {
			if a.To == path[i] && a.Weight < best {
				best = a.Weight
			}
		}
		if best == Inf {
			t.Fatalf("path step %d->%d is not an arc", path[i-1], path[i])
		}
		w += best
	}
	best := Inf
	for _, e := range dst {
		if e.Node == path[len(path)-1] && w+e.Init >= 0 && w+e.Init < best {
			best = w + e.Init
		}
	}
	if best != Inf {
		return best
	}
	t.Fatalf("path ends at %d, not a target", path[len(path)-1])
	return 0
}

func TestHierarchyMatchesDijkstra(t *testing.T) {
	cases := []struct {
		name  string
		seed  int64
		side  int
		loops bool
		limit int
	}{
		{"grid 20", 1, 20, false, 0},
		{"grid 35 self loops", 2, 35, true, 0},
		{"grid 30 tiny witness limit", 3, 30, false, 3},
		{"grid 12", 4, 12, true, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(tc.seed))
			g := randomGraph(rng, tc.side, tc.loops)
			h := Contract(g.n, g.arcs, Options{witnessSettleLimit: tc.limit, simulationSettleLimit: tc.limit})
			q := h.NewQuery()
			for i := 0; i < 400; i++ {
				near := -1
				if i%4 == 0 { // same node as the source: exercises loops
					near = rng.Intn(g.n)
				}
				src := g.endpoints(rng, true, near)
				dst := g.endpoints(rng, false, near)
				want := g.oracle(src, dst)
				got, meet := q.ShortestPath(src, dst)
				if got != want {
					t.Fatalf("pair %d: ch %d, dijkstra %d (src %v dst %v)", i, got, want, src, dst)
				}
				if got != Inf {
					if pw := g.pathWeight(t, q.Path(meet), src, dst); pw != got {
						t.Fatalf("pair %d: path weighs %d, query said %d", i, pw, got)
					}
				}
			}
		})
	}
}

func TestBucketsMatchPointToPoint(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	g := randomGraph(rng, 30, true)
	h := Contract(g.n, g.arcs, Options{})
	q := h.NewQuery()
	const m = 60
	srcs := make([][]Endpoint, m)
	dsts := make([][]Endpoint, m)
	for i := range srcs {
		near := -1
		if i%3 == 0 {
			near = rng.Intn(g.n)
		}
		srcs[i] = g.endpoints(rng, true, near)
		dsts[i] = g.endpoints(rng, false, near)
	}
	dsts[5] = nil // unsnappable target
	b := q.NewBuckets(dsts)
	row := make([]int64, m)
	for i := range srcs {
		q.Row(srcs[i], b, row)
		for j := range dsts {
			want := Inf
			if dsts[j] != nil {
				want = g.oracle(srcs[i], dsts[j])
			}
			if row[j] != want {
				t.Fatalf("cell %d,%d: buckets %d, dijkstra %d", i, j, row[j], want)
			}
		}
	}
	q.Row(nil, b, row)
	for j, c := range row {
		if c != Inf {
			t.Fatalf("empty source row cell %d = %d", j, c)
		}
	}
}

func TestRowSweepMatchesDijkstra(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	g := randomGraph(rng, 25, true)
	h := Contract(g.n, g.arcs, Options{})
	q := h.NewQuery()
	const m = 40
	for i := 0; i < 30; i++ {
		near := -1
		if i%3 == 0 {
			near = rng.Intn(g.n)
		}
		src := g.endpoints(rng, true, near)
		dsts := make([][]Endpoint, m)
		for j := range dsts {
			nj := -1
			if j == 0 {
				nj = near
			}
			dsts[j] = g.endpoints(rng, false, nj)
		}
		dsts[3] = nil
		row := make([]int64, m)
		q.RowSweep(src, h.Select(dsts), row)
		for j := range dsts {
			want := Inf
			if dsts[j] != nil {
				want = g.oracle(src, dsts[j])
			}
			if row[j] != want {
				t.Fatalf("source %d target %d: phast %d, dijkstra %d", i, j, row[j], want)
			}
		}
	}
}
