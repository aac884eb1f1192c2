package routing

import (
	"container/heap"
	"context"
	"errors"
	"sort"
	"strings"
	"sync"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/routing/ch"
)

// Junction is a vertex of the road graph where three or more road edges
// meet, or a dead end (one edge).
type Junction struct {
	// Vertex is the vertex's number in this graph (not an OSM id: it
	// changes when the graph is built again).
	Vertex uint32
	Point  orb.Point
	// Roads is the number of road edges meeting there (1 for a dead end).
	Roads int
	// DistanceM is the straight-line distance from the point searched
	// around.
	DistanceM float64
}

// junctionIndex holds the graph's junctions, built on first use.
type junctionIndex struct {
	vertex []uint32
	point  []orb.Point
	roads  []int
	edges  [][]uint32 // the edges meeting at each junction
	at     []int32    // the junction of each vertex, -1 for none
}

// buildJunctions finds the vertices of degree 1 or 3+ among the edges the
// routing graph kept.
func (g *Graph) buildJunctions() {
	nV := 0
	for e := range g.edgeFrom {
		nV = max(nV, int(g.edgeFrom[e])+1, int(g.edgeTo[e])+1)
	}
	deg := make([]int32, nV)
	pt := make([]orb.Point, nV)
	kept := func(e int) bool { return g.edgeNode[2*e] >= 0 || g.edgeNode[2*e+1] >= 0 }
	for e := range g.edgeFrom {
		if !kept(e) {
			continue
		}
		deg[g.edgeFrom[e]]++
		deg[g.edgeTo[e]]++
		if sh := g.edgeShape(uint32(e)); len(sh) > 0 {
			pt[g.edgeFrom[e]], pt[g.edgeTo[e]] = sh[0], sh[len(sh)-1]
		}
	}
	ix := &junctionIndex{}
	at := make([]int32, nV)
	for v := range deg {
		at[v] = -1
		if deg[v] == 1 || deg[v] >= 3 {
			at[v] = int32(len(ix.vertex))
			ix.vertex = append(ix.vertex, uint32(v))
			ix.point = append(ix.point, pt[v])
			ix.roads = append(ix.roads, int(deg[v]))
		}
	}
	ix.edges = make([][]uint32, len(ix.vertex))
	for e := range g.edgeFrom {
		if !kept(e) {
			continue
		}
		for _, v := range []uint32{g.edgeFrom[e], g.edgeTo[e]} {
			if j := at[v]; j >= 0 {
				ix.edges[j] = append(ix.edges[j], uint32(e))
			}
		}
	}
	ix.at = at
	g.junctions = ix
}

// JunctionsWithin returns the junctions within radiusM metres (straight
// line) of p, nearest first.
func (g *Graph) JunctionsWithin(p orb.Point, radiusM float64) []Junction {
	g.junctionsOnce.Do(g.buildJunctions)
	ix := g.junctions
	var out []Junction
	for j, q := range ix.point {
		d := geo.HaversineM(p, q)
		if d > radiusM {
			continue
		}
		out = append(out, Junction{Vertex: ix.vertex[j], Point: q, Roads: ix.roads[j], DistanceM: d})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].DistanceM < out[b].DistanceM })
	return out
}

// RoadNames returns the distinct names of the roads meeting at a
// junction vertex, in edge order ("" left out; none for a vertex that is
// no junction).
func (g *Graph) RoadNames(vertex uint32) []string {
	g.junctionsOnce.Do(g.buildJunctions)
	ix := g.junctions
	if int(vertex) >= len(ix.at) || ix.at[vertex] < 0 {
		return nil
	}
	var names []string
	for _, e := range ix.edges[ix.at[vertex]] {
		n := g.names[g.edgeName[e]]
		if n == "" || contains(names, n) {
			continue
		}
		names = append(names, n)
	}
	return names
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if strings.EqualFold(x, v) {
			return true
		}
	}
	return false
}

// Cost is the least drive between a point and a vertex: its time and
// distance (those of the least-weight path of the metric searched).
type Cost struct {
	DurationS, DistanceM float64
}

// ErrReachMetric is returned by Reach for a metric other than plain
// Fastest and Shortest.
var ErrReachMetric = errors.New("routing: Reach takes plain fastest or shortest only")

// Reach is a one-to-many search on the edge-based graph bounded by a
// limit: it returns the cost of driving from s to every vertex reached
// (backward false) or from every vertex to s (backward true) whose cost
// in the metric's unit, seconds for Fastest and metres for Shortest, is
// at most limit. Turn costs count as on any route; a drive starting at a
// vertex pays no turn there. It takes plain Fastest and Shortest only
// (ErrReachMetric for any other metric); ctx is for the searches of
// customized metrics to come.
func (g *Graph) Reach(ctx context.Context, m Metric, s Snap, limit float64, backward bool) (map[uint32]Cost, error) {
	h, ok := m.hierarchy()
	if !ok {
		return nil, ErrReachMetric
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return g.reach(h, s, limit, backward), nil
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
	for _, p := range g.phantoms(m, s, ph[:0]) {
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
				y := g.revTail[i]
				push(y, it.d+g.nodeWeight(m, y)+weight(m, int64(g.revMS[i]), 0))
			}
			continue
		}
		settle(head, it.d)
		for i := b.turnFirst[it.node]; i < b.turnFirst[it.node+1]; i++ {
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

// nodeEnds returns the vertices a node (a directed edge) leaves and
// enters.
func (g *Graph) nodeEnds(n uint32) (tail, head uint32) {
	id := g.base.nodeEdge[n]
	e := id / 2
	if id%2 == 0 {
		return g.edgeFrom[e], g.edgeTo[e]
	}
	return g.edgeTo[e], g.edgeFrom[e]
}
