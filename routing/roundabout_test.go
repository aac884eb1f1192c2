package routing

import (
	"context"
	"math"
	"testing"

	"github.com/paulmach/orb"
)

// TestRoundaboutSteps: on roundabout.osm (a one-way ring N(1)->W(2)->
// S(3)->E(4)->N, counter-clockwise, an arm at each vertex), a route from
// the South Arm enters at S and leaves by the first exit (E), the second
// (N) or the third (W); the ring, walked once round, is 4 x 157.254 m,
// named "Ring", its exits the four arms.
func TestRoundaboutSteps(t *testing.T) {
	g := fixtureGraph(t, "roundabout.osm")
	from := orb.Point{10.002, 0.0002}
	for _, tc := range []struct {
		to     orb.Point
		street string
		exit   int
	}{
		{orb.Point{10.0038, 0.002}, "East Arm", 1},
		{orb.Point{10.002, 0.0038}, "North Arm", 2},
		{orb.Point{10.0002, 0.002}, "West Arm", 3},
	} {
		snaps := g.SnapAll(Fastest, []orb.Point{from, tc.to}, 0)
		r, err := g.Route(context.Background(), Fastest, snaps[0], snaps[1])
		if err != nil {
			t.Fatal(err)
		}
		steps := r.Steps()
		if len(steps) != 4 || steps[0].Street != "South Arm" || !steps[1].Roundabout || steps[1].Street != "Ring" ||
			steps[1].RoundaboutExit != tc.exit || steps[2].Roundabout || steps[2].Street != tc.street || steps[3].Maneuver != Arrive {
			t.Errorf("to %s: steps %+v", tc.street, steps)
		}
		if steps[1].Point != (orb.Point{10.002, 0.001}) {
			t.Errorf("to %s: enters at %v, want S", tc.street, steps[1].Point)
		}
		var ring *Segment
		for i := range r.Segments {
			if r.Segments[i].Roundabout {
				ring = &r.Segments[i]
				break
			}
		}
		info, ok := g.RoundaboutOf(*ring)
		if !ok || math.Abs(info.LengthM-4*157.254) > 0.5 || len(info.Names) != 1 || info.Names[0] != "Ring" || len(info.ExitNames) != 4 {
			t.Errorf("to %s: ring %+v %v", tc.street, info, ok)
		}
	}
	// Not on a roundabout.
	if _, ok := g.RoundaboutOf(Segment{}); ok {
		t.Error("RoundaboutOf(a plain segment) ok")
	}
}
