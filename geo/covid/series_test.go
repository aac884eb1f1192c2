package covid

import (
	"math"
	"testing"
)

func TestTrendPercent(t *testing.T) {
	for _, tt := range []struct{ last, prev, want float64 }{
		{150, 100, 50},
		{50, 100, -50},
		{0, 100, -100},
		{100, 100, 0},
		{1, 3, -66.67},
		{0, 0, 0},     // nothing before, nothing now: no change
		{5, 0, 100},   // cases appeared: +100 by convention
		{0.5, 0, 100}, // rates too
	} {
		if got := trendPercent(tt.last, tt.prev); got != tt.want {
			t.Errorf("trendPercent(%v, %v) = %v, want %v", tt.last, tt.prev, got, tt.want)
		}
	}
}

func TestNewInClamps(t *testing.T) {
	// A cumulative series with a correction on day 3 (10 -> 8).
	s := &series{start: 100, step: 1, scale: 1, vals: []int32{5, 10, 8, 12, 12, missing, 20}}
	for _, tt := range []struct {
		from, to day
		want     int64
		ok       bool
	}{
		{100, 101, 5, true},
		{101, 102, 0, true},  // the correction adds 0, not -2
		{100, 104, 9, true},  // 5 + 0 + 4 + 0
		{99, 101, 0, false},  // starts before the series
		{103, 105, 0, false}, // a missing day
		{104, 107, 0, false}, // ends after the series
	} {
		got, ok := s.newIn(tt.from, tt.to)
		if got != tt.want || ok != tt.ok {
			t.Errorf("newIn(%d, %d) = %d %v, want %d %v", tt.from, tt.to, got, ok, tt.want, tt.ok)
		}
	}
	if v, ok := s.at(102); !ok || v != 8 {
		t.Errorf("at(102) = %d: the total is the value as given", v)
	}
}

func TestPeriodSum(t *testing.T) {
	// Weekly rates ending on days 7, 14, 21, 28 (x100).
	s := &series{start: 7, step: 7, scale: 100, vals: []int32{100, 250, missing, 50}}
	for _, tt := range []struct {
		from, to day
		want     float64
		ok       bool
	}{
		{0, 7, 1, true}, // the first week's period starts at day 0
		{7, 14, 2.5, true},
		{8, 17, 2.5, true}, // a window ending mid-week takes the weeks ending in it
		{0, 14, 3.5, true},
		{14, 21, 0, false}, // a suppressed week
		{-1, 7, 0, false},  // a period before the series
		{21, 29, 0, false}, // past the end
		{22, 27, 0, false}, // no week ends inside
	} {
		got, ok := s.periodSum(tt.from, tt.to)
		if ok != tt.ok || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("periodSum(%d, %d) = %v %v, want %v %v", tt.from, tt.to, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSumSeries(t *testing.T) {
	a := &series{start: 1, step: 1, scale: 1, vals: []int32{1, 2, 3}}
	b := &series{start: 1, step: 1, scale: 1, vals: []int32{10, missing, 30, 40}}
	s, err := sumSeries([]*series{a, b})
	if err != nil || !eqVals(s.vals, []int32{11, missing, 33}) {
		t.Errorf("sum %v %v", s, err)
	}
	if _, err := sumSeries([]*series{a, {start: 2, step: 1, scale: 1}}); err == nil {
		t.Error("series of other starts summed")
	}
	big := &series{start: 1, step: 1, scale: 1, vals: []int32{math.MaxInt32}}
	if _, err := sumSeries([]*series{big, big}); err == nil {
		t.Error("overflow not caught")
	}
	if s, _ := sumSeries([]*series{a}); s != a {
		t.Error("one series is not shared")
	}
}

func TestRiskScore(t *testing.T) {
	for _, tt := range []struct {
		name               string
		inc, trend         float64
		hasTrend           bool
		density, ref, want float64
	}{
		{"no cases", 0, 0, true, 0, 0, 1},
		{"CDC high threshold, flat", 100, 0, true, 0, 0, 50.5},  // 1 + 99*0.5
		{"rising fast", 100, 100, true, 0, 0, 75.25},            // 1 + 99*0.75
		{"falling fast", 100, -100, true, 0, 0, 25.75},          // 1 + 99*0.25
		{"trend beyond the clamp", 100, 500, true, 0, 0, 75.25}, // f_t capped at 1.5
		{"unknown trend", 100, 0, false, 0, 0, 50.5},
		{"four times the median density", 100, 0, true, 40, 10, 100}, // f_d = 2: min(1, 1)
		{"a quarter of the median", 100, 0, true, 2.5, 10, 25.75},    // f_d = 0.5
		{"density unknown", 100, 0, true, 40, 0, 50.5},
		{"huge incidence", 1e6, 100, true, 40, 10, 100},
	} {
		if got := riskScore(tt.inc, tt.trend, tt.hasTrend, tt.density, tt.ref); got != tt.want {
			t.Errorf("%s: riskScore = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestFormatNumber(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{1234.5678, "1235"}, {12.345, "12.35"}, {0.0041234, "0.004123"}, {100, "100"}, {1, "1"}, {50.5, "50.5"}, {0, "0"},
	} {
		if got := formatNumber(tt.v); got != tt.want {
			t.Errorf("formatNumber(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestIDs(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{CountryID("usa"), "USA"}, {CountryID("US"), "USA"}, {CountryID("XKS"), "XKX"},
		{StateID("10"), "USA|10"}, {StateID("1"), "USA|01"}, {StateID("10001"), ""},
		{CountyID("10001.0"), "USA|10|10001"}, {CountyID("1001"), "USA|01|01001"}, {CountyID("10"), ""},
		{ParentID("USA|36|36047|11201"), "USA|36|36047"}, {ParentID("CAN|Ontario"), "CAN"}, {ParentID("USA"), ""},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestValuesEncoding(t *testing.T) {
	for _, v := range [][]int32{
		nil,
		{0, 0, 0, 0},
		{1, 5, 5, 5, 5, 3, missing, 3, 3, math.MaxInt32, missing + 1, 0},
		{missing, missing, 7},
	} {
		b := appendValues(nil, v)
		got, err := decodeValues(b, len(v))
		if err != nil || !eqVals(got, v) {
			t.Errorf("%v -> %v -> %v %v", v, b, got, err)
		}
	}
	// Runs of equal values take one byte.
	if b := appendValues(nil, make([]int32, 60)); len(b) != 1 {
		t.Errorf("60 zeros take %d bytes", len(b))
	}
}

// FuzzDecodeValues: arbitrary bytes decode to values or an error, never a
// panic or an oversized allocation.
func FuzzDecodeValues(f *testing.F) {
	f.Add(appendValues(nil, []int32{1, 5, 5, 5, missing, 3}), 6)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 3)
	f.Fuzz(func(t *testing.T, b []byte, n int) {
		if n < 0 || n > 1<<16 {
			return
		}
		if got, err := decodeValues(b, n); err == nil && len(got) != n {
			t.Fatalf("%d values, want %d", len(got), n)
		}
	})
}
