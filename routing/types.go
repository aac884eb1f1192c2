// Package routing is the road-routing engine: an edge-based car graph built
// from an osmroad.Network (turn restrictions and turn costs included), two
// contraction hierarchies over it (plain fastest and shortest), the
// metric-independent topology of a customizable contraction hierarchy
// (CCH) that every other Metric (objective, speeds, roads to avoid) is
// customized on, a snapping index, and the queries the rest of geosvc
// calls. Every query takes one Metric: snapping, point-to-point routes
// with their full path and description, alternative routes, one-to-many
// and many-to-many tables, bounded searches (Reach) and the best order of
// stops (BestOrder). All results are integer seconds and integer metres.
// A Graph is read-only once built or loaded and safe for concurrent use.
package routing

import (
	"errors"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/profile"
)

// NoRoute is the table cell value for "no route exists" (including a
// coordinate that could not be snapped).
const NoRoute int32 = -1

// DefaultSnapRadiusM is the default snapping radius in metres.
const DefaultSnapRadiusM = 1000

// ErrNoRoute is returned by Route when the destination cannot be reached.
var ErrNoRoute = errors.New("routing: no route")

// ErrNotSnapped is returned when a coordinate has no road within the radius.
var ErrNotSnapped = errors.New("routing: no road within the snapping radius")

// Snap is a coordinate placed on the nearest road segment, OSRM's phantom
// node. A zero Snap (OK false) stands for an input that could not be
// snapped; queries treat it as unreachable.
type Snap struct {
	// Input is the coordinate as given.
	Input orb.Point
	// Point is the nearest point on the road.
	Point orb.Point
	// DistanceM is the distance from Input to Point in metres.
	DistanceM float64
	// Edge is the osmroad edge id the point lies on.
	Edge uint32
	// Fraction is the position along the edge's shape, 0 at From, 1 at To,
	// by length.
	Fraction float64
	// OK is false when nothing was within the radius.
	OK bool
	// Barred marks the directions of travel on Edge in which the point
	// may not be reached or left (SnapOptions: a bearing, a curb
	// approach): bit 0 the edge's own direction (From to To), bit 1 the
	// reverse; zero bars none.
	Barred uint8
}

// Table is a duration and distance matrix, row-major: cell (i, j) is at
// i*Cols+j. Durations are seconds, distances metres, NoRoute where there
// is none.
type Table struct {
	Rows, Cols int
	Durations  []int32
	Distances  []int32
}

// At returns the duration and distance of cell (i, j).
func (t Table) At(i, j int) (durationS, distanceM int32) {
	k := i*t.Cols + j
	return t.Durations[k], t.Distances[k]
}

// Route is a point-to-point result with its full path.
type Route struct {
	DurationS int
	DistanceM int
	// Geometry is the path from the snapped start to the snapped end.
	Geometry orb.LineString
	// Segments are the stretches of road travelled, in order; consecutive
	// pieces of one compressed edge are one segment.
	Segments []Segment
}

// Segment is one stretch of a route on one compressed road edge.
type Segment struct {
	Edge uint32
	// Name is the road's name, else its route numbers; Ref its route
	// numbers ("I-95 / US-202"), Dest where its signs lead ("I-95 North:
	// Wilmington") and Exit its exit number, "" when untagged.
	Name, Ref, Dest, Exit string
	Class                 string
	RoadType              profile.RoadType
	// DurationS and DistanceM are this segment's share (including the turn
	// cost paid to enter it), in seconds and metres, unrounded.
	DurationS float64
	DistanceM float64
	// TurnCostS is the turn and signal penalty paid entering the segment.
	TurnCostS float64
	// LeftHand is true where traffic keeps to the left on the road (its
	// country's driving side; OSRM's driving_side of a step).
	LeftHand bool
	// Geometry is the part of the edge's shape travelled, in the direction
	// of travel.
	Geometry orb.LineString
	// Toll is true on a toll road.
	Toll bool
	// Roundabout is true on a roundabout's edge (junction=roundabout or
	// circular); RoundaboutExits then counts the roads a car may leave
	// the roundabout by at the segment's end (0 where no road leaves).
	Roundabout      bool
	RoundaboutExits int
	// node is the edge-based node driven (Graph.RoundaboutOf).
	node uint32
	// dir is the direction the edge is travelled in (0 along its shape,
	// 1 against), from and to the fractions of it travelled, in the
	// direction of travel (Graph.SegmentNodes).
	dir      uint32
	from, to float64
}
