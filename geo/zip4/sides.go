package zip4

import (
	"math"
	"slices"
	"sort"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// How a face side becomes a polygon.
//
// The polygon of one side of a face is the set of points within MaxDepth
// of the face, on that side, that are nearer to this face than to any other
// street segment: the face side's cell of a Voronoi partition of the
// street network, cut at MaxDepth. It is built in a local metric
// projection by casting rays: the face is densified (a sample every
// Spacing metres), and from every sample a ray leaves along the side's
// normal (at a bend, the bisector of the two normals; at the face's ends,
// the bisector with the street's next segment where the street goes on,
// else the end segment's normal, so that a dead end or a way's last face
// ends square across the street). The ray stops at MaxDepth or where its
// point becomes nearer to another segment than to the face (found by
// bisection along the ray), and where it would cross the next sample's ray
// (the inside of a bend).
// The polygon is the face itself followed by the ray ends, simplified
// (Douglas-Peucker, 0.5 m) and checked to be simple; a polygon that is not
// is shrunk (all depths halved, up to four times) or dropped.
//
// The result partitions the street sides: a point a few metres off a
// street on its left is in that street's left polygon, the corner of a
// block is split along the bisector of its two streets, two parallel
// streets share the block between them at the midline, and consecutive
// faces of one street meet along the bisector of the bend between them.
// Points beyond MaxDepth of every street are in no polygon, and so is the
// outside of a street's dead end.

// Defaults of Options.
const (
	// DefaultMaxDepth is how far, in metres, a face side's polygon reaches
	// from the street at most: a deep US residential lot.
	DefaultMaxDepth = 80.0
	// DefaultSpacing is the distance, in metres, between the rays cast
	// from a face.
	DefaultSpacing = 10.0
)

// Geometry tolerances, metres.
const (
	minDepth     = 0.5  // the least depth of a ray (keeps rings simple where a street is crossed without a node)
	depthTol     = 0.01 // a point this much nearer to another street still counts as the face's
	simplifyTol  = 0.5  // Douglas-Peucker tolerance of the ray ends
	minAreaM2    = 1.0  // smaller polygons are degenerate
	shrinkTries  = 4    // halvings of the depths before a polygon is dropped
	convergeKeep = 0.95 // fraction of the distance to a crossing of adjacent rays kept
)

// xy is a point in the local projection, metres.
type xy struct{ x, y float64 }

// cand is a street segment near a face, projected.
type cand struct {
	ax, ay, bx, by         float64
	dx, dy, l2             float64 // b - a and its squared length
	minX, minY, maxX, maxY float64 // the box
	own                    bool    // a segment of the face itself
	s0, s1                 float64 // its arc range along the face (own only)
}

// newCand returns the candidate segment a-b.
func newCand(ax, ay, bx, by float64) cand {
	dx, dy := bx-ax, by-ay
	return cand{ax: ax, ay: ay, bx: bx, by: by, dx: dx, dy: dy, l2: dx*dx + dy*dy,
		minX: math.Min(ax, bx), minY: math.Min(ay, by), maxX: math.Max(ax, bx), maxY: math.Max(ay, by)}
}

// sideBuilder builds face side polygons; one per goroutine.
type sideBuilder struct {
	roads    []Road
	faces    []face
	segs     *segIndex
	maxDepth float64
	spacing  float64

	ids     []uint32  // the segments near the current face
	arc     []float64 // the current face's arc length at the start of each segment
	cands   []cand
	near    []cand // other streets near the current sample
	self    []cand // the face's own segments near the current sample
	samples []sample
}

// sample is one ray origin on a face.
type sample struct {
	p  xy      // position
	n  xy      // unit normal toward the side
	s  float64 // arc length from the face's start
	t  float64 // the ray's depth
	pt bool    // an original point of the way
}

// sidePolygon returns the polygon of face fi's side (left or right) in
// lon/lat and a point inside it; ok is false when the side has no usable
// polygon, with why ("degenerate" or "invalid").
func (b *sideBuilder) sidePolygon(fi int, side int) (ring orb.Ring, rep orb.Point, why string) {
	f := &b.faces[fi]
	pts := b.roads[f.road].Points[f.from : f.to+1]
	proj := geo.NewLocalProjection(pts[len(pts)/2][1])
	ox, oy := proj.XY(pts[0])
	toXY := func(p orb.Point) xy {
		x, y := proj.XY(p)
		return xy{x - ox, y - oy}
	}
	sign := 1.0
	if side == right {
		sign = -1
	}

	// The face's own points (consecutive duplicates dropped).
	var own []xy
	for _, p := range pts {
		q := toXY(p)
		if len(own) == 0 || dist(own[len(own)-1], q) > 1e-3 {
			own = append(own, q)
		}
	}
	if len(own) < 2 {
		return nil, rep, "degenerate"
	}

	var before, after *xy
	if f.hasBefore {
		q := toXY(f.before)
		if dist(q, own[0]) > 1e-3 {
			before = &q
		}
	}
	if f.hasAfter {
		q := toXY(f.after)
		if dist(q, own[len(own)-1]) > 1e-3 {
			after = &q
		}
	}
	b.densify(own, before, after, sign)
	b.gather(fi, pts, proj, ox, oy)
	for i := range b.samples {
		b.samples[i].t = b.depth(&b.samples[i])
	}
	b.capConvergence()

	var out []xy
	for try := 0; ; try++ {
		out = b.ring(own)
		if len(out) >= 3 && math.Abs(signedArea(out)) >= minAreaM2 && simple(out) {
			break
		}
		if try == shrinkTries {
			if len(out) < 3 || math.Abs(signedArea(out)) < minAreaM2 {
				return nil, rep, "degenerate"
			}
			return nil, rep, "invalid"
		}
		for i := range b.samples {
			b.samples[i].t = math.Max(minDepth, b.samples[i].t/2)
		}
	}
	if signedArea(out) < 0 {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	r, ok := b.repPoint(out)
	if !ok {
		return nil, rep, "degenerate"
	}
	ring = make(orb.Ring, 0, len(out)+1)
	for _, q := range out {
		ring = append(ring, proj.Point(q.x+ox, q.y+oy))
	}
	ring = append(ring, ring[0])
	return ring, proj.Point(r.x+ox, r.y+oy), ""
}

// densify fills b.samples with the ray origins of the face own: every
// original point and a sample at most spacing apart in between. before
// and after, when not nil, are where the street goes on beyond the face's
// ends: the end rays bisect the bend there, as interior rays do, so that
// the polygons of consecutive faces meet without a gap or an overlap.
func (b *sideBuilder) densify(own []xy, before, after *xy, sign float64) {
	b.samples = b.samples[:0]
	normalOf := func(a, c xy) xy { // left normal of a->c, times sign
		d := dist(a, c)
		return xy{-(c.y - a.y) / d * sign, (c.x - a.x) / d * sign}
	}
	normal := func(i int) xy { return normalOf(own[i], own[i+1]) }
	bisect := func(m, n xy) xy {
		sum := xy{m.x + n.x, m.y + n.y}
		if l := math.Hypot(sum.x, sum.y); l > 1e-9 {
			return xy{sum.x / l, sum.y / l}
		}
		return n
	}
	s := 0.0
	for i := 0; i+1 < len(own); i++ {
		n := normal(i)
		switch {
		case i > 0: // the bisector at an interior point
			b.samples = append(b.samples, sample{p: own[i], n: bisect(normal(i-1), n), s: s, pt: true})
		case before != nil:
			b.samples = append(b.samples, sample{p: own[i], n: bisect(normalOf(*before, own[0]), n), s: s, pt: true})
		default:
			b.samples = append(b.samples, sample{p: own[i], n: n, s: s, pt: true})
		}
		d := dist(own[i], own[i+1])
		k := int(math.Ceil(d / b.spacing))
		for j := 1; j < k; j++ {
			f := float64(j) / float64(k)
			b.samples = append(b.samples, sample{
				p: xy{own[i].x + f*(own[i+1].x-own[i].x), own[i].y + f*(own[i+1].y-own[i].y)},
				n: n, s: s + f*d,
			})
		}
		s += d
	}
	last := len(own) - 1
	n := normal(last - 1)
	if after != nil {
		n = bisect(n, normalOf(own[last], *after))
	}
	b.samples = append(b.samples, sample{p: own[last], n: n, s: s, pt: true})
}

// gather collects, projected, the street segments within twice the depth
// of face fi into b.cands. The face's own segments carry their arc range
// along the face, summed from its start as the face is walked.
func (b *sideBuilder) gather(fi int, pts []orb.Point, proj geo.LocalProjection, ox, oy float64) {
	f := &b.faces[fi]
	b.arc = b.arc[:0]
	s := 0.0
	for i := 1; i < len(pts); i++ {
		d := geo.HaversineM(pts[i-1], pts[i])
		b.arc = append(b.arc, s)
		s += d
	}
	bound := orb.MultiPoint(pts).Bound()
	reach := 2 * b.maxDepth
	dLat := reach / (geo.EarthRadiusM * math.Pi / 180)
	dLon := dLat / math.Max(0.01, math.Cos(bound.Center()[1]*math.Pi/180))
	bound.Min[0], bound.Min[1] = bound.Min[0]-dLon, bound.Min[1]-dLat
	bound.Max[0], bound.Max[1] = bound.Max[0]+dLon, bound.Max[1]+dLat
	b.cands, b.ids = b.cands[:0], b.ids[:0]
	b.segs.query(bound, func(id uint32) { b.ids = append(b.ids, id) })
	slices.Sort(b.ids)
	for _, id := range slices.Compact(b.ids) {
		road, i, pa, pb := b.segs.points(id)
		ax, ay := proj.XY(pa)
		bx, by := proj.XY(pb)
		c := newCand(ax-ox, ay-oy, bx-ox, by-oy)
		if road == int(f.road) && i > int(f.from) && i <= int(f.to) {
			c.own = true
			c.s0 = b.arc[i-int(f.from)-1]
			c.s1 = c.s0 + geo.HaversineM(pa, pb)
		}
		b.cands = append(b.cands, c)
	}
}

// depth returns how far the ray of sample sm reaches.
func (b *sideBuilder) depth(sm *sample) float64 {
	reach := 2 * b.maxDepth
	b.near, b.self = b.near[:0], b.self[:0]
	// The ray's box: another street farther than maxDepth from every
	// point of the ray is never nearer than the face (whose distance is
	// at most the depth), so it is left out of the searches below. The
	// margin keeps that true of distances as computed.
	end := xy{sm.p.x + b.maxDepth*sm.n.x, sm.p.y + b.maxDepth*sm.n.y}
	rx0, rx1 := math.Min(sm.p.x, end.x), math.Max(sm.p.x, end.x)
	ry0, ry1 := math.Min(sm.p.y, end.y), math.Max(sm.p.y, end.y)
	far := b.maxDepth + 1e-6
	for i := range b.cands {
		c := &b.cands[i]
		minX, maxX, minY, maxY := c.minX, c.maxX, c.minY, c.maxY
		if minX > sm.p.x+reach || maxX < sm.p.x-reach || minY > sm.p.y+reach || maxY < sm.p.y-reach {
			continue
		}
		if c.own && sm.s >= c.s0-reach && sm.s <= c.s1+reach {
			b.self = append(b.self, *c) // the face near the sample
			continue
		}
		gx := math.Max(0, math.Max(minX-rx1, rx0-maxX))
		gy := math.Max(0, math.Max(minY-ry1, ry0-maxY))
		if gx*gx+gy*gy >= far*far {
			continue
		}
		b.near = append(b.near, *c)
	}
	if len(b.near) == 0 {
		return b.maxDepth
	}
	// below(t): whether another street is more than depthTol nearer
	// than the face at depth t. The face's distance is at most t (t
	// exactly on a straight stretch, less inside a bend, where the
	// bisecting ray runs at the same distance from both sides).
	below := func(t float64) bool {
		px, py := sm.p.x+t*sm.n.x, sm.p.y+t*sm.n.y
		own := t
		if len(b.self) > 0 {
			own = math.Min(t, nearest(b.self, px, py))
		}
		return nearerThan(b.near, px, py, own)
	}
	if !below(b.maxDepth) {
		return b.maxDepth
	}
	if below(minDepth) {
		return minDepth
	}
	lo, hi := minDepth, b.maxDepth
	for range 16 {
		mid := (lo + hi) / 2
		if !below(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// nearest returns the distance from (px, py) to the nearest segment of
// cs.
func nearest(cs []cand, px, py float64) float64 {
	best := math.Inf(1)
	for i := range cs {
		if d := dist2(&cs[i], px, py); d < best {
			best = d
		}
	}
	return math.Sqrt(best)
}

// nearerThan reports whether nearest(cs, px, py) - own < -depthTol: some
// segment of cs more than depthTol nearer to (px, py) than own. It stops
// at the first segment that decides it (the distance only falls as
// segments are added), so the answer is the one the full minimum gives.
func nearerThan(cs []cand, px, py, own float64) bool {
	best := math.Inf(1)
	for i := range cs {
		if d := dist2(&cs[i], px, py); d < best {
			best = d
			if math.Sqrt(best)-own < -depthTol {
				return true
			}
		}
	}
	return false
}

// dist2 returns the squared distance from (px, py) to segment c.
func dist2(c *cand, px, py float64) float64 {
	dx, dy, l2 := c.dx, c.dy, c.l2
	wx, wy := px-c.ax, py-c.ay
	u := 0.0
	if l2 > 0 {
		u = math.Max(0, math.Min(1, (wx*dx+wy*dy)/l2))
	}
	ex, ey := wx-u*dx, wy-u*dy
	return ex*ex + ey*ey
}

// capConvergence shortens adjacent rays that would cross (inside a bend)
// to just before their crossing.
func (b *sideBuilder) capConvergence() {
	s := b.samples
	for i := 0; i+1 < len(s); i++ {
		p, q := &s[i], &s[i+1]
		// Solve p.p + a p.n = q.p + c q.n.
		den := p.n.x*(-q.n.y) - p.n.y*(-q.n.x)
		if math.Abs(den) < 1e-12 {
			continue
		}
		rx, ry := q.p.x-p.p.x, q.p.y-p.p.y
		a := (rx*(-q.n.y) - ry*(-q.n.x)) / den
		c := (p.n.x*ry - p.n.y*rx) / den
		if a > 0 && c > 0 {
			p.t = math.Max(minDepth, math.Min(p.t, convergeKeep*a))
			q.t = math.Max(minDepth, math.Min(q.t, convergeKeep*c))
		}
	}
}

// ring returns the face (own) followed by the simplified ray ends in
// reverse, consecutive duplicates dropped (not closed).
func (b *sideBuilder) ring(own []xy) []xy {
	ends := make([]xy, len(b.samples))
	for i, s := range b.samples {
		ends[i] = xy{s.p.x + s.t*s.n.x, s.p.y + s.t*s.n.y}
	}
	ends = simplify(ends, simplifyTol)
	out := append([]xy(nil), own...)
	for i := len(ends) - 1; i >= 0; i-- {
		out = append(out, ends[i])
	}
	k := 0
	for _, q := range out {
		if k == 0 || dist(out[k-1], q) > 1e-3 {
			out[k] = q
			k++
		}
	}
	out = out[:k]
	for len(out) > 1 && dist(out[0], out[len(out)-1]) <= 1e-3 {
		out = out[:len(out)-1]
	}
	return out
}

// repPoint returns a point inside ring: halfway out along the deepest
// rays, else the ring's vertex centroid.
func (b *sideBuilder) repPoint(ring []xy) (xy, bool) {
	order := make([]int, len(b.samples))
	for i := range order {
		order[i] = i
	}
	mid := len(b.samples) / 2
	sort.SliceStable(order, func(i, j int) bool {
		si, sj := b.samples[order[i]], b.samples[order[j]]
		if si.t != sj.t {
			return si.t > sj.t
		}
		return abs(order[i]-mid) < abs(order[j]-mid)
	})
	tried := 0
	for _, i := range order {
		if i == 0 || i == len(b.samples)-1 {
			continue // the end rays are edges of the ring
		}
		if tried++; tried > 32 {
			break
		}
		s := b.samples[i]
		p := xy{s.p.x + s.t/2*s.n.x, s.p.y + s.t/2*s.n.y}
		if clearlyInside(ring, p) {
			return p, true
		}
	}
	var c xy
	for _, q := range ring {
		c.x += q.x / float64(len(ring))
		c.y += q.y / float64(len(ring))
	}
	return c, clearlyInside(ring, c)
}

// clearlyInside reports whether p is inside the ring and not within a
// centimetre of its boundary, so that it stays inside once converted to
// lon/lat.
func clearlyInside(r []xy, p xy) bool {
	if !inRing(r, p) {
		return false
	}
	for i := range r {
		if segDist(r[i], r[(i+1)%len(r)], p) < 0.01 {
			return false
		}
	}
	return true
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

func dist(a, b xy) float64 { return math.Hypot(a.x-b.x, a.y-b.y) }

// signedArea returns the ring's area, positive when counter-clockwise.
func signedArea(r []xy) float64 {
	a := 0.0
	for i := range r {
		j := (i + 1) % len(r)
		a += r[i].x*r[j].y - r[j].x*r[i].y
	}
	return a / 2
}

// inRing reports whether p is inside the ring (ray casting).
func inRing(r []xy, p xy) bool {
	in := false
	for i, j := 0, len(r)-1; i < len(r); j, i = i, i+1 {
		if (r[i].y > p.y) != (r[j].y > p.y) && p.x < (r[j].x-r[i].x)*(p.y-r[i].y)/(r[j].y-r[i].y)+r[i].x {
			in = !in
		}
	}
	return in
}

// simple reports whether no two non-adjacent edges of the closed ring r
// meet.
func simple(r []xy) bool {
	n := len(r)
	for i := 0; i < n; i++ {
		a, b := r[i], r[(i+1)%n]
		for j := i + 2; j < n; j++ {
			if i == 0 && j == n-1 {
				continue // adjacent through the closing edge
			}
			if segmentsMeet(a, b, r[j], r[(j+1)%n]) {
				return false
			}
		}
	}
	return true
}

// segmentsMeet reports whether segments ab and cd share a point.
func segmentsMeet(a, b, c, d xy) bool {
	if math.Max(a.x, b.x) < math.Min(c.x, d.x) || math.Max(c.x, d.x) < math.Min(a.x, b.x) ||
		math.Max(a.y, b.y) < math.Min(c.y, d.y) || math.Max(c.y, d.y) < math.Min(a.y, b.y) {
		return false
	}
	o1, o2 := orient(a, b, c), orient(a, b, d)
	o3, o4 := orient(c, d, a), orient(c, d, b)
	if o1*o2 < 0 && o3*o4 < 0 {
		return true
	}
	return (o1 == 0 && onSegment(a, b, c)) || (o2 == 0 && onSegment(a, b, d)) ||
		(o3 == 0 && onSegment(c, d, a)) || (o4 == 0 && onSegment(c, d, b))
}

func orient(a, b, c xy) float64 {
	v := (b.x-a.x)*(c.y-a.y) - (b.y-a.y)*(c.x-a.x)
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

func onSegment(a, b, p xy) bool {
	return p.x >= math.Min(a.x, b.x) && p.x <= math.Max(a.x, b.x) && p.y >= math.Min(a.y, b.y) && p.y <= math.Max(a.y, b.y)
}

// simplify is Douglas-Peucker on an open polyline, keeping its ends.
func simplify(pts []xy, tol float64) []xy {
	if len(pts) <= 2 {
		return pts
	}
	keep := make([]bool, len(pts))
	keep[0], keep[len(pts)-1] = true, true
	var rec func(i, j int)
	rec = func(i, j int) {
		if j <= i+1 {
			return
		}
		a, b := pts[i], pts[j]
		best, bi := -1.0, -1
		for k := i + 1; k < j; k++ {
			if d := segDist(a, b, pts[k]); d > best {
				best, bi = d, k
			}
		}
		if best > tol {
			keep[bi] = true
			rec(i, bi)
			rec(bi, j)
		}
	}
	rec(0, len(pts)-1)
	out := pts[:0:0]
	for i, k := range keep {
		if k {
			out = append(out, pts[i])
		}
	}
	return out
}

// segDist returns the distance from p to segment ab.
func segDist(a, b, p xy) float64 {
	dx, dy := b.x-a.x, b.y-a.y
	l2 := dx*dx + dy*dy
	u := 0.0
	if l2 > 0 {
		u = math.Max(0, math.Min(1, ((p.x-a.x)*dx+(p.y-a.y)*dy)/l2))
	}
	return math.Hypot(p.x-a.x-u*dx, p.y-a.y-u*dy)
}
