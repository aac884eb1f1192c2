package routing

import (
	"math"

	"github.com/paulmach/orb"
)

// MaxSnapRadiusM is the largest snapping radius a request may ask for
// (SnapOptions.RadiusM), in metres.
const MaxSnapRadiusM = 10_000

// SnapOptions are how one point snaps: OSRM's per-coordinate radiuses,
// bearings and approaches, and its snapping parameter. The zero value is
// Snap's rule.
type SnapOptions struct {
	// RadiusM is how far from its road the point may be, in metres; 0
	// means the caller's default.
	RadiusM float64
	// HasBearing restricts the road to directions of travel within
	// RangeDeg degrees of BearingDeg (compass degrees, 0 north, 90 east):
	// a road whose segment runs no such way, in a direction a car may
	// drive, is passed over, and on the road chosen only the directions
	// within the range are kept. BearingDeg is 0..360, RangeDeg 0..180
	// (180 admits every direction).
	HasBearing           bool
	BearingDeg, RangeDeg float64
	// Curb makes a point on a two-way road reached and left only in the
	// direction of travel that has it on the kerb side: the right where
	// traffic drives on the right, else the left (the side of the road's
	// country, see Meta.DrivingSide).
	// One-way roads are unaffected.
	Curb bool
	// Any lets the point snap to the nearest road of any component, not
	// first to one of the main component (OSRM's snapping=any).
	Any bool
}

// plain reports whether o restricts no direction of travel.
func (o SnapOptions) plain() bool { return !o.HasBearing && !o.Curb }

// SnapWith places p as Snap does, with the options o: defaultRadiusM
// applies when o.RadiusM is 0 (the package default when it is not
// positive either).
func (g *Graph) SnapWith(m Metric, p orb.Point, defaultRadiusM float64, o SnapOptions) Snap {
	avoid := g.snapFilter(m)
	return g.snapWith(p, defaultRadiusM, o, avoid)
}

// SnapAllWith snaps every point pts[i] with opts[i]; opts is nil (Snap's
// rule for every point) or as long as pts. See SnapWith.
func (g *Graph) SnapAllWith(m Metric, pts []orb.Point, defaultRadiusM float64, opts []SnapOptions) []Snap {
	if opts == nil {
		return g.SnapAll(m, pts, defaultRadiusM)
	}
	avoid := g.snapFilter(m)
	out := make([]Snap, len(pts))
	for i, p := range pts {
		out[i] = g.snapWith(p, defaultRadiusM, opts[i], avoid)
	}
	return out
}

// snapWith is SnapWith with the metric's filter of avoided roads (nil:
// none).
func (g *Graph) snapWith(p orb.Point, radiusM float64, o SnapOptions, avoid func(uint32) bool) Snap {
	if o.RadiusM > 0 {
		radiusM = o.RadiusM
	}
	var accept func(e uint32, seg int) bool
	switch {
	case !o.plain():
		accept = func(e uint32, seg int) bool {
			return (avoid == nil || avoid(e)) && g.openDirs(e, seg, p, o) != 0
		}
	case avoid != nil:
		accept = func(e uint32, _ int) bool { return avoid(e) }
	}
	s, seg := g.snapSegments(p, radiusM, o.Any, accept)
	if s.OK && !o.plain() {
		s.Barred = 3 &^ g.openDirs(s.Edge, seg, p, o)
	}
	return s
}

// openDirs returns the directions of travel of segment seg of edge e that
// o admits for the point p: bit 0 the edge's own direction, bit 1 the
// reverse. Only directions a car may drive are ever admitted.
func (g *Graph) openDirs(e uint32, seg int, p orb.Point, o SnapOptions) uint8 {
	var drivable uint8
	for dir := uint32(0); dir < 2; dir++ {
		if g.edgeNode[directedID(e, dir)] >= 0 {
			drivable |= 1 << dir
		}
	}
	sh := g.edgeShape(e)
	if seg < 0 || seg+1 >= len(sh) {
		return drivable
	}
	a, b := sh[seg], sh[seg+1]
	open := drivable
	if o.HasBearing {
		fwd := bearing(a, b)
		if !withinBearing(fwd, o.BearingDeg, o.RangeDeg) {
			open &^= 1
		}
		if !withinBearing(math.Mod(fwd+180, 360), o.BearingDeg, o.RangeDeg) {
			open &^= 2
		}
	}
	if o.Curb && drivable == 3 {
		// As OSRM: the point is on the kerb side of the edge's own
		// direction unless it lies strictly to its left (right-hand
		// traffic; the other way round in left-hand traffic).
		kerbFwd := !leftOf(a, b, p)
		if g.edgeFlags[e]&edgeLeftHand != 0 {
			kerbFwd = !kerbFwd
		}
		if kerbFwd {
			open &= 1
		} else {
			open &= 2
		}
	}
	return open
}

// withinBearing reports whether the compass bearing b lies within rng
// degrees of want.
func withinBearing(b, want, rng float64) bool {
	if rng >= 180 {
		return true
	}
	d := math.Abs(math.Mod(b-want, 360))
	if d > 180 {
		d = 360 - d
	}
	return d <= rng
}

// leftOf reports whether p lies strictly to the left of the line from a
// to b (the turn a, b, p is counter-clockwise), in the local projection
// at a.
func leftOf(a, b, p orb.Point) bool {
	k := math.Cos(a[1] * math.Pi / 180)
	bx, by := (b[0]-a[0])*k, b[1]-a[1]
	px, py := (p[0]-a[0])*k, p[1]-a[1]
	return bx*py-by*px > 0
}
