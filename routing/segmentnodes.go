package routing

import (
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// SegmentNodes returns the OSM node id of each point of s.Geometry (a
// segment of a Route this graph made), as OSRM's annotation nodes lists
// them: a shape point's own node; for a point between two shape points
// (a route's start or end, snapped onto the road), the node beyond it,
// behind the start or ahead of the end. It returns nil for a graph
// without node ids (a bundle older than format 9) or a segment not of
// this graph.
func (g *Graph) SegmentNodes(s Segment) []int64 {
	if len(g.shapeNode) != len(g.shape) || int(s.Edge) >= len(g.edgeFrom) {
		return nil
	}
	shape := g.edgeShape(s.Edge)
	from, to := s.from, s.to
	if s.dir == 1 {
		from, to = 1-to, 1-from
	}
	var idx []int
	if from <= 0 && to >= 1 {
		idx = make([]int, len(shape))
		for i := range idx {
			idx[i] = i
		}
	} else {
		idx = cutIndexes(shape, g.edgeLen[s.Edge], from, to)
	}
	if len(idx) != len(s.Geometry) {
		return nil
	}
	first := g.shapeFirst[s.Edge]
	out := make([]int64, len(idx))
	for k, i := range idx {
		out[k] = g.shapeNode[int(first)+i]
	}
	if s.dir == 1 {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

// cutIndexes walks a shape as cutLineInto does and returns, for each
// point cutLineInto gives, the index of its shape point: for the first
// point (cut at from) the shape point before it, for the last (cut at
// to) the one after it, for the others their own.
func cutIndexes(shape []orb.Point, total, from, to float64) []int {
	if from < 0 {
		from = 0
	}
	if to > 1 {
		to = 1
	}
	a, b := from*total, to*total
	var out []int
	var pos float64
	for i := 1; i < len(shape); i++ {
		segLen := geo.HaversineM(shape[i-1], shape[i])
		hi := pos + segLen
		if len(out) == 0 && a <= hi {
			out = append(out, i-1)
		}
		if len(out) > 0 {
			if b <= hi {
				return append(out, i)
			}
			out = append(out, i)
		}
		pos = hi
	}
	if len(out) == 0 {
		out = append(out, len(shape)-1)
	}
	if len(out) == 1 {
		out = append(out, out[0])
	}
	return out
}

// SnapNodes returns the OSM node ids of the two shape points around a
// snapped point, in the order of the edge's shape (OSRM's nearest
// waypoint nodes); ok is false for a graph without node ids or a snap
// not of this graph.
func (g *Graph) SnapNodes(s Snap) (nodes [2]int64, ok bool) {
	if !s.OK || len(g.shapeNode) != len(g.shape) || int(s.Edge) >= len(g.edgeFrom) {
		return nodes, false
	}
	shape := g.edgeShape(s.Edge)
	if len(shape) < 2 {
		return nodes, false
	}
	at := s.Fraction * g.edgeLen[s.Edge]
	k, pos := 1, 0.0
	for ; k < len(shape)-1; k++ {
		pos += geo.HaversineM(shape[k-1], shape[k])
		if at <= pos {
			break
		}
	}
	first := int(g.shapeFirst[s.Edge])
	return [2]int64{g.shapeNode[first+k-1], g.shapeNode[first+k]}, true
}
