package mapdata

import (
	"container/heap"
	"math"

	"github.com/paulmach/orb"
)

// The sea of a large extract is a few polygons of hundreds of thousands
// of points, tested against many points (the world coast's probes, the
// islands), and its coastline is tested for crossings by many lines (gap
// closings, end extensions). The indexes below answer exactly what
// planar.RingContains and a scan of every coastline segment answer, but
// look only at the edges that can matter.

// ringIndex answers planar.RingContains for one ring: its edges are
// listed in vertical bands of equal width, each edge in every band its
// x-range meets. planar.RingContains casts its ray along y: an edge can
// count (cross the ray, or hold the point) only when the point's x lies
// in the edge's closed x-range, so the point's band lists every edge that
// can, and the parity of the crossings, and whether the point is on an
// edge, come out the same.
type ringIndex struct {
	r      orb.Ring
	bound  orb.Bound
	x0     float64 // the ring's least x
	inv    float64 // bands per unit of x
	starts []uint32
	edges  []int32 // first point of each edge; -1 is the closing edge r[n-1]-r[0]
}

// ringEdgesPerBand is the number of edges per band aimed at.
const ringEdgesPerBand = 8

func newRingIndex(r orb.Ring) *ringIndex {
	x := &ringIndex{r: r}
	if len(r) == 0 {
		return x
	}
	x.bound = r.Bound()
	nb := max(1, len(r)/ringEdgesPerBand)
	x.x0 = x.bound.Min[0]
	if w := x.bound.Max[0] - x.bound.Min[0]; w > 0 {
		x.inv = float64(nb) / w
	}
	span := func(e int32) (int, int) {
		s, t := x.edge(e)
		return x.band(math.Min(s[0], t[0]), nb), x.band(math.Max(s[0], t[0]), nb)
	}
	counts := make([]uint32, nb+1)
	each := func(fn func(e int32)) {
		fn(-1)
		for i := 0; i+1 < len(r); i++ {
			fn(int32(i))
		}
	}
	each(func(e int32) {
		b0, b1 := span(e)
		for b := b0; b <= b1; b++ {
			counts[b+1]++
		}
	})
	for b := 1; b <= nb; b++ {
		counts[b] += counts[b-1]
	}
	x.starts = counts
	x.edges = make([]int32, counts[nb])
	next := append([]uint32(nil), counts[:nb]...)
	each(func(e int32) {
		b0, b1 := span(e)
		for b := b0; b <= b1; b++ {
			x.edges[next[b]] = e
			next[b]++
		}
	})
	return x
}

// edge returns the points of edge e.
func (x *ringIndex) edge(e int32) (orb.Point, orb.Point) {
	if e < 0 {
		return x.r[0], x.r[len(x.r)-1]
	}
	return x.r[e], x.r[e+1]
}

// band returns the band of x-coordinate v among nb bands (clamped; a
// non-decreasing function of v).
func (x *ringIndex) band(v float64, nb int) int {
	f := (v - x.x0) * x.inv
	if !(f >= 0) {
		return 0
	}
	if f >= float64(nb-1) {
		return nb - 1
	}
	return int(f)
}

// contains is planar.RingContains(x.r, p).
func (x *ringIndex) contains(p orb.Point) bool {
	if len(x.r) == 0 || !x.bound.Contains(p) {
		return false
	}
	b := x.band(p[0], len(x.starts)-1)
	c := false
	for _, e := range x.edges[x.starts[b]:x.starts[b+1]] {
		s, t := x.edge(e)
		inter, on := rayIntersect(p, s, t)
		if on {
			return true
		}
		if inter {
			c = !c
		}
	}
	return c
}

// rayIntersect is orb/planar's ray test of point p against segment s-e
// (unexported there), copied so that ringIndex answers as
// planar.RingContains does.
func rayIntersect(p, s, e orb.Point) (intersects, on bool) {
	if s[0] > e[0] {
		s, e = e, s
	}
	switch p[0] {
	case s[0]:
		if p[1] == s[1] {
			return false, true
		} else if s[0] == e[0] {
			if s[1] > e[1] && s[1] >= p[1] && p[1] >= e[1] {
				return false, true
			}
			if e[1] > s[1] && e[1] >= p[1] && p[1] >= s[1] {
				return false, true
			}
		}
		p[0] = math.Nextafter(p[0], math.Inf(1))
	case e[0]:
		if p[1] == e[1] {
			return false, true
		}
		p[0] = math.Nextafter(p[0], math.Inf(1))
	}
	if p[0] < s[0] || p[0] > e[0] {
		return false, false
	}
	if s[1] > e[1] {
		if p[1] > s[1] {
			return false, false
		} else if p[1] < e[1] {
			return true, false
		}
	} else {
		if p[1] > e[1] {
			return false, false
		} else if p[1] < s[1] {
			return true, false
		}
	}
	rs := (p[1] - s[1]) / (p[0] - s[0])
	ds := (e[1] - s[1]) / (e[0] - s[0])
	if rs == ds {
		return false, true
	}
	return rs <= ds, false
}

// polygonIndex answers planar.PolygonContains for one polygon.
type polygonIndex struct {
	bound orb.Bound
	rings []*ringIndex
}

func newPolygonIndex(p orb.Polygon) *polygonIndex {
	x := &polygonIndex{}
	for _, r := range p {
		x.rings = append(x.rings, newRingIndex(r))
	}
	if len(x.rings) > 0 {
		x.bound = x.rings[0].bound
	}
	return x
}

// contains is planar.PolygonContains of the polygon.
func (x *polygonIndex) contains(p orb.Point) bool {
	if len(x.rings) == 0 || !x.rings[0].contains(p) {
		return false
	}
	for _, h := range x.rings[1:] {
		if h.contains(p) {
			return false
		}
	}
	return true
}

// segmentGrid holds line segments in a sparse grid of square cells, each
// segment in every cell its box meets, for the segments that may cross a
// given one. Segments are added as the coastline grows.
type segmentGrid struct {
	cell  float64
	segs  [][2]orb.Point
	cells map[[2]int32][]int32
}

func newSegmentGrid(cell float64) *segmentGrid {
	return &segmentGrid{cell: cell, cells: map[[2]int32][]int32{}}
}

func (g *segmentGrid) cellOf(p orb.Point) [2]int32 {
	return [2]int32{int32(math.Floor(p[0] / g.cell)), int32(math.Floor(p[1] / g.cell))}
}

// add adds segment a-b.
func (g *segmentGrid) add(a, b orb.Point) {
	id := int32(len(g.segs))
	g.segs = append(g.segs, [2]orb.Point{a, b})
	g.each(a, b, func(c [2]int32) { g.cells[c] = append(g.cells[c], id) })
}

// addLine adds the segments of a polyline.
func (g *segmentGrid) addLine(pts []orb.Point) {
	for i := 0; i+1 < len(pts); i++ {
		g.add(pts[i], pts[i+1])
	}
}

// each calls fn with every cell the box of a-b meets.
func (g *segmentGrid) each(a, b orb.Point, fn func([2]int32)) {
	c0 := g.cellOf(orb.Point{math.Min(a[0], b[0]), math.Min(a[1], b[1])})
	c1 := g.cellOf(orb.Point{math.Max(a[0], b[0]), math.Max(a[1], b[1])})
	for y := c0[1]; y <= c1[1]; y++ {
		for x := c0[0]; x <= c1[0]; x++ {
			fn([2]int32{x, y})
		}
	}
}

// any reports whether fn is true of a segment whose box meets the box of
// a-b (every segment that can cross a-b is among those tried).
func (g *segmentGrid) any(a, b orb.Point, fn func(p, q orb.Point) bool) bool {
	found := false
	g.each(a, b, func(c [2]int32) {
		if found {
			return
		}
		for _, id := range g.cells[c] {
			if s := g.segs[id]; fn(s[0], s[1]) {
				found = true
				return
			}
		}
	})
	return found
}

// coastGridCell is the cell size, in degrees, of the coastline's segment
// grid over box: about 2 km.
func coastGridCell(box orb.Bound) float64 {
	mt := metricAt((box.Min[1] + box.Max[1]) / 2)
	return 2000 / mt.ky
}

// gap is a candidate gap closing: the end of chain i to the start of
// chain j, d metres apart, made when chain i's end was at version ver.
type gap struct {
	d    float64
	i, j int
	ver  int
}

// gapHeap orders gaps by distance, then by the chains' order (the order
// the pairs were tried in when every pair was tried each round).
type gapHeap []gap

func (h gapHeap) Len() int { return len(h) }
func (h gapHeap) Less(a, b int) bool {
	if h[a].d != h[b].d {
		return h[a].d < h[b].d
	}
	if h[a].i != h[b].i {
		return h[a].i < h[b].i
	}
	return h[a].j < h[b].j
}
func (h gapHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *gapHeap) Push(x any)   { *h = append(*h, x.(gap)) }
func (h *gapHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// closeGaps joins the open chains across gaps, nearest first: of every
// pair (the end of chain a, the start of chain b), both interior, at most
// MaxCoastGapM apart and whose closing line crosses no coastline, the
// nearest (of equal ones, the first in the chains' order) is closed, and
// so on until none is left. A chain joined to its own start is a ring;
// one joined to another takes its points (joined(a, b) is called first)
// and b is done. It returns the chains left open, in their order, the
// rings and the number of gaps closed.
//
// Candidate pairs are found through a grid of the starts and kept in a
// heap; a pair is dropped when taken out stale (its end moved on, a chain
// is done) or crossing (the coastline only grows, so it would cross
// later too), which gives the pair a full search of every pair each
// round would pick.
func closeGaps(open []*chain, mt metric, interior func(orb.Point) bool, crosses func(a, b orb.Point) bool, joined func(a, b *chain)) ([]*chain, []orb.Ring, int) {
	cellOf := func(p orb.Point) [2]int32 {
		return [2]int32{int32(math.Floor(p[0] * mt.kx / MaxCoastGapM)), int32(math.Floor(p[1] * mt.ky / MaxCoastGapM))}
	}
	starts := map[[2]int32][]int{}
	for j, c := range open {
		if s := c.pts[0]; interior(s) {
			k := cellOf(s)
			starts[k] = append(starts[k], j)
		}
	}
	alive := make([]bool, len(open))
	ver := make([]int, len(open))
	for i := range alive {
		alive[i] = true
	}
	h := &gapHeap{}
	addPairs := func(i int) {
		a := open[i]
		e := a.pts[len(a.pts)-1]
		if !interior(e) {
			return
		}
		c := cellOf(e)
		for dy := int32(-1); dy <= 1; dy++ {
			for dx := int32(-1); dx <= 1; dx++ {
				for _, j := range starts[[2]int32{c[0] + dx, c[1] + dy}] {
					if !alive[j] || (i == j && len(a.pts) < 3) {
						continue
					}
					s := open[j].pts[0]
					if d := math.Hypot((e[0]-s[0])*mt.kx, (e[1]-s[1])*mt.ky); d <= MaxCoastGapM {
						heap.Push(h, gap{d, i, j, ver[i]})
					}
				}
			}
		}
	}
	for i := range open {
		addPairs(i)
	}
	var rings []orb.Ring
	closed := 0
	for h.Len() > 0 {
		g := heap.Pop(h).(gap)
		if !alive[g.i] || !alive[g.j] || ver[g.i] != g.ver {
			continue
		}
		a, b := open[g.i], open[g.j]
		if crosses(a.pts[len(a.pts)-1], b.pts[0]) {
			continue
		}
		closed++
		if g.i == g.j {
			rings = append(rings, orb.Ring(append(append([]orb.Point(nil), a.pts...), a.pts[0])))
			alive[g.i] = false
			continue
		}
		joined(a, b)
		a.pts = append(a.pts, b.pts...)
		a.nodes = append(a.nodes, b.nodes...)
		alive[g.j] = false
		ver[g.i]++
		addPairs(g.i)
	}
	var left []*chain
	for i, c := range open {
		if alive[i] {
			left = append(left, c)
		}
	}
	return left, rings, closed
}
