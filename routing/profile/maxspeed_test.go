package profile

import (
	"math"
	"testing"
)

func TestParseMaxspeed(t *testing.T) {
	zones := loadCar(t).zoneTable()
	mph := func(v float64) float64 { return v * 1.609344 }
	tests := []struct {
		in    string
		kmh   float64
		none  bool
		zone  string
		urban bool
	}{
		{"50", 50, false, "", false},
		{" 50 ", 50, false, "", false},
		{"50 km/h", 50, false, "", false},
		{"50km/h", 50, false, "", false},
		{"50 kmh", 50, false, "", false},
		{"30 mph", mph(30), false, "", false},
		{"30mph", mph(30), false, "", false},
		{"30 MPH", mph(30), false, "", false},
		{"10 knots", 18.52, false, "", false},
		{"7.5", 7.5, false, "", false},
		{"50;70", 50, false, "", false},
		{"none", 140, true, "", false},
		{"None", 140, true, "", false},
		{"walk", 0, false, "", false},
		{"signals", 0, false, "", false},
		{"variable", 0, false, "", false},
		{"US:urban", mph(25), false, "us:urban", true},
		{"US:rural", mph(55), false, "us:rural", false},
		{"DE:urban", 50, false, "de:urban", true},
		{"DE:rural", 100, false, "de:rural", false},
		{"DE:motorway", 0, false, "de:motorway", false},
		{"DE:living_street", 7, false, "de:living_street", true},
		{"AT:rural", 100, false, "at:rural", false},
		{"FR:urban", 50, false, "fr:urban", true},
		{"GB:nsl_single", mph(60), false, "gb:nsl_single", false},
		{"RU:urban", 60, false, "ru:urban", true},
		{"RO:urban", 50, false, "ro:urban", true},
		{"XX:rural", 90, false, "xx:rural", false},
		{"BE-BRU:urban", 30, false, "be-bru:urban", true},
		{"FR:zone30", 30, false, "fr:zone30", true},
		{"DE:zone:30", 30, false, "de:zone:30", true},
		{"XX:whatever", 0, false, "xx:whatever", false},
		{"", 0, false, "", false},
		{"0", 0, false, "", false},
		{"-50", 0, false, "", false},
		{"50 furlongs", 0, false, "", false},
		{"99999", 0, false, "", false},
		{"1.2.3", 0, false, "", false},
		{"fast", 0, false, "", false},
		{"1:50", 0, false, "", false},
	}
	for _, tc := range tests {
		got := parseMaxspeed(tc.in, zones)
		if math.Abs(got.Kmh-tc.kmh) > 1e-9 || got.None != tc.none || got.Zone != tc.zone || got.Urban != tc.urban {
			t.Errorf("parseMaxspeed(%q) = %+v, want kmh %v none %v zone %q urban %v", tc.in, got, tc.kmh, tc.none, tc.zone, tc.urban)
		}
		if got.Known() != (tc.kmh > 0) {
			t.Errorf("parseMaxspeed(%q).Known() = %v", tc.in, got.Known())
		}
	}
}

func FuzzParseMaxspeed(f *testing.F) {
	zones := loadCar(f).zoneTable()
	for _, s := range []string{"50", "50 km/h", "30 mph", "30mph", "none", "walk", "signals", "US:urban", "DE:rural", "RO:urban", "50;70", "FR:zone30", "DE:zone:", "xx:", ":", ";", "1e400", "NaN", "..", "Inf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m := parseMaxspeed(s, zones)
		if math.IsNaN(m.Kmh) || math.IsInf(m.Kmh, 0) || m.Kmh < 0 || m.Kmh > maxParsedKmh {
			t.Fatalf("parseMaxspeed(%q).Kmh = %v", s, m.Kmh)
		}
		if m.None && m.Kmh != zones.NoneKmh {
			t.Fatalf("parseMaxspeed(%q) none with %v", s, m.Kmh)
		}
		if m.Urban && m.Zone == "" {
			t.Fatalf("parseMaxspeed(%q) urban without a zone: %+v", s, m)
		}
		if again := parseMaxspeed(s, zones); again != m {
			t.Fatalf("parseMaxspeed(%q) not deterministic", s)
		}
	})
}
