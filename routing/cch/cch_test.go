package cch

import (
	"container/heap"
	"context"
	"math/rand"
	"path/filepath"
	"slices"
	"testing"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// testGraph mirrors the edge-based road graph: every node v has a weight
// w[v] (the cost of traversing it) and every arc u->v costs a turn cost
// plus w[v], in both lanes.
type testGraph struct {
	n      int
	w      []Weight
	xy     [][2]float64
	tails  []uint32
	heads  []uint32
	weight []Weight
	out    [][]int // arc ids
	in     [][]int
}

func randomGraph(rng *rand.Rand, side int, loops bool) *testGraph {
	n := side * side
	g := &testGraph{n: n, w: make([]Weight, n), xy: make([][2]float64, n), out: make([][]int, n), in: make([][]int, n)}
	for v := range g.w {
		// Few distinct W values make ties that S breaks.
		g.w[v] = Weight{int64(rng.Intn(4)), int64(1 + rng.Intn(100))}
		g.xy[v] = [2]float64{float64(v%side) * 0.001, 50 + float64(v/side)*0.001}
	}
	add := func(u, v int) {
		if u == v && !loops {
			return
		}
		w := Weight{int64(rng.Intn(3)), int64(rng.Intn(4))}.Add(g.w[v])
		if rng.Intn(50) == 0 {
			w = Inf // unusable (an avoided road)
		}
		id := len(g.tails)
		g.tails = append(g.tails, uint32(u))
		g.heads = append(g.heads, uint32(v))
		g.weight = append(g.weight, w)
		g.out[u] = append(g.out[u], id)
		g.in[v] = append(g.in[v], id)
	}
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			v := y*side + x
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
			if rng.Intn(30) == 0 { // a parallel arc
				add(v, min(v+1, n-1))
			}
		}
	}
	return g
}

type pqItem struct {
	v uint32
	d Weight
}
type pq []pqItem

func (p pq) Len() int            { return len(p) }
func (p pq) Less(i, j int) bool  { return p[i].d.Less(p[j].d) }
func (p pq) Swap(i, j int)       { p[i], p[j] = p[j], p[i] }
func (p *pq) Push(x interface{}) { *p = append(*p, x.(pqItem)) }
func (p *pq) Pop() interface{} {
	o := *p
	it := o[len(o)-1]
	*p = o[:len(o)-1]
	return it
}

// dijkstra returns the labels of a plain Dijkstra from the endpoints.
func (g *testGraph) dijkstra(src []Endpoint) []Weight {
	d := make([]Weight, g.n)
	for i := range d {
		d[i] = Inf
	}
	q := &pq{}
	for _, e := range src {
		if e.Init.Less(d[e.Node]) {
			d[e.Node] = e.Init
			heap.Push(q, pqItem{e.Node, e.Init})
		}
	}
	for q.Len() > 0 {
		it := heap.Pop(q).(pqItem)
		if d[it.v].Less(it.d) {
			continue
		}
		for _, a := range g.out[it.v] {
			if g.weight[a].IsInf() {
				continue
			}
			if nd := it.d.Add(g.weight[a]); nd.Less(d[g.heads[a]]) {
				d[g.heads[a]] = nd
				heap.Push(q, pqItem{g.heads[a], nd})
			}
		}
	}
	return d
}

// oracle is a plain Dijkstra with the endpoint semantics of Query.
func (g *testGraph) oracle(src, dst []Endpoint) Weight {
	d := g.dijkstra(src)
	best := Inf
	for _, t := range dst {
		for _, s := range src {
			if c := s.Init.Add(t.Init); s.Node == t.Node && !c.negative() && c.Less(best) {
				best = c
			}
		}
		for _, a := range g.in[t.Node] {
			if !d[g.tails[a]].IsInf() && !g.weight[a].IsInf() {
				if c := d[g.tails[a]].Add(g.weight[a]).Add(t.Init); c.Less(best) {
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
		p := Weight{rng.Int63n(g.w[v].W + 1), rng.Int63n(g.w[v].S + 1)}
		if source {
			eps = append(eps, Endpoint{Node: v, Init: Weight{g.w[v].W - p.W, g.w[v].S - p.S}})
		} else {
			eps = append(eps, Endpoint{Node: v, Init: Weight{p.W - g.w[v].W, p.S - g.w[v].S}})
		}
	}
	return eps
}

// pathWeight checks that arcs is a walk from a source to a target and
// returns its weight with the endpoint labels.
func (g *testGraph) pathWeight(t *testing.T, arcs []uint32, nodes []uint32, src, dst []Endpoint) Weight {
	t.Helper()
	w := Inf
	for _, s := range src {
		if s.Node == nodes[0] && s.Init.Less(w) {
			w = s.Init
		}
	}
	if w.IsInf() {
		t.Fatalf("path starts at %d, not a source", nodes[0])
	}
	if len(nodes) != len(arcs)+1 {
		t.Fatalf("%d nodes for %d arcs", len(nodes), len(arcs))
	}
	for i, a := range arcs {
		if g.tails[a] != nodes[i] || g.heads[a] != nodes[i+1] {
			t.Fatalf("arc %d of the path is %d->%d, nodes say %d->%d", i, g.tails[a], g.heads[a], nodes[i], nodes[i+1])
		}
		if g.weight[a].IsInf() {
			t.Fatalf("path uses unusable arc %d", a)
		}
		w = w.Add(g.weight[a])
	}
	best := Inf
	for _, e := range dst {
		if c := w.Add(e.Init); e.Node == nodes[len(nodes)-1] && !c.negative() && c.Less(best) {
			best = c
		}
	}
	if best.IsInf() {
		t.Fatalf("path ends at %d, not a target", nodes[len(nodes)-1])
	}
	return best
}

func build(t testing.TB, g *testGraph, workers int) *Topology {
	t.Helper()
	top, err := Build(g.n, g.tails, g.heads, g.xy, workers)
	if err != nil {
		t.Fatal(err)
	}
	return top
}

func TestShortestPathMatchesDijkstra(t *testing.T) {
	cases := []struct {
		name    string
		seed    int64
		side    int
		loops   bool
		workers int
		perfect bool
	}{
		{"grid 20", 1, 20, false, 1, false},
		{"grid 35 self loops", 2, 35, true, 2, false},
		{"grid 30 perfect", 3, 30, false, 2, true},
		{"grid 12 perfect loops", 4, 12, true, 1, true},
		{"grid 40 perfect loops", 5, 40, true, 2, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(tc.seed))
			g := randomGraph(rng, tc.side, tc.loops)
			top := build(t, g, tc.workers)
			m, err := top.Customize(context.Background(), g.weight, Options{Workers: tc.workers, Perfect: tc.perfect})
			if err != nil {
				t.Fatal(err)
			}
			q := m.NewQuery()
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
					t.Fatalf("pair %d: cch %v, dijkstra %v (src %v dst %v)", i, got, want, src, dst)
				}
				if !got.IsInf() {
					if pw := g.pathWeight(t, q.PathArcs(meet), q.Path(meet), src, dst); pw != got {
						t.Fatalf("pair %d: path weighs %v, query said %v", i, pw, got)
					}
				}
			}
		})
	}
}

// TestPerfectArcsAreExact checks that every arc perfect customization
// keeps weighs what a Dijkstra between its ends says.
// TestWorkersAgree customizes on one goroutine and on two, basic and
// perfect.
func TestWorkersAgree(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	g := randomGraph(rng, 30, true)
	top := build(t, g, 2)
	if len(top.schedule(2).top) == 0 {
		t.Fatal("no top nodes")
	}
	for _, perfect := range []bool{false, true} {
		m1, err := top.Customize(context.Background(), g.weight, Options{Workers: 1, Perfect: perfect})
		if err != nil {
			t.Fatal(err)
		}
		m2, err := top.Customize(context.Background(), g.weight, Options{Workers: 2, Perfect: perfect})
		if err != nil {
			t.Fatal(err)
		}
		sameMetric(t, m1, m2)
	}
}

func sameMetric(t *testing.T, m1, m2 *Metric) {
	t.Helper()
	for i := range m1.w {
		if m1.w[i] != m2.w[i] {
			t.Fatalf("arc %d: %v on two goroutines, %v on one", i, m2.w[i], m1.w[i])
		}
	}
	for x := range m1.loop {
		if m1.loop[x] != m2.loop[x] {
			t.Fatalf("loop %d: %v on two goroutines, %v on one", x, m2.loop[x], m1.loop[x])
		}
	}
}

func TestPerfectArcsAreExact(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	g := randomGraph(rng, 15, true)
	top := build(t, g, 1)
	m, err := top.Customize(context.Background(), g.weight, Options{Perfect: true})
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for x := 0; x < top.n; x++ {
		d := g.dijkstra([]Endpoint{{Node: top.node[x]}})
		for a := top.upFirst[x]; a < top.upFirst[x+1]; a++ {
			if w := m.w[a].Up; !w.IsInf() {
				kept++
				if want := d[top.node[top.upHead[a]]]; w != want {
					t.Fatalf("arc %d up: %v, dijkstra %v", a, w, want)
				}
			}
		}
		for i := top.downFirst[x]; i < top.downFirst[x+1]; i++ {
			a := top.downArc[i]
			if w := m.w[a].Down; !w.IsInf() {
				if want := d[top.node[top.downTail[i]]]; w != want {
					t.Fatalf("arc %d down: %v, dijkstra %v", a, w, want)
				}
			}
		}
	}
	t.Logf("%d arcs, %d upward directions kept", top.Arcs(), kept)
}

func TestTableMatchesPointToPoint(t *testing.T) {
	for _, perfect := range []bool{false, true} {
		rng := rand.New(rand.NewSource(7))
		g := randomGraph(rng, 30, true)
		top := build(t, g, 2)
		m, err := top.Customize(context.Background(), g.weight, Options{Workers: 2, Perfect: perfect})
		if err != nil {
			t.Fatal(err)
		}
		const k = 60
		srcs := make([][]Endpoint, k)
		dsts := make([][]Endpoint, k)
		for i := range srcs {
			near := -1
			if i%3 == 0 {
				near = rng.Intn(g.n)
			}
			srcs[i] = g.endpoints(rng, true, near)
			dsts[i] = g.endpoints(rng, false, near)
		}
		dsts[5] = nil // unsnappable target
		srcs[7] = nil
		tg := m.NewTargets(dsts, 2)
		out := make([]Weight, k*k)
		if err := m.Table(context.Background(), srcs, tg, 2, out); err != nil {
			t.Fatal(err)
		}
		// Within a limit: the cells at or below it, Inf above.
		q := m.NewQuery()
		row := make([]Weight, k)
		for i := range srcs {
			limit := out[i*k+(i+1)%k]
			if limit.IsInf() {
				limit = Weight{3, 100}
			}
			q.rowWithin(srcs[i], tg, limit, row)
			for j, got := range row {
				want := out[i*k+j]
				if limit.Less(want) {
					want = Inf
				}
				if got != want {
					t.Fatalf("perfect %v cell %d,%d within %v: %v, want %v", perfect, i, j, limit, got, want)
				}
			}
		}
		for i := range srcs {
			for j := range dsts {
				want := Inf
				if dsts[j] != nil && srcs[i] != nil {
					want = g.oracle(srcs[i], dsts[j])
				}
				if got := out[i*k+j]; got != want {
					t.Fatalf("perfect %v cell %d,%d: table %v, dijkstra %v", perfect, i, j, got, want)
				}
			}
		}
	}
}

func TestWriteRead(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	g := randomGraph(rng, 20, true)
	top := build(t, g, 2)
	w := binfmt.NewWriter()
	top.Write(w, "cch.")
	path := filepath.Join(t.TempDir(), "t.bin")
	magic := [8]byte{'T', 'E', 'S', 'T', 'C', 'C', 'H', '0'}
	if err := w.WriteFile(path, magic, 1); err != nil {
		t.Fatal(err)
	}
	f, err := binfmt.Open(path, magic, 1)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadTopology(f, "cch.")
	if err != nil {
		t.Fatal(err)
	}
	if got.Arcs() != top.Arcs() || got.Levels() != top.Levels() || got.bytes() != top.bytes() {
		t.Fatalf("read %d arcs %d levels, wrote %d, %d", got.Arcs(), got.Levels(), top.Arcs(), top.Levels())
	}
	m1, _ := top.Customize(context.Background(), g.weight, Options{})
	m2, _ := got.Customize(context.Background(), g.weight, Options{})
	for i := range m1.w {
		if m1.w[i] != m2.w[i] {
			t.Fatalf("arc %d customizes to %v after reading, %v before", i, m2.w[i], m1.w[i])
		}
	}
	if _, err := ReadTopology(f, "other."); err == nil {
		t.Fatal("reading a missing prefix succeeded")
	}
}

func TestCancel(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	g := randomGraph(rng, 20, false)
	top := build(t, g, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := top.Customize(ctx, g.weight, Options{}); err == nil {
		t.Fatal("a cancelled customization succeeded")
	}
}

// TestHilbertVisitsNeighbours checks the curve over a 16 x 16 grid: every
// cell once, each next to the one before.
func TestHilbertVisitsNeighbours(t *testing.T) {
	const side = 16
	at := make([][2]uint32, side*side)
	seen := make([]bool, side*side)
	for x := uint32(0); x < side; x++ {
		for y := uint32(0); y < side; y++ {
			d := hilbert(x, y, side)
			if d >= side*side || seen[d] {
				t.Fatalf("cell (%d, %d) at %d: out of range or taken", x, y, d)
			}
			seen[d] = true
			at[d] = [2]uint32{x, y}
		}
	}
	for d := 1; d < len(at); d++ {
		dx := int(at[d][0]) - int(at[d-1][0])
		dy := int(at[d][1]) - int(at[d-1][1])
		if dx*dx+dy*dy != 1 {
			t.Fatalf("steps %d and %d: cells %v and %v are not neighbours", d-1, d, at[d-1], at[d])
		}
	}
}

// TestGroupBy checks that groupBy groups a part by class in place,
// keeping each class's relative order.
func TestGroupBy(t *testing.T) {
	tests := []struct {
		part  []uint32
		class []uint8
		k     int
		want  [][]uint32
	}{
		{[]uint32{5, 6, 7, 8, 9}, []uint8{2, 0, 1, 0, 2}, 3, [][]uint32{{6, 8}, {7}, {5, 9}}},
		{[]uint32{1, 2}, []uint8{1, 1}, 3, [][]uint32{{}, {1, 2}, {}}},
		{nil, nil, 2, [][]uint32{{}, {}}},
	}
	for i, tc := range tests {
		var buf []uint32
		part := slices.Clone(tc.part)
		got := groupBy(part, tc.class, tc.k, &buf)
		if len(got) != tc.k {
			t.Fatalf("case %d: %d groups, want %d", i, len(got), tc.k)
		}
		at := 0
		for c := range got {
			if !slices.Equal(got[c], tc.want[c]) {
				t.Errorf("case %d: class %d = %v, want %v", i, c, got[c], tc.want[c])
			}
			if len(got[c]) > 0 && &got[c][0] != &part[at] {
				t.Errorf("case %d: class %d is not part[%d:]", i, c, at)
			}
			at += len(got[c])
		}
	}
}
