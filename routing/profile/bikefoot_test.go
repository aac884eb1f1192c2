package profile

import "testing"

// loadProfile loads a shipped profile of configs/.
func loadProfile(t testing.TB, name string) *Profile {
	t.Helper()
	p, err := Load("../../configs/" + name + ".yaml")
	if err != nil {
		t.Fatalf("Load(%s): %v", name, err)
	}
	return p
}

// wayCase is one way's tags and what a profile makes of them.
type wayCase struct {
	name     string
	tags     mapTags
	ok       bool
	fwd, bwd bool
	speed    float64 // forward speed, km/h
	pushed   bool
}

func checkWays(t *testing.T, p *Profile, tests []wayCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, ok := p.Way(tc.tags)
			if ok != tc.ok {
				t.Fatalf("%s Way(%v) ok = %v, want %v", p.Name, tc.tags, ok, tc.ok)
			}
			if !ok {
				return
			}
			if w.Forward != tc.fwd || w.Backward != tc.bwd || w.SpeedFwdKmh != tc.speed || w.Pushed != tc.pushed {
				t.Errorf("%s Way(%v) = fwd %v bwd %v %v km/h pushed %v, want %v %v %v km/h %v",
					p.Name, tc.tags, w.Forward, w.Backward, w.SpeedFwdKmh, w.Pushed, tc.fwd, tc.bwd, tc.speed, tc.pushed)
			}
		})
	}
}

func TestBicycleWay(t *testing.T) {
	p := loadProfile(t, "bicycle")
	checkWays(t, p, []wayCase{
		{"cycleway", mapTags{"highway": "cycleway"}, true, true, true, 15, false},
		{"residential", mapTags{"highway": "residential"}, true, true, true, 15, false},
		{"track", mapTags{"highway": "track"}, true, true, true, 12, false},
		{"path", mapTags{"highway": "path"}, true, true, true, 12, false},
		{"path bicycle=no", mapTags{"highway": "path", "bicycle": "no"}, false, false, false, 0, false},
		{"motorway", mapTags{"highway": "motorway"}, false, false, false, 0, false},
		{"motorway bicycle=yes", mapTags{"highway": "motorway", "bicycle": "yes"}, false, false, false, 0, false},
		{"motorway_link", mapTags{"highway": "motorway_link"}, false, false, false, 0, false},
		{"trunk", mapTags{"highway": "trunk"}, true, true, true, 15, false},
		{"trunk bicycle=no", mapTags{"highway": "trunk", "bicycle": "no"}, false, false, false, 0, false},
		{"trunk motorroad", mapTags{"highway": "trunk", "motorroad": "yes"}, false, false, false, 0, false},
		{"primary use_sidepath", mapTags{"highway": "primary", "bicycle": "use_sidepath"}, false, false, false, 0, false},
		{"vehicle=no", mapTags{"highway": "residential", "vehicle": "no"}, false, false, false, 0, false},
		{"vehicle=no bicycle=yes", mapTags{"highway": "residential", "vehicle": "no", "bicycle": "yes"}, true, true, true, 15, false},
		{"motor_vehicle=no", mapTags{"highway": "residential", "motor_vehicle": "no"}, true, true, true, 15, false},
		{"access=no bicycle=designated", mapTags{"highway": "service", "access": "no", "bicycle": "designated"}, true, true, true, 15, false},
		{"private", mapTags{"highway": "service", "access": "private"}, false, false, false, 0, false},
		{"footway pushed", mapTags{"highway": "footway"}, true, true, true, 4, true},
		{"sidewalk pushed", mapTags{"highway": "footway", "footway": "sidewalk"}, true, true, true, 4, true},
		{"footway bicycle=yes ridden", mapTags{"highway": "footway", "bicycle": "yes"}, true, true, true, 15, false},
		{"footway bicycle=designated ridden", mapTags{"highway": "footway", "bicycle": "designated"}, true, true, true, 15, false},
		{"pedestrian pushed", mapTags{"highway": "pedestrian"}, true, true, true, 4, true},
		{"dismount", mapTags{"highway": "residential", "bicycle": "dismount"}, true, true, true, 4, true},
		{"steps", mapTags{"highway": "steps"}, true, true, true, 2, false},
		{"steps bicycle=no", mapTags{"highway": "steps", "bicycle": "no"}, false, false, false, 0, false},
		{"gravel", mapTags{"highway": "residential", "surface": "gravel"}, true, true, true, 6, false},
		{"paving stones", mapTags{"highway": "cycleway", "surface": "paving_stones"}, true, true, true, 10, false},
		{"maxspeed ignored", mapTags{"highway": "primary", "maxspeed": "25 mph"}, true, true, true, 15, false},
		{"oneway", mapTags{"highway": "residential", "oneway": "yes"}, true, true, false, 15, false},
		{"oneway -1", mapTags{"highway": "residential", "oneway": "-1"}, true, false, true, 15, false},
		{"oneway:bicycle=no", mapTags{"highway": "residential", "oneway": "yes", "oneway:bicycle": "no"}, true, true, true, 15, false},
		{"oneway:bicycle=yes", mapTags{"highway": "residential", "oneway:bicycle": "yes"}, true, true, false, 15, false},
		{"oneway:motorcar only", mapTags{"highway": "residential", "oneway:motorcar": "yes"}, true, true, true, 15, false},
		{"cycleway=opposite", mapTags{"highway": "residential", "oneway": "yes", "cycleway": "opposite"}, true, true, true, 15, false},
		{"cycleway=opposite_lane", mapTags{"highway": "residential", "oneway": "yes", "cycleway": "opposite_lane"}, true, true, true, 15, false},
		{"cycleway:left=opposite_track", mapTags{"highway": "tertiary", "oneway": "yes", "cycleway:left": "opposite_track"}, true, true, true, 15, false},
		{"cycleway:left:oneway=-1", mapTags{"highway": "tertiary", "oneway": "yes", "cycleway:left": "lane", "cycleway:left:oneway": "-1"}, true, true, true, 15, false},
		{"cycleway=lane one-way", mapTags{"highway": "tertiary", "oneway": "yes", "cycleway": "lane"}, true, true, false, 15, false},
		{"roundabout", mapTags{"highway": "tertiary", "junction": "roundabout"}, true, true, false, 15, false},
		{"construction", mapTags{"highway": "construction"}, false, false, false, 0, false},
		{"bridleway", mapTags{"highway": "bridleway"}, false, false, false, 0, false},
		{"ferry", mapTags{"route": "ferry"}, true, true, true, 5, false},
		{"ferry bicycle=no", mapTags{"route": "ferry", "bicycle": "no"}, false, false, false, 0, false},
	})
}

func TestFootWay(t *testing.T) {
	p := loadProfile(t, "foot")
	checkWays(t, p, []wayCase{
		{"footway", mapTags{"highway": "footway"}, true, true, true, 5, false},
		{"sidewalk", mapTags{"highway": "footway", "footway": "sidewalk"}, true, true, true, 5, false},
		{"crossing", mapTags{"highway": "footway", "footway": "crossing"}, true, true, true, 5, false},
		{"pedestrian", mapTags{"highway": "pedestrian"}, true, true, true, 5, false},
		{"pedestrian area", mapTags{"highway": "pedestrian", "area": "yes"}, true, true, true, 5, false},
		{"steps", mapTags{"highway": "steps"}, true, true, true, 5, false},
		{"path", mapTags{"highway": "path"}, true, true, true, 5, false},
		{"residential", mapTags{"highway": "residential"}, true, true, true, 5, false},
		{"primary", mapTags{"highway": "primary"}, true, true, true, 5, false},
		{"motorway", mapTags{"highway": "motorway"}, false, false, false, 0, false},
		{"motorway foot=yes", mapTags{"highway": "motorway", "foot": "yes"}, false, false, false, 0, false},
		{"motorway_link", mapTags{"highway": "motorway_link"}, false, false, false, 0, false},
		{"trunk", mapTags{"highway": "trunk"}, false, false, false, 0, false},
		{"trunk foot=yes", mapTags{"highway": "trunk", "foot": "yes"}, true, true, true, 5, false},
		{"trunk sidewalk=both", mapTags{"highway": "trunk", "sidewalk": "both"}, true, true, true, 5, false},
		{"trunk sidewalk=no", mapTags{"highway": "trunk", "sidewalk": "no"}, false, false, false, 0, false},
		{"trunk motorroad foot=yes", mapTags{"highway": "trunk", "motorroad": "yes", "foot": "yes"}, false, false, false, 0, false},
		{"cycleway", mapTags{"highway": "cycleway"}, false, false, false, 0, false},
		{"cycleway foot=designated", mapTags{"highway": "cycleway", "foot": "designated"}, true, true, true, 5, false},
		{"foot=no", mapTags{"highway": "residential", "foot": "no"}, false, false, false, 0, false},
		{"access=no foot=yes", mapTags{"highway": "service", "access": "no", "foot": "yes"}, true, true, true, 5, false},
		{"vehicle=no", mapTags{"highway": "residential", "vehicle": "no"}, true, true, true, 5, false},
		{"private", mapTags{"highway": "service", "access": "private"}, false, false, false, 0, false},
		{"oneway ignored", mapTags{"highway": "residential", "oneway": "yes"}, true, true, true, 5, false},
		{"roundabout both ways", mapTags{"highway": "primary", "junction": "roundabout"}, true, true, true, 5, false},
		{"oneway:foot", mapTags{"highway": "footway", "oneway:foot": "yes"}, true, true, false, 5, false},
		{"gravel", mapTags{"highway": "path", "surface": "gravel"}, true, true, true, 3.75, false},
		{"sand", mapTags{"highway": "path", "surface": "sand"}, true, true, true, 2.5, false},
		{"ferry", mapTags{"route": "ferry"}, true, true, true, 5, false},
	})
}

func TestBicycleFootNodesAndRestrictions(t *testing.T) {
	bike, foot := loadProfile(t, "bicycle"), loadProfile(t, "foot")
	for _, tc := range []struct {
		p       *Profile
		tags    mapTags
		barrier bool
	}{
		{bike, mapTags{"barrier": "bollard"}, false},
		{bike, mapTags{"barrier": "cycle_barrier"}, false},
		{bike, mapTags{"barrier": "gate"}, false},
		{bike, mapTags{"barrier": "wall"}, true},
		{bike, mapTags{"barrier": "gate", "bicycle": "no"}, true},
		{foot, mapTags{"barrier": "bollard"}, false},
		{foot, mapTags{"barrier": "stile"}, false},
		{foot, mapTags{"barrier": "fence"}, true},
		{foot, mapTags{"barrier": "gate", "access": "private"}, true},
	} {
		if _, b := tc.p.Node(tc.tags); b != tc.barrier {
			t.Errorf("%s Node(%v) barrier = %v, want %v", tc.p.Name, tc.tags, b, tc.barrier)
		}
	}
	for _, tc := range []struct {
		p      *Profile
		tags   mapTags
		status RestrictionStatus
	}{
		{bike, mapTags{"restriction": "no_left_turn"}, RestrictionCar},
		{bike, mapTags{"restriction": "no_left_turn", "except": "bicycle"}, RestrictionNotCar},
		{bike, mapTags{"restriction:bicycle": "no_right_turn"}, RestrictionCar},
		{bike, mapTags{"restriction:vehicle": "no_u_turn"}, RestrictionCar},
		{bike, mapTags{"restriction:motorcar": "no_left_turn"}, RestrictionNotCar},
		{bike, mapTags{"restriction:hgv": "no_left_turn"}, RestrictionNotCar},
		{foot, mapTags{"restriction": "no_left_turn"}, RestrictionNotCar},
		{foot, mapTags{"restriction": "only_straight_on"}, RestrictionNotCar},
	} {
		if _, _, s := tc.p.Restriction(tc.tags); s != tc.status {
			t.Errorf("%s Restriction(%v) = %v, want %v", tc.p.Name, tc.tags, s, tc.status)
		}
	}
	// Walkers pay no angle cost, only U-turns and signals.
	if c := foot.TurnCostS(90, false, false, 4); c != 0 {
		t.Errorf("foot right turn at a crossroads costs %v s, want 0", c)
	}
	if c := foot.TurnCostS(180, true, false, 1); c != 2 {
		t.Errorf("foot U-turn costs %v s, want 2", c)
	}
	if c := bike.TurnCostS(-90, false, false, 4); !(c > 3 && c < 6) {
		t.Errorf("bicycle left turn at a crossroads costs %v s, want 3..6", c)
	}
}
