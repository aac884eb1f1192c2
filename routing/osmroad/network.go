// Package osmroad reads OpenStreetMap data (PBF, OSM XML, OSM XML .bz2) and
// turns the car-usable roads into a compressed, node-based road network:
// intersections as vertices, degree-2 chains folded into edges that keep
// their full geometry, names and road categories, plus the turn
// restrictions (via node and via ways) and traffic signals that the
// edge-based graph builder in package routing needs.
package osmroad

import (
	"github.com/geosvc/geosvc/routing/speeds"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/profile"
)

// Network is the car road network of one OSM extract, node-based and
// compressed. Vertex ids index Vertices and Signal; edge ids index Edges.
type Network struct {
	// Vertices are the graph vertices (orb.Point{lon, lat}): way ends, nodes shared by two or more
	// car ways (or used twice by one), via nodes of restrictions, traffic-signal nodes and
	// barrier nodes; also the middle node of a closed way that would
	// otherwise be an edge from a vertex to itself (no edge has From == To),
	// and the last node before a node missing from the extract. Vertex ids
	// follow OSM node ids in increasing order.
	Vertices []orb.Point
	// Signal[v] is true when vertex v carries highway=traffic_signals.
	Signal []bool
	// Barrier[v] is true when vertex v is a node a car cannot pass (for
	// example barrier=bollard without permissive access): no turn may go
	// through it, and routes may only start or end on either side.
	Barrier []bool
	// Edges are the compressed road edges. An edge is stored once, in the
	// direction of its shape; Forward and Backward say which ways a car may
	// drive it.
	Edges []Edge
	// Shape holds every edge's geometry back to back: edge e's polyline is
	// Shape[e.ShapeStart:e.ShapeEnd], from Vertices[e.From] to Vertices[e.To]
	// inclusive (so at least two points).
	Shape []orb.Point
	// ShapeNodes[i] is the OSM node id of Shape[i]: segment speed data
	// names a road segment by its two nodes.
	ShapeNodes []int64
	// Names is the table of street names, refs, destinations and exit
	// numbers; index 0 is the empty name.
	Names []string
	// LocalNames are the street names of Names in other languages (OSM's
	// name:xx of the ways with a name), by name id, then language.
	LocalNames []LocalName
	// Restrictions are the via-node turn restrictions that could be mapped
	// onto edges.
	Restrictions []Restriction
	// WayRestrictions are the via-way turn restrictions, mapped onto paths
	// of directed edges.
	WayRestrictions []WayRestriction
	// DrivingSide is "right" or "left", from the profile: the side of
	// every road outside the countries of Sides.
	DrivingSide string
	// Sides are the countries whose OSM boundary relation in the extract
	// states a driving_side, by code.
	Sides []CountrySide
	// Timestamp is the data date of the extract (PBF header replication
	// timestamp, or the newest element timestamp seen), zero if unknown.
	Timestamp time.Time
	// Source is the file name the network was read from.
	Source string
	// CondMaxspeeds are the car ways' conditional maximum speeds
	// (maxspeed:conditional and its :forward/:backward forms) whose
	// conditions are times.
	CondMaxspeeds []CondMaxspeedWay
	// Report describes the import.
	Report Report
}

// CondMaxspeedWay is a way's conditional maximum speed: its OSM nodes
// in order, the directions it applies in (Forward: along the nodes;
// only those a car may drive) and the limits with their hours.
type CondMaxspeedWay struct {
	Nodes             []int64
	Forward, Backward bool
	Parts             []speeds.CondMaxspeed
}

// Edge is one compressed road edge between two vertices.
type Edge struct {
	From, To uint32
	// Forward: a car may drive From->To. Backward: To->From.
	Forward, Backward bool
	// LengthM is the geodesic (haversine) length of the shape in metres.
	LengthM float64
	// SpeedFwdKmh and SpeedBwdKmh are the travel speeds per direction after
	// the profile's maxspeed handling; unused for a direction not allowed.
	SpeedFwdKmh, SpeedBwdKmh float64
	// DurationS, when > 0, is a fixed traversal time in seconds (ferries
	// with a duration tag); it then overrides the speeds.
	DurationS float64
	// Name indexes Network.Names.
	Name uint32
	// Ref, Destination and Exit index Network.Names too: the way's route
	// numbers ("I-95 / US-202"), where its signs lead (destination:ref
	// and destination: "I-95 North: Wilmington") and its exit number
	// (junction:ref, or on a one-way link the ref of the motorway
	// junction node it leaves from); 0 when untagged.
	Ref, Destination, Exit uint32
	// Class is the OSM highway value (or "ferry").
	Class string
	// RoadType is the SOAP RoadType category.
	RoadType profile.RoadType
	// Roundabout is true on junction=roundabout/circular.
	Roundabout bool
	// Ferry is true on a car ferry or shuttle train (route=ferry,
	// route=shuttle_train): a change of mode for turn costs.
	Ferry bool
	// Toll is true on a road a car pays to use (toll=*).
	Toll bool
	// Unpaved is true on a road whose surface=* is unpaved (the profile's
	// unpaved_surfaces).
	Unpaved bool
	// Bridge, Tunnel and Layer are the way's bridge=*, tunnel=* and
	// layer=* (maps draw them).
	Bridge, Tunnel bool
	Layer          int8
	// Truck is what the way's tags say to trucks: hgv access per
	// direction (Fwd: From->To), dimension limits and hazmat bans.
	Truck profile.TruckTags
	// ShapeStart and ShapeEnd delimit the geometry in Network.Shape.
	ShapeStart, ShapeEnd uint32
	// WayID is the OSM way the edge came from.
	WayID int64
}

// Restriction is a turn restriction mapped onto edges: coming from edge
// FromEdge into vertex Via, the turn onto ToEdge is forbidden (Only=false),
// or is the only turn allowed (Only=true). When the via node lies inside the
// from or to way, every edge of that way incident to Via gets a record; the
// Only records sharing (FromEdge, Via) together list the allowed turns.
type Restriction struct {
	FromEdge, ToEdge uint32
	Via              uint32
	Only             bool
	// Kind is the OSM restriction value, e.g. "no_left_turn".
	Kind string
	// Cond, when not nil, says when the restriction is in force
	// (restriction:conditional); nil: always.
	Cond *TurnCond
}

// TurnCond is when a conditional turn restriction is in force: at the
// minutes of the week Closed (local time), and, for a query without a
// time, when NoTime is true (the relation's plain value, which its
// conditional one lifts at some times).
type TurnCond struct {
	Closed []speeds.WeekSpan
	NoTime bool
}

// DirEdge is an edge driven in one direction: From->To, or To->From when
// Reverse.
type DirEdge struct {
	Edge    uint32
	Reverse bool
}

// WayRestriction is a via-way turn restriction mapped onto directed
// edges: having driven Path (an edge of the from way into the first via
// way, then every edge of the via ways in order), the next edge may not
// be one of To (Only=false), or must be one of To (Only=true). A relation
// with several from ways (or a via way entered from both sides of a from
// way) gives one record per from edge; its several to ways share To.
type WayRestriction struct {
	Path []DirEdge
	To   []DirEdge
	Only bool
	// Kind is the OSM restriction value, e.g. "no_u_turn".
	Kind string
	// Cond, when not nil, says when the restriction is in force (the
	// copies of the path are made as for a plain one; the turns it
	// forbids stay, closed at those times); nil: always.
	Cond *TurnCond
}

// Report counts what the import read, kept and skipped. NodesRead,
// WaysRead and RelationsRead count every element of the file; CarWays the
// ways the profile accepted (Ferries of them are ferries or shuttle
// trains); Vertices, Edges and ShapePoints the network's sizes;
// TrafficSignals the signal vertices. Every type=restriction relation read
// (RestrictionsRead) is applied (RestrictionsViaWay of them with via
// ways), not for the profile's vehicle, conditional only (ignored), or
// skipped for a reason RestrictionsSkippedBy names (missing members, a
// from/to way that is not a car way, a via node not on both ways, via
// ways that do not connect, an unknown kind, ...):
// RestrictionsRead = RestrictionsApplied + RestrictionsNotCar +
// RestrictionsConditional + RestrictionsSkipped. Duration is the wall time
// of the import, PeakRSSBytes the process's peak resident memory (VmHWM,
// 0 where unknown), Warnings what a user should know about the data.
type Report struct {
	NodesRead, WaysRead, RelationsRead int
	CarWays                            int
	Vertices, Edges                    int
	ShapePoints                        int
	RestrictionsRead                   int
	RestrictionsApplied                int
	RestrictionsViaWay                 int
	RestrictionsSkipped                int
	RestrictionsSkippedBy              map[string]int
	TrafficSignals                     int
	Ferries                            int
	Duration                           time.Duration
	PeakRSSBytes                       uint64
	Warnings                           []string

	// RestrictionsNotCar counts restrictions that do not apply to cars
	// (restriction:hgv only, except=motorcar, ...); they are not an error.
	RestrictionsNotCar int
	// RestrictionsConditional counts restrictions whose only value for
	// the vehicle is conditional (restriction:conditional, ...) with no
	// part whose condition is a time: ignored.
	RestrictionsConditional int
	// RestrictionsTimed counts the restrictions applied (counted in
	// RestrictionsApplied) with a conditional value whose condition is a
	// time: in force at those times for queries with a departure time.
	RestrictionsTimed int
	// CondRestrictionSkipped counts, by reason (speeds.Skip*, or "not a
	// restriction value"), the parts of conditional restriction values
	// that were not read (a relation with a plain value keeps it always).
	CondRestrictionSkipped map[string]int
	// CondMaxspeedWays counts car ways with a conditional maximum speed
	// read; CondMaxspeedSkipped the parts of such tags that are not a
	// time condition (wet, weight, months...) or malformed: ignored.
	CondMaxspeedWays, CondMaxspeedSkipped int
	// DrivingSidesIgnored counts country boundary relations whose
	// driving_side could not be used (no ISO 3166-1 code, or a value
	// other than left or right).
	DrivingSidesIgnored int
	// Barriers counts vertices a car cannot pass.
	Barriers int
	// MissingNodeRefs counts node references of car ways without
	// coordinates in the file; the ways are cut there.
	MissingNodeRefs int
	// WaysTooShort counts car ways with fewer than two distinct nodes.
	WaysTooShort int
	// Truck counts the car ways and edges that carry each truck
	// restriction.
	Truck TruckReport
	// LocalNames counts the street names in other languages kept (one
	// per name and language), LocalNamed the names that have any,
	// LocalNameLangs their languages and LocalNameBytes their size in the
	// routing file; LocalNameConflicts the ways whose name:xx differs
	// from the one kept for their name (the first way's).
	LocalNames, LocalNamed, LocalNameLangs, LocalNameBytes, LocalNameConflicts int
}
