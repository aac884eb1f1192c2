package routing

// The plain Dijkstra parts that searches on the uncontracted edge-based
// graph share (Reach, the test oracles): binary heaps of (node, weight)
// for packed hierarchy weights and for a customized metric's pair weights,
// and the reverse adjacency.

import "github.com/geosvc/geosvc/routing/cch"

// oracleItem is a node and its tentative weight.
type oracleItem struct {
	node uint32
	d    int64
}

// oracleHeap is a min-heap of oracleItems (container/heap).
type oracleHeap []oracleItem

func (h oracleHeap) Len() int            { return len(h) }
func (h oracleHeap) Less(i, j int) bool  { return h[i].d < h[j].d }
func (h oracleHeap) Swap(i, j int)       { h[i], h[j] = h[j], h[i] }
func (h *oracleHeap) Push(x interface{}) { *h = append(*h, x.(oracleItem)) }
func (h *oracleHeap) Pop() interface{} {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// pairItem is a node and its tentative pair weight.
type pairItem struct {
	node uint32
	d    cch.Weight
}

// pairHeap is a min-heap of pairItems (container/heap).
type pairHeap []pairItem

func (h pairHeap) Len() int            { return len(h) }
func (h pairHeap) Less(i, j int) bool  { return h[i].d.Less(h[j].d) }
func (h pairHeap) Swap(i, j int)       { h[i], h[j] = h[j], h[i] }
func (h *pairHeap) Push(x interface{}) { *h = append(*h, x.(pairItem)) }
func (h *pairHeap) Pop() interface{} {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// forEachArcInto calls fn for every turn arc y->v. The reverse adjacency
// is built on first use.
func (g *Graph) forEachArcInto(v uint32, fn func(y uint32, turnMS uint32)) {
	g.reverseOnce.Do(g.buildReverse)
	for i := g.revFirst[v]; i < g.revFirst[v+1]; i++ {
		fn(g.revTail[i], g.base.turnMS[g.revArc[i]])
	}
}

// buildReverse builds the reverse adjacency of the turn arcs (revFirst,
// revTail, revArc), once (through reverseOnce).
func (g *Graph) buildReverse() {
	b := &g.base
	n := len(b.nodeEdge)
	g.revFirst = make([]uint32, n+1)
	for _, h := range b.turnHead {
		g.revFirst[h+1]++
	}
	for i := 0; i < n; i++ {
		g.revFirst[i+1] += g.revFirst[i]
	}
	g.revTail = make([]uint32, len(b.turnHead))
	g.revArc = make([]uint32, len(b.turnHead))
	fill := append([]uint32(nil), g.revFirst[:n]...)
	for u := 0; u < n; u++ {
		for i := b.turnFirst[u]; i < b.turnFirst[u+1]; i++ {
			h := b.turnHead[i]
			g.revTail[fill[h]] = uint32(u)
			g.revArc[fill[h]] = i
			fill[h]++
		}
	}
}
