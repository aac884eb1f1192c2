package routing

import (
	"container/heap"
	"errors"
	"testing"

	"github.com/geosvc/geosvc/routing/ch"
)

// The alternative routes against an independent judge: a plain Dijkstra
// on the uncontracted edge-based graph gives the best route and the
// shortest paths of the T-test; sharing, stretch and the pieces of the
// T-test are worked out here from the graph's arrays, not by the code
// under test.

// oracle is a node-to-node Dijkstra with parents on the edge-based graph,
// with a reusable workspace.
type oracle struct {
	g       *Graph
	m       Metric
	dist    []int64
	parent  []int32
	touched []uint32
}

func newOracle(g *Graph, m Metric) *oracle {
	n := len(g.base.nodeEdge)
	o := &oracle{g: g, m: m, dist: make([]int64, n), parent: make([]int32, n)}
	for i := range o.dist {
		o.dist[i] = ch.Inf
	}
	return o
}

// arc is the packed weight of the cheapest turn a->b plus b's traversal,
// or Inf when there is no turn a->b.
func (o *oracle) arc(a, b uint32) int64 {
	bs := &o.g.base
	best := ch.Inf
	for i := bs.turnFirst[a]; i < bs.turnFirst[a+1]; i++ {
		if bs.turnHead[i] == b {
			if c := weight(o.m, int64(bs.turnMS[i])+int64(bs.nodeTime[b]), int64(bs.nodeDist[b])); c < best {
				best = c
			}
		}
	}
	return best
}

// run labels nodes with the least weight to their end from the seeds
// (node, initial label) until every node of stop is settled (all nodes
// when stop is empty). It returns the labels, valid until the next run.
func (o *oracle) run(seeds map[uint32]int64, stop []uint32) []int64 {
	for _, v := range o.touched {
		o.dist[v] = ch.Inf
	}
	o.touched = o.touched[:0]
	bs := &o.g.base
	h := &oracleHeap{}
	for v, d := range seeds {
		o.dist[v], o.parent[v] = d, -1
		o.touched = append(o.touched, v)
		heap.Push(h, oracleItem{v, d})
	}
	left := map[uint32]bool{}
	for _, v := range stop {
		left[v] = true
	}
	for h.Len() > 0 {
		it := heap.Pop(h).(oracleItem)
		if it.d > o.dist[it.node] {
			continue
		}
		if len(stop) > 0 {
			delete(left, it.node)
			if len(left) == 0 {
				break
			}
		}
		for i := bs.turnFirst[it.node]; i < bs.turnFirst[it.node+1]; i++ {
			v := bs.turnHead[i]
			nd := it.d + weight(o.m, int64(bs.turnMS[i])+int64(bs.nodeTime[v]), int64(bs.nodeDist[v]))
			if nd < o.dist[v] {
				if o.dist[v] == ch.Inf {
					o.touched = append(o.touched, v)
				}
				o.dist[v], o.parent[v] = nd, int32(it.node)
				heap.Push(h, oracleItem{v, nd})
			}
		}
	}
	return o.dist
}

// best returns the best route between two snaps whose phantoms lie on
// different nodes: its weight and nodes.
func (o *oracle) best(from, to Snap) (int64, []uint32) {
	var ph [2]phantom
	seeds := map[uint32]int64{}
	for _, p := range o.g.phantoms(o.m, from, ph[:0]) {
		seeds[p.node] = o.g.nodeWeight(o.m, p.node) - p.partial
	}
	var ends []uint32
	tinit := map[uint32]int64{}
	for _, p := range o.g.phantoms(o.m, to, ph[:0]) {
		ends = append(ends, p.node)
		tinit[p.node] = p.partial - o.g.nodeWeight(o.m, p.node)
	}
	dist := o.run(seeds, ends)
	bestW, bestEnd := ch.Inf, uint32(0)
	for _, e := range ends {
		if dist[e] != ch.Inf && dist[e]+tinit[e] < bestW {
			bestW, bestEnd = dist[e]+tinit[e], e
		}
	}
	if bestW == ch.Inf {
		return bestW, nil
	}
	var rev []uint32
	for v := int32(bestEnd); v >= 0; v = o.parent[v] {
		rev = append(rev, uint32(v))
	}
	path := make([]uint32, len(rev))
	for i := range rev {
		path[i] = rev[len(rev)-1-i]
	}
	return bestW, path
}

// nodeToNode is the least weight from the end of a to the end of b.
func (o *oracle) nodeToNode(a, b uint32) int64 {
	if a == b {
		return 0
	}
	return o.run(map[uint32]int64{a: 0}, []uint32{b})[b]
}

// judge checks route alt (index i >= 1 of routes) from scratch: a path of
// the graph from a source phantom to a target phantom, of the weight
// reported, within the stretch, sharing with the best route (the
// oracle's, opt) and the earlier alternatives at most the share allowed,
// and passing the T-test around its via node.
func judge(t *testing.T, o *oracle, from, to Snap, optW int64, opt []uint32, routes []altRoute, i int) {
	t.Helper()
	g, m := o.g, o.m
	alt := routes[i]
	p := alt.nodes
	var ph [2]phantom
	srcInit, tgtInit := map[uint32]int64{}, map[uint32]int64{}
	for _, x := range g.phantoms(m, from, ph[:0]) {
		srcInit[x.node] = g.nodeWeight(m, x.node) - x.partial
	}
	for _, x := range g.phantoms(m, to, ph[:0]) {
		tgtInit[x.node] = x.partial - g.nodeWeight(m, x.node)
	}
	si, ok1 := srcInit[p[0]]
	ti, ok2 := tgtInit[p[len(p)-1]]
	if !ok1 || !ok2 {
		t.Fatalf("alternative %d does not run from a source phantom to a target phantom", i)
	}
	// Weight and the T-test's positions, from the arrays.
	w := si + ti
	pos := make([]int64, len(p))
	for k := 1; k < len(p); k++ {
		a := o.arc(p[k-1], p[k])
		if a == ch.Inf {
			t.Fatalf("alternative %d: no turn %d->%d", i, p[k-1], p[k])
		}
		w += a
		pos[k] = pos[k-1] + (a >> 32) // one arc's lanes are >= 0
	}
	if w != alt.weight {
		t.Fatalf("alternative %d: weight %d, the path weighs %d", i, alt.weight, w)
	}
	lane := func(x int64) int64 { return (x + 1<<31) >> 32 }
	optP, altP := lane(optW), lane(w)
	if altP < optP {
		t.Fatalf("alternative %d (%d) beats the best route (%d)", i, altP, optP)
	}
	if altP*100 > optP*125 {
		t.Errorf("alternative %d: stretch %d / %d > 1.25", i, altP, optP)
	}
	// Sharing with the best route and the alternatives before it.
	on := map[uint32]bool{}
	for _, n := range opt {
		on[n] = true
	}
	for _, r := range routes[1:i] {
		for _, n := range r.nodes {
			on[n] = true
		}
	}
	var shared int64
	last := len(p) - 1
	for k, n := range p {
		if !on[n] {
			continue
		}
		full := weight(m, int64(g.base.nodeTime[n]), int64(g.base.nodeDist[n]))
		s := full
		switch {
		case last == 0:
			s = si + ti
		case k == 0:
			s = si
		case k == last:
			s = full + ti
		}
		shared += lane(s)
	}
	if shared*100 > optP*75 {
		t.Errorf("alternative %d shares %d of the best route's %d (> 75 %%)", i, shared, optP)
	}
	// T-test around the via node.
	v := alt.via
	if v < 0 || v >= len(p) {
		t.Fatalf("alternative %d: via index %d of %d nodes", i, v, len(p))
	}
	a, b := v, v
	for a > 0 && (pos[v]-pos[a])*4 < optP {
		a--
	}
	for b < last && (pos[b]-pos[v])*4 < optP {
		b++
	}
	if d := o.nodeToNode(p[a], p[b]); d == ch.Inf || d>>32 != pos[b]-pos[a] {
		t.Errorf("alternative %d fails the T-test: piece %d..%d weighs %d, shortest %d", i, a, b, pos[b]-pos[a], d>>32)
	}
}

// TestAlternativesDelaware: on 200 random pairs, every alternative of
// both metrics passes the judge, the first route is the oracle's best,
// and alternatives exist for most pairs.
func TestAlternativesDelaware(t *testing.T) {
	g := testGraph(t, "delaware")
	src := roadPoints(g, 200, 31, 0)
	dst := roadPoints(g, 200, 32, 0)
	for m := Fastest; m <= Shortest; m++ {
		o := newOracle(g, m)
		found := [3]int{}
		pairs := 0
		for i := range src {
			if m == Shortest && i%2 == 1 {
				continue // half the pairs on the second metric keeps the test short
			}
			from, to := src[i], dst[i]
			if from.Edge == to.Edge {
				continue
			}
			optW, opt := o.best(from, to)
			routes, err := g.alternatives(m, from, to, 3)
			if optW == ch.Inf {
				if !errors.Is(err, ErrNoRoute) {
					t.Fatalf("%s pair %d: no route, got %v", m, i, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s pair %d: %v", m, i, err)
			}
			pairs++
			if routes[0].weight != optW {
				t.Fatalf("%s pair %d: best %d, oracle %d", m, i, routes[0].weight, optW)
			}
			for k := 1; k < len(routes); k++ {
				judge(t, o, from, to, optW, opt, routes, k)
				if routes[k].weight < routes[k-1].weight {
					t.Errorf("%s pair %d: route %d lighter than route %d", m, i, k, k-1)
				}
			}
			for k := range routes {
				found[k]++
			}
		}
		t.Logf("%s: %d pairs, a 2nd route for %d, a 3rd for %d", m, pairs, found[1], found[2])
		if found[1]*2 < pairs {
			t.Errorf("%s: a second route for only %d of %d pairs", m, found[1], pairs)
		}
	}
}
