package routing

import (
	"sort"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
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
