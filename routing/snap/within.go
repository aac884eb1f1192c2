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
