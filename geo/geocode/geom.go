package geocode

import (
	"math"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// metresPerDegLat is the length of one degree of latitude.
const metresPerDegLat = geo.EarthRadiusM * math.Pi / 180

// segDist returns the distance in metres from p to segment a-b and the
// fraction along it of the closest point, on a local plane at p.
func segDist(p, a, b orb.Point) (d, t float64) {
	return segDistK(p, a, b, kxAt(p))
}

// kxAt returns the length in metres of a degree of longitude at p.
func kxAt(p orb.Point) float64 { return metresPerDegLat * math.Cos(p[1]*math.Pi/180) }

// segDistK is segDist with kxAt(p) given, for many segments around one
// point.
func segDistK(p, a, b orb.Point, kx float64) (d, t float64) {
	ax, ay := (a[0]-p[0])*kx, (a[1]-p[1])*metresPerDegLat
	bx, by := (b[0]-p[0])*kx, (b[1]-p[1])*metresPerDegLat
	dx, dy := bx-ax, by-ay
	l2 := dx*dx + dy*dy
	if l2 > 0 {
		t = -(ax*dx + ay*dy) / l2
		t = math.Max(0, math.Min(1, t))
	}
	cx, cy := ax+t*dx, ay+t*dy
	return math.Hypot(cx, cy), t
}

// lerp returns the point at fraction t from a to b.
func lerp(a, b orb.Point, t float64) orb.Point {
	return orb.Point{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1])}
}

// ringDist returns 0 when p lies inside ring, else the distance in
// metres from p to the ring's outline.
func ringDist(p orb.Point, ring []orb.Point) float64 {
	if len(ring) < 2 {
		if len(ring) == 1 {
			return geo.HaversineM(p, ring[0])
		}
		return math.Inf(1)
	}
	if len(ring) >= 4 && ring[0] == ring[len(ring)-1] && inRing(p, ring) {
		return 0
	}
	best := math.Inf(1)
	for i := 1; i < len(ring); i++ {
		d, _ := segDist(p, ring[i-1], ring[i])
		best = math.Min(best, d)
	}
	return best
}

// inRing reports whether p lies inside the closed ring (even-odd rule).
func inRing(p orb.Point, ring []orb.Point) bool {
	in := false
	for i, j := 0, len(ring)-1; i < len(ring); j, i = i, i+1 {
		a, b := ring[i], ring[j]
		if (a[1] > p[1]) != (b[1] > p[1]) && p[0] < (b[0]-a[0])*(p[1]-a[1])/(b[1]-a[1])+a[0] {
			in = !in
		}
	}
	return in
}

// ringArea returns the area of a closed ring in square degrees (for
// comparing the sizes of nearby rings).
func ringArea(ring []orb.Point) float64 {
	var a float64
	for i, j := 0, len(ring)-1; i < len(ring); j, i = i, i+1 {
		a += ring[j][0]*ring[i][1] - ring[i][0]*ring[j][1]
	}
	return math.Abs(a / 2)
}

// lineLength returns the length of a polyline in metres.
func lineLength(ls []orb.Point) float64 {
	var l float64
	for i := 1; i < len(ls); i++ {
		l += geo.HaversineM(ls[i-1], ls[i])
	}
	return l
}

// alongLine returns the point at fraction t of a polyline's length.
func alongLine(ls []orb.Point, t float64) orb.Point {
	if len(ls) == 1 {
		return ls[0]
	}
	total := lineLength(ls)
	want := t * total
	for i := 1; i < len(ls); i++ {
		d := geo.HaversineM(ls[i-1], ls[i])
		if want <= d || i == len(ls)-1 {
			if d == 0 {
				return ls[i]
			}
			return lerp(ls[i-1], ls[i], math.Min(1, want/d))
		}
		want -= d
	}
	return ls[len(ls)-1]
}

// padBound grows b by m metres on every side.
func padBound(b orb.Bound, m float64) orb.Bound {
	dy := m / metresPerDegLat
	dx := dy / math.Max(0.01, math.Cos(b.Center()[1]*math.Pi/180))
	return orb.Bound{Min: orb.Point{b.Min[0] - dx, b.Min[1] - dy}, Max: orb.Point{b.Max[0] + dx, b.Max[1] + dy}}
}
