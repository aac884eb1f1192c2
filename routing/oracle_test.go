package routing

import (
	"container/heap"
	"context"
	"math/rand"
	"sync"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/ch"
)

// Test oracles and helpers, kept out of the exported API.

// bg is the context of tests that cancel nothing.
var bg = context.Background()

// chOf returns the hierarchy of a plain metric (Fastest, Shortest).
func chOf(m Metric) chMetric {
	h, ok := m.hierarchy()
	if !ok {
		panic("routing tests: " + m.String() + " has no hierarchy")
	}
	return h
}

// targetsOf is NewTargets on one goroutine, failing the test on error.
func targetsOf(tb testing.TB, g *Graph, m Metric, dst []Snap) *Targets {
	tb.Helper()
	t, err := g.NewTargets(bg, m, dst, 1)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// matrixOf is Matrix, failing the test on error.
func matrixOf(tb testing.TB, g *Graph, m Metric, src, dst []Snap) Table {
	tb.Helper()
	t, err := g.Matrix(bg, m, src, dst)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// dijkstraTable answers a table with a plain Dijkstra per source on the
// uncontracted edge-based graph. It is the oracle tests compare the
// hierarchies against: slow, simple, and independent of ch.
func (g *Graph) dijkstraTable(mt Metric, src, dst []Snap) Table {
	m := chOf(mt)
	tab := newTable(len(src), len(dst))
	dist := make([]int64, len(g.base.nodeEdge))
	for i, s := range src {
		row := g.dijkstraRow(m, s, dst, dist)
		for j, w := range row {
			k := i*len(dst) + j
			if w == ch.Inf {
				tab.Durations[k], tab.Distances[k] = NoRoute, NoRoute
				continue
			}
			tab.Durations[k], tab.Distances[k] = toUnits(m, w)
		}
	}
	return tab
}

// dijkstraRow returns the least weight from s to every destination. A
// label is the cost of reaching the end of a node; a destination on node b
// at fraction f is reached from a predecessor y of b at d(y) + turn + the
// first fraction f of b, or directly when the source lies before it on b.
func (g *Graph) dijkstraRow(m chMetric, s Snap, dst []Snap, dist []int64) []int64 {
	b := &g.base
	for i := range dist {
		dist[i] = ch.Inf
	}
	h := &oracleHeap{}
	var ph [2]phantom
	srcPh := append([]phantom(nil), g.phantoms(m, s, ph[:0])...)
	for _, p := range srcPh {
		d := g.nodeWeight(m, p.node) - p.partial
		if d < dist[p.node] {
			dist[p.node] = d
			heap.Push(h, oracleItem{p.node, d})
		}
	}
	for h.Len() > 0 {
		it := heap.Pop(h).(oracleItem)
		if it.d > dist[it.node] {
			continue
		}
		for i := b.turnFirst[it.node]; i < b.turnFirst[it.node+1]; i++ {
			v := b.turnHead[i]
			nd := it.d + weight(m, int64(b.turnMS[i])+int64(b.nodeTime[v]), int64(b.nodeDist[v]))
			if nd < dist[v] {
				dist[v] = nd
				heap.Push(h, oracleItem{v, nd})
			}
		}
	}
	// Arrivals: scan the arcs into each destination node.
	row := make([]int64, len(dst))
	for j, t := range dst {
		row[j] = ch.Inf
		for _, tp := range g.withCopies(g.phantoms(m, t, ph[:0])) {
			for _, sp := range srcPh {
				if sp.node == tp.node && tp.partial >= sp.partial {
					if c := tp.partial - sp.partial; c < row[j] {
						row[j] = c
					}
				}
			}
			g.forEachArcInto(tp.node, func(y uint32, turn uint32) {
				if dist[y] == ch.Inf {
					return
				}
				c := dist[y] + weight(m, int64(turn), 0) + tp.partial
				if c < row[j] {
					row[j] = c
				}
			})
		}
	}
	return row
}

// tableParallel is Table spread over workers goroutines.
func (g *Graph) tableParallel(src []Snap, t *Targets, workers int) Table {
	if workers <= 1 || len(src) < 2 {
		return tableOf(g, src, t)
	}
	tab := newTable(len(src), t.n)
	if !t.usePHAST(len(src)) {
		t.chBuckets() // once, before the workers share them
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	const grain = 8
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				lo := next
				next += grain
				mu.Unlock()
				if lo >= len(src) {
					return
				}
				hi := min(lo+grain, len(src))
				g.fillRows(src, t, tab, lo, hi)
			}
		}()
	}
	wg.Wait()
	return tab
}

// randomRoadPoints returns n seeded pseudo-random points lying on roads of
// the graph's routable component, uniform over road edges: what
// benchmarks and tests draw their origins and destinations from.
func (g *Graph) randomRoadPoints(n int, seed int64) []orb.Point {
	rng := rand.New(rand.NewSource(seed))
	out := make([]orb.Point, 0, n)
	if len(g.base.nodeEdge) == 0 {
		return out
	}
	for len(out) < n {
		e := uint32(rng.Intn(len(g.edgeFrom)))
		if g.edgeNode[2*e] < 0 && g.edgeNode[2*e+1] < 0 {
			continue
		}
		f := rng.Float64()
		out = append(out, cutLine(g.edgeShape(e), g.edgeLen[e], f, f)[0])
	}
	return out
}

// tableOf is Table without a context, for tests.
func tableOf(g *Graph, src []Snap, t *Targets) Table {
	tab, err := g.Table(context.Background(), src, t)
	if err != nil {
		panic(err)
	}
	return tab
}
