package routing

import (
	"math"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/profile"
)

// Maneuver is what a driver does at the start of a Step.
type Maneuver uint8

// The maneuvers, by the angle between the road left and the road taken.
const (
	Depart Maneuver = iota
	Straight
	SlightRight
	Right
	SharpRight
	UTurn
	SharpLeft
	Left
	SlightLeft
	Arrive
)

var maneuverNames = [...]string{"depart", "straight", "slight right", "right", "sharp right", "u-turn", "sharp left", "left", "slight left", "arrive"}

func (m Maneuver) String() string {
	if int(m) < len(maneuverNames) {
		return maneuverNames[m]
	}
	return "unknown"
}

// Step is one instruction of a route description: a maneuver onto a
// street, then the stretch driven on it.
type Step struct {
	Maneuver Maneuver
	// Street is the display name of the road driven ("" when unnamed):
	// its name, else its route numbers, kept along the road while the
	// name or a route number stays the same.
	Street string
	// Ramp is set when the step takes a ramp or link road
	// (motorway_link, trunk_link, ...); Toward is where the ramp's signs
	// lead ("I-95 North: Wilmington", from destination:ref and
	// destination) and Exit its exit number (junction:ref), "" when
	// untagged.
	Ramp         bool
	Toward, Exit string
	// RoadType is the SOAP road type of its first stretch.
	RoadType profile.RoadType
	// Point is where the maneuver happens.
	Point orb.Point
	// DistanceM and DurationS are the stretch driven after the maneuver.
	DistanceM, DurationS float64
	// Roundabout is set when the step enters a roundabout and drives
	// round it (the next step leaves it); RoundaboutExit is then the
	// number of the exit taken, counting the roads a car may leave by
	// from the entry on (Segment.RoundaboutExits).
	Roundabout     bool
	RoundaboutExit int
}

// Steps describes the route turn by turn: a Depart step; a step where
// the route takes a ramp (and where a ramp forks toward another
// destination); a step where it leaves a ramp or the road changes (its
// name changes and no route number carries on, or, on an unnamed road,
// it turns by 30 degrees or more), each with the maneuver from the angle
// between the roads; and an Arrive step at the end.
func (r *Route) Steps() []Step {
	var steps []Step
	var lastBearing float64
	var runRefs []string // route numbers of the last step's road
	runNamed := false    // the last step's road has a name (not only a ref)
	lastExits := 0       // the exits at the end of the last roundabout segment
	for i, s := range r.Segments {
		if len(s.Geometry) < 2 {
			if len(steps) > 0 { // a stretch without shape still counts
				steps[len(steps)-1].DistanceM += s.DistanceM
				steps[len(steps)-1].DurationS += s.DurationS
			}
			continue
		}
		in, out := bearing(s.Geometry[0], s.Geometry[1]), bearing(s.Geometry[len(s.Geometry)-2], s.Geometry[len(s.Geometry)-1])
		m := turn(lastBearing, in)
		link := strings.HasSuffix(s.Class, "_link")
		refs := routeNumbers(s.Ref)
		newStep := func(m Maneuver) {
			steps = append(steps, Step{Maneuver: m, Street: s.Name, Ramp: link, RoadType: s.RoadType, Point: s.Geometry[0]})
			if link {
				steps[len(steps)-1].Toward, steps[len(steps)-1].Exit = s.Dest, s.Exit
			}
			runRefs, runNamed = refs, s.Name != "" && s.Name != s.Ref
		}
		if len(steps) == 0 {
			newStep(Depart)
		} else {
			prev := &steps[len(steps)-1]
			same := s.Name == prev.Street && m == Straight // no news for the driver
			switch {
			case s.Roundabout && prev.Roundabout:
				// Round the roundabout.
			case s.Roundabout:
				newStep(m) // into a roundabout
				steps[len(steps)-1].Roundabout = true
			case prev.Roundabout:
				// Out of the roundabout: of the roads leaving where it
				// does, the one taken counts (the others are not passed).
				prev.RoundaboutExit -= max(lastExits-1, 0)
				newStep(m)
			case link && !prev.Ramp && same && s.Dest == "" && s.Exit == "":
				// A link without signs straight on along the same road.
			case link && !prev.Ramp:
				newStep(m) // onto a ramp
			case link && s.Dest != "" && prev.Toward != "" && s.Dest != prev.Toward:
				newStep(m) // the ramp forks toward another destination
			case link:
				// Further along the ramp: signs met on the way complete it.
				if prev.Toward == "" {
					prev.Toward = s.Dest
				}
				if prev.Exit == "" {
					prev.Exit = s.Exit
				}
				if prev.Street == "" {
					prev.Street = s.Name
				}
			case prev.Ramp && !same:
				newStep(m) // off the ramp
			case prev.Ramp:
				// Off the ramp straight on along a road of its name.
			case s.Name == prev.Street && (s.Name != "" || m == Straight):
				// The same road (an unnamed one breaks at turns).
				if len(runRefs) == 0 {
					runRefs = refs
				}
			case s.Name != "" && sameRoad(s, refs, runRefs, runNamed, prev.Street):
				// The same road under its ref or a numbered name ("State
				// Road 273" and "DE-273"): one display name, its name
				// once a way gives one.
				if !runNamed && s.Name != s.Ref {
					prev.Street, runNamed = s.Name, true
				}
			default:
				newStep(m)
			}
		}
		st := &steps[len(steps)-1]
		st.DistanceM += r.Segments[i].DistanceM
		st.DurationS += r.Segments[i].DurationS
		if st.Roundabout {
			st.RoundaboutExit += s.RoundaboutExits
			lastExits = s.RoundaboutExits
		}
		lastBearing = out
	}
	steps = foldTinySteps(steps)
	if len(steps) > 0 && len(r.Geometry) > 0 {
		steps = append(steps, Step{Maneuver: Arrive, Street: steps[len(steps)-1].Street, RoadType: steps[len(steps)-1].RoadType,
			Point: r.Geometry[len(r.Geometry)-1]})
	}
	return steps
}

// tinyStepM is the longest stretch a step may drive and still be no step
// of its own: a road met for less than this (a junction's own few
// centimetres of another way) is no news for the driver.
const tinyStepM = 1.0

// foldTinySteps folds a step that drives less than tinyStepM (but the
// first, ramps, roundabouts and the steps out of them) into the step before it, then joins the steps around
// it when they go straight on along one street: "Grove Street, DE-1A for
// 0 m, Grove Street" is one Grove Street step.
func foldTinySteps(steps []Step) []Step {
	out := make([]Step, 0, len(steps))
	for i, s := range steps {
		if i > 0 && s.DistanceM < tinyStepM && !s.Ramp && !s.Roundabout && !steps[i-1].Roundabout {
			prev := &out[len(out)-1]
			prev.DistanceM += s.DistanceM
			prev.DurationS += s.DurationS
			continue
		}
		if n := len(out); n > 0 && i > 0 && steps[i-1].DistanceM < tinyStepM && !steps[i-1].Ramp &&
			s.Maneuver == Straight && !s.Ramp && !out[n-1].Ramp && s.Street == out[n-1].Street {
			out[n-1].DistanceM += s.DistanceM
			out[n-1].DurationS += s.DurationS
			continue
		}
		out = append(out, s)
	}
	return out
}

// routeNumbers splits a segment's Ref ("I-95 / US-202").
func routeNumbers(ref string) []string {
	if ref == "" {
		return nil
	}
	return strings.Split(ref, " / ")
}

// sameRoad reports whether segment s (its route numbers refs) goes on
// along the road of the last step (runRefs, runNamed, street): they share
// a route number, and s is named by its ref only, or the step's road has
// no name yet, or either name carries the shared number ("State Road
// 273" of DE-273, "Interstate 95" of I-95). Two real names on one route
// ("Christiana Road", then "Frenchtown Road" on DE-273) are two roads.
func sameRoad(s Segment, refs, runRefs []string, runNamed bool, street string) bool {
	for _, r := range refs {
		for _, rr := range runRefs {
			if r != rr {
				continue
			}
			if s.Name == s.Ref || !runNamed || carriesNumber(s.Name, r) || carriesNumber(street, r) {
				return true
			}
		}
	}
	return false
}

// carriesNumber reports whether a name has the number of route ref as a
// word ("State Road 273" and "DE-273").
func carriesNumber(name, ref string) bool {
	num := ref[strings.LastIndexAny(ref, "- ")+1:]
	for _, w := range strings.Fields(name) {
		if w == num {
			return true
		}
	}
	return false
}

// turn classifies the change of direction from bearing from to bearing to.
func turn(from, to float64) Maneuver {
	d := turnAngle(from, to) // positive to the right
	a := math.Abs(d)
	var m Maneuver
	switch {
	case a < 30:
		return Straight
	case a < 60:
		m = SlightRight
	case a < 135:
		m = Right
	case a < 170:
		m = SharpRight
	default:
		return UTurn
	}
	if d < 0 {
		m = map[Maneuver]Maneuver{SlightRight: SlightLeft, Right: Left, SharpRight: SharpLeft}[m]
	}
	return m
}
