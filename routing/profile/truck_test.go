package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestParseLength reads lengths in every unit OSM uses, the
// non-numerical values and garbage (values seen on Delaware's maxheight
// and maxheight:physical tags included: 12'8", 14'0", 15.5 feet, 9 feet).
func TestParseLength(t *testing.T) {
	tests := []struct {
		in    string
		cm    uint32
		below bool
		ok    bool
	}{
		{"4.5", 450, false, true},
		{" 4.5 m ", 450, false, true},
		{"4.5m", 450, false, true},
		{"4,5", 450, false, true},
		{"3.8 metres", 380, false, true},
		{"450 cm", 450, false, true},
		{`12'6"`, 381, false, true},  // 3.81 m
		{`12' 6"`, 381, false, true}, // space
		{`12'6''`, 381, false, true}, // two single quotes
		{`12'8"`, 386, false, true},  // Delaware's lowest maxheight
		{`14'0"`, 427, false, true},
		{`13'`, 396, false, true},
		{"12 ft 6 in", 381, false, true},
		{"14 ft", 427, false, true},
		{"15.5 feet", 472, false, true},
		{"9 feet", 274, false, true},
		{"150 in", 381, false, true},
		{"4.5;3.9", 450, false, true}, // a list: the first counts
		{"none", 0, false, true},
		{"default", 0, false, true},
		{"no-sign", 0, false, true},
		{"unsigned", 0, false, true},
		{"below_default", 0, true, true},
		{"", 0, false, false},
		{"0", 0, false, false},
		{"-3", 0, false, false},
		{"abc", 0, false, false},
		{"4.5 furlongs", 0, false, false},
		{`12'13"`, 0, false, false}, // 13 inches
		{"1e3", 0, false, false},
		{"150", 0, false, false}, // 150 m: absurd
		{"4..5", 0, false, false},
	}
	for _, tt := range tests {
		l, ok := ParseLength(tt.in)
		if ok != tt.ok || l.Value != tt.cm || l.BelowDefault != tt.below {
			t.Errorf("ParseLength(%q) = %+v, %v; want %d cm, below %v, %v", tt.in, l, ok, tt.cm, tt.below, tt.ok)
		}
	}
}

// TestParseWeight reads weights in tonnes, kg, short and long tons and
// pounds (Delaware's "18 tons" and "30 tons" are short tons).
func TestParseWeight(t *testing.T) {
	tests := []struct {
		in string
		kg uint32
		ok bool
	}{
		{"7.5", 7500, true},
		{"7.5 t", 7500, true},
		{"7.5t", 7500, true},
		{"40 tonnes", 40000, true},
		{"7500 kg", 7500, true},
		{"10 st", 9072, true},
		{"18 tons", 16329, true},
		{"30 tons", 27216, true},
		{"10 lt", 10160, true},
		{"20000 lbs", 9072, true},
		{"80000 lb", 36287, true},
		{"none", 0, true},
		{"", 0, false},
		{"heavy", 0, false},
		{"0 t", 0, false},
		{"1000 t", 0, false},
		{"5 stone", 0, false},
	}
	for _, tt := range tests {
		l, ok := ParseWeight(tt.in)
		if ok != tt.ok || l.Value != tt.kg {
			t.Errorf("ParseWeight(%q) = %+v, %v; want %d kg, %v", tt.in, l, ok, tt.kg, tt.ok)
		}
	}
}

// FuzzParseDimension checks that no input makes the parsers panic or
// give a limit outside their bounds, and that a limit printed back in
// metres or kilograms reads back the same.
func FuzzParseDimension(f *testing.F) {
	for _, s := range []string{"4.5", `12'6"`, "12 ft 6 in", "18 tons", "20000 lbs", "below_default", "none", "4,5 m", "1e9", "'", `"`, "9 feet"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		if l, ok := ParseLength(s); ok {
			if l.BelowDefault && l.Value != 0 || l.Value >= maxLengthCm {
				t.Fatalf("ParseLength(%q) = %+v", s, l)
			}
			if l.Value > 0 {
				back, ok := ParseLength(strings.TrimRight(strings.TrimRight(formatCm(l.Value), "0"), ".") + " m")
				if !ok || back.Value != l.Value {
					t.Fatalf("ParseLength(%q) = %d cm, read back %+v %v", s, l.Value, back, ok)
				}
			}
		}
		if l, ok := ParseWeight(s); ok {
			if l.BelowDefault && l.Value != 0 || l.Value >= maxWeightKg {
				t.Fatalf("ParseWeight(%q) = %+v", s, l)
			}
		}
	})
}

// formatCm writes centimetres as metres with two decimals.
func formatCm(cm uint32) string {
	s := []byte{byte('0' + cm/100%10)}
	if cm >= 1000 {
		s = append([]byte{byte('0' + cm/1000)}, s...)
	}
	return string(s) + "." + string([]byte{byte('0' + cm/10%10), byte('0' + cm%10)})
}

// TestTruckTags reads access per direction along the hierarchy, the
// lowest of a dimension's keys and the hazmat bans.
func TestTruckTags(t *testing.T) {
	p := DefaultTruck()
	tests := []struct {
		name     string
		tags     mapTags
		fwd, bwd HGVAccess
		heightCm uint32
		weightKg uint32
		hazmat   bool
		unparsed int
	}{
		{"untagged", mapTags{"highway": "primary"}, HGVUnset, HGVUnset, 0, 0, false, 0},
		{"designated", mapTags{"hgv": "designated"}, HGVDesignated, HGVDesignated, 0, 0, false, 0},
		{"no", mapTags{"hgv": "no"}, HGVNo, HGVNo, 0, 0, false, 0},
		{"private", mapTags{"hgv": "private"}, HGVNo, HGVNo, 0, 0, false, 0},
		{"destination", mapTags{"hgv": "destination"}, HGVDestination, HGVDestination, 0, 0, false, 0},
		{"delivery", mapTags{"hgv": "delivery"}, HGVDestination, HGVDestination, 0, 0, false, 0},
		{"yes beats access=no", mapTags{"access": "no", "hgv": "yes"}, HGVYes, HGVYes, 0, 0, false, 0},
		{"motor_vehicle=no", mapTags{"motorcar": "yes", "motor_vehicle": "no"}, HGVNo, HGVNo, 0, 0, false, 0},
		{"goods does not apply", mapTags{"goods": "no"}, HGVUnset, HGVUnset, 0, 0, false, 0},
		{"forward only", mapTags{"hgv:forward": "no"}, HGVNo, HGVUnset, 0, 0, false, 0},
		{"backward beats common", mapTags{"hgv": "yes", "hgv:backward": "destination"}, HGVYes, HGVDestination, 0, 0, false, 0},
		{"lowest height", mapTags{"maxheight": `14'0"`, "maxheight:physical": "13 ft"}, HGVUnset, HGVUnset, 396, 0, false, 0},
		{"garbage height", mapTags{"maxheight": "low", "maxweight": "18 tons"}, HGVUnset, HGVUnset, 0, 16329, false, 1},
		{"below default", mapTags{"maxheight": "below_default"}, HGVUnset, HGVUnset, 1, 0, false, 0},
		{"hazmat", mapTags{"hazmat": "no"}, HGVUnset, HGVUnset, 0, 0, true, 0},
	}
	for _, tt := range tests {
		got := p.TruckTags(tt.tags)
		if got.Fwd != tt.fwd || got.Bwd != tt.bwd || got.HeightCm != tt.heightCm || got.WeightKg != tt.weightKg || got.HazmatNo != tt.hazmat || got.Unparsed != tt.unparsed {
			t.Errorf("%s: %+v", tt.name, got)
		}
	}
}

// TestTruckProfileFile parses configs/truck.yaml from disk (the embedded
// copy is the same file) and checks that it caps every car class below
// the car's speed and that its default vehicle is within its bounds.
func TestTruckProfileFile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "configs", "truck.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseTruck(b)
	if err != nil {
		t.Fatal(err)
	}
	car := loadCar(t)
	for class, kmh := range car.HighwaySpeedsKmh {
		tk, ok := p.HighwaySpeedsKmh[class]
		if !ok || tk > kmh {
			t.Errorf("class %s: truck %v km/h, car %v", class, tk, kmh)
		}
	}
	if _, err := ParseTruck([]byte("name: truck\nhighway_speeds_kmh: {motorway: 90}\naccess: {hierarchy: [hgv]}\nvehicle: {height_m: 9}\nbounds: {height_m: 6}\n")); err == nil {
		t.Error("a vehicle beyond the bounds parses")
	}
	if _, err := ParseTruck([]byte("name: truck\nspeeds: {}\n")); err == nil {
		t.Error("an unknown key parses")
	}
}
