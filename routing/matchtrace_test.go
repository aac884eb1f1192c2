package routing

import (
	"context"
	"math"
	"math/rand"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// The helpers of the map-matching tests: traces made from real routes,
// and the agreement of a matched route with the route a trace was made
// from (the oracle).

// traceT0 is the time of every test trace's first fix.
var traceT0 = time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)

// timedPoint is a point of a route at a time from its start.
type timedPoint struct {
	t float64 // seconds
	d float64 // metres along the route
	p orb.Point
}

// routeTimeline is the route's geometry with the time and distance at
// which each vertex is passed: each segment's turn cost is waited at its
// start, then its time spread over its geometry by length.
func routeTimeline(r *Route) []timedPoint {
	var out []timedPoint
	var t, d float64
	for _, s := range r.Segments {
		t += s.TurnCostS
		var segLen float64
		for k := 1; k < len(s.Geometry); k++ {
			segLen += geo.HaversineM(s.Geometry[k-1], s.Geometry[k])
		}
		drive := s.DurationS - s.TurnCostS
		for k, p := range s.Geometry {
			if k > 0 {
				step := geo.HaversineM(s.Geometry[k-1], p)
				if segLen > 0 {
					t += drive * step / segLen
				}
				d += step
			}
			out = append(out, timedPoint{t, d, p})
		}
	}
	return out
}

// traceOf resamples route r every intervalS seconds (and at its end),
// each fix moved by seeded Gaussian noise of sigmaM metres in each of
// east and north, timed from traceT0. along gives each fix's distance
// along the route.
func traceOf(r *Route, intervalS, sigmaM float64, rng *rand.Rand) (pts []TracePoint, along []float64) {
	tl := routeTimeline(r)
	if len(tl) == 0 {
		return nil, nil
	}
	end := tl[len(tl)-1].t
	k := 0
	for t := 0.0; ; t += intervalS {
		if t > end {
			t = end
		}
		for k+1 < len(tl) && tl[k+1].t < t {
			k++
		}
		p, d := tl[k].p, tl[k].d
		if k+1 < len(tl) && tl[k+1].t > tl[k].t {
			f := (t - tl[k].t) / (tl[k+1].t - tl[k].t)
			f = min(max(f, 0), 1)
			p = interpolate(tl[k].p, tl[k+1].p, f)
			d += f * (tl[k+1].d - tl[k].d)
		}
		dx, dy := rng.NormFloat64()*sigmaM, rng.NormFloat64()*sigmaM
		p = orb.Point{p[0] + dx/(111_320*math.Cos(p[1]*math.Pi/180)), p[1] + dy/111_320}
		ms := int64(math.Round(t * 1000))
		pts = append(pts, TracePoint{Point: p, Time: traceT0.Add(time.Duration(ms) * time.Millisecond), AccuracyM: sigmaM})
		along = append(along, d)
		if t == end {
			return pts, along
		}
	}
}

// edgeLengths sums, per road edge, the metres the routes drive on it.
func edgeLengths(routes ...*Route) map[uint32]float64 {
	out := map[uint32]float64{}
	for _, r := range routes {
		for _, s := range r.Segments {
			out[s.Edge] += s.DistanceM
		}
	}
	return out
}

// agreement is the share of the original route's length that the legs
// of the matchings drive on the same road edges: the sum over edges of the smaller of
// the two lengths on it, over the larger of the two total lengths (so a
// detour of the match counts against it as much as a road it missed).
func agreement(orig *Route, ms ...Matching) float64 {
	var legs []*Route
	for _, m := range ms {
		for _, l := range m.Legs {
			legs = append(legs, l.Route)
		}
	}
	a, b := edgeLengths(orig), edgeLengths(legs...)
	var common, ta, tb float64
	for e, x := range a {
		common += min(x, b[e])
		ta += x
	}
	for _, y := range b {
		tb += y
	}
	if max(ta, tb) == 0 {
		return 1
	}
	return common / max(ta, tb)
}

// testRoutes returns n routes of g on metric m between seeded random road
// points, each from minM to maxM metres long.
func testRoutes(t testing.TB, g *Graph, m Metric, n int, seed int64, minM, maxM int) []*Route {
	t.Helper()
	var out []*Route
	for try := int64(0); len(out) < n && try < 50; try++ {
		snaps := roadPoints(g, 40, seed+try*1000, 0)
		for i := 0; i+1 < len(snaps) && len(out) < n; i += 2 {
			r, err := g.Route(context.Background(), m, snaps[i], snaps[i+1])
			if err != nil || r.DistanceM < minM || r.DistanceM > maxM {
				continue
			}
			out = append(out, r)
		}
	}
	if len(out) < n {
		t.Fatalf("only %d routes of %d to %d m found", len(out), minM, maxM)
	}
	return out
}
