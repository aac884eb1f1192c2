package profile

import (
	"os"
	"strings"
	"testing"
)

const carYAML = "../../configs/car.yaml"

// loadCar loads the shipped car profile.
func loadCar(t testing.TB) *Profile {
	t.Helper()
	p, err := Load(carYAML)
	if err != nil {
		t.Fatalf("Load(%s): %v", carYAML, err)
	}
	return p
}

func TestLoadCar(t *testing.T) {
	p := loadCar(t)
	if p.Name != "car" || p.DrivingSide != "right" {
		t.Errorf("name %q side %q", p.Name, p.DrivingSide)
	}
	want := map[string]float64{
		"motorway": 90, "motorway_link": 45, "trunk": 85, "trunk_link": 40,
		"primary": 65, "primary_link": 30, "secondary": 55, "secondary_link": 25,
		"tertiary": 40, "tertiary_link": 20, "unclassified": 25, "residential": 25,
		"living_street": 10, "service": 15, "road": 25,
	}
	for k, v := range want {
		if got := p.HighwaySpeedsKmh[k]; got != v {
			t.Errorf("speed %s = %v, want %v", k, got, v)
		}
	}
	if len(p.HighwaySpeedsKmh) != len(want) {
		t.Errorf("classes %v", p.classes())
	}
	tr := p.Turns
	if tr.TurnPenaltyS != 7.5 || tr.TurnBias != 1.075 || tr.UTurnPenaltyS != 20 || tr.TrafficSignalPenaltyS != 2 {
		t.Errorf("turns %+v", tr)
	}
	if p.Maxspeed.Factor != 0.8 || p.Routes["ferry"].SpeedKmh != 5 {
		t.Errorf("factor %v ferry %v", p.Maxspeed.Factor, p.Routes["ferry"])
	}
	for _, z := range []string{"us:urban", "de:urban", "de:rural", "de:motorway", "at:rural", "fr:urban", "es:rural", "pt:urban", "it:rural", "gb:nsl_single", "ad:urban", "ru:urban"} {
		if _, ok := p.zoneTable().Exact[z]; !ok {
			t.Errorf("zone %s missing", z)
		}
	}
}

func TestParseErrors(t *testing.T) {
	base, err := os.ReadFile(carYAML)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, old, new, want string
	}{
		{"unknown key", "name: car", "name: car\nnmae: x", "field nmae not found"},
		{"bad side", "driving_side: right", "driving_side: middle", "driving_side must be right or left"},
		{"negative speed", "  motorway: 90", "  motorway: -90", "highway_speeds_kmh.motorway must be a positive number"},
		{"zero factor", "  factor: 0.8", "  factor: 0", "maxspeed.factor must be in (0, 2]"},
		{"bad zone speed", `"DE:urban": 50`, `"DE:urban": fast`, "maxspeed.zones.DE:urban"},
		{"duplicate zone", `"DE:urban": 50`, "\"DE:urban\": 50\n    \"de:URBAN\": 50", "listed twice"},
		{"bad road type", "[FederalHighway, FederalHighwayCity]", "[FederalHighway, Autobahn]", `unknown road type "Autobahn"`},
		{"missing class type", "    road: [OtherRoad, OtherRoadCity]\n", "", `no entry for highway class "road"`},
		{"bad ferry type", "road_type: FerryCar", "road_type: Boat", `routes.ferry.road_type: unknown road type "Boat"`},
		{"negative penalty", "u_turn_penalty_s: 20", "u_turn_penalty_s: -1", "penalties must be >= 0"},
		{"not yaml", "name: car", "name: [car", "profile:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(string(base), tc.old, tc.new, 1)
			if src == string(base) {
				t.Fatalf("test edit %q not applied", tc.old)
			}
			_, err := Parse([]byte(src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	if _, err := Load("does-not-exist.yaml"); err == nil {
		t.Error("Load of a missing file: no error")
	}
	if _, err := Parse(nil); err == nil {
		t.Error("Parse(nil): no error")
	}
}
