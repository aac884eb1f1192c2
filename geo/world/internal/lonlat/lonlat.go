// Package lonlat repairs polygon rings given in longitude/latitude so that
// planar tests (point in polygon, area, orientation) answer as on the
// sphere: a ring drawn along the antimeridian with some vertices written
// -180 and others 180 is put on one side, and a ring that goes once around
// a pole (Antarctica's) is closed through that pole.
package lonlat

import (
	"errors"
	"fmt"
	"math"

	"github.com/paulmach/orb"
)

// ErrDegenerate is returned (wrapped) for a ring without area: fewer than
// three distinct points, or all on one line. Such rings come from a
// quantization grid too coarse for a small area (the Vatican at 1:10m).
var ErrDegenerate = errors.New("lonlat: ring without area")

// snap is how close to ±180 or ±90 (in degrees, about 1 cm) a coordinate
// is taken for the limit itself: float noise of a quantization transform,
// which may give 180.00000000000003 or 179.99999999999997 for 180.
const snap = 1e-7

// Ring returns ring (closed: first point equal to the last) repaired for
// planar tests, closed, without consecutive repeated points:
//
//   - coordinates within a float rounding of ±180 or ±90 are set to the
//     limit;
//   - a run of vertices on the antimeridian (longitude ±180) between two
//     vertices on the same side of it takes that side's sign, so that no
//     edge spans the whole map;
//   - a ring that crosses the antimeridian exactly once goes around a
//     pole: it is cut there and closed along the antimeridian and the
//     pole's parallel (the south pole when the ring's mean latitude is
//     negative, the north pole otherwise).
//
// A ring that crosses the antimeridian more than once (not cut by its
// source), or with coordinates outside the globe, is an error; so is a
// ring without area (ErrDegenerate).
//
// Ring works in ring's storage: the input is modified, and the result
// shares it unless a pole had to be added.
func Ring(ring []orb.Point) (orb.Ring, error) {
	n := len(ring)
	if n < 2 || ring[0] != ring[n-1] {
		return nil, fmt.Errorf("lonlat: ring of %d points not closed", n)
	}
	pts := ring[:n-1]
	for i, p := range pts {
		q, err := clamp(p)
		if err != nil {
			return nil, err
		}
		pts[i] = q
	}
	pts = dedupe(pts)
	if !spans(pts) {
		return closeRing(pts)
	}
	pts, err := fixRuns(pts)
	if err != nil {
		return nil, err
	}
	return closeRing(dedupe(pts))
}

// clamp checks p is on the globe and sets coordinates within snap beyond
// a limit to the limit.
func clamp(p orb.Point) (orb.Point, error) {
	if math.IsNaN(p[0]) || math.IsNaN(p[1]) || math.Abs(p[0]) > 180+snap || math.Abs(p[1]) > 90+snap {
		return p, fmt.Errorf("lonlat: point %v outside the globe", p)
	}
	for i, lim := range [2]float64{180, 90} {
		if math.Abs(math.Abs(p[i])-lim) < snap {
			p[i] = math.Copysign(lim, p[i])
		}
	}
	return p, nil
}

// dedupe removes consecutive equal points of a cyclic sequence.
func dedupe(pts []orb.Point) []orb.Point {
	out := pts[:0]
	for _, p := range pts {
		if len(out) == 0 || out[len(out)-1] != p {
			out = append(out, p)
		}
	}
	for len(out) > 1 && out[0] == out[len(out)-1] {
		out = out[:len(out)-1]
	}
	return out
}

// spans reports whether an edge of the cyclic sequence spans more than
// half the map in longitude, other than along a pole (latitude ±90, where
// all longitudes are one point).
func spans(pts []orb.Point) bool {
	for i := range pts {
		a, b := pts[i], pts[(i+1)%len(pts)]
		if math.Abs(b[0]-a[0]) > 180 && !(a[1] == b[1] && math.Abs(a[1]) == 90) {
			return true
		}
	}
	return false
}

func onAntimeridian(p orb.Point) bool { return math.Abs(p[0]) == 180 }

// side is +1 east of the prime meridian (longitude >= 0), -1 west.
func side(p orb.Point) float64 {
	if p[0] < 0 {
		return -1
	}
	return 1
}

// crossing is where a cyclic sequence crosses the antimeridian: after
// vertex at (the last one on the departing side), at latitude lat, from
// side from to the other.
type crossing struct {
	at   int
	lat  float64
	from float64
	run  bool // the crossing is a run of antimeridian vertices ending at at
}

// fixRuns puts runs of antimeridian vertices on the side of their
// neighbours and, for a ring around a pole, inserts the pole detour.
func fixRuns(pts []orb.Point) ([]orb.Point, error) {
	// Rotate to start at a vertex off the antimeridian.
	start := -1
	for i, p := range pts {
		if !onAntimeridian(p) {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, errors.New("lonlat: ring lies on the antimeridian")
	}
	pts = append(pts[start:len(pts):len(pts)], pts[:start]...)
	n := len(pts)
	var cross []crossing
	for i := 0; i < n; {
		j := i + 1 // next vertex off the antimeridian (cyclic)
		for j < n && onAntimeridian(pts[j]) {
			j++
		}
		prev, next := pts[i], pts[j%n]
		switch {
		case j > i+1 && side(prev) == side(next):
			for k := i + 1; k < j; k++ {
				pts[k][0] = 180 * side(prev)
			}
		case j > i+1:
			for k := i + 1; k < j; k++ {
				pts[k][0] = 180 * side(prev)
			}
			cross = append(cross, crossing{at: j - 1, lat: pts[j-1][1], from: side(prev), run: true})
		case math.Abs(next[0]-prev[0]) > 180:
			// An edge across the antimeridian: where it crosses, on the
			// straight line in unwrapped longitude.
			nx := next[0] + 360*side(prev)
			t := (180*side(prev) - prev[0]) / (nx - prev[0])
			cross = append(cross, crossing{at: i, lat: prev[1] + t*(next[1]-prev[1]), from: side(prev)})
		}
		i = j
	}
	switch len(cross) {
	case 0:
		return pts, nil
	case 1:
	default:
		return nil, fmt.Errorf("lonlat: ring crosses the antimeridian %d times: it must be cut there", len(cross))
	}
	c := cross[0]
	mean := 0.0
	for _, p := range pts {
		mean += p[1]
	}
	pole := 90.0
	if mean < 0 {
		pole = -90
	}
	out := make([]orb.Point, 0, n+5)
	out = append(out, pts[:c.at+1]...)
	if !c.run {
		out = append(out, orb.Point{180 * c.from, c.lat})
	}
	out = append(out,
		orb.Point{180 * c.from, pole},
		orb.Point{-180 * c.from, pole},
		orb.Point{-180 * c.from, c.lat})
	out = append(out, pts[c.at+1:]...)
	return out, nil
}

// closeRing checks the repaired ring and closes it (in place when pts has
// the capacity).
func closeRing(pts []orb.Point) (orb.Ring, error) {
	if len(pts) < 3 {
		return nil, fmt.Errorf("%w: %d distinct points", ErrDegenerate, len(pts))
	}
	if spans(pts) {
		return nil, errors.New("lonlat: ring still spans the antimeridian after repair")
	}
	r := orb.Ring(append(pts, pts[0]))
	if Area(r) == 0 {
		return nil, fmt.Errorf("%w: %d points on one line", ErrDegenerate, len(pts))
	}
	return r, nil
}

// Area returns the planar signed area of a closed ring in square degrees:
// positive when counter-clockwise.
func Area(r orb.Ring) float64 {
	a := 0.0
	for i := 0; i+1 < len(r); i++ {
		a += r[i][0]*r[i+1][1] - r[i+1][0]*r[i][1]
	}
	return a / 2
}

// Orient reverses r in place when its orientation is not the one asked
// for (counter-clockwise when ccw).
func Orient(r orb.Ring, ccw bool) {
	if a := Area(r); a != 0 && (a > 0) != ccw {
		r.Reverse()
	}
}
