package routing

import (
	"math"

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
	// Street is the name of the road driven ("" when unnamed).
	Street string
	// RoadType is the SOAP road type of its first stretch.
	RoadType profile.RoadType
	// Point is where the maneuver happens.
	Point orb.Point
	// DistanceM and DurationS are the stretch driven after the maneuver.
	DistanceM, DurationS float64
}

// Steps describes the route turn by turn: a Depart step, a step wherever
// the street name changes (or, on an unnamed road, the road turns by 30
// degrees or more), each with the maneuver from the angle between the
// roads, and an Arrive step at the end.
func (r *Route) Steps() []Step {
	var steps []Step
	var lastBearing float64
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
		switch {
		case len(steps) == 0:
			steps = append(steps, Step{Maneuver: Depart, Street: s.Name, RoadType: s.RoadType, Point: s.Geometry[0]})
		case s.Name != steps[len(steps)-1].Street || s.Name == "" && m != Straight:
			steps = append(steps, Step{Maneuver: m, Street: s.Name, RoadType: s.RoadType, Point: s.Geometry[0]})
		}
		st := &steps[len(steps)-1]
		st.DistanceM += r.Segments[i].DistanceM
		st.DurationS += r.Segments[i].DurationS
		lastBearing = out
	}
	if len(steps) > 0 && len(r.Geometry) > 0 {
		steps = append(steps, Step{Maneuver: Arrive, Street: steps[len(steps)-1].Street, RoadType: steps[len(steps)-1].RoadType,
			Point: r.Geometry[len(r.Geometry)-1]})
	}
	return steps
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

// RoadsIn calls fn with the shape, road type and OSM class of every road
// of the graph whose shape has a point inside b or crosses it (tested by
// the shape's bounding box), for drawing maps.
func (g *Graph) RoadsIn(b orb.Bound, fn func(shape []orb.Point, rt profile.RoadType, class string)) {
	for e := 0; e+1 < len(g.shapeFirst); e++ {
		shape := g.edgeShape(uint32(e))
		if len(shape) < 2 {
			continue
		}
		eb := orb.LineString(shape).Bound()
		if !eb.Intersects(b) {
			continue
		}
		fn(shape, profile.RoadType(g.edgeRoadType[e]), g.classes[g.edgeClass[e]])
	}
}
