package profile

import (
	"math"
	"strconv"
	"strings"
)

// Way is what the profile makes of one OSM way that its vehicle (a car, a
// bicycle, a walker) may use.
type Way struct {
	// Class is the highway value, or the route value ("ferry") of a route.
	Class string
	// Route is true for ferries and shuttle trains (route=*).
	Route bool
	// Forward and Backward say whether a car may drive the way in and
	// against the order of its nodes.
	Forward, Backward bool
	// SpeedFwdKmh and SpeedBwdKmh are the travel speeds per direction (set
	// for both directions even when one is closed).
	SpeedFwdKmh, SpeedBwdKmh float64
	// DurationS, when > 0, is the time to travel the whole way (a ferry
	// with a duration tag); it overrides the speeds.
	DurationS float64
	// RoadType is the SOAP road type.
	RoadType RoadType
	// Roundabout is true on junction=roundabout/circular (the profile's
	// implied_junctions).
	Roundabout bool
	// maxspeedFwd and maxspeedBwd are the parsed limits per direction.
	maxspeedFwd, maxspeedBwd maxspeed
	// Toll is true when a car pays to use the way (toll=* or
	// toll:motorcar=* other than "no").
	Toll bool
	// Unpaved is true when the way's surface=* is one of the profile's
	// unpaved_surfaces.
	Unpaved bool
	// Pushed is true when a cyclist walks beside the bicycle along the
	// way (the profile's push rules): its speeds are the push speed.
	Pushed bool
	// Bridge and Tunnel are bridge=* and tunnel=* other than "no"; Layer
	// is layer=* (-5..5; 0 when untagged or not a number), for maps.
	Bridge, Tunnel bool
	Layer          int8
}

// Way evaluates a way's tags. ok is false when a car may not use the way at
// all: not a listed highway class or route, closed by access tags, an area,
// under construction, proposed, impassable, a forbidden service road, or a
// reversible one-way.
func (p *Profile) Way(t Tags) (w Way, ok bool) {
	highway := t.Find("highway")
	route := t.Find("route")
	rr, isRoute := p.Routes[route]
	hwSpeed, isRoad := p.HighwaySpeedsKmh[highway]
	if !isRoute && !isRoad {
		return Way{}, false
	}
	if p.excluded(t) || p.wayAccess(t) == accessDenied {
		return Way{}, false
	}
	av := accessValue(t, p.Access.Hierarchy)
	if !isRoute && p.required[highway] && !p.allowed[av] && !p.implied(t) {
		return Way{}, false
	}
	junction := t.Find("junction")
	w.Roundabout = p.impliedJct[junction]
	implied := w.Roundabout || (!isRoute && p.impliedHwy[highway])
	ov := firstPresent(t, p.Oneway.Keys)
	dir := parseOneway(ov, implied)
	if dir == onewayClosed || p.closedOneway[strings.ToLower(strings.TrimSpace(ov))] {
		return Way{}, false
	}
	if (dir == onewayForward || dir == onewayBackward) && p.hasTagValue(t, p.contraflow) {
		dir = onewayNo // a contraflow lane (cycleway=opposite_lane)
	}
	w.Forward, w.Backward = dir.Forward(), dir.Backward()
	w.Toll = isToll(t)
	w.Bridge, w.Tunnel, w.Layer = structure(t)
	w.Unpaved = p.unpaved[strings.ToLower(strings.TrimSpace(t.Find("surface")))]

	if isRoute {
		w.Class, w.Route = route, true
		w.SpeedFwdKmh, w.SpeedBwdKmh = rr.SpeedKmh, rr.SpeedKmh
		w.RoadType = p.routeTypes[route]
		if d, ok := parseDuration(t.Find("duration")); ok {
			w.DurationS = math.Max(d, p.MinRouteDurationS)
		}
		return w, true
	}

	w.Class = highway
	fwd, bwd := p.maxspeeds(t)
	w.maxspeedFwd, w.maxspeedBwd = fwd, bwd
	if p.pushValues[av] || p.pushClasses[highway] && !p.rideValues[av] {
		w.Pushed, hwSpeed = true, p.Push.SpeedKmh
	}
	w.SpeedFwdKmh = p.roadSpeed(hwSpeed, fwd, t)
	w.SpeedBwdKmh = p.roadSpeed(hwSpeed, bwd, t)
	w.RoadType = p.roadTypeFor(highway, p.isCity(highway, fwd, bwd))
	return w, true
}

// excluded applies the exclude rules.
func (p *Profile) excluded(t Tags) bool {
	if p.area[t.Find("area")] {
		return true
	}
	if c := t.Find("construction"); c != "" && !p.construction[c] {
		return true
	}
	if p.Exclude.Proposed && t.Find("proposed") != "" {
		return true
	}
	if p.Exclude.Impassable && (t.Find("impassable") == "yes" || t.Find("status") == "impassable") {
		return true
	}
	if p.Exclude.Motorroad && t.Find("motorroad") == "yes" {
		return true
	}
	return p.service[t.Find("service")]
}

// maxspeeds reads the limits per direction: for each maxspeed key in order,
// key:forward / key:backward, else key itself, until both are known.
func (p *Profile) maxspeeds(t Tags) (fwd, bwd maxspeed) {
	var fv, bv string
	for _, k := range p.Maxspeed.Keys {
		if fv == "" {
			fv = t.Find(k + ":forward")
		}
		if bv == "" {
			bv = t.Find(k + ":backward")
		}
		if fv == "" || bv == "" {
			common := t.Find(k)
			if fv == "" {
				fv = common
			}
			if bv == "" {
				bv = common
			}
		}
		if fv != "" && bv != "" {
			break
		}
	}
	return parseMaxspeed(fv, p.zones), parseMaxspeed(bv, p.zones)
}

// roadSpeed turns a class speed and a parsed limit into a travel speed:
// limit * factor when a limit is known (else the class speed), capped by
// the surface and by max_kmh.
func (p *Profile) roadSpeed(classKmh float64, m maxspeed, t Tags) float64 {
	s := classKmh
	if m.Known() {
		s = m.Kmh * p.Maxspeed.Factor
	}
	if cap, ok := p.SurfaceSpeedsKmh[t.Find("surface")]; ok && cap < s {
		s = cap
	}
	if p.Maxspeed.MaxKmh > 0 {
		s = math.Min(s, p.Maxspeed.MaxKmh)
	}
	return s
}

// implied reports whether a tag of access.implied_by opens a required
// class (sidewalk=both on a trunk road for a walker).
func (p *Profile) implied(t Tags) bool { return p.hasTagValue(t, p.impliedBy) }

// hasTagValue reports whether one of the tags of m has one of its values.
func (p *Profile) hasTagValue(t Tags, m map[string]set) bool {
	for k, vs := range m {
		if vs[strings.ToLower(strings.TrimSpace(t.Find(k)))] {
			return true
		}
	}
	return false
}

// isCity decides whether a road is a City road type (see road_types in
// configs/car.yaml): its class is a city class, either direction's limit is
// an urban zone, or a tagged limit is at most city_max_kmh.
func (p *Profile) isCity(class string, fwd, bwd maxspeed) bool {
	if p.cityClasses[class] || fwd.Urban || bwd.Urban {
		return true
	}
	lim := p.RoadTypes.CityMaxKmh
	return fwd.Known() && !fwd.None && fwd.Kmh <= lim || bwd.Known() && !bwd.None && bwd.Kmh <= lim
}

// roadTypeFor returns the SOAP road type of a highway class or route value,
// rural or city; Defaultspeed for an unknown class.
func (p *Profile) roadTypeFor(class string, city bool) RoadType {
	if rt, ok := p.routeTypes[class]; ok {
		return rt
	}
	pair, ok := p.classTypes[class]
	if !ok {
		return Defaultspeed
	}
	if city {
		return pair[1]
	}
	return pair[0]
}

// Node evaluates the tags of a node on a car way: signal is true for
// highway=traffic_signals; barrier is true when the node stops a car. A
// node whose access tags (the way hierarchy) are set is a barrier exactly
// when the value is in barriers.denied_access, whatever its barrier tag;
// otherwise any barrier=* value not in barriers.passable blocks, unless a
// barriers.passable_if tag matches (bollard=rising, kerb=lowered).
func (p *Profile) Node(t Tags) (signal, barrier bool) {
	signal = t.Find("highway") == "traffic_signals"
	if v := accessValue(t, p.Access.Hierarchy); v != "" {
		return signal, p.barrierDenied[v]
	}
	b := t.Find("barrier")
	if b == "" || p.passable[b] || len(p.blocking) > 0 && !p.blocking[b] {
		return signal, false
	}
	for k, vs := range p.passableIf {
		if vs[t.Find(k)] {
			return signal, false
		}
	}
	return signal, true
}

// RestrictionStatus says whether a restriction relation applies to cars.
type RestrictionStatus int8

// RestrictionStatus values.
const (
	// RestrictionCar: a no_* or only_* restriction that applies to cars.
	RestrictionCar RestrictionStatus = iota
	// RestrictionNotCar: no restriction value that applies to cars (a
	// restriction:hgv only, say), or except=* exempts cars.
	RestrictionNotCar
	// RestrictionInvalid: no restriction value, or one that is neither
	// no_* nor only_*.
	RestrictionInvalid
	// RestrictionConditional: the only value for cars is a conditional
	// one (restriction:conditional, restriction:<vehicle>:conditional,
	// ConditionalRestriction), which applies at some times only.
	RestrictionConditional
)

// Restriction reads the tags of a type=restriction relation: kind is the
// restriction value that applies to the profile's vehicle, the first of
// restriction:<type> for its vehicle types in order (for a car
// restriction:motorcar, restriction:motor_vehicle, restriction:vehicle),
// else restriction; only is true for only_* kinds. A relation whose
// except=* lists one of the vehicle types, or whose values all name other
// vehicles (restriction:hgv, ...), is RestrictionNotCar; one with only a
// conditional value is RestrictionConditional.
func (p *Profile) Restriction(t Tags) (kind string, only bool, status RestrictionStatus) {
	if p.Restrictions.Ignore {
		return "", false, RestrictionNotCar
	}
	for _, e := range strings.Split(t.Find("except"), ";") {
		if p.vehicleTypes[strings.TrimSpace(e)] {
			return "", false, RestrictionNotCar
		}
	}
	for _, vt := range p.Restrictions.VehicleTypes {
		if kind = t.Find("restriction:" + vt); kind != "" {
			break
		}
	}
	if kind == "" {
		kind = t.Find("restriction")
	}
	kind = strings.TrimSpace(kind)
	if kind == "" {
		if p.conditional(t) {
			return "", false, RestrictionConditional
		}
		return "", false, RestrictionNotCar
	}
	switch {
	case strings.HasPrefix(kind, "no_"):
		return kind, false, RestrictionCar
	case strings.HasPrefix(kind, "only_"):
		return kind, true, RestrictionCar
	}
	return kind, false, RestrictionInvalid
}

// conditional reports whether a restriction relation has a conditional
// value for cars: restriction:conditional or restriction:<vehicle>:conditional
// for one of the profile's vehicle types.
func (p *Profile) conditional(t Tags) bool {
	return p.ConditionalRestriction(t) != ""
}

// ConditionalRestriction returns the conditional restriction value of a
// type=restriction relation that applies to the profile's vehicle
// ("no_left_turn @ (Mo-Fr 07:00-09:00)"): the first of
// restriction:<type>:conditional for its vehicle types in order, else
// restriction:conditional; "" when there is none, when the profile
// ignores restrictions, or when except=* exempts the vehicle.
func (p *Profile) ConditionalRestriction(t Tags) string {
	if p.Restrictions.Ignore {
		return ""
	}
	for _, e := range strings.Split(t.Find("except"), ";") {
		if p.vehicleTypes[strings.TrimSpace(e)] {
			return ""
		}
	}
	for _, vt := range p.Restrictions.VehicleTypes {
		if v := strings.TrimSpace(t.Find("restriction:" + vt + ":conditional")); v != "" {
			return v
		}
	}
	return strings.TrimSpace(t.Find("restriction:conditional"))
}

// firstPresent returns the value of the first key present.
func firstPresent(t Tags, keys []string) string {
	for _, k := range keys {
		if v := t.Find(k); v != "" {
			return v
		}
	}
	return ""
}

// isToll reports whether a car pays to use a way: toll:motorcar wins over
// toll; any value but "no" (yes, snowmobile-free variants, conditional
// strings) counts as a toll.
func isToll(t Tags) bool {
	v := strings.ToLower(strings.TrimSpace(t.Find("toll:motorcar")))
	if v == "" {
		v = strings.ToLower(strings.TrimSpace(t.Find("toll")))
	}
	return v != "" && v != "no"
}

// structure reads what maps draw a way as: on a bridge, in a tunnel
// (bridge=* or tunnel=* other than "no"), and its layer=* (-5..5).
func structure(t Tags) (bridge, tunnel bool, layer int8) {
	yes := func(k string) bool {
		v := strings.ToLower(strings.TrimSpace(t.Find(k)))
		return v != "" && v != "no"
	}
	if l, err := strconv.Atoi(strings.TrimSpace(t.Find("layer"))); err == nil {
		layer = int8(max(-5, min(5, l)))
	}
	return yes("bridge"), yes("tunnel"), layer
}
