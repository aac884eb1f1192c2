package profile

import "math"

// turnContext describes a turn for TurnCost beyond its angle.
type turnContext struct {
	// Roads is the number of roads meeting at the turn's vertex, the
	// incoming one included (OSRM's number_of_roads). The angle penalty
	// applies only at a real intersection (Roads > 2), on a U-turn, or
	// where the mode changes; passing a degree-2 vertex costs no angle
	// penalty.
	Roads int
	// UTurn is true when the turn goes back the way it came.
	UTurn bool
	// Signal is true when the turn's vertex has a traffic signal.
	Signal bool
	// ModeChange is true between a road and a ferry (or shuttle train).
	ModeChange bool
	// LeftHand is true where traffic keeps to the left.
	LeftHand bool
}

// TurnCostS returns the cost in seconds of a turn at a vertex where roads
// road edges meet; see TurnCost. Its signature fits routing.TurnCostFunc,
// so prof.TurnCostS can be passed as a function value.
func (p *Profile) TurnCostS(angleDeg float64, uTurn, signal bool, roads int) float64 {
	return p.turnCost(angleDeg, turnContext{Roads: roads, UTurn: uTurn, Signal: signal, LeftHand: p.DrivingSide == "left"})
}

// TurnCostSide is TurnCostS on a road where traffic keeps to the left
// (leftHand) or to the right, whatever the profile's DrivingSide: the
// graph builder's turn cost where countries of both sides meet.
func (p *Profile) TurnCostSide(angleDeg float64, uTurn, signal bool, roads int, leftHand bool) float64 {
	return p.turnCost(angleDeg, turnContext{Roads: roads, UTurn: uTurn, Signal: signal, LeftHand: leftHand})
}

// turnCost returns the cost in seconds of a turn, as OSRM's car.lua
// process_turn computes it.
//
// angleDeg is the change of heading from the incoming to the outgoing road
// segment, in degrees: 0 is straight on, positive values turn RIGHT
// (clockwise, seen on a north-up map), negative values turn LEFT, and +-180
// is a U-turn. Values outside (-180, 180] are wrapped into it. The sign
// convention does not depend on the driving side; the side flips the bias.
//
// The angle penalty is the sigmoid
//
//	right (angle >= 0): turn_penalty / (1 + exp(-((13/bias)*angle/180 - 6.5*bias)))
//	left  (angle <  0): turn_penalty / (1 + exp(-((13*bias)*(-angle)/180 - 6.5/bias)))
//
// with bias = turn_bias in right-hand traffic and 1/turn_bias in left-hand
// traffic, so that turns across oncoming traffic cost more. It applies only
// when t.Roads > 2, t.UTurn or t.ModeChange. A U-turn adds
// u_turn_penalty_s on top, and a traffic signal at the vertex adds
// traffic_signal_penalty_s to any turn (straight on included).
func (p *Profile) turnCost(angleDeg float64, t turnContext) float64 {
	var cost float64
	if t.Signal {
		cost += p.Turns.TrafficSignalPenaltyS
	}
	if t.Roads > 2 || t.UTurn || t.ModeChange {
		a := wrapAngle(angleDeg)
		bias := p.Turns.TurnBias
		if t.LeftHand {
			bias = 1 / bias
		}
		var x float64
		if a >= 0 {
			x = (13/bias)*a/180 - 6.5*bias
		} else {
			x = (13*bias)*(-a)/180 - 6.5/bias
		}
		cost += p.Turns.TurnPenaltyS / (1 + math.Exp(-x))
		if t.UTurn {
			cost += p.Turns.UTurnPenaltyS
		}
	}
	return cost
}

// wrapAngle maps any angle into (-180, 180]; NaN and infinities give 0.
func wrapAngle(a float64) float64 {
	if math.IsNaN(a) || math.IsInf(a, 0) {
		return 0
	}
	a = math.Mod(a, 360)
	switch {
	case a > 180:
		a -= 360
	case a <= -180:
		a += 360
	}
	return a
}
