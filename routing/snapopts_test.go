package routing

import (
	"math"
	"testing"

	"github.com/paulmach/orb"
)

// Real points of Delaware (Geofabrik's 2016 extract): a point 11 m from
// East 4th Street, Wilmington, a two-way street; a point 28.7 m from
// Academy Street, Newark.
var (
	east4th  = orb.Point{-75.55, 39.74}
	academy  = orb.Point{-75.75, 39.68}
	newarkNW = orb.Point{-75.76, 39.70}
	elsmere  = orb.Point{-75.60, 39.70}
	doverCtr = orb.Point{-75.52, 39.16}
)

// lastLeg returns the last segment of a route's geometry, in the
// direction of travel, and firstLeg its first.
func lastLeg(r *Route) (orb.Point, orb.Point) {
	n := len(r.Geometry)
	return r.Geometry[n-2], r.Geometry[n-1]
}

func firstLeg(r *Route) (orb.Point, orb.Point) { return r.Geometry[0], r.Geometry[1] }

// sideOf says on which side of the travel direction a -> b the point p
// lies, computed here from the geometry alone: "left" or "right".
func sideOf(a, b, p orb.Point) string {
	k := math.Cos(a[1] * math.Pi / 180)
	if (b[0]-a[0])*k*(p[1]-a[1])-(b[1]-a[1])*(p[0]-a[0])*k > 0 {
		return "left"
	}
	return "right"
}

// TestCurbApproachDelaware: on a two-way street (East 4th Street) a curb
// destination is reached with the point on the right, a curb origin left
// with it on the right, while the unrestricted route of the same origins
// arrives with it on the left (so the curb route is the longer one).
func TestCurbApproachDelaware(t *testing.T) {
	g := testGraph(t, "delaware")
	if g.Meta().DrivingSide != "right" {
		t.Fatalf("Delaware drives on the %s", g.Meta().DrivingSide)
	}
	plain := g.SnapWith(Fastest, east4th, 0, SnapOptions{})
	curb := g.SnapWith(Fastest, east4th, 0, SnapOptions{Curb: true})
	if !plain.OK || !curb.OK || plain.Edge != curb.Edge || plain.Point != curb.Point {
		t.Fatalf("curb snapped elsewhere: %+v vs %+v", curb, plain)
	}
	if g.edgeNode[directedID(curb.Edge, 0)] < 0 || g.edgeNode[directedID(curb.Edge, 1)] < 0 {
		t.Fatalf("edge %d (%s) is not two-way", curb.Edge, g.names[g.edgeName[curb.Edge]])
	}
	if curb.Barred != 1 && curb.Barred != 2 {
		t.Fatalf("curb bars %b: want exactly one direction", curb.Barred)
	}
	for _, tc := range []struct {
		name string
		from orb.Point
	}{{"from Newark", newarkNW}, {"from Elsmere", elsmere}} {
		t.Run(tc.name, func(t *testing.T) {
			src := g.Snap(Fastest, tc.from, 0)
			rp, err := g.Route(bg, Fastest, src, plain)
			if err != nil {
				t.Fatal(err)
			}
			rc, err := g.Route(bg, Fastest, src, curb)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := lastLeg(rp); sideOf(a, b, east4th) != "left" {
				t.Fatalf("the unrestricted route arrives with the point on the %s: not a test of curb", sideOf(a, b, east4th))
			}
			if a, b := lastLeg(rc); sideOf(a, b, east4th) != "right" {
				t.Errorf("curb route arrives with the point on the %s (last leg %v -> %v)", sideOf(a, b, east4th), a, b)
			}
			if rc.DurationS <= rp.DurationS {
				t.Errorf("curb route %d s, unrestricted %d s: the curb one should be longer", rc.DurationS, rp.DurationS)
			}
			// Leaving from the point: the first leg has it on the right.
			back, err := g.Route(bg, Fastest, curb, src)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := firstLeg(back); sideOf(a, b, east4th) != "right" {
				t.Errorf("curb origin leaves with the point on the %s", sideOf(a, b, east4th))
			}
		})
	}
}

// TestBearingDelaware: a bearing along East 4th Street's own direction
// keeps that direction and bars the opposite one, and the route arrives
// travelling within the range; the opposite bearing does the reverse.
func TestBearingDelaware(t *testing.T) {
	g := testGraph(t, "delaware")
	s, seg := g.snapSegments(east4th, 0, false, nil)
	if !s.OK {
		t.Fatal("not snapped")
	}
	sh := g.edgeShape(s.Edge)
	fwd := bearing(sh[seg], sh[seg+1])
	src := g.Snap(Fastest, newarkNW, 0)
	for _, tc := range []struct {
		name       string
		value      float64
		wantBarred uint8
	}{
		{"along the edge", fwd, 2},
		{"against the edge", math.Mod(fwd+180, 360), 1},
		{"across, range 20", math.Mod(fwd+90, 360), 0}, // no direction: snaps elsewhere
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := SnapOptions{HasBearing: true, BearingDeg: tc.value, RangeDeg: 20}
			b := g.SnapWith(Fastest, east4th, 0, o)
			if tc.wantBarred == 0 {
				if b.OK && b.Edge == s.Edge {
					t.Fatalf("a bearing across the street still snapped to it: %+v", b)
				}
				return
			}
			if !b.OK || b.Edge != s.Edge || b.Barred != tc.wantBarred {
				t.Fatalf("snap %+v: want edge %d barred %b", b, s.Edge, tc.wantBarred)
			}
			r, err := g.Route(bg, Fastest, src, b)
			if err != nil {
				t.Fatal(err)
			}
			p, q := lastLeg(r)
			if got := bearing(p, q); !withinBearing(got, tc.value, 20) {
				t.Errorf("arrives travelling %.1f°, want %.1f ± 20°", got, tc.value)
			}
		})
	}
}

// TestSnapRadiusDelaware: a radius below the distance to the nearest road
// (28.7 m from Academy Street) leaves the point unsnapped, the default
// finds the road; a radius above it finds the same point.
func TestSnapRadiusDelaware(t *testing.T) {
	g := testGraph(t, "delaware")
	def := g.SnapWith(Fastest, academy, 0, SnapOptions{})
	if !def.OK || def.DistanceM < 25 || def.DistanceM > 32 {
		t.Fatalf("default snap %+v: want Academy Street about 28.7 m away", def)
	}
	for _, tc := range []struct {
		radius float64
		ok     bool
	}{{10, false}, {25, false}, {35, true}, {MaxSnapRadiusM, true}} {
		s := g.SnapWith(Fastest, academy, 0, SnapOptions{RadiusM: tc.radius})
		if s.OK != tc.ok || (s.OK && s.Point != def.Point) {
			t.Errorf("radius %g m: %+v, want OK %v at %v", tc.radius, s, tc.ok, def.Point)
		}
	}
	// The matrix of an unsnapped point is NoRoute; Dover is reached.
	tab, err := g.Matrix(bg, Fastest, g.SnapAllWith(Fastest, []orb.Point{academy, doverCtr}, 0, []SnapOptions{{RadiusM: 10}, {}}),
		g.SnapAll(Fastest, []orb.Point{east4th}, 0))
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := tab.At(0, 0); d != NoRoute {
		t.Errorf("unsnapped origin: %d s, want NoRoute", d)
	}
	if d, _ := tab.At(1, 0); d == NoRoute {
		t.Error("Dover to Wilmington: NoRoute")
	}
}

// TestSnappingAny: a point whose nearest road lies off the main component
// snaps to it with Any, and to a main-component road without it.
func TestSnappingAny(t *testing.T) {
	g := testGraph(t, "delaware")
	var off orb.Point
	found := false
	for _, p := range g.randomRoadPoints(20000, 7) {
		s, _ := g.snapSegments(p, 50, true, nil)
		if s.OK && g.edgeFlags[s.Edge]&edgeOffMain != 0 {
			off, found = p, true
			break
		}
	}
	if !found {
		t.Fatal("no road point off the main component among 20000")
	}
	plain := g.SnapWith(Fastest, off, 0, SnapOptions{})
	anyS := g.SnapWith(Fastest, off, 0, SnapOptions{Any: true})
	if !anyS.OK || g.edgeFlags[anyS.Edge]&edgeOffMain == 0 {
		t.Errorf("snapping=any at %v: %+v, want the off-main road", off, anyS)
	}
	if plain.OK && g.edgeFlags[plain.Edge]&edgeOffMain != 0 {
		t.Errorf("default snapping at %v took an off-main road although the main one is within the radius", off)
	}
}

// TestWithinBearing: OSRM's bounds check, wrapping at north.
func TestWithinBearing(t *testing.T) {
	for _, tc := range []struct {
		b, want, rng float64
		in           bool
	}{
		{10, 350, 20, true}, {340, 10, 20, false}, {90, 90, 0, true}, {91, 90, 0, false},
		{270, 90, 180, true}, {0, 360, 5, true}, {185, 0, 175, true}, {186, 0, 173, false},
	} {
		if got := withinBearing(tc.b, tc.want, tc.rng); got != tc.in {
			t.Errorf("withinBearing(%g, %g, %g) = %v", tc.b, tc.want, tc.rng, got)
		}
	}
}
