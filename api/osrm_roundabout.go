package api

import (
	"math"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/routing"
)

// OSRM's roundabout steps: a step into a roundabout is "roundabout",
// "rotary" (a large ring with a name of its own) or "roundabout turn" (a
// small one, like an intersection), with the number of the exit taken;
// the step out of it "exit roundabout" or "exit rotary", with the same
// number. The kinds are OSRM's (its guidance/roundabout_handler.cpp):
// a rotary has one name, used by none of the roads leaving it, and a
// radius over 15 m; a roundabout turn a radius under 15 m and at most
// four exits.

// osrmMaxRoundaboutRadiusM is OSRM's MAX_ROUNDABOUT_RADIUS and
// MAX_ROUNDABOUT_INTERSECTION_RADIUS.
const osrmMaxRoundaboutRadiusM = 15

// ringKind is the OSRM type of a step into the roundabout of segment s:
// "roundabout", "rotary" or "roundabout turn"; for a rotary its name.
func ringKind(g *routing.Graph, s routing.Segment) (kind, name string) {
	ring, ok := g.RoundaboutOf(s)
	if !ok {
		return "roundabout", ""
	}
	radius := ring.LengthM / (2 * math.Pi)
	if len(ring.Names) == 1 && ring.Names[0] != "" && radius > osrmMaxRoundaboutRadiusM {
		used := false
		for _, n := range ring.ExitNames {
			used = used || n == ring.Names[0]
		}
		if !used {
			return "rotary", ring.Names[0]
		}
	}
	if radius < osrmMaxRoundaboutRadiusM && len(ring.ExitNames) <= 4 {
		return "roundabout turn", ""
	}
	return "roundabout", ""
}

// exitKind is the type of the step out of a roundabout of kind.
func exitKind(kind string) string {
	if kind == "rotary" {
		return "exit rotary"
	}
	return "exit roundabout"
}

// ringSegment returns the roundabout segment of rt that starts at the
// step's maneuver point.
func ringSegment(rt *routing.Route, st routing.Step) (routing.Segment, bool) {
	for _, s := range rt.Segments {
		if s.Roundabout && len(s.Geometry) > 0 && s.Geometry[0] == st.Point {
			return s, true
		}
	}
	return routing.Segment{}, false
}

// osrmTurnModifier is OSRM's modifier of a turn from bearing in to
// bearing out (its getTurnDirection, on the angle 180 - (out - in): 180
// straight on, under 180 to the right).
func osrmTurnModifier(in, out int) string {
	a := ((180-(out-in))%360 + 360) % 360
	switch {
	case a > 0 && a < 60:
		return "sharp right"
	case a >= 60 && a < 140:
		return "right"
	case a >= 140 && a < 160:
		return "slight right"
	case a >= 160 && a <= 200:
		return "straight"
	case a > 200 && a <= 220:
		return "slight left"
	case a > 220 && a <= 300:
		return "left"
	case a > 300 && a < 360:
		return "sharp left"
	}
	return "uturn"
}

// markRoundabouts gives the steps into and out of roundabouts OSRM's
// types, exit numbers and names (the step into a ring is named after the
// road out, as OSRM's; the ring's name is rotary_name).
func markRoundabouts(g *routing.Graph, rt *routing.Route, steps []routing.Step, out []osrmStep) {
	for k, st := range steps {
		if !st.Roundabout || k >= len(out) {
			continue
		}
		kind, name := "roundabout", ""
		if seg, ok := ringSegment(rt, st); ok {
			kind, name = ringKind(g, seg)
		}
		m := &out[k].Maneuver
		m.Type, m.Exit = kind, st.RoundaboutExit
		if kind == "rotary" {
			out[k].RotaryName = name
		}
		if k+1 < len(out) && out[k+1].Maneuver.Type != "arrive" {
			x := &out[k+1].Maneuver
			x.Type, x.Exit = exitKind(kind), st.RoundaboutExit
			// OSRM names the step into the ring after the road out.
			out[k].Name = out[k+1].Name
		}
	}
}

// endModifiers sets the modifiers of a leg's depart and arrive steps as
// OSRM does (its assignRelativeLocations): where the coordinate given lies
// from the road, right, straight or left, when it lies 5 to 300 m from
// where it snapped; none otherwise.
func endModifiers(steps []osrmStep, line []orb.Point, from, to orb.Point) {
	if len(steps) < 2 || len(line) < 2 {
		return
	}
	side := func(a, b, c orb.Point, dist float64) string {
		if dist < 5 || dist > 300 {
			return ""
		}
		ang := mercatorAngle(a, b, c)
		switch {
		case ang < 135:
			return "right"
		case ang <= 225:
			return "straight"
		}
		return "left"
	}
	n := len(line)
	steps[0].Maneuver.Modifier = side(from, line[0], line[1], geo.HaversineM(from, line[0]))
	steps[len(steps)-1].Maneuver.Modifier = side(line[n-2], line[n-1], to, geo.HaversineM(to, line[n-1]))
}

// mercatorAngle is OSRM's computeAngle: the angle at b from a to c, in
// degrees 0..360 counter-clockwise on the Web Mercator plane (180 is
// straight on, under 180 to the right).
func mercatorAngle(a, b, c orb.Point) float64 {
	if a == b || b == c {
		return 180
	}
	y := func(lat float64) float64 {
		return 180 / math.Pi * math.Log(math.Tan(math.Pi/4+lat*math.Pi/360))
	}
	v1x, v1y := a[0]-b[0], y(a[1])-y(b[1])
	v2x, v2y := c[0]-b[0], y(c[1])-y(b[1])
	ang := (math.Atan2(v2y, v2x) - math.Atan2(v1y, v1x)) * 180 / math.Pi
	for ang < 0 {
		ang += 360
	}
	return ang
}
