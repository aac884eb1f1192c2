package routing

import (
	"fmt"
	"runtime"

	"github.com/geosvc/geosvc/geo/world"
	"github.com/geosvc/geosvc/routing/osmroad"
)

// Edge sides (leftHandEdges).
const (
	sideUnknown uint8 = iota
	sideRight
	sideLeft
)

// leftHandEdges returns, per road edge of net, whether traffic keeps to
// the left on it (nil when it keeps right on every edge), and how many
// edges do.
//
// The side of an edge is its country's driving_side as the country's OSM
// boundary relation in the extract states it (net.Sides), else
// defaultSide (the profile's). An edge's country is the world base
// layer's (Natural Earth) country at the middle of its shape; an edge
// lying in no country there (a coastal road beyond the layer's coast, a
// ferry) takes the side of a road it connects to, and a part of the
// network with no such road defaultSide. The world layer is read only
// when some country of the extract keeps to the other side than
// defaultSide.
func leftHandEdges(net *osmroad.Network, defaultSide string) ([]bool, int, error) {
	defLeft := defaultSide == "left"
	sides := map[string]bool{}
	mixed := false
	for _, s := range net.Sides {
		sides[s.ISO2] = s.Left
		mixed = mixed || s.Left != defLeft
	}
	nE := len(net.Edges)
	if !mixed {
		if !defLeft {
			return nil, 0, nil
		}
		left := make([]bool, nE)
		for i := range left {
			left[i] = true
		}
		return left, nE, nil
	}
	ix, err := world.Lookup()
	if err != nil {
		return nil, 0, fmt.Errorf("routing: driving sides: world base layer: %w", err)
	}
	side := make([]uint8, nE)
	parallelRanges(nE, runtime.GOMAXPROCS(0), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			e := &net.Edges[i]
			mid := net.Shape[(int(e.ShapeStart)+int(e.ShapeEnd)-1)/2]
			f, ok := ix.CountryAt(mid)
			if !ok {
				continue
			}
			l, stated := sides[f.ISO2]
			if !stated {
				l = defLeft
			}
			side[i] = edgeSideOf(l)
		}
	})
	spreadSides(net, side, edgeSideOf(defLeft))
	left := make([]bool, nE)
	n := 0
	for i, s := range side {
		if s == sideLeft {
			left[i] = true
			n++
		}
	}
	return left, n, nil
}

func edgeSideOf(left bool) uint8 {
	if left {
		return sideLeft
	}
	return sideRight
}

// spreadSides gives every edge of unknown side the side of an edge it is
// connected to through a chain of such edges (breadth first from the
// edges of known side), and def where there is none.
func spreadSides(net *osmroad.Network, side []uint8, def uint8) {
	nV := len(net.Vertices)
	vside := make([]uint8, nV)
	first := make([]uint32, nV+1)
	for i := range net.Edges {
		first[net.Edges[i].From+1]++
		first[net.Edges[i].To+1]++
	}
	for v := 0; v < nV; v++ {
		first[v+1] += first[v]
	}
	inc := make([]uint32, first[nV])
	fill := append([]uint32(nil), first[:nV]...)
	for i := range net.Edges {
		e := &net.Edges[i]
		inc[fill[e.From]] = uint32(i)
		fill[e.From]++
		inc[fill[e.To]] = uint32(i)
		fill[e.To]++
	}
	var queue []uint32
	for i, s := range side {
		if s == sideUnknown {
			continue
		}
		for _, v := range [2]uint32{net.Edges[i].From, net.Edges[i].To} {
			if vside[v] == sideUnknown {
				vside[v] = s
				queue = append(queue, v)
			}
		}
	}
	for head := 0; head < len(queue); head++ {
		v := queue[head]
		for _, ei := range inc[first[v]:first[v+1]] {
			if side[ei] != sideUnknown {
				continue
			}
			side[ei] = vside[v]
			e := &net.Edges[ei]
			for _, w := range [2]uint32{e.From, e.To} {
				if vside[w] == sideUnknown {
					vside[w] = vside[v]
					queue = append(queue, w)
				}
			}
		}
	}
	for i := range side {
		if side[i] == sideUnknown {
			side[i] = def
		}
	}
}
