package mapdata

import (
	"hash/maphash"
	"math"
	"sort"
	"unsafe"

	"github.com/paulmach/orb"
)

// Band is one zoom band of the layer: the geometry kept for maps whose
// scale is at least MinMPP metres per pixel (and less than the next
// band's).
type Band struct {
	// MinMPP is the finest scale of the band, metres per pixel.
	MinMPP float64
	// Tolerance is the Douglas-Peucker tolerance in metres: half a pixel
	// at MinMPP (0: the geometry as read).
	Tolerance float64
	// MinArea is the smallest area kept, square metres: a pixel at
	// MinMPP. Lines shorter than MinMPP are dropped too.
	MinArea float64
	// CellM is the side of the band's grid cells in metres.
	CellM float64
}

// numBands is the number of zoom bands.
const numBands = 6

// Bands are the zoom bands, finest first. At 40° of latitude a 256-pixel
// web-mercator tile of zoom z has 119,700/2^z metres per pixel: band 0
// serves z16 and deeper, 1 z14-15, 2 z12-13, 3 z10-11, 4 z8-9, 5 the rest.
var Bands = [numBands]Band{
	{MinMPP: 0, Tolerance: 0, MinArea: 0, CellM: 500},
	{MinMPP: 2, Tolerance: 1, MinArea: 4, CellM: 1000},
	{MinMPP: 8, Tolerance: 4, MinArea: 64, CellM: 4000},
	{MinMPP: 32, Tolerance: 16, MinArea: 1024, CellM: 16000},
	{MinMPP: 128, Tolerance: 64, MinArea: 16384, CellM: 64000},
	{MinMPP: 512, Tolerance: 256, MinArea: 262144, CellM: 256000},
}

// BandFor returns the band of a map of metresPerPixel: the coarsest band
// whose MinMPP is at most metresPerPixel (band 0 for anything finer, or
// not a positive number).
func BandFor(metresPerPixel float64) int {
	for b := numBands - 1; b > 0; b-- {
		if metresPerPixel >= Bands[b].MinMPP {
			return b
		}
	}
	return 0
}

// maxPiecePoints is the most points an area piece (all its rings) or a
// line piece has: larger ones are cut.
const maxPiecePoints = 512

// metric projects lon/lat to metres around a latitude (an
// equirectangular projection, good to a fraction of a percent over a
// feature's extent), for simplification and areas.
type metric struct{ kx, ky float64 }

func metricAt(lat float64) metric {
	const m = 111_319.49
	return metric{kx: m * math.Cos(lat*math.Pi/180), ky: m}
}

// simplify returns the Douglas-Peucker simplification of pts (tolerance
// tol metres), keeping the first and last point.
func (mt metric) simplify(pts []orb.Point, tol float64) []orb.Point {
	if tol <= 0 || len(pts) <= 2 {
		return pts
	}
	keep := make([]bool, len(pts))
	keep[0], keep[len(pts)-1] = true, true
	type span struct{ a, b int }
	stack := []span{{0, len(pts) - 1}}
	tol2 := tol * tol
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.b-s.a < 2 {
			continue
		}
		ax, ay := pts[s.a][0]*mt.kx, pts[s.a][1]*mt.ky
		bx, by := pts[s.b][0]*mt.kx, pts[s.b][1]*mt.ky
		worst, wi := -1.0, -1
		for i := s.a + 1; i < s.b; i++ {
			d := segDist2(pts[i][0]*mt.kx, pts[i][1]*mt.ky, ax, ay, bx, by)
			if d > worst {
				worst, wi = d, i
			}
		}
		if worst > tol2 {
			keep[wi] = true
			stack = append(stack, span{s.a, wi}, span{wi, s.b})
		}
	}
	out := make([]orb.Point, 0, len(pts)/2+2)
	for i, k := range keep {
		if k {
			out = append(out, pts[i])
		}
	}
	return out
}

// segDist2 is the squared distance from (px, py) to segment a-b.
func segDist2(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = max(0, min(1, ((px-ax)*dx+(py-ay)*dy)/l2))
	}
	ex, ey := ax+t*dx-px, ay+t*dy-py
	return ex*ex + ey*ey
}

// simplifyRing simplifies a closed ring; nil when it collapses.
func (mt metric) simplifyRing(r orb.Ring, tol float64) orb.Ring {
	if tol <= 0 {
		return r
	}
	// Split the ring at its point farthest from the first so that both
	// halves have fixed ends.
	far, fi := -1.0, 0
	for i, p := range r {
		dx, dy := (p[0]-r[0][0])*mt.kx, (p[1]-r[0][1])*mt.ky
		if d := dx*dx + dy*dy; d > far {
			far, fi = d, i
		}
	}
	if fi == 0 {
		return nil
	}
	a := mt.simplify(r[:fi+1], tol)
	b := mt.simplify(r[fi:], tol)
	out := make(orb.Ring, 0, len(a)+len(b))
	out = append(out, a...)
	out = append(out, b[1:]...)
	if len(out) < 4 {
		return nil
	}
	return out
}

// areaM2 returns the signed area of a ring in square metres.
func (mt metric) areaM2(r orb.Ring) float64 {
	var s float64
	for i := 0; i+1 < len(r); i++ {
		s += r[i][0]*r[i+1][1] - r[i+1][0]*r[i][1]
	}
	return s / 2 * mt.kx * mt.ky
}

// lengthM returns a line's length in metres.
func (mt metric) lengthM(ls []orb.Point) float64 {
	var s float64
	for i := 0; i+1 < len(ls); i++ {
		s += math.Hypot((ls[i+1][0]-ls[i][0])*mt.kx, (ls[i+1][1]-ls[i][1])*mt.ky)
	}
	return s
}

// clipRing clips a ring to box b (Sutherland-Hodgman); nil when nothing
// is left. The result may run along b's edges; it is closed.
func clipRing(r orb.Ring, b orb.Bound) orb.Ring {
	pts := []orb.Point(r)
	if len(pts) > 1 && pts[0] == pts[len(pts)-1] {
		pts = pts[:len(pts)-1]
	}
	for edge := range 4 {
		if len(pts) == 0 {
			return nil
		}
		in := func(p orb.Point) bool {
			switch edge {
			case 0:
				return p[0] >= b.Min[0]
			case 1:
				return p[0] <= b.Max[0]
			case 2:
				return p[1] >= b.Min[1]
			}
			return p[1] <= b.Max[1]
		}
		cut := func(p, q orb.Point) orb.Point {
			var t float64
			switch edge {
			case 0:
				t = (b.Min[0] - p[0]) / (q[0] - p[0])
			case 1:
				t = (b.Max[0] - p[0]) / (q[0] - p[0])
			case 2:
				t = (b.Min[1] - p[1]) / (q[1] - p[1])
			default:
				t = (b.Max[1] - p[1]) / (q[1] - p[1])
			}
			x := orb.Point{p[0] + t*(q[0]-p[0]), p[1] + t*(q[1]-p[1])}
			switch edge { // exactly on the edge
			case 0:
				x[0] = b.Min[0]
			case 1:
				x[0] = b.Max[0]
			case 2:
				x[1] = b.Min[1]
			default:
				x[1] = b.Max[1]
			}
			return x
		}
		var out []orb.Point
		prev := pts[len(pts)-1]
		for _, p := range pts {
			switch {
			case in(p) && in(prev):
				out = append(out, p)
			case in(p):
				out = append(out, cut(prev, p), p)
			case in(prev):
				out = append(out, cut(prev, p))
			}
			prev = p
		}
		pts = out
	}
	if len(pts) < 3 {
		return nil
	}
	out := make(orb.Ring, len(pts), len(pts)+1)
	copy(out, pts)
	out = append(out, pts[0])
	return out
}

// polyPoints counts a polygon's points.
func polyPoints(p orb.Polygon) int {
	n := 0
	for _, r := range p {
		n += len(r)
	}
	return n
}

// splitPolygon cuts p into pieces of at most maxPiecePoints points by
// halving its box along the longer side, recursively.
func splitPolygon(p orb.Polygon, b orb.Bound, depth int, out []orb.Polygon) []orb.Polygon {
	if polyPoints(p) <= maxPiecePoints || depth >= 16 {
		return append(out, p)
	}
	var halves [2]orb.Bound
	if b.Max[0]-b.Min[0] >= b.Max[1]-b.Min[1] {
		m := (b.Min[0] + b.Max[0]) / 2
		halves[0] = orb.Bound{Min: b.Min, Max: orb.Point{m, b.Max[1]}}
		halves[1] = orb.Bound{Min: orb.Point{m, b.Min[1]}, Max: b.Max}
	} else {
		m := (b.Min[1] + b.Max[1]) / 2
		halves[0] = orb.Bound{Min: b.Min, Max: orb.Point{b.Max[0], m}}
		halves[1] = orb.Bound{Min: orb.Point{b.Min[0], m}, Max: b.Max}
	}
	for _, h := range halves {
		outer := clipRing(p[0], h)
		if outer == nil {
			continue
		}
		q := orb.Polygon{outer}
		for _, hole := range p[1:] {
			if c := clipRing(hole, h); c != nil {
				q = append(q, c)
			}
		}
		out = splitPolygon(q, h, depth+1, out)
	}
	return out
}

// feature is an area or line of a band being packed.
type feature struct {
	class Class
	rings []orb.Ring // an area's rings, or one line
	area  float64    // m², for ordering areas
	seq   int        // input order, for a stable order
}

// pack simplifies, cuts and indexes the features into a Layer.
func pack(bound orb.Bound, areas []Area, lines []Line, places []Place) *Layer {
	l := &Layer{bound: bound}
	pool := newRingPool()
	for bi, bd := range Bands {
		var feats []feature
		for i, a := range areas {
			if len(a.Polygon) == 0 || len(a.Polygon[0]) < 4 {
				continue
			}
			mt := metricAt(a.Polygon[0][0][1])
			area := math.Abs(mt.areaM2(a.Polygon[0]))
			if area < bd.MinArea || area == 0 {
				continue
			}
			outer := mt.simplifyRing(a.Polygon[0], bd.Tolerance)
			if outer == nil {
				// Larger than a pixel but simplified away (a small
				// square building): kept as it is.
				outer = a.Polygon[0]
			}
			p := orb.Polygon{outer}
			for _, h := range a.Polygon[1:] {
				if len(h) < 4 {
					continue
				}
				if math.Abs(mt.areaM2(h)) < bd.MinArea {
					continue
				}
				sh := mt.simplifyRing(h, bd.Tolerance)
				if sh == nil {
					sh = h
				}
				p = append(p, sh)
			}
			for _, piece := range splitPolygon(p, outer.Bound(), 0, nil) {
				feats = append(feats, feature{class: a.Class, rings: piece, area: area, seq: i})
			}
		}
		sort.SliceStable(feats, func(i, j int) bool {
			if feats[i].class != feats[j].class {
				return feats[i].class < feats[j].class
			}
			return feats[i].area > feats[j].area
		})
		numAreas := len(feats)
		for i, ln := range lines {
			if len(ln.Line) < 2 {
				continue
			}
			mt := metricAt(ln.Line[0][1])
			if bd.MinMPP > 0 && mt.lengthM(ln.Line) < bd.MinMPP {
				continue
			}
			s := mt.simplify(ln.Line, bd.Tolerance)
			for start := 0; start+1 < len(s); start += maxPiecePoints - 1 {
				end := min(start+maxPiecePoints, len(s))
				feats = append(feats, feature{class: ln.Class, rings: []orb.Ring{orb.Ring(s[start:end])}, seq: i})
			}
		}
		l.bands[bi] = pool.band(feats, numAreas, bound, bd.CellM)
	}
	l.coords, l.ringOff, l.ringLen = pool.coords, pool.off, pool.len
	l.places = newPlaceTable(places)
	return l
}

// ringPool stores rings once: a ring kept unchanged by a coarser band's
// simplification is shared.
type ringPool struct {
	coords   []int32
	off, len []uint32
	seen     map[uint64][]uint32
	seed     maphash.Seed
	buf      []int32
}

func newRingPool() *ringPool {
	return &ringPool{seen: map[uint64][]uint32{}, seed: maphash.MakeSeed()}
}

// add stores r (quantized) and returns its number.
func (rp *ringPool) add(r []orb.Point) uint32 {
	rp.buf = rp.buf[:0]
	for _, p := range r {
		rp.buf = append(rp.buf, fix(p[0]), fix(p[1]))
	}
	bs := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(rp.buf))), len(rp.buf)*4)
	h := maphash.Bytes(rp.seed, bs)
	for _, id := range rp.seen[h] {
		off, n := rp.off[id], rp.len[id]
		if int(n)*2 == len(rp.buf) && equalInt32(rp.coords[2*off:2*(off+n)], rp.buf) {
			return id
		}
	}
	id := uint32(len(rp.off))
	rp.off = append(rp.off, uint32(len(rp.coords)/2))
	rp.len = append(rp.len, uint32(len(r)))
	rp.coords = append(rp.coords, rp.buf...)
	rp.seen[h] = append(rp.seen[h], id)
	return id
}

func equalInt32(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// band stores a band's features and builds its grid.
func (rp *ringPool) band(feats []feature, numAreas int, bound orb.Bound, cellM float64) band {
	bd := band{numAreas: numAreas, featRing: make([]uint32, 1, len(feats)+1)}
	for _, f := range feats {
		box := [4]int32{math.MaxInt32, math.MaxInt32, math.MinInt32, math.MinInt32}
		for _, r := range f.rings {
			id := rp.add(r)
			bd.rings = append(bd.rings, id)
			off, n := rp.off[id], rp.len[id]
			c := rp.coords[2*off : 2*(off+n)]
			for i := 0; i < len(c); i += 2 {
				box[0], box[1] = min(box[0], c[i]), min(box[1], c[i+1])
				box[2], box[3] = max(box[2], c[i]), max(box[3], c[i+1])
			}
		}
		bd.class = append(bd.class, uint8(f.class))
		bd.featRing = append(bd.featRing, uint32(len(bd.rings)))
		bd.box = append(bd.box, box[:]...)
	}
	bd.grid = makeGrid(bd.box, bound, cellM)
	return bd
}

// maxCells bounds a band's grid.
const maxCells = 1 << 20

// makeGrid indexes boxes (4 per feature) in a grid of cells of about
// cellM metres over bound (features beyond it fall in the border cells).
func makeGrid(boxes []int32, bound orb.Bound, cellM float64) grid {
	mt := metricAt((bound.Min[1] + bound.Max[1]) / 2)
	g := grid{MinX: fix(bound.Min[0]), MinY: fix(bound.Min[1])}
	cw := max(1, int64(cellM/mt.kx*1e7))
	ch := max(1, int64(cellM/mt.ky*1e7))
	w := int64(fix(bound.Max[0])) - int64(g.MinX)
	h := int64(fix(bound.Max[1])) - int64(g.MinY)
	for (w/cw+1)*(h/ch+1) > maxCells {
		cw, ch = cw*2, ch*2
	}
	g.CellW, g.CellH = int32(min(cw, math.MaxInt32)), int32(min(ch, math.MaxInt32))
	g.NX, g.NY = int(w/int64(g.CellW))+1, int(h/int64(g.CellH))+1
	counts := make([]uint32, g.NX*g.NY+1)
	each := func(f int, fn func(c int)) {
		cx0, cy0 := g.cell(boxes[4*f], boxes[4*f+1])
		cx1, cy1 := g.cell(boxes[4*f+2], boxes[4*f+3])
		for cy := cy0; cy <= cy1; cy++ {
			for cx := cx0; cx <= cx1; cx++ {
				fn(cy*g.NX + cx)
			}
		}
	}
	n := len(boxes) / 4
	for f := range n {
		each(f, func(c int) { counts[c+1]++ })
	}
	for i := 1; i < len(counts); i++ {
		counts[i] += counts[i-1]
	}
	g.start = counts
	g.items = make([]uint32, counts[len(counts)-1])
	fill := append([]uint32(nil), counts[:len(counts)-1]...)
	for f := range n {
		each(f, func(c int) { g.items[fill[c]] = uint32(f); fill[c]++ })
	}
	return g
}
