package routing

import (
	"github.com/geosvc/geosvc/routing/ch"
)

// vertexIndex lists the road edges at each vertex (CSR), built on first
// use by Reached.Vertex.
type vertexIndex struct {
	first []uint32
	edges []uint32
}

func (g *Graph) buildVertexIndex() {
	nV := 0
	for e := range g.edgeFrom {
		nV = max(nV, int(g.edgeFrom[e])+1, int(g.edgeTo[e])+1)
	}
	ix := &vertexIndex{first: make([]uint32, nV+1)}
	for e := range g.edgeFrom {
		ix.first[g.edgeFrom[e]+1]++
		if g.edgeTo[e] != g.edgeFrom[e] {
			ix.first[g.edgeTo[e]+1]++
		}
	}
	for v := 0; v < nV; v++ {
		ix.first[v+1] += ix.first[v]
	}
	ix.edges = make([]uint32, ix.first[nV])
	fill := append([]uint32(nil), ix.first[:nV]...)
	for e := range g.edgeFrom {
		for _, v := range [2]uint32{g.edgeFrom[e], g.edgeTo[e]} {
			if v == g.edgeTo[e] && v == g.edgeFrom[e] && fill[v] > ix.first[v] && ix.edges[fill[v]-1] == uint32(e) {
				continue
			}
			ix.edges[fill[v]] = uint32(e)
			fill[v]++
		}
	}
	g.vertices = ix
}

// Vertex returns the cost between the point and road vertex v (from the
// point to v, or from v to the point for a reverse search) when it is
// within limit, as Reach would: limit counts the metric's primary
// quantity, seconds for every objective but shortest, metres for that.
func (r *Reached) Vertex(v uint32, limit float64) (Cost, bool) {
	g := r.g
	g.vertexOnce.Do(g.buildVertexIndex)
	ix := g.vertices
	if int(v)+1 >= len(ix.first) {
		return Cost{}, false
	}
	best := ch.Inf
	offer := func(w int64) {
		if best == ch.Inf || r.less(w, best) {
			best = w
		}
	}
	node := func(n uint32) {
		tail, head := g.nodeEnds(n)
		if w := r.lab[n]; w != ch.Inf && (!r.reverse && head == v || r.reverse && tail == v) {
			offer(w)
		}
	}
	for _, e := range ix.edges[ix.first[v]:ix.first[v+1]] {
		for dir := uint32(0); dir < 2; dir++ {
			if n := g.edgeNode[directedID(e, dir)]; n >= 0 {
				node(uint32(n))
				for _, c := range g.copies[uint32(n)] {
					node(c)
				}
			}
		}
	}
	for _, e := range r.ends {
		tail, head := g.nodeEnds(e.node)
		if !r.reverse && e.atStart && tail == v || r.reverse && e.atEnd && head == v {
			offer(0)
		}
	}
	if best == ch.Inf {
		return Cost{}, false
	}
	q := QuantityTime
	if r.order == chShortest {
		q = QuantityDistance
	}
	if r.lane(best, q) > limitUnits(limit, q) {
		return Cost{}, false
	}
	ms, dm := unweight(r.lay, best)
	return Cost{DurationS: float64(ms) / 1000, DistanceM: float64(dm) / 10}, true
}

// less orders two packed costs by the metric's primary lane, then the
// other.
func (r *Reached) less(a, b int64) bool {
	ams, adm := unweight(r.lay, a)
	bms, bdm := unweight(r.lay, b)
	if r.order == chShortest {
		return adm < bdm || adm == bdm && ams < bms
	}
	return ams < bms || ams == bms && adm < bdm
}
