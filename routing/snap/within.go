package snap

import (
	"slices"

	"github.com/paulmach/orb"
)

// Segments calls fn with every segment that may cross bound: the
// segments of the grid cells the box covers (a segment is given once per
// cell it crosses, so fn may see it more than once), each with its edge
// and end points. The cost is in proportion to the box's cells, not to
// the index.
func (ix *Index) Segments(bound orb.Bound, fn func(edge uint32, a, b orb.Point)) {
	g := &ix.g
	if len(ix.segs) == 0 || g.NX == 0 {
		return
	}
	x0, y0 := g.cellOf(bound.Min)
	x1, y1 := g.cellOf(bound.Max)
	x0, y0 = max(x0, 0), max(y0, 0)
	x1, y1 = min(x1, g.NX-1), min(y1, g.NY-1)
	for y := y0; y <= y1; y++ {
		lo, hi := int(ix.rowStart[y]), int(ix.rowStart[y+1])
		cells := ix.cellX[lo:hi]
		c, _ := slices.BinarySearch(cells, uint32(max(x0, 0)))
		for c += lo; c < hi && int(ix.cellX[c]) <= x1; c++ {
			for _, i := range ix.segs[ix.cellStart[c]:ix.cellStart[c+1]] {
				fn(ix.segEdg[i], ix.shape[i], ix.shape[i+1])
			}
		}
	}
}

// Within returns, for every edge that accept allows (nil accepts all)
// with a segment within radiusM metres of p, the nearest point of that
// edge to p, nearest first (equal distances by edge id); at most maxHits
// hits when maxHits > 0. accept is called at most once per edge. It is
// the candidate search of map matching: one hit per road edge near a
// GPS fix.
func (ix *Index) Within(p orb.Point, radiusM float64, accept func(edge uint32) bool, maxHits int) []Hit {
	return ix.within(p, radiusM, accept, maxHits)
}
