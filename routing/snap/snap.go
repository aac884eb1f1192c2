// Package snap owns the snapping index: given the road polylines of a
// network, it finds the nearest point on any road segment (not merely the
// nearest vertex) to a coordinate, with the segment's edge, the position
// along the edge by length, and the distance. It is OSRM's phantom-node
// lookup.
//
// The index is a uniform grid over lon/lat (cells of about defaultCellM
// metres) whose non-empty cells are stored as CSR arrays: per grid row the
// sorted column numbers of its non-empty cells, and per cell the segments
// that cross it. Distances are compared in a local equirectangular
// projection around the query point (geo.LocalProjection) and reported as
// haversine metres (geo.HaversineM).
//
// An Index is read-only once built or loaded and safe for concurrent use.
package snap

import (
	"fmt"
	"math"
	"slices"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// defaultCellM is the grid cell size in metres used by Build.
const defaultCellM = 125

// noEdge marks a shape point that starts no segment (the last point of an
// edge, or a point outside every edge's range).
const noEdge = math.MaxUint32

// Hit is a coordinate snapped onto a road segment.
type Hit struct {
	// Edge is the edge (polyline) the point lies on.
	Edge uint32
	// Point is the nearest point on the segment.
	Point orb.Point
	// DistanceM is the haversine distance from the query to Point, metres.
	DistanceM float64
	// Fraction is the position of Point along the whole edge by length:
	// 0 at its first shape point, 1 at its last (0 for a zero-length edge).
	Fraction float64
	// Segment is the index of the segment within the edge: the segment
	// from its shape point Segment to Segment+1.
	Segment int
}

// Index is the snapping index over a set of polylines.
type Index struct {
	shape  []orb.Point
	cum    []float64 // per shape point: metres from its edge's first point
	segEdg []uint32  // per shape point: the edge whose segment starts there, or noEdge
	starts []uint32
	ends   []uint32

	g grid
	// CSR over non-empty cells: row y holds cells rowStart[y]..rowStart[y+1]
	// whose columns are cellX (sorted); cell c holds segments
	// segs[cellStart[c]:cellStart[c+1]], each the shape index of the
	// segment's first point.
	rowStart  []uint32
	cellX     []uint32
	cellStart []uint32
	segs      []uint32
}

// grid maps lon/lat to cells.
type grid struct {
	MinLon, MinLat   float64
	CellLon, CellLat float64
	NX, NY           int
}

// cellOf returns the (possibly out-of-grid) cell of p, clamped to a range
// that cannot overflow.
func (g *grid) cellOf(p orb.Point) (int, int) {
	return clampInt((p[0] - g.MinLon) / g.CellLon), clampInt((p[1] - g.MinLat) / g.CellLat)
}

func clampInt(f float64) int {
	const lim = 1 << 40
	switch {
	case !(f > -lim): // also NaN
		return -lim
	case f > lim:
		return lim
	}
	return int(math.Floor(f))
}

// Build indexes the polylines shape[starts[e]:ends[e]] for every edge e,
// with defaultCellM cells. Edge ranges must lie within shape and must not
// overlap; an edge with fewer than two points has no segment and is never
// returned. The index keeps shape (do not modify it afterwards).
func Build(shape []orb.Point, starts, ends []uint32) (*Index, error) {
	return build(shape, starts, ends, defaultCellM)
}

func build(shape []orb.Point, starts, ends []uint32, cellM float64) (*Index, error) {
	if len(starts) != len(ends) {
		return nil, fmt.Errorf("snap: %d edge starts but %d ends", len(starts), len(ends))
	}
	if uint64(len(shape)) >= noEdge || uint64(len(starts)) >= noEdge {
		return nil, fmt.Errorf("snap: too many shape points or edges")
	}
	ix := &Index{
		shape:  shape,
		cum:    make([]float64, len(shape)),
		segEdg: make([]uint32, len(shape)),
		starts: starts,
		ends:   ends,
	}
	for i := range ix.segEdg {
		ix.segEdg[i] = noEdge
	}
	owned := make([]bool, len(shape))
	minLon, minLat := math.Inf(1), math.Inf(1)
	maxLon, maxLat := math.Inf(-1), math.Inf(-1)
	nsegs := 0
	for e := range starts {
		s, t := starts[e], ends[e]
		if s > t || int(t) > len(shape) {
			return nil, fmt.Errorf("snap: edge %d range [%d, %d) outside the %d shape points", e, s, t, len(shape))
		}
		for i := s; i < t; i++ {
			if owned[i] {
				return nil, fmt.Errorf("snap: edge %d range [%d, %d) overlaps another edge at shape point %d", e, s, t, i)
			}
			owned[i] = true
		}
		if t-s < 2 {
			continue
		}
		for i := s; i < t; i++ {
			p := shape[i]
			if !(math.Abs(p[0]) <= 180 && math.Abs(p[1]) <= 90) {
				return nil, fmt.Errorf("snap: edge %d shape point %d (%v) is not a valid lon/lat", e, i, p)
			}
			minLon, maxLon = min(minLon, p[0]), max(maxLon, p[0])
			minLat, maxLat = min(minLat, p[1]), max(maxLat, p[1])
			if i+1 < t {
				ix.segEdg[i] = uint32(e)
				ix.cum[i+1] = ix.cum[i] + geo.HaversineM(p, shape[i+1])
				nsegs++
			}
		}
	}
	if nsegs == 0 {
		ix.rowStart = []uint32{0}
		ix.cellStart = []uint32{0}
		return ix, nil
	}

	lp := geo.NewLocalProjection((minLat + maxLat) / 2)
	kx, ky := lp.XY(orb.Point{1, 1})
	g := grid{MinLon: minLon, MinLat: minLat, CellLon: cellM / kx, CellLat: cellM / ky}
	g.NX = int((maxLon-minLon)/g.CellLon) + 1
	g.NY = int((maxLat-minLat)/g.CellLat) + 1
	ix.g = g

	// Pass 1 counts the (cell, segment) pairs per row, pass 2 places them,
	// then each row is sorted by column and compacted into cells.
	rowCount := make([]uint32, g.NY+1)
	ix.forEachSegmentCell(func(x, y int, i uint32) { rowCount[y+1]++ })
	for y := 1; y <= g.NY; y++ {
		rowCount[y] += rowCount[y-1]
	}
	pairs := make([]uint64, rowCount[g.NY]) // column<<32 | shape index
	fill := slices.Clone(rowCount[:g.NY])
	ix.forEachSegmentCell(func(x, y int, i uint32) {
		pairs[fill[y]] = uint64(x)<<32 | uint64(i)
		fill[y]++
	})
	ix.rowStart = make([]uint32, g.NY+1)
	ix.segs = make([]uint32, len(pairs))
	for y := 0; y < g.NY; y++ {
		row := pairs[rowCount[y]:rowCount[y+1]]
		slices.Sort(row)
		for k, pr := range row {
			x := uint32(pr >> 32)
			if k == 0 || x != uint32(row[k-1]>>32) {
				ix.cellX = append(ix.cellX, x)
				ix.cellStart = append(ix.cellStart, rowCount[y]+uint32(k))
			}
			ix.segs[rowCount[y]+uint32(k)] = uint32(pr)
		}
		ix.rowStart[y+1] = uint32(len(ix.cellX))
	}
	ix.cellStart = append(ix.cellStart, uint32(len(ix.segs)))
	return ix, nil
}

// forEachSegmentCell calls fn for every grid cell every segment crosses
// (widened by a hair so that a segment on a cell border is in both cells).
func (ix *Index) forEachSegmentCell(fn func(x, y int, i uint32)) {
	g := &ix.g
	const eps = 1e-9
	for i, e := range ix.segEdg {
		if e == noEdge {
			continue
		}
		a, b := ix.shape[i], ix.shape[i+1]
		ua, va := (a[0]-g.MinLon)/g.CellLon, (a[1]-g.MinLat)/g.CellLat
		ub, vb := (b[0]-g.MinLon)/g.CellLon, (b[1]-g.MinLat)/g.CellLat
		y0 := max(0, int(math.Floor(min(va, vb)-eps)))
		y1 := min(g.NY-1, int(math.Floor(max(va, vb)+eps)))
		for y := y0; y <= y1; y++ {
			// The part of the segment within the row's band, in u.
			var u0, u1 float64
			if dv := vb - va; math.Abs(dv) < 1e-12 {
				u0, u1 = min(ua, ub), max(ua, ub)
			} else {
				t0 := (float64(y) - eps - va) / dv
				t1 := (float64(y+1) + eps - va) / dv
				if t0 > t1 {
					t0, t1 = t1, t0
				}
				t0, t1 = max(0, t0), min(1, t1)
				if t0 > t1 {
					continue
				}
				u0, u1 = ua+t0*(ub-ua), ua+t1*(ub-ua)
				if u0 > u1 {
					u0, u1 = u1, u0
				}
			}
			x0 := max(0, int(math.Floor(u0-eps)))
			x1 := min(g.NX-1, int(math.Floor(u1+eps)))
			for x := x0; x <= x1; x++ {
				fn(x, y, uint32(i))
			}
		}
	}
}

// numEdges returns the number of edges the index was built over.
func (ix *Index) numEdges() int { return len(ix.starts) }

// Shape returns the polylines' points as given to Build (or as loaded),
// aliasing the index's storage: read-only.
func (ix *Index) Shape() []orb.Point { return ix.shape }

// edgeLengthM returns the haversine length of edge e in metres.
func (ix *Index) edgeLengthM(e uint32) float64 {
	s, t := ix.starts[e], ix.ends[e]
	if t-s < 2 {
		return 0
	}
	return ix.cum[t-1]
}

// sizeBytes returns the memory the index's arrays take, including the
// shape.
func (ix *Index) sizeBytes() int {
	return 16*len(ix.shape) + 8*len(ix.cum) + 4*(len(ix.segEdg)+len(ix.starts)+len(ix.ends)+
		len(ix.rowStart)+len(ix.cellX)+len(ix.cellStart)+len(ix.segs))
}

// query is the state of one search around a point.
type query struct {
	ix       *Index
	p        orb.Point
	kx, ky   float64
	cx, cy   int
	radius2  float64
	maxRings int
}

func (ix *Index) newQuery(p orb.Point, radiusM float64) (query, bool) {
	if len(ix.segs) == 0 || !(radiusM >= 0) || !(math.Abs(p[0]) <= 180 && math.Abs(p[1]) <= 90) {
		return query{}, false
	}
	kx, ky := geo.NewLocalProjection(p[1]).XY(orb.Point{1, 1})
	q := query{ix: ix, p: p, kx: kx, ky: ky, radius2: radiusM * radiusM}
	g := &ix.g
	// Distance from p to the grid's box; nothing to find beyond radius.
	maxLon := g.MinLon + float64(g.NX)*g.CellLon
	maxLat := g.MinLat + float64(g.NY)*g.CellLat
	dx := max(0, g.MinLon-p[0], p[0]-maxLon) * kx
	dy := max(0, g.MinLat-p[1], p[1]-maxLat) * ky
	if dx*dx+dy*dy > q.radius2 {
		return query{}, false
	}
	q.cx, q.cy = g.cellOf(p)
	// Rings beyond this one lie entirely outside the grid.
	q.maxRings = max(q.cx, g.NX-1-q.cx, q.cy, g.NY-1-q.cy)
	return q, true
}

// ringBound2 returns the squared distance from p to the outside of the box
// of rings 0..r-1, a lower bound for anything in ring r and beyond.
func (q *query) ringBound2(r int) float64 {
	if r == 0 {
		return 0
	}
	g := &q.ix.g
	left := g.MinLon + float64(q.cx-r+1)*g.CellLon
	right := g.MinLon + float64(q.cx+r)*g.CellLon
	bottom := g.MinLat + float64(q.cy-r+1)*g.CellLat
	top := g.MinLat + float64(q.cy+r)*g.CellLat
	d := min((q.p[0]-left)*q.kx, (right-q.p[0])*q.kx, (q.p[1]-bottom)*q.ky, (top-q.p[1])*q.ky)
	d = max(d, 0)
	return d * d
}

// ring calls fn with the segments of every cell of ring r (cells at
// Chebyshev distance r from p's cell) that lies in the grid and may hold
// a point within sqrt(*lim2) metres of p; *lim2 may shrink while fn runs.
func (q *query) ring(r int, lim2 *float64, fn func(segs []uint32)) {
	if r == 0 {
		q.row(q.cy, q.cx, q.cx, lim2, fn)
		return
	}
	x0, x1 := q.cx-r, q.cx+r
	// Nearer rows first: the side cells from p's row outward, then the
	// top and bottom rows.
	for d := 0; d < r; d++ {
		for _, y := range [2]int{q.cy - d, q.cy + d} {
			q.row(y, x0, x0, lim2, fn)
			q.row(y, x1, x1, lim2, fn)
			if d == 0 {
				break
			}
		}
	}
	q.row(q.cy-r, x0, x1, lim2, fn)
	q.row(q.cy+r, x0, x1, lim2, fn)
}

// row calls fn with the segments of each non-empty cell x0..x1 of row y
// that may hold a point within sqrt(*lim2) metres of p.
func (q *query) row(y, x0, x1 int, lim2 *float64, fn func(segs []uint32)) {
	ix := q.ix
	g := &ix.g
	if y < 0 || y >= g.NY {
		return
	}
	// Clip the columns to those within the limit of p.
	bottom := g.MinLat + float64(y)*g.CellLat
	dy := max(0, bottom-q.p[1], q.p[1]-(bottom+g.CellLat)) * q.ky
	rem := *lim2 - dy*dy
	if rem < 0 {
		return
	}
	w := math.Sqrt(rem) / q.kx
	x0 = max(x0, 0, clampInt((q.p[0]-w-g.MinLon)/g.CellLon))
	x1 = min(x1, g.NX-1, clampInt((q.p[0]+w-g.MinLon)/g.CellLon))
	if x0 > x1 {
		return
	}
	lo, hi := int(ix.rowStart[y]), int(ix.rowStart[y+1])
	end := hi
	want := uint32(x0)
	// Binary search for the first cell with column >= x0.
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ix.cellX[m] < want {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for c := lo; c < end && int(ix.cellX[c]) <= x1; c++ {
		fn(ix.segs[ix.cellStart[c]:ix.cellStart[c+1]])
	}
}

// segDist2 returns the squared projected distance from the query point to
// segment i and the parameter t in [0, 1] of the nearest point on it.
func (q *query) segDist2(i uint32) (d2, t float64) {
	a, b := q.ix.shape[i], q.ix.shape[i+1]
	ax, ay := (a[0]-q.p[0])*q.kx, (a[1]-q.p[1])*q.ky
	dx, dy := (b[0]-a[0])*q.kx, (b[1]-a[1])*q.ky
	if l2 := dx*dx + dy*dy; l2 > 0 {
		t = -(ax*dx + ay*dy) / l2
		t = min(max(t, 0), 1)
	}
	x, y := ax+t*dx, ay+t*dy
	return x*x + y*y, t
}

// hit builds the Hit for segment i at parameter t.
func (ix *Index) hit(p orb.Point, i uint32, t float64) Hit {
	e := ix.segEdg[i]
	a, b := ix.shape[i], ix.shape[i+1]
	pt := a
	switch {
	case t >= 1:
		pt = b
	case t > 0:
		pt = orb.Point{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1])}
	}
	h := Hit{Edge: e, Point: pt, DistanceM: geo.HaversineM(p, pt), Segment: int(i - ix.starts[e])}
	if total := ix.cum[ix.ends[e]-1]; total > 0 {
		h.Fraction = min(1, (ix.cum[i]+t*(ix.cum[i+1]-ix.cum[i]))/total)
	}
	return h
}

// better orders candidates: by distance, then edge id, then position.
func better(d2 float64, e, i uint32, bd2 float64, be, bi uint32) bool {
	if d2 != bd2 {
		return d2 < bd2
	}
	if e != be {
		return e < be
	}
	return i < bi
}

// Nearest returns the nearest point within radiusM metres of p on a
// segment of an edge that accept allows (nil accepts every edge). Equal
// distances go to the lower edge id, then the lower segment. accept may be
// called several times for one edge, and not for edges that cannot win.
// ok is false when no accepted segment lies within radiusM. Distances are
// compared (and radiusM applied) in the local projection at p, which
// differs from the reported haversine DistanceM by well under 0.1 % at
// snapping distances.
func (ix *Index) Nearest(p orb.Point, radiusM float64, accept func(edge uint32) bool) (hit Hit, ok bool) {
	if accept == nil {
		return ix.nearest(p, radiusM, nil)
	}
	return ix.nearest(p, radiusM, func(e, _ uint32) bool { return accept(e) })
}

// NearestSegment is Nearest with a filter on segments rather than edges:
// accept is given the edge and the index of the segment within it (the
// segment from the edge's shape point segment to segment+1, as in
// Hit.Segment), and may be called several times for one segment.
// Bearing and curb filters need it: the direction of a road differs from
// one segment to the next.
func (ix *Index) NearestSegment(p orb.Point, radiusM float64, accept func(edge uint32, segment int) bool) (hit Hit, ok bool) {
	if accept == nil {
		return ix.nearest(p, radiusM, nil)
	}
	return ix.nearest(p, radiusM, func(e, i uint32) bool { return accept(e, int(i-ix.starts[e])) })
}

// nearest is Nearest with accept given the edge and the shape index of
// the segment's first point.
func (ix *Index) nearest(p orb.Point, radiusM float64, accept func(edge, i uint32) bool) (hit Hit, ok bool) {
	q, ok := ix.newQuery(p, radiusM)
	if !ok {
		return Hit{}, false
	}
	var (
		found  bool
		bestD2 = q.radius2
		bestE  uint32
		bestI  uint32
		bestT  float64
	)
	visit := func(segs []uint32) {
		for _, i := range segs {
			d2, t := q.segDist2(i)
			if d2 > bestD2 {
				continue
			}
			e := ix.segEdg[i]
			if found && !better(d2, e, i, bestD2, bestE, bestI) {
				continue
			}
			if accept != nil && !accept(e, i) {
				continue
			}
			found, bestD2, bestE, bestI, bestT = true, d2, e, i, t
		}
	}
	for r := 0; r <= q.maxRings; r++ {
		if q.ringBound2(r) > bestD2 {
			break
		}
		q.ring(r, &bestD2, visit)
	}
	if !found {
		return Hit{}, false
	}
	return ix.hit(p, bestI, bestT), true
}

// within returns, for every accepted edge with a segment within radiusM of
// p, its nearest point, sorted by distance (then edge id); at most max
// hits when maxHits > 0. accept (nil accepts all) is called at most once per
// edge.
func (ix *Index) within(p orb.Point, radiusM float64, accept func(edge uint32) bool, maxHits int) []Hit {
	q, ok := ix.newQuery(p, radiusM)
	if !ok {
		return nil
	}
	type cand struct {
		d2, t float64
		e, i  uint32
	}
	var cands []cand
	var seen edgeMemo // edge -> index in cands, or -1 if rejected
	less := func(a, b cand) int {
		if better(a.d2, a.e, a.i, b.d2, b.e, b.i) {
			return -1
		}
		if a == b {
			return 0
		}
		return 1
	}
	limit2 := q.radius2
	visit := func(segs []uint32) {
		for _, i := range segs {
			d2, t := q.segDist2(i)
			if d2 > limit2 {
				continue
			}
			e := ix.segEdg[i]
			k, ok := seen.get(e)
			if !ok {
				if accept != nil && !accept(e) {
					seen.put(e, -1)
					continue
				}
				seen.put(e, len(cands))
				cands = append(cands, cand{d2, t, e, i})
				continue
			}
			if k >= 0 && better(d2, e, i, cands[k].d2, e, cands[k].i) {
				cands[k] = cand{d2, t, e, i}
			}
		}
	}
	for r := 0; r <= q.maxRings; r++ {
		if q.ringBound2(r) > limit2 {
			break
		}
		q.ring(r, &limit2, visit)
		if maxHits > 0 && len(cands) >= maxHits {
			// Anything in later rings must beat the max-th best so far.
			sorted := slices.Clone(cands)
			slices.SortFunc(sorted, less)
			limit2 = min(limit2, sorted[maxHits-1].d2)
		}
	}
	slices.SortFunc(cands, less)
	if maxHits > 0 && len(cands) > maxHits {
		cands = cands[:maxHits]
	}
	hits := make([]Hit, len(cands))
	for k, c := range cands {
		hits[k] = ix.hit(p, c.i, c.t)
	}
	return hits
}

// edgeMemo maps edge ids to ints: a short list while small (the common
// case), a map beyond.
type edgeMemo struct {
	edges []uint32
	vals  []int
	m     map[uint32]int
}

const edgeMemoList = 32

func (em *edgeMemo) get(e uint32) (int, bool) {
	if em.m != nil {
		v, ok := em.m[e]
		return v, ok
	}
	for k, x := range em.edges {
		if x == e {
			return em.vals[k], true
		}
	}
	return 0, false
}

func (em *edgeMemo) put(e uint32, v int) {
	if em.m == nil {
		if len(em.edges) < edgeMemoList {
			em.edges = append(em.edges, e)
			em.vals = append(em.vals, v)
			return
		}
		em.m = make(map[uint32]int, 4*edgeMemoList)
		for k, x := range em.edges {
			em.m[x] = em.vals[k]
		}
	}
	em.m[e] = v
}
