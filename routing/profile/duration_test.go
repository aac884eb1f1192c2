package profile

import (
	"math"
	"testing"
)

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"PT1H30M", 5400, true},
		{"PT45M", 2700, true},
		{"PT90S", 90, true},
		{"P1DT2H", 93600, true},
		{"PT0.5H", 1800, true},
		{"pt1h", 3600, true},
		{"01:30", 5400, true},
		{"1:30", 5400, true},
		{"00:05", 300, true},
		{"01:30:15", 5415, true},
		{"90", 5400, true},
		{"7.5", 450, true},
		{" 20 ", 1200, true},
		{"", 0, false},
		{"P", 0, false},
		{"PT", 0, false},
		{"PT1X", 0, false},
		{"P1M", 0, false},
		{"PT1H30", 0, false},
		{"1:60", 0, false},
		{"1:5", 0, false},
		{"1:30:00:00", 0, false},
		{"-5", 0, false},
		{"abc", 0, false},
		{"1e5", 0, false},
		{"200:00", 0, false},
		{"99999999", 0, false},
	}
	for _, tc := range tests {
		got, ok := parseDuration(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"PT1H30M", "01:30", "1:30", "01:30:15", "90", "P1DT2H", "PT", ":", "::", "P1W", "PT1.5M", "1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := parseDuration(s)
		if math.IsNaN(d) || d < 0 || d > maxDurationS {
			t.Fatalf("parseDuration(%q) = %v", s, d)
		}
		if !ok && d != 0 {
			t.Fatalf("parseDuration(%q) = %v but not ok", s, d)
		}
	})
}
