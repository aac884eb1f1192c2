package routing

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/geosvc/geosvc/routing/profile"
)

// Base is what a metric minimises before any per-request speeds or avoid
// flags: travel time, distance, fuel or crash risk.
type Base uint8

const (
	// BaseFastest minimises travel time.
	BaseFastest Base = iota
	// BaseShortest minimises distance.
	BaseShortest
	// BaseEfficient minimises fuel (configs/metrics.yaml, efficient).
	BaseEfficient
	// BaseSafest minimises expected crash risk (configs/metrics.yaml,
	// safest).
	BaseSafest
)

var baseNames = [...]string{"fastest", "shortest", "efficient", "safest"}

// String returns fastest, shortest, efficient or safest.
func (b Base) String() string {
	if int(b) < len(baseNames) {
		return baseNames[b]
	}
	return "fastest"
}

// ParseBase accepts fastest, shortest, efficient (or most_efficient) and
// safest, in any case; "" is fastest.
func ParseBase(s string) (Base, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "", "fastest":
		return BaseFastest, nil
	case "shortest":
		return BaseShortest, nil
	case "efficient", "most_efficient":
		return BaseEfficient, nil
	case "safest":
		return BaseSafest, nil
	}
	return BaseFastest, &SpecError{Field: "routing", Msg: fmt.Sprintf("%q is not a routing option (want fastest, shortest, efficient, most_efficient or safest)", s)}
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

// MaxSpeedKmh is the largest per-request speed accepted.
const MaxSpeedKmh = 250

// numRoadTypes is the number of SOAP RoadType values.
const numRoadTypes = int(profile.FerryTrain) + 1

// MetricSpec is a routing metric as data: a base option, per-RoadType
// speeds in km/h replacing the profile's, and road kinds to avoid. It is
// a comparable value (usable as a map key); its String is the canonical
// key the customization cache and the job store use. The zero value is
// today's fastest.
type MetricSpec struct {
	Base Base
	// Speeds[rt] > 0 replaces the speed of every edge of RoadType rt
	// (tagged maxspeed included). Speeds[profile.Defaultspeed] > 0 applies
	// to every RoadType not given (and to edges of RoadType Defaultspeed).
	Speeds [numRoadTypes]float64
	Avoid  Avoid
}

// SpecError is a bad metric parameter: Field names it ("routing",
// "speeds", "speeds.Motorway", "avoid"), Msg says what is wrong.
type SpecError struct {
	Field, Msg string
}

func (e *SpecError) Error() string { return e.Field + ": " + e.Msg }

// NewMetricSpec validates a metric given as an option name, speeds by
// SOAP RoadType name (km/h; "Defaultspeed" for every type not given) and
// avoid names. Errors are *SpecError naming the bad field.
func NewMetricSpec(base string, speeds map[string]float64, avoid []string) (MetricSpec, error) {
	var s MetricSpec
	var err error
	if s.Base, err = ParseBase(base); err != nil {
		return MetricSpec{}, err
	}
	names := make([]string, 0, len(speeds))
	for n := range speeds {
		names = append(names, n)
	}
	slices.Sort(names) // the first error is the same every time
	for _, n := range names {
		if err := s.SetSpeed(n, speeds[n]); err != nil {
			return MetricSpec{}, err
		}
	}
	for _, a := range avoid {
		f, err := ParseAvoid(a)
		if err != nil {
			return MetricSpec{}, err
		}
		s.Avoid |= f
	}
	return s, nil
}

// SetSpeed sets the speed of the RoadType named name to kmh, checking
// both.
func (s *MetricSpec) SetSpeed(name string, kmh float64) error {
	rt, ok := profile.ParseRoadType(name)
	if !ok {
		return &SpecError{Field: "speeds." + name, Msg: fmt.Sprintf("%q is not a RoadType (want one of %s)", name, roadTypeList())}
	}
	if math.IsNaN(kmh) || kmh <= 0 || kmh > MaxSpeedKmh {
		return &SpecError{Field: "speeds." + name, Msg: fmt.Sprintf("%v km/h is out of range (want > 0 and <= %d)", kmh, MaxSpeedKmh)}
	}
	s.Speeds[rt] = kmh
	return nil
}

func roadTypeList() string {
	var names []string
	for rt := 0; rt < numRoadTypes; rt++ {
		names = append(names, profile.RoadType(rt).String())
	}
	return strings.Join(names, ", ")
}

// HasSpeeds reports whether any speed is given.
func (s MetricSpec) HasSpeeds() bool {
	return s.Speeds != [numRoadTypes]float64{}
}

// Default reports whether the spec is plain fastest or shortest: no
// speeds, nothing avoided. Those are served by the contraction
// hierarchies built at import (Metric).
func (s MetricSpec) Default() bool {
	return (s.Base == BaseFastest || s.Base == BaseShortest) && !s.HasSpeeds() && s.Avoid == 0
}

// Metric returns the hierarchy metric of a Default spec (Fastest for
// fastest, Shortest for shortest); for any other spec, the metric its
// durations and distances are broken ties by (Fastest).
func (s MetricSpec) Metric() Metric {
	if s.Base == BaseShortest && s.Default() {
		return Shortest
	}
	return Fastest
}

// SpecOf returns the spec of a hierarchy metric.
func SpecOf(m Metric) MetricSpec {
	if m == Shortest {
		return MetricSpec{Base: BaseShortest}
	}
	return MetricSpec{}
}

// String returns the canonical key: the base, then ";speeds=" with the
// given speeds by RoadType order ("Motorway:80,LocalRoadCity:20"), then
// ";avoid=" with the avoided kinds. Equal specs have equal keys and
// ParseMetricSpec reads a key back into the same spec.
func (s MetricSpec) String() string {
	var b strings.Builder
	b.WriteString(s.Base.String())
	if s.HasSpeeds() {
		b.WriteString(";speeds=")
		first := true
		for rt, v := range s.Speeds {
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
	if s.Avoid != 0 {
		b.WriteString(";avoid=")
		b.WriteString(s.Avoid.String())
	}
	return b.String()
}

// ParseMetricSpec reads a canonical key written by String (and plain
// option names: "fastest", "most_efficient", ...).
func ParseMetricSpec(key string) (MetricSpec, error) {
	parts := strings.Split(key, ";")
	var s MetricSpec
	var err error
	if s.Base, err = ParseBase(parts[0]); err != nil {
		return MetricSpec{}, err
	}
	for _, p := range parts[1:] {
		name, val, _ := strings.Cut(p, "=")
		switch name {
		case "speeds":
			for _, kv := range strings.Split(val, ",") {
				rt, v, ok := strings.Cut(kv, ":")
				kmh, err := strconv.ParseFloat(v, 64)
				if !ok || err != nil {
					return MetricSpec{}, &SpecError{Field: "speeds", Msg: fmt.Sprintf("%q is not RoadType:km/h", kv)}
				}
				if err := s.SetSpeed(rt, kmh); err != nil {
					return MetricSpec{}, err
				}
			}
		case "avoid":
			for _, a := range strings.Split(val, ",") {
				f, err := ParseAvoid(a)
				if err != nil {
					return MetricSpec{}, err
				}
				s.Avoid |= f
			}
		default:
			return MetricSpec{}, &SpecError{Field: "metric", Msg: fmt.Sprintf("unknown part %q", p)}
		}
	}
	return s, nil
}
