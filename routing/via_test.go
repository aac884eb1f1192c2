package routing

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/paulmach/orb"
)

// TestRouteVia: through a via point on island.osm's Main Street (A(1)
// 10.000,0.000 - B(2) 0.001 - C(3) 0.002, a dead end at C), from near A
// and back. Turning round at the via point: 2 x 0.0013 degrees, 289.1 m.
// Going on straight: on to C, round at its dead end, back: 0.0013 +
// 0.0005 + 0.0018 degrees: 144.55 + 55.60 + 200.15 m = 400.3 m.
// Lengths at 111.195 m per 0.001 degree (haversine at the equator).
func TestRouteVia(t *testing.T) {
	g := fixtureGraph(t, "island.osm")
	ctx := context.Background()
	pts := []orb.Point{{10, 0.0002}, {10, 0.0015}, {10, 0.0002}}
	snaps := g.SnapAll(Fastest, pts, 0)
	for _, tc := range []struct {
		straight bool
		wantM    [2]float64
	}{
		{false, [2]float64{144.55, 144.55}},
		{true, [2]float64{144.55, 255.75}},
	} {
		for _, m := range []Metric{Fastest, {Objective: ObjectiveShortest}} {
			legs, err := g.RouteVia(ctx, m, snaps, tc.straight)
			if err != nil || len(legs) != 2 {
				t.Fatalf("straight %v: %v %v", tc.straight, legs, err)
			}
			for i, r := range legs {
				if math.Abs(float64(r.DistanceM)-tc.wantM[i]) > 1 {
					t.Errorf("straight %v %v: leg %d %d m, want %.1f", tc.straight, m.Objective, i, r.DistanceM, tc.wantM[i])
				}
			}
			// The second leg leaves the via point the way the first came
			// in (north) when straight, south when not.
			g2 := legs[1].Geometry
			north := g2[1][1] > g2[0][1]
			if north != tc.straight {
				t.Errorf("straight %v: second leg starts %v -> %v", tc.straight, g2[0], g2[1])
			}
		}
	}
	// A via point on the island, unreachable: no route either way.
	far := g.SnapAll(Fastest, []orb.Point{{10, 0.0002}, {10.01, 0.0105}, {10, 0.0002}}, 0)
	if _, err := g.RouteVia(ctx, Fastest, far, true); !errors.Is(err, ErrNoRoute) {
		t.Errorf("via the island: %v, want ErrNoRoute", err)
	}
	// Two points: the plain route.
	legs, err := g.RouteVia(ctx, Fastest, snaps[:2], true)
	if err != nil || len(legs) != 1 || math.Abs(float64(legs[0].DistanceM)-144.55) > 1 {
		t.Errorf("two points: %v %v", legs, err)
	}
}
