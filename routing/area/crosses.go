package area

import "github.com/paulmach/orb"

// Shape is one polygon of a Set prepared for Crosses: its rings in
// degrees and its bounding box. It is read-only and safe for concurrent
// use.
type Shape struct {
	rings []orb.Ring // closed; the outer ring first
	bound orb.Bound
}

// Shapes returns the Set's polygons prepared for Crosses.
func (s Set) Shapes() []*Shape {
	out := make([]*Shape, len(s.polys))
	for i, p := range s.polys {
		sh := &Shape{rings: make([]orb.Ring, len(p))}
		for k, r := range p {
			sh.rings[k] = r.orb()
		}
		sh.bound = sh.rings[0].Bound()
		out[i] = sh
	}
	return out
}

// Bound returns the polygon's bounding box.
func (sh *Shape) Bound() orb.Bound { return sh.bound }

// Crosses reports whether the segment a-b has a point in the polygon,
// its boundary included (a hole's inside is outside the polygon): an end
// lies in it, or the segment meets one of its rings.
func (sh *Shape) Crosses(a, b orb.Point) bool {
	sb := orb.Bound{Min: orb.Point{min(a[0], b[0]), min(a[1], b[1])}, Max: orb.Point{max(a[0], b[0]), max(a[1], b[1])}}
	if !sb.Intersects(sh.bound) {
		return false
	}
	if sh.Contains(a) || sh.Contains(b) {
		return true
	}
	for _, r := range sh.rings {
		for i := 0; i+1 < len(r); i++ {
			c, d := r[i], r[i+1]
			if max(c[0], d[0]) < sb.Min[0] || min(c[0], d[0]) > sb.Max[0] ||
				max(c[1], d[1]) < sb.Min[1] || min(c[1], d[1]) > sb.Max[1] {
				continue
			}
			if segmentsMeetF(a, b, c, d) {
				return true
			}
		}
	}
	return false
}

// Contains reports whether p lies in the polygon: inside the outer ring
// and outside every hole (on a ring counts as in, the hole's ring too).
func (sh *Shape) Contains(p orb.Point) bool {
	if !sh.bound.Contains(p) {
		return false
	}
	in, on := ringContains(sh.rings[0], p)
	if on {
		return true
	}
	if !in {
		return false
	}
	for _, h := range sh.rings[1:] {
		if in, on := ringContains(h, p); on {
			return true
		} else if in {
			return false
		}
	}
	return true
}

// ringContains reports whether p is inside the closed ring r, and
// whether it lies on it.
func ringContains(r orb.Ring, p orb.Point) (in, on bool) {
	for i := 0; i+1 < len(r); i++ {
		a, b := r[i], r[i+1]
		if orientF(a, b, p) == 0 && inBoxF(a, b, p) {
			return false, true
		}
		if (a[1] > p[1]) != (b[1] > p[1]) {
			x := a[0] + (p[1]-a[1])*(b[0]-a[0])/(b[1]-a[1])
			if p[0] < x {
				in = !in
			}
		}
	}
	return in, false
}

func orientF(a, b, c orb.Point) int {
	x := (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func inBoxF(a, b, p orb.Point) bool {
	return min(a[0], b[0]) <= p[0] && p[0] <= max(a[0], b[0]) && min(a[1], b[1]) <= p[1] && p[1] <= max(a[1], b[1])
}

// segmentsMeetF reports whether the segments a-b and c-d share a point.
func segmentsMeetF(a, b, c, d orb.Point) bool {
	o1, o2, o3, o4 := orientF(a, b, c), orientF(a, b, d), orientF(c, d, a), orientF(c, d, b)
	if o1*o2 < 0 && o3*o4 < 0 {
		return true
	}
	return (o1 == 0 && inBoxF(a, b, c)) || (o2 == 0 && inBoxF(a, b, d)) ||
		(o3 == 0 && inBoxF(c, d, a)) || (o4 == 0 && inBoxF(c, d, b))
}
