package api

import (
	"encoding/base64"
	"encoding/binary"
	"math"
	"slices"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/simplify"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/profile"
)

// OSRM v5's response objects, field for field (docs/osrm.md lists what
// geosvc leaves out).

// osrmWaypoint is a coordinate as snapped: OSRM's Waypoint object.
type osrmWaypoint struct {
	Hint     string     `json:"hint,omitempty"`
	Distance float64    `json:"distance"`
	Name     string     `json:"name"`
	Location [2]float64 `json:"location"`
	// Nodes are, in nearest answers, the OSM node ids of the road's
	// stretch the point lies on (routing.Graph.SnapNodes).
	Nodes []int64 `json:"nodes,omitempty"`
	// Trip answers: the trip the point is on and its place in it.
	TripsIndex    *int `json:"trips_index,omitempty"`
	WaypointIndex *int `json:"waypoint_index,omitempty"`
}

// osrmRouteJSON is OSRM's Route object.
type osrmRouteJSON struct {
	Geometry   any       `json:"geometry,omitempty"`
	Legs       []osrmLeg `json:"legs"`
	WeightName string    `json:"weight_name"`
	Weight     float64   `json:"weight"`
	Duration   float64   `json:"duration"`
	Distance   float64   `json:"distance"`
}

// osrmLeg is OSRM's RouteLeg object.
type osrmLeg struct {
	Steps      []osrmStep      `json:"steps"`
	Summary    string          `json:"summary"`
	Weight     float64         `json:"weight"`
	Duration   float64         `json:"duration"`
	Distance   float64         `json:"distance"`
	Annotation *osrmAnnotation `json:"annotation,omitempty"`
}

// osrmAnnotation is OSRM's Annotation object: one entry per stretch
// between two consecutive points of the leg's full geometry.
type osrmAnnotation struct {
	Distance    []float64 `json:"distance,omitempty"`
	Duration    []float64 `json:"duration,omitempty"`
	Speed       []float64 `json:"speed,omitempty"`
	Weight      []float64 `json:"weight,omitempty"`
	Datasources []int     `json:"datasources,omitempty"`
	// Nodes are the OSM node ids of the points (one more than the
	// stretches): routing.Graph.SegmentNodes.
	Nodes []int64 `json:"nodes,omitempty"`
	// Metadata names the data sources when datasources are asked for.
	Metadata *osrmAnnotationMeta `json:"metadata,omitempty"`
}

// osrmAnnotationMeta is OSRM's annotation metadata: the names of the
// data sources that annotation datasources index.
type osrmAnnotationMeta struct {
	DatasourceNames []string `json:"datasource_names"`
}

// osrmDatasourceNames: geosvc's speeds of a route are all its profile's
// (or the speed data of the departure's hour, in its metric), one
// source, 0.
var osrmDatasourceNames = []string{"profile"}

// osrmStep is OSRM's RouteStep object.
type osrmStep struct {
	Geometry      any                `json:"geometry"`
	Maneuver      osrmManeuver       `json:"maneuver"`
	Mode          string             `json:"mode"`
	DrivingSide   string             `json:"driving_side"`
	Name          string             `json:"name"`
	Ref           string             `json:"ref,omitempty"`
	Destinations  string             `json:"destinations,omitempty"`
	Exits         string             `json:"exits,omitempty"`
	RotaryName    string             `json:"rotary_name,omitempty"`
	Intersections []osrmIntersection `json:"intersections"`
	Weight        float64            `json:"weight"`
	Duration      float64            `json:"duration"`
	Distance      float64            `json:"distance"`
}

// osrmManeuver is OSRM's StepManeuver object.
type osrmManeuver struct {
	BearingAfter  int        `json:"bearing_after"`
	BearingBefore int        `json:"bearing_before"`
	Location      [2]float64 `json:"location"`
	Type          string     `json:"type"`
	Modifier      string     `json:"modifier,omitempty"`
	// Exit is the number of the roundabout exit taken (roundabout,
	// rotary and their exit steps).
	Exit int `json:"exit,omitempty"`
}

// osrmIntersection is OSRM's Intersection object, for the maneuver's
// own intersection: the roads in and out of it that the route uses.
type osrmIntersection struct {
	Location [2]float64 `json:"location"`
	Bearings []int      `json:"bearings"`
	Entry    []bool     `json:"entry"`
	In       *int       `json:"in,omitempty"`
	Out      *int       `json:"out,omitempty"`
	// Classes are OSRM's car.lua classes of the road out: toll,
	// motorway (and its links), ferry.
	Classes []string `json:"classes,omitempty"`
}

// osrmClasses are the classes of a road, as OSRM's car.lua names them.
func osrmClasses(s routing.Segment) []string {
	var out []string
	if s.Toll {
		out = append(out, "toll")
	}
	if strings.HasPrefix(s.Class, "motorway") {
		out = append(out, "motorway")
	}
	if s.RoadType == profile.FerryCar || s.RoadType == profile.FerryCargo || s.RoadType == profile.FerryTrain {
		out = append(out, "ferry")
	}
	return out
}

// osrmShape says how geometries are written: geometries and overview.
type osrmShape struct {
	// digits is 5 (polyline), 6 (polyline6) or 0 (geojson).
	digits int
	// overview is "simplified", "full" or "false".
	overview string
}

// geometry writes a line in the requested encoding.
func (s osrmShape) geometry(line []orb.Point) any {
	if s.digits == 0 {
		l := routeLine{Type: "LineString", Coordinates: make([][2]float64, len(line))}
		for i, p := range line {
			l.Coordinates[i] = round6pt(p)
		}
		return l
	}
	return encodePolyline(line, s.digits)
}

// simplifyToleranceDeg is the Douglas-Peucker tolerance of overview=
// simplified, in degrees (about 5 m of latitude).
const simplifyToleranceDeg = 0.00005

// overviewOf is a route's overview geometry, nil for overview=false.
func (s osrmShape) overviewOf(line []orb.Point) any {
	switch s.overview {
	case "false":
		return nil
	case "simplified":
		ls := simplify.DouglasPeucker(simplifyToleranceDeg).LineString(slices.Clone(orb.LineString(line)))
		return s.geometry(ls)
	}
	return s.geometry(line)
}

// round6pt rounds a point to 6 decimals, as OSRM writes locations.
func round6pt(p orb.Point) [2]float64 {
	return [2]float64{math.Round(p[0]*1e6) / 1e6, math.Round(p[1]*1e6) / 1e6}
}

// round1 rounds to one decimal, as OSRM writes durations and distances.
func round1(v float64) float64 { return math.Round(v*10) / 10 }

// osrmHint is the hint of a snapped point: opaque to clients, which send
// it back; geosvc accepts hints and snaps afresh.
func osrmHint(s routing.Snap) string {
	var b [12]byte
	binary.LittleEndian.PutUint32(b[:4], s.Edge)
	binary.LittleEndian.PutUint64(b[4:], math.Float64bits(s.Fraction))
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// waypointOf is the Waypoint of a snapped point.
func (r *osrmRequest) waypointOf(g *routing.Graph, s routing.Snap) osrmWaypoint {
	name := g.EdgeName(s.Edge)
	if len(r.langs) > 0 {
		name = g.EdgeNameIn(s.Edge, r.nameLangsOf(g))
	}
	w := osrmWaypoint{Distance: math.Round(s.DistanceM*100) / 100, Name: name, Location: round6pt(s.Point)}
	if r.generateHints {
		w.Hint = osrmHint(s)
	}
	return w
}

// osrmMode is a step's mode of travel.
func (r *osrmRequest) osrmMode(rt profile.RoadType) string {
	switch {
	case rt == profile.FerryCar || rt == profile.FerryCargo || rt == profile.FerryTrain:
		return "ferry"
	case r.profile.graph == "bicycle":
		return "cycling"
	case r.profile.graph == "foot":
		return "walking"
	}
	return "driving"
}

// weightOf is a route's weight and its name: its distance for the
// shortest objective, else its duration.
func (r *osrmRequest) weightOf(durationS, distanceM float64) (float64, string) {
	if r.spec.Objective == routing.ObjectiveShortest {
		return distanceM, "distance"
	}
	return durationS, "duration"
}

// isMotorway reports whether a road type is a motorway or trunk road,
// where a ramp leaves (off ramp) or joins (merge).
func isMotorway(rt profile.RoadType) bool {
	return rt == profile.Motorway || rt == profile.DualCarriageWay || rt == profile.DualCarriageWayCity
}

// maneuverType is the OSRM type of step k of steps.
func maneuverType(steps []routing.Step, k int) string {
	s := steps[k]
	switch {
	case s.Maneuver == routing.Depart:
		return "depart"
	case s.Maneuver == routing.Arrive:
		return "arrive"
	}
	prev := steps[k-1]
	switch {
	case s.Ramp && prev.Ramp:
		return "fork"
	case s.Ramp && isMotorway(prev.RoadType):
		return "off ramp"
	case s.Ramp:
		return "on ramp"
	case prev.Ramp && isMotorway(s.RoadType):
		return "merge"
	case s.Maneuver == routing.UTurn:
		return "continue"
	case s.Maneuver == routing.Straight:
		return "new name"
	}
	return "turn"
}

// piece is one stretch between consecutive points of a leg's geometry;
// turnS is the turn cost in its durationS (paid entering its segment),
// which annotations leave out, as OSRM's.
type piece struct{ distanceM, durationS, turnS float64 }

// legGeometry returns the leg's full geometry, built from its segments as
// routing builds Route.Geometry, each stretch's share of its segment's
// distance and duration (by length), and, when nodesOf is not nil, the
// OSM node id of each point (routing.Graph.SegmentNodes; nil when the
// graph keeps none).
func legGeometry(rt *routing.Route, nodesOf func(routing.Segment) []int64) ([]orb.Point, []piece, []int64) {
	var line []orb.Point
	var pieces []piece
	var nodes []int64
	for _, seg := range rt.Segments {
		total := 0.0
		for k := 1; k < len(seg.Geometry); k++ {
			total += geo.HaversineM(seg.Geometry[k-1], seg.Geometry[k])
		}
		if len(seg.Geometry) < 2 && len(pieces) > 0 {
			// No shape: its share goes to the stretch before.
			pieces[len(pieces)-1].distanceM += seg.DistanceM
			pieces[len(pieces)-1].durationS += seg.DurationS
			pieces[len(pieces)-1].turnS += seg.TurnCostS
		}
		var segNodes []int64
		if nodesOf != nil {
			if segNodes = nodesOf(seg); len(segNodes) != len(seg.Geometry) {
				nodesOf, nodes = nil, nil
			}
		}
		for k, p := range seg.Geometry {
			if k == 0 {
				if n := len(line); n > 0 && line[n-1] == p {
					continue
				}
				if len(line) > 0 {
					pieces = append(pieces, piece{})
				}
				line = append(line, p)
			} else {
				f := 1 / float64(len(seg.Geometry)-1)
				if total > 0 {
					f = geo.HaversineM(seg.Geometry[k-1], p) / total
				}
				pc := piece{distanceM: seg.DistanceM * f, durationS: (seg.DurationS - seg.TurnCostS) * f}
				if k == 1 {
					pc.durationS += seg.TurnCostS
					pc.turnS = seg.TurnCostS
				}
				pieces = append(pieces, pc)
				line = append(line, p)
			}
			if nodesOf != nil {
				nodes = append(nodes, segNodes[k])
			}
		}
	}
	return line, pieces, nodes
}

// annotationOf is a leg's annotation of the kinds asked for; weights
// are distances when byDistance (weight_name distance).
func annotationOf(pieces []piece, nodes []int64, want map[string]bool, byDistance bool) *osrmAnnotation {
	if len(want) == 0 {
		return nil
	}
	a := &osrmAnnotation{}
	if want["nodes"] {
		a.Nodes = nodes
	}
	if want["datasources"] {
		a.Metadata = &osrmAnnotationMeta{DatasourceNames: osrmDatasourceNames}
	}
	speed := 0.0
	for _, p := range pieces {
		if want["distance"] {
			a.Distance = append(a.Distance, round1(p.distanceM))
		}
		drive := p.durationS - p.turnS
		if want["duration"] {
			a.Duration = append(a.Duration, round1(drive))
		}
		if want["weight"] {
			w := drive
			if byDistance {
				w = p.distanceM
			}
			a.Weight = append(a.Weight, round1(w))
		}
		if want["speed"] {
			// A stretch of no time keeps the speed before it, as OSRM.
			if drive > 0 {
				speed = round1(p.distanceM / drive)
			}
			a.Speed = append(a.Speed, speed)
		}
		if want["datasources"] {
			a.Datasources = append(a.Datasources, 0)
		}
	}
	return a
}
