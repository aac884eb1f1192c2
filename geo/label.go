package geo

import (
	"container/heap"
	"math"

	"github.com/paulmach/orb"
)

// LabelPoint returns the pole of inaccessibility of the polygon p: the
// point inside it farthest from its outline (holes included), found to
// within precision metres, and that distance in metres. It is where a
// map pin or a rooftop location of a building belongs: unlike a centroid
// it is always inside, and as far from every wall as the shape allows.
// A polygon without area, or too thin to hold a point precision from its
// walls, gives InteriorPoint's answer (a point inside when there is one)
// and 0.
//
// The search is the quadtree one of Garcia-Castellanos and Lombardo
// (2007) as polylabel does it: cells covering the bounding box, each with
// the distance from its centre to the outline, split best-first while a
// cell could still hold a point more than precision farther away. The
// work is bounded whatever the shape: the precision grows to a hundredth
// of the polygon's width, the starting grid has at most maxLabelCells
// cells, and the search stops after maxLabelWork cell-edge distances.
func LabelPoint(p orb.Polygon, precision float64) (orb.Point, float64) {
	if len(p) == 0 || len(p[0]) == 0 {
		return orb.Point{}, 0
	}
	if !(precision > 0) { // also NaN
		precision = 0.5
	}
	b := p[0].Bound()
	lp := NewLocalProjection((b.Min[1] + b.Max[1]) / 2)
	rings := make([][][2]float64, len(p))
	for i, r := range p {
		rings[i] = make([][2]float64, len(r))
		for j, q := range r {
			x, y := lp.XY(q)
			rings[i][j] = [2]float64{x, y}
		}
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, q := range rings[0] {
		minX, maxX = math.Min(minX, q[0]), math.Max(maxX, q[0])
		minY, maxY = math.Min(minY, q[1]), math.Max(maxY, q[1])
	}
	w, h := maxX-minX, maxY-minY
	if !(w > 0 && h > 0) || b.Max[0]-b.Min[0] > 180 { // no area; or across the antimeridian
		return InteriorPoint(p), 0
	}
	precision = math.Max(precision, math.Min(w, h)/100)
	size := math.Max(math.Min(w, h), precision)
	if cells := (w / size) * (h / size); cells > maxLabelCells {
		size = math.Sqrt(w * h / maxLabelCells)
	}
	edges := 0
	for _, r := range rings {
		edges += len(r)
	}
	newCell := func(x, y, half float64) labelCell {
		d := signedDist(x, y, rings)
		return labelCell{x: x, y: y, half: half, d: d, max: d + half*math.Sqrt2}
	}
	best := newCell(minX+w/2, minY+h/2, 0)
	if c, ok := areaCentroid(rings[0]); ok {
		if cc := newCell(c[0], c[1], 0); cc.d > best.d {
			best = cc
		}
	}
	var q labelQueue
	half := size / 2
	nx, ny := int(math.Ceil(w/size)), int(math.Ceil(h/size))
	for i := range nx {
		for j := range ny {
			heap.Push(&q, newCell(minX+float64(i)*size+half, minY+float64(j)*size+half, half))
		}
	}
	// Bounded work for pathological inputs (a long thin ring with many
	// vertices): the best found so far is still inside.
	for work := (nx * ny) * edges; q.Len() > 0 && work < maxLabelWork; work += 4 * edges {
		c := heap.Pop(&q).(labelCell)
		if c.d > best.d {
			best = c
		}
		if c.max-best.d <= precision {
			continue
		}
		h := c.half / 2
		heap.Push(&q, newCell(c.x-h, c.y-h, h))
		heap.Push(&q, newCell(c.x+h, c.y-h, h))
		heap.Push(&q, newCell(c.x-h, c.y+h, h))
		heap.Push(&q, newCell(c.x+h, c.y+h, h))
	}
	if best.d <= 0 { // no interior point found (a sliver)
		return InteriorPoint(p), 0
	}
	return lp.Point(best.x, best.y), best.d
}

// Bounds of LabelPoint's work: cells of the starting grid, and distances
// from a cell centre to an edge over the whole search.
const (
	maxLabelCells = 1024
	maxLabelWork  = 4_000_000
)

// labelCell is a square of the LabelPoint search: centre, half size, the
// signed distance of its centre to the outline and the largest distance
// any point in it can have.
type labelCell struct {
	x, y, half, d, max float64
}

// labelQueue is a max-heap of cells by max.
type labelQueue []labelCell

func (q labelQueue) Len() int           { return len(q) }
func (q labelQueue) Less(i, j int) bool { return q[i].max > q[j].max }
func (q labelQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *labelQueue) Push(x any)        { *q = append(*q, x.(labelCell)) }
func (q *labelQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}

// signedDist returns the distance from (x, y) to the nearest edge of the
// rings, negative when the point is outside the polygon they make (even
// odd rule, so holes count as outside).
func signedDist(x, y float64, rings [][][2]float64) float64 {
	inside := false
	best := math.Inf(1)
	for _, r := range rings {
		for i, j := 0, len(r)-1; i < len(r); j, i = i, i+1 {
			a, b := r[i], r[j]
			if (a[1] > y) != (b[1] > y) && x < (b[0]-a[0])*(y-a[1])/(b[1]-a[1])+a[0] {
				inside = !inside
			}
			best = math.Min(best, segDistXY(x, y, a, b))
		}
	}
	if !inside {
		return -best
	}
	return best
}

// segDistXY is the planar distance from (x, y) to the segment ab.
func segDistXY(x, y float64, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	t := 0.0
	if l2 := dx*dx + dy*dy; l2 > 0 {
		t = math.Max(0, math.Min(1, ((x-a[0])*dx+(y-a[1])*dy)/l2))
	}
	ex, ey := a[0]+t*dx-x, a[1]+t*dy-y
	return math.Hypot(ex, ey)
}

// areaCentroid returns the area centroid of a ring, false when it has no
// area.
func areaCentroid(r [][2]float64) ([2]float64, bool) {
	var a, cx, cy float64
	for i, j := 0, len(r)-1; i < len(r); j, i = i, i+1 {
		f := r[j][0]*r[i][1] - r[i][0]*r[j][1]
		a += f
		cx += (r[j][0] + r[i][0]) * f
		cy += (r[j][1] + r[i][1]) * f
	}
	if a == 0 {
		return [2]float64{}, false
	}
	return [2]float64{cx / (3 * a), cy / (3 * a)}, true
}
