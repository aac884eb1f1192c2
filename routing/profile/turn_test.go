package profile

import (
	"math"
	"testing"
)

func TestTurnCostS(t *testing.T) {
	p := loadCar(t)
	left := *p
	left.DrivingSide = "left"
	cross := turnContext{Roads: 3}
	leftCross := turnContext{Roads: 3, LeftHand: true}
	tests := []struct {
		name  string
		p     *Profile
		angle float64
		turn  turnContext
		want  float64
	}{
		// Values worked out from OSRM's sigmoid with turn_penalty 7.5 and
		// turn_bias 1.075.
		{"straight at a crossing", p, 0, cross, 0.006919},
		{"slight right", p, 45, cross, 0.139716},
		{"right", p, 90, cross, 2.105256},
		{"sharp right", p, 135, cross, 6.668758},
		{"slight left", p, -45, cross, 0.541809},
		{"left", p, -90, cross, 5.394744},
		{"sharp left", p, -135, cross, 7.412106},
		{"left wrapped from 270", p, 270, cross, 5.394744},
		{"u-turn", p, 180, turnContext{Roads: 1, UTurn: true}, 7.454800 + 20},
		{"u-turn as -180", p, -180, turnContext{Roads: 4, UTurn: true}, 7.454800 + 20},
		{"signal straight on a road", p, 0, turnContext{Roads: 2, Signal: true}, 2},
		{"signal and left", p, -90, turnContext{Roads: 4, Signal: true}, 2 + 5.394744},
		{"bend in a road: no angle cost", p, 90, turnContext{Roads: 2}, 0},
		{"onto a ferry", p, 90, turnContext{Roads: 2, ModeChange: true}, 2.105256},
		{"left-hand traffic: left is cheap", &left, -90, leftCross, 2.105256},
		{"left-hand traffic: right is dear", &left, 90, leftCross, 5.394744},
		{"NaN angle is straight", p, math.NaN(), cross, 0.006919},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.turnCost(tc.angle, tc.turn); math.Abs(got-tc.want) > 1e-6 {
				t.Errorf("turnCost(%v, %+v) = %.6f, want %.6f", tc.angle, tc.turn, got, tc.want)
			}
		})
	}
	// TurnCostS is turnCost with positional arguments.
	if got, want := p.TurnCostS(-90, false, true, 4), 2+5.394744; math.Abs(got-want) > 1e-6 {
		t.Errorf("TurnCostS(-90, signal, 4 roads) = %v, want %v", got, want)
	}
	if got, want := p.TurnCostS(180, true, false, 1), 27.454800; math.Abs(got-want) > 1e-6 {
		t.Errorf("TurnCostS(u-turn) = %v, want %v", got, want)
	}
	// TurnCostS takes the profile's side; TurnCostSide the one it is given.
	for _, tc := range []struct {
		name string
		got  float64
		want float64
	}{
		{"TurnCostS, left-hand profile, left", left.TurnCostS(-90, false, false, 3), 2.105256},
		{"TurnCostSide, right-hand profile, left-hand road", p.TurnCostSide(-90, false, false, 3, true), 2.105256},
		{"TurnCostSide, left-hand profile, right-hand road", left.TurnCostSide(-90, false, false, 3, false), 5.394744},
	} {
		if math.Abs(tc.got-tc.want) > 1e-6 {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	// The cost grows with the angle on both sides.
	prevR, prevL := -1.0, -1.0
	for a := 0.0; a < 180; a += 5 {
		r, l := p.turnCost(a, cross), p.turnCost(-a, cross)
		if r < prevR || l < prevL || (a > 0 && l <= r) {
			t.Fatalf("angle %v: right %v left %v", a, r, l)
		}
		prevR, prevL = r, l
	}
}
