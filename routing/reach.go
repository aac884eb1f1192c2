package routing

import (
	"container/heap"
	"context"
	"sync"

	"github.com/geosvc/geosvc/routing/cch"
	"github.com/geosvc/geosvc/routing/ch"
)

// Cost is the least drive between a point and a vertex: its time and
// distance (those of the least-weight path of the metric searched).
type Cost struct {
	DurationS, DistanceM float64
}

// Reach is a one-to-many search on the edge-based graph bounded by a
// limit: it returns the cost of driving from s to every vertex reached
// (backward false) or from every vertex to s (backward true) on metric m,
// for the vertices whose cost in m's own quantity is at most limit:
// seconds for the fastest objective, metres for the shortest, litres of
// fuel for efficient, expected fatal-crash involvements for safest. Turn
// costs count as on any route; a drive starting at a vertex pays no turn
// there. A metric that avoids roads neither starts on nor drives them.
// Plain Fastest and Shortest search at once; any other metric is
// customized first (and cached by the graph): Reach returns ctx's error if
// ctx ends then.
func (g *Graph) Reach(ctx context.Context, m Metric, s Snap, limit float64, backward bool) (map[uint32]Cost, error) {
	if h, ok := m.hierarchy(); ok {
		return g.reach(h, s, limit, backward), nil
	}
	cm, err := g.customMetric(ctx, m)
	if err != nil {
		return nil, err
	}
	return cm.reach(s, limit, backward), nil
}

// reach is Reach on the plain metric m.
func (g *Graph) reach(m chMetric, s Snap, limit float64, backward bool) map[uint32]Cost {
	out := map[uint32]Cost{}
	if !s.OK || limit < 0 {
		return out
	}
	b := &g.base
	bound := int64(limit * 1000) // ms
	if m == chShortest {
		bound = int64(limit * 10) // dm
	}
	primary := func(w int64) int64 { return w >> 32 }
	ws := g.reachSpace()
	defer reachPool.Put(ws)
	dist := ws.dist
	h := &ws.heap
	push := func(n uint32, d int64) {
		if primary(d) > bound || dist[n] <= d {
			return
		}
		if dist[n] == ch.Inf {
			ws.touched = append(ws.touched, n)
		}
		dist[n] = d
		heap.Push(h, oracleItem{n, d})
	}
	// A vertex's cost is the least label of the nodes ending there
	// (forward: the label is the cost to the node's end) or starting there
	// (backward: the label is the cost from the node's start to s).
	settle := func(v uint32, w int64) {
		if primary(w) > bound {
			return
		}
		ms, dm := unweight(m, w)
		c := Cost{DurationS: float64(ms) / 1000, DistanceM: float64(dm) / 10}
		if old, ok := out[v]; !ok || betterCost(m, c, old) {
			out[v] = c
		}
	}
	var ph [2]phantom
	ps := g.phantoms(m, s, ph[:0])
	if backward {
		ps = g.withCopies(ps) // routes into s may arrive on copies
	}
	for _, p := range ps {
		tail, head := g.nodeEnds(p.node)
		if backward {
			push(p.node, p.partial)
			if p.partial == g.nodeWeight(m, p.node) {
				settle(head, 0) // s is at the node's end
			}
		} else {
			push(p.node, g.nodeWeight(m, p.node)-p.partial)
			if p.partial == 0 {
				settle(tail, 0) // s is at the node's start
			}
		}
	}
	if backward {
		g.reverseOnce.Do(g.buildReverse)
	}
	for h.Len() > 0 {
		it := heap.Pop(h).(oracleItem)
		if it.d > dist[it.node] {
			continue
		}
		tail, head := g.nodeEnds(it.node)
		if backward {
			settle(tail, it.d)
			for i := g.revFirst[it.node]; i < g.revFirst[it.node+1]; i++ {
				if g.shutNoTime(g.revArc[i]) {
					continue
				}
				y := g.revTail[i]
				push(y, it.d+g.nodeWeight(m, y)+weight(m, int64(b.turnMS[g.revArc[i]]), 0))
			}
			continue
		}
		settle(head, it.d)
		for i := b.turnFirst[it.node]; i < b.turnFirst[it.node+1]; i++ {
			if g.shutNoTime(i) {
				continue
			}
			v := b.turnHead[i]
			push(v, it.d+weight(m, int64(b.turnMS[i])+int64(b.nodeTime[v]), int64(b.nodeDist[v])))
		}
	}
	return out
}

// reachWork is the scratch space of Reach: labels (ch.Inf when unset),
// the nodes labelled, and the heap.
type reachWork struct {
	dist    []int64
	touched []uint32
	heap    oracleHeap
}

var reachPool sync.Pool // *reachWork

// reachSpace returns a scratch space for g with every label unset.
func (g *Graph) reachSpace() *reachWork {
	n := len(g.base.nodeEdge)
	ws, _ := reachPool.Get().(*reachWork)
	if ws == nil || len(ws.dist) != n {
		ws = &reachWork{dist: make([]int64, n)}
		for i := range ws.dist {
			ws.dist[i] = ch.Inf
		}
		return ws
	}
	for _, v := range ws.touched {
		ws.dist[v] = ch.Inf
	}
	ws.touched, ws.heap = ws.touched[:0], ws.heap[:0]
	return ws
}

// betterCost orders costs by the metric, then by the other unit.
func betterCost(m chMetric, a, b Cost) bool {
	if m == chShortest {
		return a.DistanceM < b.DistanceM || a.DistanceM == b.DistanceM && a.DurationS < b.DurationS
	}
	return a.DurationS < b.DurationS || a.DurationS == b.DurationS && a.DistanceM < b.DistanceM
}

// objectiveUnit is the number of weight units of each objective in the
// unit of Reach's limit: milliseconds per second, decimetres per metre,
// microlitres per litre, units of 1e-12 per crash involvement.
var objectiveUnit = [...]float64{
	ObjectiveFastest:   1000,
	ObjectiveShortest:  10,
	ObjectiveEfficient: fuelUnitPerL,
	ObjectiveSafest:    1 / riskUnit,
}

// customReachWork is the scratch space of a customized metric's Reach:
// labels (cch.Inf when unset), the nodes labelled, the heap, and each
// vertex's best weight so far.
type customReachWork struct {
	dist    []cch.Weight
	touched []uint32
	heap    pairHeap
}

var customReachPool sync.Pool // *customReachWork

// reach is Graph.Reach on the customized metric: the same search with
// its pair weights (its own quantity, then time and distance), on the
// nodes its avoid flags leave usable.
func (cm *customMetric) reach(s Snap, limit float64, backward bool) map[uint32]Cost {
	g, b := cm.g, &cm.g.base
	best := map[uint32]cch.Weight{}
	if !s.OK || limit < 0 {
		return map[uint32]Cost{}
	}
	bound := int64(limit * objectiveUnit[cm.spec.Objective])
	ws := cm.reachSpace()
	defer customReachPool.Put(ws)
	dist := ws.dist
	h := &ws.heap
	push := func(n uint32, d cch.Weight) {
		if d.W > bound || !d.Less(dist[n]) {
			return
		}
		if dist[n].IsInf() {
			ws.touched = append(ws.touched, n)
		}
		dist[n] = d
		heap.Push(h, pairItem{n, d})
	}
	settle := func(v uint32, w cch.Weight) {
		if w.W > bound {
			return
		}
		if old, ok := best[v]; !ok || w.Less(old) {
			best[v] = w
		}
	}
	var ph [2]phantom
	ps := g.phantoms(chFastest, s, ph[:0])
	if backward {
		ps = g.withCopies(ps) // routes into s may arrive on copies
	}
	for _, p := range ps {
		if !cm.usable[p.node] {
			continue
		}
		whole, part := cm.whole(p.node), cm.partial(p.node, p.frac)
		tail, head := g.nodeEnds(p.node)
		if backward {
			push(p.node, part)
			if part == whole {
				settle(head, cch.Weight{}) // s is at the node's end
			}
		} else {
			push(p.node, cch.Weight{W: whole.W - part.W, S: whole.S - part.S})
			if part == (cch.Weight{}) {
				settle(tail, cch.Weight{}) // s is at the node's start
			}
		}
	}
	if backward {
		g.reverseOnce.Do(g.buildReverse)
	}
	for h.Len() > 0 {
		it := heap.Pop(h).(pairItem)
		if dist[it.node].Less(it.d) {
			continue
		}
		tail, head := g.nodeEnds(it.node)
		if backward {
			// y -> node costs the turn, then y itself.
			settle(tail, it.d)
			whole := cm.whole(it.node)
			for i := g.revFirst[it.node]; i < g.revFirst[it.node+1]; i++ {
				y, arc := g.revTail[i], g.revArc[i]
				if !cm.usable[y] || cm.weights[arc].IsInf() {
					continue
				}
				turn := cch.Weight{W: cm.weights[arc].W - whole.W, S: cm.weights[arc].S - whole.S}
				push(y, it.d.Add(turn).Add(cm.whole(y)))
			}
			continue
		}
		settle(head, it.d)
		for i := b.turnFirst[it.node]; i < b.turnFirst[it.node+1]; i++ {
			if !cm.weights[i].IsInf() {
				push(b.turnHead[i], it.d.Add(cm.weights[i]))
			}
		}
	}
	out := make(map[uint32]Cost, len(best))
	for v, w := range best {
		ms, dm := unweight(chFastest, w.S)
		out[v] = Cost{DurationS: float64(ms) / 1000, DistanceM: float64(dm) / 10}
	}
	return out
}

// reachSpace returns a scratch space for the metric's graph with every
// label unset.
func (cm *customMetric) reachSpace() *customReachWork {
	n := len(cm.g.base.nodeEdge)
	ws, _ := customReachPool.Get().(*customReachWork)
	if ws == nil || len(ws.dist) != n {
		ws = &customReachWork{dist: make([]cch.Weight, n)}
		for i := range ws.dist {
			ws.dist[i] = cch.Inf
		}
		return ws
	}
	for _, v := range ws.touched {
		ws.dist[v] = cch.Inf
	}
	ws.touched, ws.heap = ws.touched[:0], ws.heap[:0]
	return ws
}
