package routing

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/geosvc/geosvc/routing/profile"
)

// Objective is what a metric minimises before any per-request speeds or
// avoid flags: travel time, distance, fuel or crash risk.
type Objective uint8

const (
	// ObjectiveFastest minimises travel time.
	ObjectiveFastest Objective = iota
	// ObjectiveShortest minimises distance.
	ObjectiveShortest
	// ObjectiveEfficient minimises fuel (configs/metrics.yaml, efficient).
	ObjectiveEfficient
	// ObjectiveSafest minimises expected crash risk (configs/metrics.yaml,
	// safest).
	ObjectiveSafest
)

var objectiveNames = [...]string{"fastest", "shortest", "efficient", "safest"}

// String returns fastest, shortest, efficient or safest.
func (o Objective) String() string {
	if int(o) < len(objectiveNames) {
		return objectiveNames[o]
	}
	return "fastest"
}

// ParseObjective accepts fastest, shortest, efficient (or most_efficient)
// and safest, in any case; "" is fastest.
func ParseObjective(s string) (Objective, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "", "fastest":
		return ObjectiveFastest, nil
	case "shortest":
		return ObjectiveShortest, nil
	case "efficient", "most_efficient":
		return ObjectiveEfficient, nil
	case "safest":
		return ObjectiveSafest, nil
	}
	return ObjectiveFastest, &SpecError{Field: "routing", Msg: fmt.Sprintf("%q is not a routing option (want fastest, shortest, efficient, most_efficient or safest)", s)}
}

// Avoid is a set of road kinds a metric does not use.
type Avoid uint8

const (
	// AvoidFerry avoids ferries and shuttle trains.
	AvoidFerry Avoid = 1 << iota
	// AvoidMotorway avoids highway=motorway and motorway_link.
	AvoidMotorway
	// AvoidToll avoids roads tagged toll=* (other than no).
	AvoidToll
	// AvoidUnpaved avoids roads whose surface=* is unpaved.
	AvoidUnpaved
)

var avoidNames = [...]string{"ferry", "motorway", "toll", "unpaved"}

// String lists the avoided kinds, comma-separated, in a fixed order.
func (a Avoid) String() string {
	var parts []string
	for i, n := range avoidNames {
		if a&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, ",")
}

// ParseAvoid returns the avoid flag named s (ferry, motorway, toll,
// unpaved; any case).
func ParseAvoid(s string) (Avoid, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	for i, n := range avoidNames {
		if v == n {
			return 1 << i, nil
		}
	}
	return 0, &SpecError{Field: "avoid", Msg: fmt.Sprintf("%q is not an avoid option (want ferry, motorway, toll or unpaved)", s)}
}

// maxSpeedKmh is the largest per-request speed accepted.
const maxSpeedKmh = 250

// numRoadTypes is the number of SOAP RoadType values.
const numRoadTypes = int(profile.FerryTrain) + 1

// Metric is what a query minimises, as data: an objective, per-RoadType
// speeds in km/h replacing the profile's, road kinds and areas to avoid. Every
// query of a Graph takes one. It is a comparable value (usable as a map
// key); its String is the canonical key the customization cache and the
// job store use. The zero value is Fastest.
//
// Fastest and Shortest, with no speeds and nothing avoided, are served by
// the contraction hierarchies built at import; any other metric is
// customized on the graph's CCH on first use and cached by its key.
type Metric struct {
	Objective Objective
	// Speeds[rt] > 0 replaces the speed of every edge of RoadType rt
	// (tagged maxspeed included). Speeds[profile.Defaultspeed] > 0 applies
	// to every RoadType not given (and to edges of RoadType Defaultspeed).
	Speeds [numRoadTypes]float64
	Avoid  Avoid
	// Areas are polygons whose roads the metric does not use.
	Areas Areas
	// Profile is the vehicle routed: car (the zero value) or truck.
	Profile Profile
	// Vehicle is the truck's dimensions (profile truck only; the zero
	// value for a car). SetProfile gives a truck the default vehicle.
	Vehicle Vehicle
	// Bucket selects the travel times of one hour bucket of a speed
	// profile (Graph.AtHour); the zero value uses none.
	Bucket SpeedBucket
	// Turns selects the turns conditional turn restrictions close: 0
	// (the zero value) those closed for a query without a time; h+1
	// those closed at hour of the week h (Graph.AtHour sets the first
	// hour of the hours closing the same turns).
	Turns int16
}

// Fastest and Shortest are the plain metrics: least travel time (ties
// broken by distance) and least distance (ties broken by travel time),
// with the profile's speeds and nothing avoided.
var (
	Fastest  = Metric{Objective: ObjectiveFastest}
	Shortest = Metric{Objective: ObjectiveShortest}
)

// SpecError is a bad metric parameter: Field names it ("routing",
// "speeds", "speeds.Motorway", "avoid",
// "avoid_polygons.coordinates[0][3]"), Msg says what is wrong.
type SpecError struct {
	Field, Msg string
}

func (e *SpecError) Error() string { return e.Field + ": " + e.Msg }

// NewMetric validates a metric given as an objective name (ParseObjective),
// speeds by SOAP RoadType name (km/h; "Defaultspeed" for every type not
// given) and avoid names. Errors are *SpecError naming the bad field.
func NewMetric(objective string, speeds map[string]float64, avoid []string) (Metric, error) {
	var m Metric
	var err error
	if m.Objective, err = ParseObjective(objective); err != nil {
		return Metric{}, err
	}
	names := make([]string, 0, len(speeds))
	for n := range speeds {
		names = append(names, n)
	}
	slices.Sort(names) // the first error is the same every time
	for _, n := range names {
		if err := m.SetSpeed(n, speeds[n]); err != nil {
			return Metric{}, err
		}
	}
	for _, a := range avoid {
		f, err := ParseAvoid(a)
		if err != nil {
			return Metric{}, err
		}
		m.Avoid |= f
	}
	return m, nil
}

// SetSpeed sets the speed of the RoadType named name to kmh, checking
// both (a speed is > 0 and at most 250 km/h).
func (m *Metric) SetSpeed(name string, kmh float64) error {
	rt, ok := profile.ParseRoadType(name)
	if !ok {
		return &SpecError{Field: "speeds." + name, Msg: fmt.Sprintf("%q is not a RoadType (want one of %s)", name, roadTypeList())}
	}
	if math.IsNaN(kmh) || kmh <= 0 || kmh > maxSpeedKmh {
		return &SpecError{Field: "speeds." + name, Msg: fmt.Sprintf("%v km/h is out of range (want > 0 and <= %d)", kmh, maxSpeedKmh)}
	}
	m.Speeds[rt] = kmh
	return nil
}

func roadTypeList() string {
	var names []string
	for rt := 0; rt < numRoadTypes; rt++ {
		names = append(names, profile.RoadType(rt).String())
	}
	return strings.Join(names, ", ")
}

// SetProfile sets the metric's profile: a truck gets the default
// vehicle (DefaultVehicle), a car none.
func (m *Metric) SetProfile(p Profile) {
	m.Profile, m.Vehicle = p, Vehicle{}
	if p == ProfileTruck {
		m.Vehicle = DefaultVehicle()
	}
}

// hasSpeeds reports whether any speed is given.
func (m Metric) hasSpeeds() bool {
	return m.Speeds != [numRoadTypes]float64{}
}

// hierarchy returns the contraction hierarchy that serves m and true when
// m is plain fastest or shortest (no speeds, no road kind or area
// avoided); for any
// other metric, false and the hierarchy whose packing its durations and
// distances use (chFastest).
func (m Metric) hierarchy() (chMetric, bool) {
	if m.hasSpeeds() || m.Avoid != 0 || !m.Areas.IsZero() || m.Profile != ProfileCar || m.Bucket.changes() || m.Turns != 0 {
		return chFastest, false
	}
	switch m.Objective {
	case ObjectiveFastest:
		return chFastest, true
	case ObjectiveShortest:
		return chShortest, true
	}
	return chFastest, false
}

// String returns the canonical key: the objective, then for a truck
// ";profile=truck;vehicle=" with every field of its vehicle
// ("h4.11,w2.6,l21.64,wt36.29,ax9.07,hz0,ms100"), then ";speeds=" with
// the given speeds by RoadType order ("Motorway:80,LocalRoadCity:20"),
// then ";avoid=" with the avoided kinds, then ";areas=" with the avoided
// areas' canonical encoding (Areas.String), then ";bucket=" with the
// speed bucket (SpeedBucket.String), then ";turns=" with the hour of
// the conditional turns closed (Turns-1). Equal metrics have equal keys
// and ParseMetric reads a key back into the same metric. The key is
// self-contained: a worker on any machine computes a job from it alone.
func (m Metric) String() string {
	var b strings.Builder
	b.WriteString(m.Objective.String())
	if m.Profile != ProfileCar {
		b.WriteString(";profile=")
		b.WriteString(m.Profile.String())
		b.WriteString(";vehicle=")
		b.WriteString(m.Vehicle.key())
	}
	if m.hasSpeeds() {
		b.WriteString(";speeds=")
		first := true
		for rt, v := range m.Speeds {
			if v == 0 {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(profile.RoadType(rt).String())
			b.WriteByte(':')
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	if m.Avoid != 0 {
		b.WriteString(";avoid=")
		b.WriteString(m.Avoid.String())
	}
	if !m.Areas.IsZero() {
		b.WriteString(";areas=")
		b.WriteString(m.Areas.String())
	}
	if !m.Bucket.IsZero() {
		b.WriteString(";bucket=")
		b.WriteString(m.Bucket.String())
	}
	if m.Turns != 0 {
		b.WriteString(";turns=")
		b.WriteString(turnsKey(m.Turns))
	}
	return b.String()
}

// ParseMetric reads a canonical key written by String (and plain
// objective names: "fastest", "most_efficient", ...). A truck key without
// a vehicle part, or with only some of its fields, takes the default
// vehicle's for the others.
func ParseMetric(key string) (Metric, error) {
	parts := strings.Split(key, ";")
	var m Metric
	var err error
	if m.Objective, err = ParseObjective(parts[0]); err != nil {
		return Metric{}, err
	}
	vehicle := ""
	for _, p := range parts[1:] {
		name, val, _ := strings.Cut(p, "=")
		switch name {
		case "profile":
			pr, err := ParseProfile(val)
			if err != nil {
				return Metric{}, err
			}
			m.SetProfile(pr)
		case "vehicle":
			vehicle = val
		case "speeds":
			for _, kv := range strings.Split(val, ",") {
				rt, v, ok := strings.Cut(kv, ":")
				kmh, err := strconv.ParseFloat(v, 64)
				if !ok || err != nil {
					return Metric{}, &SpecError{Field: "speeds", Msg: fmt.Sprintf("%q is not RoadType:km/h", kv)}
				}
				if err := m.SetSpeed(rt, kmh); err != nil {
					return Metric{}, err
				}
			}
		case "avoid":
			for _, a := range strings.Split(val, ",") {
				f, err := ParseAvoid(a)
				if err != nil {
					return Metric{}, err
				}
				m.Avoid |= f
			}
		case "areas":
			if m.Areas, err = parseAreasKey(val); err != nil {
				return Metric{}, err
			}
		case "bucket":
			if m.Bucket, err = parseBucketKey(val); err != nil {
				return Metric{}, err
			}
		case "turns":
			if m.Turns, err = parseTurnsKey(val); err != nil {
				return Metric{}, err
			}
		default:
			return Metric{}, &SpecError{Field: "metric", Msg: fmt.Sprintf("unknown part %q", p)}
		}
	}
	if vehicle != "" {
		if m.Profile != ProfileTruck {
			return Metric{}, &SpecError{Field: "vehicle", Msg: "a vehicle is given for profile truck only"}
		}
		if err := parseVehicleKey(&m.Vehicle, vehicle); err != nil {
			return Metric{}, err
		}
	}
	return m, nil
}

// chMetric selects one of the two contraction hierarchies built at
// import, and the packing of its weights: time then distance (chFastest)
// or distance then time (chShortest).
type chMetric uint8

const (
	chFastest chMetric = iota
	chShortest
)

// String returns "fastest" or "shortest".
func (m chMetric) String() string {
	if m == chShortest {
		return "shortest"
	}
	return "fastest"
}
