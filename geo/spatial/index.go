// Package spatial owns geosvc's polygon index: a packed R-tree (sorted by
// the Sort-Tile-Recursive method) over the bounding boxes of polygons,
// with exact point-in-polygon tests (holes honoured) that skip the parts of
// rings far from the point: boxes of chunks of edges, and for long rings a
// band index that leaves only the edges level with the point (bands.go).
// An Index is a handful of flat arrays, written into a binfmt file and
// used from it as loaded, with no rebuild.
package spatial

import (
	"math"
	"slices"
	"sort"
	"unsafe"

	"github.com/paulmach/orb"
)

// nodeSize is the fan-out of the tree; chunkEdges the number of ring edges
// summarised by one chunk box.
const (
	nodeSize   = 16
	chunkEdges = 32
)

// Index is a read-only spatial index of items, each a multipolygon. It is
// safe for concurrent use.
type Index struct {
	coords    []float64 // x, y of every ring point; rings closed
	ringStart []uint32  // ring -> first point; len rings+1
	ringChunk []uint32  // ring -> first chunk; len rings+1
	chunkBox  []float64 // minX, minY, maxX, maxY of each chunk's edges
	polyRing  []uint32  // polygon -> first ring (the outer); len polys+1
	polyItem  []uint32  // polygon -> item
	polyBox   []float64 // polygon bbox, 4 per polygon
	itemPoly  []uint32  // item -> first polygon; len items+1
	nodeBox   []float64 // tree node boxes, leaves (polygons in STR order) first
	nodeIdx   []uint32  // leaf: polygon; inner node: first child node
	levels    []uint32  // end (exclusive) of each level in nodes
	// The band index of long rings (bands.go).
	ringBand  []uint32  // ring -> first band; len rings+1 (no bands: equal)
	bandParam []float64 // per ring: lowest y, bands per unit of y
	bandStart []uint32  // band -> first entry of bandEdge; len bands+1
	bandEdge  []uint32  // first point of each edge listed in a band
}

// Len returns the number of items.
func (ix *Index) Len() int { return len(ix.itemPoly) - 1 }

// Builder collects the items of an Index.
type Builder struct {
	ix Index
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder {
	return &Builder{ix: Index{ringStart: []uint32{0}, ringChunk: []uint32{0}, polyRing: []uint32{0}, itemPoly: []uint32{0}}}
}

// Grow reserves room for points more ring points (and their chunks), so
// that adding them does not reallocate; a hint, for large indexes.
func (b *Builder) Grow(points int) {
	ix := &b.ix
	ix.coords = slices.Grow(ix.coords, 2*points)
	ix.chunkBox = slices.Grow(ix.chunkBox, 4*(points/chunkEdges+1))
}

// Add adds an item and returns its number (0, 1, ...). Rings are closed
// if they are not; polygons without an outer ring are skipped.
func (b *Builder) Add(mp orb.MultiPolygon) int {
	ix := &b.ix
	item := len(ix.itemPoly) - 1
	for _, p := range mp {
		if len(p) == 0 || len(p[0]) < 3 {
			continue
		}
		box := orb.Bound{Min: orb.Point{math.Inf(1), math.Inf(1)}, Max: orb.Point{math.Inf(-1), math.Inf(-1)}}
		for _, r := range p {
			if len(r) < 3 {
				continue
			}
			start := len(ix.coords) / 2
			for _, pt := range r {
				ix.coords = append(ix.coords, pt[0], pt[1])
			}
			if r[0] != r[len(r)-1] {
				ix.coords = append(ix.coords, r[0][0], r[0][1])
			}
			end := len(ix.coords) / 2
			for e := start; e < end-1; e += chunkEdges {
				last := min(e+chunkEdges, end-1)
				cb := orb.Bound{Min: orb.Point{math.Inf(1), math.Inf(1)}, Max: orb.Point{math.Inf(-1), math.Inf(-1)}}
				for k := e; k <= last; k++ {
					x, y := ix.coords[2*k], ix.coords[2*k+1]
					if x < cb.Min[0] {
						cb.Min[0] = x
					}
					if x > cb.Max[0] {
						cb.Max[0] = x
					}
					if y < cb.Min[1] {
						cb.Min[1] = y
					}
					if y > cb.Max[1] {
						cb.Max[1] = y
					}
				}
				ix.chunkBox = append(ix.chunkBox, cb.Min[0], cb.Min[1], cb.Max[0], cb.Max[1])
				box = box.Union(cb)
			}
			ix.ringStart = append(ix.ringStart, uint32(end))
			ix.ringChunk = append(ix.ringChunk, uint32(len(ix.chunkBox)/4))
		}
		ix.polyRing = append(ix.polyRing, uint32(len(ix.ringStart)-1))
		ix.polyItem = append(ix.polyItem, uint32(item))
		ix.polyBox = append(ix.polyBox, box.Min[0], box.Min[1], box.Max[0], box.Max[1])
	}
	ix.itemPoly = append(ix.itemPoly, uint32(len(ix.polyItem)))
	return item
}

// Build packs the tree and returns the Index; the Builder must not be
// used afterwards.
func (b *Builder) Build() *Index {
	ix := &b.ix
	n := len(ix.polyItem)
	order := make([]uint32, n)
	for i := range order {
		order[i] = uint32(i)
	}
	cx := func(i uint32) float64 { return ix.polyBox[4*i] + ix.polyBox[4*i+2] }
	cy := func(i uint32) float64 { return ix.polyBox[4*i+1] + ix.polyBox[4*i+3] }
	sort.Slice(order, func(a, b int) bool { return cx(order[a]) < cx(order[b]) })
	leaves := (n + nodeSize - 1) / nodeSize
	slices := int(math.Ceil(math.Sqrt(float64(leaves))))
	per := slices * nodeSize
	for s := 0; s < n; s += per {
		part := order[s:min(s+per, n)]
		sort.Slice(part, func(a, b int) bool { return cy(part[a]) < cy(part[b]) })
	}
	for _, p := range order {
		ix.nodeBox = append(ix.nodeBox, ix.polyBox[4*p:4*p+4]...)
		ix.nodeIdx = append(ix.nodeIdx, p)
	}
	ix.buildBands()
	ix.levels = append(ix.levels, uint32(n))
	start := 0
	for end := n; end-start > 1; {
		for i := start; i < end; i += nodeSize {
			last := min(i+nodeSize, end)
			bx := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
			for c := i; c < last; c++ {
				bx[0] = math.Min(bx[0], ix.nodeBox[4*c])
				bx[1] = math.Min(bx[1], ix.nodeBox[4*c+1])
				bx[2] = math.Max(bx[2], ix.nodeBox[4*c+2])
				bx[3] = math.Max(bx[3], ix.nodeBox[4*c+3])
			}
			ix.nodeBox = append(ix.nodeBox, bx[:]...)
			ix.nodeIdx = append(ix.nodeIdx, uint32(i))
		}
		start, end = end, len(ix.nodeIdx)
		ix.levels = append(ix.levels, uint32(end))
	}
	out := *ix
	b.ix = Index{}
	return &out
}

// Search calls fn with every polygon containing p, as (item, polygon
// number within the item), until fn returns false. Items whose polygons
// touch may be reported once per polygon containing p.
func (ix *Index) Search(p orb.Point, fn func(item, poly int) bool) {
	if len(ix.nodeIdx) == 0 {
		return
	}
	if ix.search(p, fn) == 0 && (p[0] == 180 || p[0] == -180) {
		// The antimeridian is one line with two longitudes: an area drawn
		// up to -180 contains a point given as 180, and the other way.
		ix.search(orb.Point{-p[0], p[1]}, fn)
	}
}

// search is Search for one longitude; it returns the number of matches.
func (ix *Index) search(p orb.Point, fn func(item, poly int) bool) int {
	found := 0
	x, y := p[0], p[1]
	var stackBuf [64]uint64
	stack := append(stackBuf[:0], uint64(len(ix.levels)-1)<<32|uint64(len(ix.nodeIdx)-1))
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		level, node := int(top>>32), int(uint32(top))
		if level == 0 {
			poly := int(ix.nodeIdx[node])
			if ix.polygonContains(poly, x, y) {
				found++
				item := int(ix.polyItem[poly])
				if !fn(item, poly-int(ix.itemPoly[item])) {
					return found
				}
			}
			continue
		}
		first := int(ix.nodeIdx[node])
		last := min(first+nodeSize, int(ix.levels[level-1]))
		for c := first; c < last; c++ {
			b := ix.nodeBox[4*c : 4*c+4 : 4*c+4]
			if x < b[0] || y < b[1] || x > b[2] || y > b[3] {
				continue
			}
			stack = append(stack, uint64(level-1)<<32|uint64(c))
		}
	}
	return found
}

// AppendContaining appends the items containing p to dst, each once, and
// returns it.
func (ix *Index) AppendContaining(dst []int, p orb.Point) []int {
	n := len(dst)
	ix.Search(p, func(item, _ int) bool {
		for _, d := range dst[n:] {
			if d == item {
				return true
			}
		}
		dst = append(dst, item)
		return true
	})
	return dst
}

// Contains reports whether item contains p.
func (ix *Index) Contains(item int, p orb.Point) bool {
	_, ok := ix.PolygonAt(item, p)
	return ok
}

// PolygonAt returns the number (within item) of the polygon of item that
// contains p, and false when none does.
func (ix *Index) PolygonAt(item int, p orb.Point) (int, bool) {
	first, last := int(ix.itemPoly[item]), int(ix.itemPoly[item+1])
	for poly := first; poly < last; poly++ {
		if ix.polygonContains(poly, p[0], p[1]) {
			return poly - first, true
		}
	}
	return 0, false
}

// polygonContains reports whether polygon poly contains (x, y): inside its
// outer ring and inside none of its holes. A point on a ring counts as in
// the polygon (on the outer ring, or on a hole's ring), so that a point on
// a border shared by two areas is found in both rather than in neither.
func (ix *Index) polygonContains(poly int, x, y float64) bool {
	b := ix.polyBox[4*poly : 4*poly+4 : 4*poly+4]
	if x < b[0] || y < b[1] || x > b[2] || y > b[3] {
		return false
	}
	r0, r1 := int(ix.polyRing[poly]), int(ix.polyRing[poly+1])
	switch ix.ringPosition(r0, x, y) {
	case outside:
		return false
	case onRing:
		return true
	}
	for r := r0 + 1; r < r1; r++ {
		if ix.ringPosition(r, x, y) == inside {
			return false
		}
	}
	return true
}

// Where a point lies relative to a ring.
const (
	outside = iota
	inside
	onRing
)

// onEdgeTolerance is how far, in degrees (about 0.1 mm), a point may lie
// from an edge and still count as on it: float noise of points computed on
// an edge, not a real distance.
const onEdgeTolerance = 1e-9

// ringPosition is the even-odd ray test of ring r (a ray towards +x),
// skipping the chunks of edges that cannot cross the ray (or, for a long
// ring, scanning the edges of the point's band only), with points on an
// edge (or a vertex) reported as onRing.
func (ix *Index) ringPosition(r int, x, y float64) int {
	if b0, b1 := int(ix.ringBand[r]), int(ix.ringBand[r+1]); b1 > b0 {
		return ix.bandPosition(r, b0, b1, x, y)
	}
	in := false
	start, end := int(ix.ringStart[r]), int(ix.ringStart[r+1])
	c0, c1 := int(ix.ringChunk[r]), int(ix.ringChunk[r+1])
	cs := ix.coords
	for c := c0; c < c1; c++ {
		cb := ix.chunkBox[4*c : 4*c+4 : 4*c+4]
		if y < cb[1] || y > cb[3] || x > cb[2] {
			continue
		}
		e0 := start + (c-c0)*chunkEdges
		e1 := min(e0+chunkEdges, end-1)
		for k := e0; k < e1; k++ {
			ay, by := cs[2*k+1], cs[2*k+3]
			if y < ay && y < by || y > ay && y > by {
				continue // edgeTest would find nothing: skip the call
			}
			switch edgeTest(cs[2*k], ay, cs[2*k+2], by, x, y) {
			case edgeOn:
				return onRing
			case edgeCrosses:
				in = !in
			}
		}
	}
	if in {
		return inside
	}
	return outside
}

// What edgeTest finds.
const (
	edgeMisses = iota
	edgeCrosses
	edgeOn
)

// edgeTest tells whether (x, y) lies on the edge (ax, ay)-(bx, by)
// (within onEdgeTolerance), else whether the edge crosses the ray from
// (x, y) towards +x (half-open in y, so a ray through a vertex counts
// once). Either needs y within [min(ay, by), max(ay, by)]: callers skip
// the other edges before calling it.
func edgeTest(ax, ay, bx, by, x, y float64) int {
	if x >= min(ax, bx) && x <= max(ax, bx) && y >= min(ay, by) && y <= max(ay, by) {
		cross := (bx-ax)*(y-ay) - (by-ay)*(x-ax)
		if math.Abs(cross) <= onEdgeTolerance*(math.Abs(bx-ax)+math.Abs(by-ay)) {
			return edgeOn
		}
	}
	if (ay > y) != (by > y) && x < (bx-ax)*(y-ay)/(by-ay)+ax {
		return edgeCrosses
	}
	return edgeMisses
}

// Geometry returns item's polygons. The rings alias the index's memory:
// treat them as read-only.
func (ix *Index) Geometry(item int) orb.MultiPolygon {
	first, last := int(ix.itemPoly[item]), int(ix.itemPoly[item+1])
	mp := make(orb.MultiPolygon, 0, last-first)
	for poly := first; poly < last; poly++ {
		mp = append(mp, ix.polygon(poly))
	}
	return mp
}

// Polygon returns polygon number k of item (see Geometry).
func (ix *Index) Polygon(item, k int) orb.Polygon {
	return ix.polygon(int(ix.itemPoly[item]) + k)
}

func (ix *Index) polygon(poly int) orb.Polygon {
	r0, r1 := int(ix.polyRing[poly]), int(ix.polyRing[poly+1])
	p := make(orb.Polygon, 0, r1-r0)
	for r := r0; r < r1; r++ {
		s, e := int(ix.ringStart[r]), int(ix.ringStart[r+1])
		p = append(p, orb.Ring(unsafe.Slice((*orb.Point)(unsafe.Pointer(&ix.coords[2*s])), e-s)))
	}
	return p
}

// Bound returns item's bounding box.
func (ix *Index) Bound(item int) orb.Bound {
	first, last := int(ix.itemPoly[item]), int(ix.itemPoly[item+1])
	if first == last {
		return orb.Bound{}
	}
	b := orb.Bound{Min: orb.Point{math.Inf(1), math.Inf(1)}, Max: orb.Point{math.Inf(-1), math.Inf(-1)}}
	for poly := first; poly < last; poly++ {
		pb := ix.polyBox[4*poly : 4*poly+4]
		b = b.Union(orb.Bound{Min: orb.Point{pb[0], pb[1]}, Max: orb.Point{pb[2], pb[3]}})
	}
	return b
}
