package profile

import (
	"math"
	"testing"
)

func TestWay(t *testing.T) {
	p := loadCar(t)
	mph := 1.609344
	tests := []struct {
		name     string
		tags     mapTags
		ok       bool
		fwd, bwd bool
		sf, sb   float64
		dur      float64
		rt       RoadType
		rb       bool
	}{
		{"residential", mapTags{"highway": "residential"}, true, true, true, 25, 25, 0, OtherRoadCity, false},
		{"primary", mapTags{"highway": "primary"}, true, true, true, 65, 65, 0, FederalHighway, false},
		{"primary 50", mapTags{"highway": "primary", "maxspeed": "50"}, true, true, true, 40, 40, 0, FederalHighwayCity, false},
		{"primary urban zone", mapTags{"highway": "primary", "maxspeed": "DE:urban"}, true, true, true, 40, 40, 0, FederalHighwayCity, false},
		{"source:maxspeed zone", mapTags{"highway": "secondary", "source:maxspeed": "FR:rural"}, true, true, true, 64, 64, 0, RegionalRoad, false},
		{"advisory first", mapTags{"highway": "secondary", "maxspeed": "100", "maxspeed:advisory": "50"}, true, true, true, 40, 40, 0, RegionalRoadCity, false},
		{"maxspeed mph", mapTags{"highway": "trunk", "maxspeed": "55 mph"}, true, true, true, 55 * mph * 0.8, 55 * mph * 0.8, 0, DualCarriageWay, false},
		{"fwd/bwd maxspeed", mapTags{"highway": "tertiary", "maxspeed": "70", "maxspeed:backward": "30"}, true, true, true, 56, 24, 0, LocalRoadCity, false},
		{"maxspeed none", mapTags{"highway": "motorway", "maxspeed": "none"}, true, true, false, 112, 112, 0, Motorway, false},
		{"de:motorway keeps class speed", mapTags{"highway": "motorway", "maxspeed": "DE:motorway"}, true, true, false, 90, 90, 0, Motorway, false},
		{"cap", mapTags{"highway": "motorway", "maxspeed": "300"}, true, true, false, 140, 140, 0, Motorway, false},
		{"walk keeps class speed", mapTags{"highway": "living_street", "maxspeed": "walk"}, true, true, true, 10, 10, 0, OtherRoadCity, false},
		{"surface cap", mapTags{"highway": "primary", "surface": "gravel"}, true, true, true, 40, 40, 0, FederalHighway, false},
		{"oneway", mapTags{"highway": "residential", "oneway": "yes"}, true, true, false, 25, 25, 0, OtherRoadCity, false},
		{"oneway -1", mapTags{"highway": "residential", "oneway": "-1"}, true, false, true, 25, 25, 0, OtherRoadCity, false},
		{"oneway:motorcar wins", mapTags{"highway": "residential", "oneway": "yes", "oneway:motorcar": "no"}, true, true, true, 25, 25, 0, OtherRoadCity, false},
		{"motorway implied", mapTags{"highway": "motorway"}, true, true, false, 90, 90, 0, Motorway, false},
		{"motorway_link oneway=no", mapTags{"highway": "motorway_link", "oneway": "no"}, true, true, true, 45, 45, 0, Motorway, false},
		{"roundabout", mapTags{"highway": "primary", "junction": "roundabout"}, true, true, false, 65, 65, 0, FederalHighway, true},
		{"circular", mapTags{"highway": "tertiary", "junction": "circular"}, true, true, false, 40, 40, 0, LocalRoad, true},
		{"ferry", mapTags{"route": "ferry"}, true, true, true, 5, 5, 0, FerryCar, false},
		{"ferry with duration", mapTags{"route": "ferry", "duration": "PT1H30M"}, true, true, true, 5, 5, 5400, FerryCar, false},
		{"ferry zero duration", mapTags{"route": "ferry", "duration": "00:00"}, true, true, true, 5, 5, 1, FerryCar, false},
		{"ferry bad duration", mapTags{"route": "ferry", "duration": "long"}, true, true, true, 5, 5, 0, FerryCar, false},
		{"shuttle train", mapTags{"route": "shuttle_train", "duration": "20"}, true, true, true, 10, 10, 1200, FerryTrain, false},
		{"ferry no cars", mapTags{"route": "ferry", "motorcar": "no"}, false, false, false, 0, 0, 0, 0, false},
		{"ferry no motor vehicles", mapTags{"route": "ferry", "motor_vehicle": "no"}, false, false, false, 0, 0, 0, 0, false},
		{"footway", mapTags{"highway": "footway"}, false, false, false, 0, 0, 0, 0, false},
		{"track", mapTags{"highway": "track"}, false, false, false, 0, 0, 0, 0, false},
		{"construction", mapTags{"highway": "construction"}, false, false, false, 0, 0, 0, 0, false},
		{"proposed", mapTags{"highway": "proposed"}, false, false, false, 0, 0, 0, 0, false},
		{"construction tag", mapTags{"highway": "primary", "construction": "yes"}, false, false, false, 0, 0, 0, 0, false},
		{"construction minor", mapTags{"highway": "primary", "construction": "minor"}, true, true, true, 65, 65, 0, FederalHighway, false},
		{"area", mapTags{"highway": "service", "area": "yes"}, false, false, false, 0, 0, 0, 0, false},
		{"private", mapTags{"highway": "service", "access": "private"}, false, false, false, 0, 0, 0, 0, false},
		{"private but motorcar yes", mapTags{"highway": "service", "access": "private", "motorcar": "yes"}, true, true, true, 15, 15, 0, OtherRoad, false},
		{"destination", mapTags{"highway": "residential", "access": "destination"}, true, true, true, 25, 25, 0, OtherRoadCity, false},
		{"delivery", mapTags{"highway": "residential", "motor_vehicle": "delivery"}, false, false, false, 0, 0, 0, 0, false},
		{"agricultural", mapTags{"highway": "unclassified", "vehicle": "agricultural"}, false, false, false, 0, 0, 0, 0, false},
		{"forestry", mapTags{"highway": "unclassified", "access": "forestry"}, false, false, false, 0, 0, 0, 0, false},
		{"emergency access", mapTags{"highway": "service", "service": "emergency_access"}, false, false, false, 0, 0, 0, 0, false},
		{"reversible", mapTags{"highway": "primary", "oneway": "reversible"}, false, false, false, 0, 0, 0, 0, false},
		{"impassable", mapTags{"highway": "primary", "impassable": "yes"}, false, false, false, 0, 0, 0, 0, false},
		{"road", mapTags{"highway": "road"}, true, true, true, 25, 25, 0, OtherRoad, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, ok := p.Way(tc.tags)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, tc.ok, w)
			}
			if !ok {
				return
			}
			if w.Forward != tc.fwd || w.Backward != tc.bwd || math.Abs(w.SpeedFwdKmh-tc.sf) > 1e-9 || math.Abs(w.SpeedBwdKmh-tc.sb) > 1e-9 ||
				w.DurationS != tc.dur || w.RoadType != tc.rt || w.Roundabout != tc.rb {
				t.Errorf("got fwd %v bwd %v speeds %v/%v dur %v type %v roundabout %v", w.Forward, w.Backward, w.SpeedFwdKmh, w.SpeedBwdKmh, w.DurationS, w.RoadType, w.Roundabout)
			}
			if !p.IsCarCandidate(tc.tags["highway"], tc.tags["route"]) {
				t.Errorf("IsCarCandidate false for a car way")
			}
		})
	}
}

func TestDecideAccess(t *testing.T) {
	p := loadCar(t)
	tests := []struct {
		tags mapTags
		want accessDecision
	}{
		{mapTags{}, accessUnset},
		{mapTags{"access": "no"}, accessDenied},
		{mapTags{"access": "private"}, accessDenied},
		{mapTags{"access": "no", "motorcar": "yes"}, accessAllowed},
		{mapTags{"access": "yes", "motor_vehicle": "no"}, accessDenied},
		{mapTags{"motor_vehicle": "no", "motorcar": "destination"}, accessAllowed},
		{mapTags{"vehicle": "forestry"}, accessDenied},
		{mapTags{"access": "agricultural;forestry"}, accessDenied},
		{mapTags{"access": " No "}, accessDenied},
		{mapTags{"access": "permissive"}, accessAllowed},
		{mapTags{"access": "customers"}, accessDenied},
		{mapTags{"bicycle": "no"}, accessUnset},
	}
	for _, tc := range tests {
		if got := p.wayAccess(tc.tags); got != tc.want {
			t.Errorf("wayAccess(%v) = %v, want %v", tc.tags, got, tc.want)
		}
	}
}

func TestNode(t *testing.T) {
	p := loadCar(t)
	tests := []struct {
		tags            mapTags
		signal, barrier bool
	}{
		{mapTags{}, false, false},
		{mapTags{"highway": "traffic_signals"}, true, false},
		{mapTags{"highway": "stop"}, false, false},
		{mapTags{"barrier": "bollard"}, false, true},
		{mapTags{"barrier": "block"}, false, true},
		{mapTags{"barrier": "chain"}, false, true},
		{mapTags{"barrier": "gate"}, false, false},
		{mapTags{"barrier": "lift_gate"}, false, false},
		{mapTags{"barrier": "toll_booth"}, false, false},
		{mapTags{"barrier": "cattle_grid"}, false, false},
		{mapTags{"barrier": "bollard", "motorcar": "yes"}, false, false},
		{mapTags{"barrier": "bollard", "access": "destination"}, false, false},
		{mapTags{"barrier": "bollard", "bollard": "rising"}, false, false},
		{mapTags{"barrier": "kerb", "kerb": "lowered"}, false, false},
		{mapTags{"barrier": "kerb"}, false, true},
		{mapTags{"barrier": "gate", "access": "no"}, false, true},
		{mapTags{"barrier": "gate", "access": "private"}, false, false},
		{mapTags{"access": "no"}, false, true},
		{mapTags{"highway": "traffic_signals", "barrier": "block"}, true, true},
	}
	for _, tc := range tests {
		s, b := p.Node(tc.tags)
		if s != tc.signal || b != tc.barrier {
			t.Errorf("Node(%v) = signal %v barrier %v, want %v %v", tc.tags, s, b, tc.signal, tc.barrier)
		}
	}
}

func TestRestriction(t *testing.T) {
	p := loadCar(t)
	tests := []struct {
		tags   mapTags
		kind   string
		only   bool
		status RestrictionStatus
	}{
		{mapTags{"type": "restriction", "restriction": "no_left_turn"}, "no_left_turn", false, RestrictionCar},
		{mapTags{"type": "restriction", "restriction": "only_straight_on"}, "only_straight_on", true, RestrictionCar},
		{mapTags{"type": "restriction", "restriction:motorcar": "no_u_turn"}, "no_u_turn", false, RestrictionCar},
		{mapTags{"type": "restriction", "restriction:motor_vehicle": "no_right_turn", "restriction": "only_left_turn"}, "no_right_turn", false, RestrictionCar},
		{mapTags{"type": "restriction", "restriction:hgv": "no_left_turn"}, "", false, RestrictionNotCar},
		{mapTags{"type": "restriction", "restriction": "no_left_turn", "except": "bicycle;motorcar"}, "", false, RestrictionNotCar},
		{mapTags{"type": "restriction", "restriction": "no_left_turn", "except": "psv"}, "no_left_turn", false, RestrictionCar},
		{mapTags{"type": "restriction", "restriction": "give_way"}, "give_way", false, RestrictionInvalid},
		{mapTags{"type": "restriction", "restriction:hgv": "no_left_turn", "restriction:motorcar": "only_straight_on"}, "only_straight_on", true, RestrictionCar},
		{mapTags{"type": "restriction", "restriction": "no_left_turn", "except": "motor_vehicle"}, "", false, RestrictionNotCar},
		{mapTags{"type": "restriction", "restriction:conditional": "no_left_turn @ (Mo-Fr 07:00-09:00)"}, "", false, RestrictionConditional},
		{mapTags{"type": "restriction", "restriction:motorcar:conditional": "no_u_turn @ (22:00-06:00)"}, "", false, RestrictionConditional},
		{mapTags{"type": "restriction", "restriction:hgv:conditional": "no_u_turn @ (22:00-06:00)"}, "", false, RestrictionNotCar},
		{mapTags{"type": "restriction", "restriction": "no_right_turn", "restriction:conditional": "none @ (Sa,Su)"}, "no_right_turn", false, RestrictionCar},
	}
	for _, tc := range tests {
		k, o, s := p.Restriction(tc.tags)
		if k != tc.kind || o != tc.only || s != tc.status {
			t.Errorf("Restriction(%v) = %q %v %v, want %q %v %v", tc.tags, k, o, s, tc.kind, tc.only, tc.status)
		}
	}
}

// TestWayTollUnpaved: toll from toll=* (toll:motorcar wins), unpaved from
// surface=* values in unpaved_surfaces.
func TestWayTollUnpaved(t *testing.T) {
	p := loadCar(t)
	for _, tc := range []struct {
		name          string
		tags          mapTags
		toll, unpaved bool
	}{
		{"plain", mapTags{"highway": "primary"}, false, false},
		{"toll yes", mapTags{"highway": "motorway", "toll": "yes"}, true, false},
		{"toll no", mapTags{"highway": "motorway", "toll": "no"}, false, false},
		{"toll for trucks only", mapTags{"highway": "motorway", "toll:hgv": "yes"}, false, false},
		{"toll:motorcar no wins", mapTags{"highway": "trunk", "toll": "yes", "toll:motorcar": "no"}, false, false},
		{"toll:motorcar yes", mapTags{"highway": "trunk", "toll:motorcar": "yes"}, true, false},
		{"ferry toll", mapTags{"route": "ferry", "toll": "yes"}, true, false},
		{"gravel", mapTags{"highway": "unclassified", "surface": "gravel"}, false, true},
		{"compacted", mapTags{"highway": "unclassified", "surface": "Compacted"}, false, true},
		{"asphalt", mapTags{"highway": "unclassified", "surface": "asphalt"}, false, false},
		{"sett is paved", mapTags{"highway": "residential", "surface": "sett"}, false, false},
	} {
		w, ok := p.Way(tc.tags)
		if !ok || w.Toll != tc.toll || w.Unpaved != tc.unpaved {
			t.Errorf("%s: ok %v toll %v unpaved %v, want toll %v unpaved %v", tc.name, ok, w.Toll, w.Unpaved, tc.toll, tc.unpaved)
		}
	}
}

// mapTags is a Tags backed by a map.
type mapTags map[string]string

// Find returns the value of key, "" when absent.
func (m mapTags) Find(key string) string { return m[key] }
