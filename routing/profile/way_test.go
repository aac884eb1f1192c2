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
		tags     MapTags
		ok       bool
		fwd, bwd bool
		sf, sb   float64
		dur      float64
		rt       RoadType
		rb       bool
	}{
		{"residential", MapTags{"highway": "residential"}, true, true, true, 25, 25, 0, OtherRoadCity, false},
		{"primary", MapTags{"highway": "primary"}, true, true, true, 65, 65, 0, FederalHighway, false},
		{"primary 50", MapTags{"highway": "primary", "maxspeed": "50"}, true, true, true, 40, 40, 0, FederalHighwayCity, false},
		{"primary urban zone", MapTags{"highway": "primary", "maxspeed": "DE:urban"}, true, true, true, 40, 40, 0, FederalHighwayCity, false},
		{"source:maxspeed zone", MapTags{"highway": "secondary", "source:maxspeed": "FR:rural"}, true, true, true, 64, 64, 0, RegionalRoad, false},
		{"advisory first", MapTags{"highway": "secondary", "maxspeed": "100", "maxspeed:advisory": "50"}, true, true, true, 40, 40, 0, RegionalRoadCity, false},
		{"maxspeed mph", MapTags{"highway": "trunk", "maxspeed": "55 mph"}, true, true, true, 55 * mph * 0.8, 55 * mph * 0.8, 0, DualCarriageWay, false},
		{"fwd/bwd maxspeed", MapTags{"highway": "tertiary", "maxspeed": "70", "maxspeed:backward": "30"}, true, true, true, 56, 24, 0, LocalRoadCity, false},
		{"maxspeed none", MapTags{"highway": "motorway", "maxspeed": "none"}, true, true, false, 112, 112, 0, Motorway, false},
		{"de:motorway keeps class speed", MapTags{"highway": "motorway", "maxspeed": "DE:motorway"}, true, true, false, 90, 90, 0, Motorway, false},
		{"cap", MapTags{"highway": "motorway", "maxspeed": "300"}, true, true, false, 140, 140, 0, Motorway, false},
		{"walk keeps class speed", MapTags{"highway": "living_street", "maxspeed": "walk"}, true, true, true, 10, 10, 0, OtherRoadCity, false},
		{"surface cap", MapTags{"highway": "primary", "surface": "gravel"}, true, true, true, 40, 40, 0, FederalHighway, false},
		{"oneway", MapTags{"highway": "residential", "oneway": "yes"}, true, true, false, 25, 25, 0, OtherRoadCity, false},
		{"oneway -1", MapTags{"highway": "residential", "oneway": "-1"}, true, false, true, 25, 25, 0, OtherRoadCity, false},
		{"oneway:motorcar wins", MapTags{"highway": "residential", "oneway": "yes", "oneway:motorcar": "no"}, true, true, true, 25, 25, 0, OtherRoadCity, false},
		{"motorway implied", MapTags{"highway": "motorway"}, true, true, false, 90, 90, 0, Motorway, false},
		{"motorway_link oneway=no", MapTags{"highway": "motorway_link", "oneway": "no"}, true, true, true, 45, 45, 0, Motorway, false},
		{"roundabout", MapTags{"highway": "primary", "junction": "roundabout"}, true, true, false, 65, 65, 0, FederalHighway, true},
		{"circular", MapTags{"highway": "tertiary", "junction": "circular"}, true, true, false, 40, 40, 0, LocalRoad, true},
		{"ferry", MapTags{"route": "ferry"}, true, true, true, 5, 5, 0, FerryCar, false},
		{"ferry with duration", MapTags{"route": "ferry", "duration": "PT1H30M"}, true, true, true, 5, 5, 5400, FerryCar, false},
		{"ferry zero duration", MapTags{"route": "ferry", "duration": "00:00"}, true, true, true, 5, 5, 1, FerryCar, false},
		{"ferry bad duration", MapTags{"route": "ferry", "duration": "long"}, true, true, true, 5, 5, 0, FerryCar, false},
		{"shuttle train", MapTags{"route": "shuttle_train", "duration": "20"}, true, true, true, 10, 10, 1200, FerryTrain, false},
		{"ferry no cars", MapTags{"route": "ferry", "motorcar": "no"}, false, false, false, 0, 0, 0, 0, false},
		{"ferry no motor vehicles", MapTags{"route": "ferry", "motor_vehicle": "no"}, false, false, false, 0, 0, 0, 0, false},
		{"footway", MapTags{"highway": "footway"}, false, false, false, 0, 0, 0, 0, false},
		{"track", MapTags{"highway": "track"}, false, false, false, 0, 0, 0, 0, false},
		{"construction", MapTags{"highway": "construction"}, false, false, false, 0, 0, 0, 0, false},
		{"proposed", MapTags{"highway": "proposed"}, false, false, false, 0, 0, 0, 0, false},
		{"construction tag", MapTags{"highway": "primary", "construction": "yes"}, false, false, false, 0, 0, 0, 0, false},
		{"construction minor", MapTags{"highway": "primary", "construction": "minor"}, true, true, true, 65, 65, 0, FederalHighway, false},
		{"area", MapTags{"highway": "service", "area": "yes"}, false, false, false, 0, 0, 0, 0, false},
		{"private", MapTags{"highway": "service", "access": "private"}, false, false, false, 0, 0, 0, 0, false},
		{"private but motorcar yes", MapTags{"highway": "service", "access": "private", "motorcar": "yes"}, true, true, true, 15, 15, 0, OtherRoad, false},
		{"destination", MapTags{"highway": "residential", "access": "destination"}, true, true, true, 25, 25, 0, OtherRoadCity, false},
		{"delivery", MapTags{"highway": "residential", "motor_vehicle": "delivery"}, false, false, false, 0, 0, 0, 0, false},
		{"agricultural", MapTags{"highway": "unclassified", "vehicle": "agricultural"}, false, false, false, 0, 0, 0, 0, false},
		{"forestry", MapTags{"highway": "unclassified", "access": "forestry"}, false, false, false, 0, 0, 0, 0, false},
		{"emergency access", MapTags{"highway": "service", "service": "emergency_access"}, false, false, false, 0, 0, 0, 0, false},
		{"reversible", MapTags{"highway": "primary", "oneway": "reversible"}, false, false, false, 0, 0, 0, 0, false},
		{"impassable", MapTags{"highway": "primary", "impassable": "yes"}, false, false, false, 0, 0, 0, 0, false},
		{"road", MapTags{"highway": "road"}, true, true, true, 25, 25, 0, OtherRoad, false},
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
		tags MapTags
		want Access
	}{
		{MapTags{}, AccessUnset},
		{MapTags{"access": "no"}, AccessDenied},
		{MapTags{"access": "private"}, AccessDenied},
		{MapTags{"access": "no", "motorcar": "yes"}, AccessAllowed},
		{MapTags{"access": "yes", "motor_vehicle": "no"}, AccessDenied},
		{MapTags{"motor_vehicle": "no", "motorcar": "destination"}, AccessAllowed},
		{MapTags{"vehicle": "forestry"}, AccessDenied},
		{MapTags{"access": "agricultural;forestry"}, AccessDenied},
		{MapTags{"access": " No "}, AccessDenied},
		{MapTags{"access": "permissive"}, AccessAllowed},
		{MapTags{"access": "customers"}, AccessDenied},
		{MapTags{"bicycle": "no"}, AccessUnset},
	}
	for _, tc := range tests {
		if got := p.WayAccess(tc.tags); got != tc.want {
			t.Errorf("WayAccess(%v) = %v, want %v", tc.tags, got, tc.want)
		}
	}
}

func TestNode(t *testing.T) {
	p := loadCar(t)
	tests := []struct {
		tags            MapTags
		signal, barrier bool
	}{
		{MapTags{}, false, false},
		{MapTags{"highway": "traffic_signals"}, true, false},
		{MapTags{"highway": "stop"}, false, false},
		{MapTags{"barrier": "bollard"}, false, true},
		{MapTags{"barrier": "block"}, false, true},
		{MapTags{"barrier": "chain"}, false, true},
		{MapTags{"barrier": "gate"}, false, false},
		{MapTags{"barrier": "lift_gate"}, false, false},
		{MapTags{"barrier": "toll_booth"}, false, false},
		{MapTags{"barrier": "cattle_grid"}, false, false},
		{MapTags{"barrier": "bollard", "motorcar": "yes"}, false, false},
		{MapTags{"barrier": "bollard", "access": "destination"}, false, false},
		{MapTags{"barrier": "bollard", "bollard": "rising"}, false, false},
		{MapTags{"barrier": "kerb", "kerb": "lowered"}, false, false},
		{MapTags{"barrier": "kerb"}, false, true},
		{MapTags{"barrier": "gate", "access": "no"}, false, true},
		{MapTags{"barrier": "gate", "access": "private"}, false, false},
		{MapTags{"access": "no"}, false, true},
		{MapTags{"highway": "traffic_signals", "barrier": "block"}, true, true},
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
		tags   MapTags
		kind   string
		only   bool
		status RestrictionStatus
	}{
		{MapTags{"type": "restriction", "restriction": "no_left_turn"}, "no_left_turn", false, RestrictionCar},
		{MapTags{"type": "restriction", "restriction": "only_straight_on"}, "only_straight_on", true, RestrictionCar},
		{MapTags{"type": "restriction", "restriction:motorcar": "no_u_turn"}, "no_u_turn", false, RestrictionCar},
		{MapTags{"type": "restriction", "restriction:motor_vehicle": "no_right_turn", "restriction": "only_left_turn"}, "no_right_turn", false, RestrictionCar},
		{MapTags{"type": "restriction", "restriction:hgv": "no_left_turn"}, "", false, RestrictionNotCar},
		{MapTags{"type": "restriction", "restriction": "no_left_turn", "except": "bicycle;motorcar"}, "", false, RestrictionNotCar},
		{MapTags{"type": "restriction", "restriction": "no_left_turn", "except": "psv"}, "no_left_turn", false, RestrictionCar},
		{MapTags{"type": "restriction", "restriction": "give_way"}, "give_way", false, RestrictionInvalid},
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
		tags          MapTags
		toll, unpaved bool
	}{
		{"plain", MapTags{"highway": "primary"}, false, false},
		{"toll yes", MapTags{"highway": "motorway", "toll": "yes"}, true, false},
		{"toll no", MapTags{"highway": "motorway", "toll": "no"}, false, false},
		{"toll for trucks only", MapTags{"highway": "motorway", "toll:hgv": "yes"}, false, false},
		{"toll:motorcar no wins", MapTags{"highway": "trunk", "toll": "yes", "toll:motorcar": "no"}, false, false},
		{"toll:motorcar yes", MapTags{"highway": "trunk", "toll:motorcar": "yes"}, true, false},
		{"ferry toll", MapTags{"route": "ferry", "toll": "yes"}, true, false},
		{"gravel", MapTags{"highway": "unclassified", "surface": "gravel"}, false, true},
		{"compacted", MapTags{"highway": "unclassified", "surface": "Compacted"}, false, true},
		{"asphalt", MapTags{"highway": "unclassified", "surface": "asphalt"}, false, false},
		{"sett is paved", MapTags{"highway": "residential", "surface": "sett"}, false, false},
	} {
		w, ok := p.Way(tc.tags)
		if !ok || w.Toll != tc.toll || w.Unpaved != tc.unpaved {
			t.Errorf("%s: ok %v toll %v unpaved %v, want toll %v unpaved %v", tc.name, ok, w.Toll, w.Unpaved, tc.toll, tc.unpaved)
		}
	}
}
