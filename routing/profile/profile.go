package profile

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Profile is a routing profile, read from YAML (configs/car.yaml,
// configs/bicycle.yaml, configs/foot.yaml). The exported fields mirror the
// YAML keys; Parse fills the lookup tables the methods use. A Profile is
// read-only after Parse and safe for concurrent use.
type Profile struct {
	// Name names the profile ("car").
	Name string `yaml:"name"`
	// DrivingSide is "right" or "left".
	DrivingSide string `yaml:"driving_side"`
	// HighwaySpeedsKmh is the speed per routable highway class.
	HighwaySpeedsKmh map[string]float64 `yaml:"highway_speeds_kmh"`
	// Routes are the car-carrying route=* values (ferry, shuttle_train).
	Routes map[string]RouteRule `yaml:"routes"`
	// MinRouteDurationS is the smallest crossing time taken from a
	// duration tag.
	MinRouteDurationS float64 `yaml:"min_route_duration_s"`
	// Maxspeed says how maxspeed tags become speeds.
	Maxspeed MaxspeedRules `yaml:"maxspeed"`
	// SurfaceSpeedsKmh caps the speed per surface=* value.
	SurfaceSpeedsKmh map[string]float64 `yaml:"surface_speeds_kmh"`
	// Access says which access values close a way.
	Access AccessRules `yaml:"access"`
	// Exclude lists the tags that make a way no car road.
	Exclude ExcludeRules `yaml:"exclude"`
	// Oneway holds the one-way rules.
	Oneway OnewayRules `yaml:"oneway"`
	// Barriers says which barrier nodes stop a car.
	Barriers BarrierRules `yaml:"barriers"`
	// Restrictions says which restriction relations apply to cars.
	Restrictions RestrictionRules `yaml:"restrictions"`
	// Turns holds the turn-cost parameters.
	Turns TurnRules `yaml:"turns"`
	// RoadTypes maps classes to SOAP road types.
	RoadTypes RoadTypeRules `yaml:"road_types"`
	// UnpavedSurfaces are the surface=* values that make a road unpaved
	// (the "avoid unpaved" option of routing metrics).
	UnpavedSurfaces []string `yaml:"unpaved_surfaces"`
	// Push says where a cyclist walks beside the bicycle (empty for the
	// car and foot profiles).
	Push PushRules `yaml:"push"`

	zones         Zones
	denied        set
	closedOneway  set
	impliedHwy    set
	impliedJct    set
	construction  set
	area          set
	service       set
	passable      set
	barrierDenied set
	passableIf    map[string]set
	vehicleTypes  set
	unpaved       set
	cityClasses   set
	classTypes    map[string][2]RoadType
	routeTypes    map[string]RoadType
	required      set
	allowed       set
	blocking      set
	contraflow    map[string]set
	impliedBy     map[string]set
	pushClasses   set
	pushValues    set
	rideValues    set
}

// PushRules say where a cyclist walks beside the bicycle, at SpeedKmh:
// on the Highways classes unless the access value allows riding, and on
// any way whose access value is one of Values (bicycle=dismount).
type PushRules struct {
	// SpeedKmh is the walking speed with a bicycle.
	SpeedKmh float64 `yaml:"speed_kmh"`
	// Highways are the classes pushed along by default (footway, ...).
	Highways []string `yaml:"highways"`
	// RideValues are the access values that allow riding on them.
	RideValues []string `yaml:"ride_values"`
	// Values are the access values that mean pushing on any way.
	Values []string `yaml:"values"`
}

// RouteRule is one car-carrying route=* value.
type RouteRule struct {
	// SpeedKmh is the crossing speed without a duration tag.
	SpeedKmh float64 `yaml:"speed_kmh"`
	// RoadType is the SOAP road type name (FerryCar, FerryTrain, ...).
	RoadType string `yaml:"road_type"`
}

// MaxspeedRules say how maxspeed tags become speeds.
type MaxspeedRules struct {
	// Keys are the tags read for the limit, first present wins.
	Keys []string `yaml:"keys"`
	// Factor multiplies a tagged limit into a travel speed.
	Factor float64 `yaml:"factor"`
	// MaxKmh caps every road speed.
	MaxKmh float64 `yaml:"max_kmh"`
	// NoneKmh is the limit assumed for maxspeed=none.
	NoneKmh float64 `yaml:"none_kmh"`
	// Zones maps "CC:zone" values to limits ("50", "25 mph"; 0 = none).
	Zones map[string]string `yaml:"zones"`
	// ZoneDefaults maps zone suffixes (urban, rural, ...) to limits.
	ZoneDefaults map[string]float64 `yaml:"zone_defaults"`
	// UrbanZoneSuffixes are the zone suffixes of built-up areas.
	UrbanZoneSuffixes []string `yaml:"urban_zone_suffixes"`
}

// AccessRules say who may drive a way.
type AccessRules struct {
	// Hierarchy lists access tags from most to least specific.
	Hierarchy []string `yaml:"hierarchy"`
	// Denied lists the values that close a way to cars.
	Denied []string `yaml:"denied"`
	// RequiredClasses are highway classes usable only when the access
	// value is one of Allowed or a tag of ImpliedBy says so (foot on a
	// trunk road); empty for the car.
	RequiredClasses []string `yaml:"required_classes"`
	// Allowed are the access values that open a required class.
	Allowed []string `yaml:"allowed"`
	// ImpliedBy opens a required class when a tag has one of the values
	// (sidewalk=both).
	ImpliedBy map[string][]string `yaml:"implied_by"`
}

// ExcludeRules list the tags that make a way no car road.
type ExcludeRules struct {
	// Area lists the area=* values that exclude a way.
	Area []string `yaml:"area"`
	// ConstructionAllowed lists construction=* values that keep a road open.
	ConstructionAllowed []string `yaml:"construction_allowed"`
	// Proposed excludes ways with any proposed=* tag.
	Proposed bool `yaml:"proposed"`
	// Impassable excludes impassable=yes and status=impassable.
	Impassable bool `yaml:"impassable"`
	// Service lists the service=* values a car may not use.
	Service []string `yaml:"service"`
	// Motorroad excludes motorroad=yes (motor vehicles only).
	Motorroad bool `yaml:"motorroad"`
}

// OnewayRules hold the one-way handling.
type OnewayRules struct {
	// Keys are the tags read for the direction, first present wins.
	Keys []string `yaml:"keys"`
	// ImpliedHighways are the classes one-way by default.
	ImpliedHighways []string `yaml:"implied_highways"`
	// ImpliedJunctions are the junction=* values one-way by default; they
	// also mark roundabouts.
	ImpliedJunctions []string `yaml:"implied_junctions"`
	// ClosedValues are oneway values that close the way (reversible).
	ClosedValues []string `yaml:"closed_values"`
	// Contraflow opens the other direction of a one-way road when a tag
	// has one of the values (cycleway=opposite_lane for a bicycle).
	Contraflow map[string][]string `yaml:"contraflow"`
}

// BarrierRules say which barrier nodes stop a car.
type BarrierRules struct {
	// Passable lists the barrier=* values a car passes.
	Passable []string `yaml:"passable"`
	// DeniedAccess lists node access values that block whatever the barrier.
	DeniedAccess []string `yaml:"denied_access"`
	// PassableIf makes a blocking barrier passable when a tag has a value.
	PassableIf map[string][]string `yaml:"passable_if"`
	// Blocking, when set, lists the only barrier=* values that block (a
	// bicycle or a walker passes bollards and gates); Passable is then
	// not used.
	Blocking []string `yaml:"blocking"`
}

// RestrictionRules say which restriction relations apply to cars.
type RestrictionRules struct {
	// VehicleTypes are the vehicle types a car belongs to, most specific
	// first.
	VehicleTypes []string `yaml:"vehicle_types"`
	// Ignore applies no restriction relation (a walker): every one is
	// "not for this vehicle".
	Ignore bool `yaml:"ignore"`
}

// TurnRules are the turn-cost parameters (OSRM car.lua process_turn).
type TurnRules struct {
	// TurnPenaltyS is the largest angle penalty in seconds.
	TurnPenaltyS float64 `yaml:"turn_penalty_s"`
	// TurnBias is the sigmoid asymmetry (> 1 favours right turns in
	// right-hand traffic).
	TurnBias float64 `yaml:"turn_bias"`
	// UTurnPenaltyS is added to a U-turn.
	UTurnPenaltyS float64 `yaml:"u_turn_penalty_s"`
	// TrafficSignalPenaltyS is added to a turn through a signal node.
	TrafficSignalPenaltyS float64 `yaml:"traffic_signal_penalty_s"`
}

// RoadTypeRules map highway classes to SOAP road types.
type RoadTypeRules struct {
	// CityMaxKmh: a tagged limit at most this makes an edge City.
	CityMaxKmh float64 `yaml:"city_max_kmh"`
	// CityClasses are the classes that are always City.
	CityClasses []string `yaml:"city_classes"`
	// Classes maps a class to its [rural, city] road type names.
	Classes map[string][2]string `yaml:"classes"`
}

// Load reads and parses the profile file at path.
func Load(path string) (*Profile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	p, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Parse parses and validates a YAML profile. Unknown keys are errors.
func Parse(yamlBytes []byte) (*Profile, error) {
	dec := yaml.NewDecoder(bytes.NewReader(yamlBytes))
	dec.KnownFields(true)
	p := &Profile{}
	if err := dec.Decode(p); err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	if err := p.compile(); err != nil {
		return nil, fmt.Errorf("profile %q: %w", p.Name, err)
	}
	return p, nil
}

// compile validates the profile and builds its lookup tables.
func (p *Profile) compile() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	positive := func(key string, v float64) {
		if !(v > 0) || math.IsInf(v, 0) {
			bad("%s must be a positive number, got %v", key, v)
		}
	}
	if p.Name == "" {
		bad("name is missing")
	}
	if p.DrivingSide != "right" && p.DrivingSide != "left" {
		bad("driving_side must be right or left, got %q", p.DrivingSide)
	}
	if len(p.HighwaySpeedsKmh) == 0 {
		bad("highway_speeds_kmh is empty: no road would be routable")
	}
	for _, k := range sortedKeys(p.HighwaySpeedsKmh) {
		positive("highway_speeds_kmh."+k, p.HighwaySpeedsKmh[k])
	}
	p.routeTypes = map[string]RoadType{}
	for _, k := range sortedKeys(p.Routes) {
		r := p.Routes[k]
		positive("routes."+k+".speed_kmh", r.SpeedKmh)
		rt, ok := ParseRoadType(r.RoadType)
		if !ok {
			bad("routes.%s.road_type: unknown road type %q", k, r.RoadType)
		}
		p.routeTypes[k] = rt
	}
	if p.MinRouteDurationS < 0 {
		bad("min_route_duration_s must be >= 0, got %v", p.MinRouteDurationS)
	}

	// A profile without maxspeed keys (bicycle, foot) reads no limit and
	// needs no factor; max_kmh, when given, still caps every speed.
	m := p.Maxspeed
	if len(m.Keys) > 0 {
		if !(m.Factor > 0 && m.Factor <= 2) {
			bad("maxspeed.factor must be in (0, 2], got %v", m.Factor)
		}
		positive("maxspeed.max_kmh", m.MaxKmh)
		positive("maxspeed.none_kmh", m.NoneKmh)
	} else if m.MaxKmh < 0 {
		bad("maxspeed.max_kmh must be >= 0, got %v", m.MaxKmh)
	}
	p.zones = Zones{
		Exact:    map[string]float64{},
		BySuffix: map[string]float64{},
		NoneKmh:  m.NoneKmh,
		Urban:    toSet(m.UrbanZoneSuffixes),
	}
	for _, k := range sortedKeys(m.Zones) {
		v := m.Zones[k]
		lk := strings.ToLower(strings.TrimSpace(k))
		if !strings.Contains(lk, ":") {
			bad("maxspeed.zones: key %q is not a CC:zone value", k)
		}
		if _, dup := p.zones.Exact[lk]; dup {
			bad("maxspeed.zones: %q is listed twice (keys ignore case)", k)
		}
		kmh, ok := parseNumericSpeed(strings.ToLower(strings.TrimSpace(v)))
		if strings.TrimSpace(v) == "0" {
			kmh, ok = 0, true
		}
		if !ok {
			bad("maxspeed.zones.%s: %q is not a speed (want km/h or \"NN mph\")", k, v)
		}
		p.zones.Exact[lk] = kmh
	}
	for _, k := range sortedKeys(m.ZoneDefaults) {
		positive("maxspeed.zone_defaults."+k, m.ZoneDefaults[k])
		p.zones.BySuffix[strings.ToLower(k)] = m.ZoneDefaults[k]
	}
	for _, k := range sortedKeys(p.SurfaceSpeedsKmh) {
		positive("surface_speeds_kmh."+k, p.SurfaceSpeedsKmh[k])
	}

	if len(p.Access.Hierarchy) == 0 {
		bad("access.hierarchy is empty")
	}
	p.denied = toSet(p.Access.Denied)
	p.area = toSet(p.Exclude.Area)
	p.construction = toSet(p.Exclude.ConstructionAllowed)
	p.service = toSet(p.Exclude.Service)
	if len(p.Oneway.Keys) == 0 {
		bad("oneway.keys is empty")
	}
	p.impliedHwy = toSet(p.Oneway.ImpliedHighways)
	p.impliedJct = toSet(p.Oneway.ImpliedJunctions)
	p.closedOneway = toSet(p.Oneway.ClosedValues)
	p.passable = toSet(p.Barriers.Passable)
	p.barrierDenied = toSet(p.Barriers.DeniedAccess)
	p.passableIf = map[string]set{}
	for k, vs := range p.Barriers.PassableIf {
		p.passableIf[k] = toSet(vs)
	}
	if len(p.Restrictions.VehicleTypes) == 0 && !p.Restrictions.Ignore {
		bad("restrictions.vehicle_types is empty (set restrictions.ignore to apply none)")
	}
	p.vehicleTypes = toSet(p.Restrictions.VehicleTypes)
	p.unpaved = toSet(p.UnpavedSurfaces)
	p.required = toSet(p.Access.RequiredClasses)
	p.allowed = toSet(p.Access.Allowed)
	for _, k := range p.Access.RequiredClasses {
		if _, ok := p.HighwaySpeedsKmh[k]; !ok {
			bad("access.required_classes: %q has no speed in highway_speeds_kmh", k)
		}
	}
	p.blocking = toSet(p.Barriers.Blocking)
	if len(p.Barriers.Blocking) > 0 && len(p.Barriers.Passable) > 0 {
		bad("barriers: give passable or blocking, not both")
	}
	p.contraflow = map[string]set{}
	for k, vs := range p.Oneway.Contraflow {
		p.contraflow[k] = toSet(vs)
	}
	p.impliedBy = map[string]set{}
	for k, vs := range p.Access.ImpliedBy {
		p.impliedBy[k] = toSet(vs)
	}
	p.pushClasses = toSet(p.Push.Highways)
	p.pushValues = toSet(p.Push.Values)
	p.rideValues = toSet(p.Push.RideValues)
	if len(p.Push.Highways)+len(p.Push.Values) > 0 {
		positive("push.speed_kmh", p.Push.SpeedKmh)
	}
	for _, k := range p.Push.Highways {
		if _, ok := p.HighwaySpeedsKmh[k]; !ok {
			bad("push.highways: %q has no speed in highway_speeds_kmh", k)
		}
	}

	t := p.Turns
	if t.TurnPenaltyS < 0 || t.UTurnPenaltyS < 0 || t.TrafficSignalPenaltyS < 0 {
		bad("turns: penalties must be >= 0 (turn %v, u-turn %v, signal %v)", t.TurnPenaltyS, t.UTurnPenaltyS, t.TrafficSignalPenaltyS)
	}
	positive("turns.turn_bias", t.TurnBias)

	rt := p.RoadTypes
	if rt.CityMaxKmh < 0 {
		bad("road_types.city_max_kmh must be >= 0, got %v", rt.CityMaxKmh)
	}
	p.cityClasses = toSet(rt.CityClasses)
	p.classTypes = map[string][2]RoadType{}
	for _, k := range sortedKeys(rt.Classes) {
		var pair [2]RoadType
		for i, name := range rt.Classes[k] {
			r, ok := ParseRoadType(name)
			if !ok {
				bad("road_types.classes.%s: unknown road type %q", k, name)
			}
			pair[i] = r
		}
		p.classTypes[k] = pair
	}
	for _, k := range sortedKeys(p.HighwaySpeedsKmh) {
		if _, ok := p.classTypes[k]; !ok {
			bad("road_types.classes has no entry for highway class %q", k)
		}
	}
	return errors.Join(errs...)
}

// zoneTable returns the maxspeed zone table, for parseMaxspeed.
func (p *Profile) zoneTable() Zones { return p.zones }

// classes returns the routable highway classes, sorted.
func (p *Profile) classes() []string { return sortedKeys(p.HighwaySpeedsKmh) }

// IsCarCandidate reports, from the highway and route values alone, whether
// a way may be a car road. It is a cheap pre-filter; Way decides.
func (p *Profile) IsCarCandidate(highway, route string) bool {
	if _, ok := p.HighwaySpeedsKmh[highway]; ok {
		return true
	}
	_, ok := p.Routes[route]
	return ok
}

// set is a set of strings.
type set map[string]bool

func toSet(vs []string) set {
	s := make(set, len(vs))
	for _, v := range vs {
		s[v] = true
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
