package area

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	orbgeo "github.com/paulmach/orb/geo"
)

// kmPerDegree is the length of a degree of latitude (and of longitude at
// the equator), km.
const kmPerDegree = 111.195

// checkedRing is a ring read from input: its distinct vertices, each
// one's position index as given, and its path for messages.
type checkedRing struct {
	r    ring
	orig []int
	path string
}

// checkRing checks a ring's positions as given (closing one included)
// and returns its distinct vertices.
func checkRing(pos []vertex, path string) (checkedRing, *Error) {
	n := len(pos)
	if n < 4 {
		return checkedRing{}, errorf(path, "has %d position%s: a ring needs at least 4 (3 corners, then the first again to close it)", n, plural(n))
	}
	if pos[0] != pos[n-1] {
		return checkedRing{}, errorf(path, "is not closed: its last position %s must repeat its first %s", pos[n-1], pos[0])
	}
	cr := checkedRing{path: path}
	for i, v := range pos[:n-1] {
		if k := len(cr.r); k > 0 && cr.r[k-1] == v {
			continue // a repeated position (also one that rounding made)
		}
		cr.r = append(cr.r, v)
		cr.orig = append(cr.orig, i)
	}
	for k := len(cr.r); k > 1 && cr.r[k-1] == cr.r[0]; k = len(cr.r) {
		cr.r, cr.orig = cr.r[:k-1], cr.orig[:k-1]
	}
	if len(cr.r) < 3 {
		return checkedRing{}, errorf(path, "has %d distinct corner%s: a ring needs at least 3", len(cr.r), plural(len(cr.r)))
	}
	return cr, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// String writes a vertex as [lon, lat].
func (v vertex) String() string {
	p := v.point()
	return fmt.Sprintf("[%g, %g]", p[0], p[1])
}

// checkPolygon checks a polygon's extent, that no ring crosses or touches
// itself or another, and that every hole lies inside the outer ring and
// outside the other holes; it returns the polygon with its outer ring
// counter-clockwise and its holes clockwise.
func checkPolygon(rings []checkedRing, path string) (polygon, *Error) {
	lo, hi := vertex{math.MaxInt32, math.MaxInt32}, vertex{math.MinInt32, math.MinInt32}
	for _, cr := range rings {
		for _, v := range cr.r {
			lo = vertex{min(lo[0], v[0]), min(lo[1], v[1])}
			hi = vertex{max(hi[0], v[0]), max(hi[1], v[1])}
		}
	}
	midLat := (float64(lo[1]) + float64(hi[1])) / 2 / scale
	wKm := float64(int64(hi[0])-int64(lo[0])) / scale * kmPerDegree * math.Cos(midLat*math.Pi/180)
	hKm := float64(int64(hi[1])-int64(lo[1])) / scale * kmPerDegree
	if wKm > MaxExtentKm || hKm > MaxExtentKm {
		return nil, errorf(path, "spans %.0f km east-west and %.0f km north-south: a polygon may span at most %d km each way", wKm, hKm, MaxExtentKm)
	}
	if err := checkCrossings(rings); err != nil {
		return nil, err
	}
	for _, cr := range rings {
		if signedArea(cr.r) == 0 {
			return nil, errorf(cr.path, "has no area: its corners lie on one line")
		}
	}
	outer := rings[0]
	for k, h := range rings[1:] {
		if !inRing(outer.r, h.r[0]) {
			return nil, errorf(h.path, "is a hole outside its polygon's outer ring %s", outer.path)
		}
		for _, o := range rings[1 : k+1] {
			if inRing(o.r, h.r[0]) || inRing(h.r, o.r[0]) {
				return nil, errorf(h.path, "is a hole overlapping the hole %s", o.path)
			}
		}
	}
	poly := make(polygon, len(rings))
	for k, cr := range rings {
		r := slices.Clone(cr.r)
		if ccw := signedArea(r) > 0; ccw != (k == 0) {
			slices.Reverse(r)
		}
		poly[k] = r
	}
	return poly, nil
}

// segment is one side of a ring in the crossing sweep.
type segment struct {
	a, b       vertex
	ring, side int // side i runs from vertex i to i+1
	minX, maxX int32
}

// checkCrossings finds a pair of ring sides that cross or touch (other
// than neighbours sharing their corner), sweeping the sides by x.
func checkCrossings(rings []checkedRing) *Error {
	var segs []segment
	for k, cr := range rings {
		for i, a := range cr.r {
			b := cr.r[(i+1)%len(cr.r)]
			segs = append(segs, segment{a: a, b: b, ring: k, side: i, minX: min(a[0], b[0]), maxX: max(a[0], b[0])})
		}
	}
	slices.SortFunc(segs, func(s, t segment) int {
		return cmp.Or(cmp.Compare(s.minX, t.minX), cmp.Compare(s.ring, t.ring), cmp.Compare(s.side, t.side))
	})
	for i := range segs {
		s := &segs[i]
		for j := i + 1; j < len(segs) && segs[j].minX <= s.maxX; j++ {
			t := &segs[j]
			if max(s.a[1], s.b[1]) < min(t.a[1], t.b[1]) || max(t.a[1], t.b[1]) < min(s.a[1], s.b[1]) {
				continue
			}
			if !sidesMeet(rings, s, t) {
				continue
			}
			if s.ring > t.ring || (s.ring == t.ring && s.side > t.side) {
				s, t = t, s
			}
			rs, rt := rings[s.ring], rings[t.ring]
			at := fmt.Sprintf("%s[%d]", rs.path, rs.orig[s.side])
			if s.ring == t.ring {
				return errorf(at, "the ring crosses or touches itself: its side from position %d meets its side from position %d", rs.orig[s.side], rt.orig[t.side])
			}
			return errorf(at, "the side from this position crosses or touches ring %s (its side from position %d): rings must not meet", rt.path, rt.orig[t.side])
		}
	}
	return nil
}

// sidesMeet reports whether two ring sides share a point other than the
// corner of two neighbouring sides.
func sidesMeet(rings []checkedRing, s, t *segment) bool {
	if s.ring == t.ring {
		n := len(rings[s.ring].r)
		switch {
		case (s.side+1)%n == t.side:
			return overlapAtCorner(s.b, s.a, t.b)
		case (t.side+1)%n == s.side:
			return overlapAtCorner(t.b, t.a, s.b)
		}
	}
	return segmentsMeet(s.a, s.b, t.a, t.b)
}

// overlapAtCorner reports whether the sides c-p and c-q, sharing corner
// c, run along each other (q folds back over p's side).
func overlapAtCorner(c, p, q vertex) bool {
	if orient(c, p, q) != 0 {
		return false
	}
	// The sides are collinear: compare directions on the axis that moves
	// (no product, so no overflow).
	if p[0] != c[0] {
		return (p[0] > c[0]) == (q[0] > c[0])
	}
	return (p[1] > c[1]) == (q[1] > c[1])
}

// orient returns the sign of the turn a -> b -> c: 1 left, -1 right, 0 on
// one line. Exact: coordinates are integers and a polygon's extent keeps
// the products within int64.
func orient(a, b, c vertex) int {
	x := (int64(b[0])-int64(a[0]))*(int64(c[1])-int64(a[1])) - (int64(b[1])-int64(a[1]))*(int64(c[0])-int64(a[0]))
	return cmp.Compare(x, 0)
}

// segmentsMeet reports whether the segments a-b and c-d share a point.
func segmentsMeet(a, b, c, d vertex) bool {
	o1, o2, o3, o4 := orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
	if o1*o2 < 0 && o3*o4 < 0 {
		return true
	}
	return (o1 == 0 && inBox(a, b, c)) || (o2 == 0 && inBox(a, b, d)) ||
		(o3 == 0 && inBox(c, d, a)) || (o4 == 0 && inBox(c, d, b))
}

// inBox reports whether p lies in the bounding box of a and b.
func inBox(a, b, p vertex) bool {
	return min(a[0], b[0]) <= p[0] && p[0] <= max(a[0], b[0]) && min(a[1], b[1]) <= p[1] && p[1] <= max(a[1], b[1])
}

// inRing reports whether p lies strictly inside r (p must not lie on r:
// the callers' rings do not meet).
func inRing(r ring, p vertex) bool {
	in := false
	for i, j := 0, len(r)-1; i < len(r); j, i = i, i+1 {
		a, b := r[i], r[j]
		if (a[1] > p[1]) == (b[1] > p[1]) {
			continue
		}
		// p is left of the side's crossing of its latitude?
		dy := int64(b[1]) - int64(a[1])
		lhs := (int64(p[0]) - int64(a[0])) * dy
		rhs := (int64(b[0]) - int64(a[0])) * (int64(p[1]) - int64(a[1]))
		if (dy > 0 && lhs < rhs) || (dy < 0 && lhs > rhs) {
			in = !in
		}
	}
	return in
}

// signedArea returns twice the ring's area in square units, positive when
// counter-clockwise (in float64: only its sign and size matter).
func signedArea(r ring) float64 {
	var s float64
	o := r[0]
	for i := 1; i+1 < len(r); i++ {
		ax, ay := int64(r[i][0])-int64(o[0]), int64(r[i][1])-int64(o[1])
		bx, by := int64(r[i+1][0])-int64(o[0]), int64(r[i+1][1])-int64(o[1])
		s += float64(ax*by - ay*bx)
	}
	return s
}

// set checks the polygons' total area and makes them canonical.
func (d *decoder) set(polys []polygon) (Set, error) {
	var km2 float64
	for _, p := range polys {
		km2 += orbgeo.Area(Set{polys: []polygon{p}}.MultiPolygon()[0]) / 1e6
	}
	if km2 > MaxAreaKm2 {
		return Set{}, errorf("coordinates", "covers %.0f km² in all: the limit is %d km²", km2, MaxAreaKm2)
	}
	for _, p := range polys {
		for _, r := range p {
			k := 0
			for i, v := range r {
				if cmpVertex(v, r[k]) < 0 {
					k = i
				}
			}
			rotated := append(slices.Clone(r[k:]), r[:k]...)
			copy(r, rotated)
		}
		slices.SortFunc(p[1:], cmpRing)
	}
	slices.SortFunc(polys, cmpPolygon)
	polys = slices.CompactFunc(polys, func(a, b polygon) bool { return cmpPolygon(a, b) == 0 })
	return Set{polys: polys}, nil
}

func cmpVertex(a, b vertex) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) }

func cmpRing(a, b ring) int { return slices.CompareFunc(a, b, cmpVertex) }

func cmpPolygon(a, b polygon) int { return slices.CompareFunc(a, b, cmpRing) }
