package routing

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// TestMatchAgreement: traces made from real routes (resampled every 5 to
// 30 s with 10 m of Gaussian noise, every 10 to 30 s with 30 m) are
// matched; the matched roads agree with the route's on at least 95 % of
// the length over all traces at 10 m noise (90 % at 30 m), and on at
// least 85 % (75 %) of each trace. At 10 m every trace is one matching;
// at 30 m a trace may split where the noise makes two fixes impossible
// to join (the agreement then counts every matching).
func TestMatchAgreement(t *testing.T) {
	for _, tc := range []struct {
		extract   string
		routes    int
		noiseM    float64
		intervals []float64
		min, all  float64
		whole     bool
	}{
		{"delaware", 12, 10, []float64{5, 10, 20, 30}, 0.85, 0.95, true},
		{"delaware", 6, 30, []float64{10, 20, 30}, 0.75, 0.90, false},
		{"porto_portugal", 8, 10, []float64{5, 10, 20, 30}, 0.85, 0.95, true},
	} {
		t.Run(fmt.Sprintf("%s/%gm", tc.extract, tc.noiseM), func(t *testing.T) {
			g := testGraph(t, tc.extract)
			routes := testRoutes(t, g, Fastest, tc.routes, 7, 2000, 25000)
			rng := rand.New(rand.NewSource(42))
			var common, total float64
			for i, r := range routes {
				dt := tc.intervals[i%len(tc.intervals)]
				pts, _ := traceOf(r, dt, tc.noiseM, rng)
				res, err := g.Match(context.Background(), Fastest, pts, MatchOptions{})
				if err != nil {
					t.Fatalf("route %d (%d m, every %g s): %v", i, r.DistanceM, dt, err)
				}
				checkMatchShape(t, pts, res)
				if tc.whole && len(res.Matchings) != 1 {
					t.Errorf("route %d (%d m, every %g s): %d matchings, want 1", i, r.DistanceM, dt, len(res.Matchings))
				}
				a := agreement(r, res.Matchings...)
				var matched float64
				unmatched := 0
				for _, m := range res.Matchings {
					matched += m.DistanceM
				}
				for _, p := range res.Points {
					if !p.OK {
						unmatched++
					}
				}
				t.Logf("route %d: %d m, %d fixes every %g s: agreement %.3f, %d matchings of %.0f m, confidence %.2f, %d unmatched",
					i, r.DistanceM, len(pts), dt, a, len(res.Matchings), matched, res.Matchings[0].Confidence, unmatched)
				if a < tc.min {
					t.Errorf("route %d (%d m, every %g s): agreement %.3f, want >= %.2f", i, r.DistanceM, dt, a, tc.min)
				}
				common += a * max(float64(r.DistanceM), matched)
				total += max(float64(r.DistanceM), matched)
			}
			if all := common / total; all < tc.all {
				t.Errorf("agreement over all traces %.3f, want >= %.2f", all, tc.all)
			} else {
				t.Logf("agreement over all traces %.3f", all)
			}
		})
	}
}

// checkMatchShape checks a result's bookkeeping: every matched point is
// its matching's waypoint, in trace order, snapped within its radius;
// legs join consecutive waypoints; totals are the legs' sums.
func checkMatchShape(t *testing.T, pts []TracePoint, res *MatchResult) {
	t.Helper()
	if len(res.Points) != len(pts) {
		t.Fatalf("%d points answered for %d", len(res.Points), len(pts))
	}
	for r, mg := range res.Matchings {
		if len(mg.Points) < 2 || len(mg.Legs) != len(mg.Points)-1 {
			t.Fatalf("matching %d: %d points, %d legs", r, len(mg.Points), len(mg.Legs))
		}
		if mg.Confidence < 0 || mg.Confidence > 1 {
			t.Errorf("matching %d: confidence %g", r, mg.Confidence)
		}
		var dur, dist float64
		for w, i := range mg.Points {
			p := res.Points[i]
			if !p.OK || p.Matching != r || p.Waypoint != w {
				t.Fatalf("matching %d waypoint %d: point %d is %+v", r, w, i, p)
			}
			if w > 0 && i <= mg.Points[w-1] {
				t.Fatalf("matching %d: points out of order %v", r, mg.Points)
			}
			if d := geo.HaversineM(pts[i].Point, p.Snap.Point); math.Abs(d-p.Snap.DistanceM) > 0.5 || d > 4*pts[i].AccuracyM+MinMatchRadiusM+1 {
				t.Errorf("point %d snapped %g m away (says %g)", i, d, p.Snap.DistanceM)
			}
			if w > 0 {
				leg := mg.Legs[w-1].Route
				if len(leg.Geometry) > 0 && (geo.HaversineM(leg.Geometry[0], res.Points[mg.Points[w-1]].Snap.Point) > 1 ||
					geo.HaversineM(leg.Geometry[len(leg.Geometry)-1], p.Snap.Point) > 1) {
					t.Errorf("matching %d leg %d does not join its waypoints", r, w-1)
				}
				dur += mg.Legs[w-1].DurationS
				dist += mg.Legs[w-1].DistanceM
			}
		}
		if math.Abs(dur-mg.DurationS) > 1e-6 || math.Abs(dist-mg.DistanceM) > 1e-6 {
			t.Errorf("matching %d: %g s %g m, legs sum to %g s %g m", r, mg.DurationS, mg.DistanceM, dur, dist)
		}
	}
}

// TestMatchSplits: a trace with a 2 km jump (the fixes of 2 km of the
// route left out, the times closed up) is split there into two
// matchings; a ten-minute time gap splits a trace with gaps split and
// not with gaps ignore.
func TestMatchSplits(t *testing.T) {
	g := testGraph(t, "delaware")
	routes := testRoutes(t, g, Fastest, 3, 11, 8000, 20000)
	rng := rand.New(rand.NewSource(5))
	for i, r := range routes {
		pts, along := traceOf(r, 10, 10, rng)
		// Leave out the fixes of 2 km of road after the first 2 km.
		j := 0
		for along[j] < 2000 {
			j++
		}
		k := j + 1
		for along[k]-along[j] < 2000 {
			k++
		}
		jump := append(append([]TracePoint(nil), pts[:j+1]...), pts[k:]...)
		shift := pts[k].Time.Sub(pts[j].Time) - 10*time.Second
		for n := j + 1; n < len(jump); n++ {
			jump[n].Time = jump[n].Time.Add(-shift)
		}
		res, err := g.Match(context.Background(), Fastest, jump, MatchOptions{})
		if err != nil {
			t.Fatalf("route %d jump: %v", i, err)
		}
		checkMatchShape(t, jump, res)
		if len(res.Matchings) != 2 || res.Matchings[0].Points[len(res.Matchings[0].Points)-1] > j || res.Matchings[1].Points[0] < j+1 {
			t.Errorf("route %d: jump after fix %d: matchings %v, want two split there", i, j, matchingPoints(res))
		}

		// A ten-minute gap in time after fix j.
		gap := append([]TracePoint(nil), pts...)
		for n := j + 1; n < len(gap); n++ {
			gap[n].Time = gap[n].Time.Add(10 * time.Minute)
		}
		res, err = g.Match(context.Background(), Fastest, gap, MatchOptions{})
		if err != nil {
			t.Fatalf("route %d gap: %v", i, err)
		}
		if len(res.Matchings) != 2 || res.Points[j].Matching != 0 || res.Points[j+1].Matching != 1 {
			t.Errorf("route %d: gap after fix %d: matchings %v, want two split there", i, j, matchingPoints(res))
		}
		res, err = g.Match(context.Background(), Fastest, gap, MatchOptions{IgnoreGaps: true})
		if err != nil {
			t.Fatalf("route %d gap ignored: %v", i, err)
		}
		if len(res.Matchings) != 1 {
			t.Errorf("route %d: gap ignored: %d matchings, want 1", i, len(res.Matchings))
		}
	}
}

func matchingPoints(res *MatchResult) [][]int {
	var out [][]int
	for _, m := range res.Matchings {
		out = append(out, m.Points)
	}
	return out
}

// TestMatchUnmatched: a trace in the sea is ErrNoSegment; a fix far from
// any road inside a trace is unmatched and the trace stays one matching;
// one point is ErrNoMatch; tidy drops fixes closer than its distance.
func TestMatchUnmatched(t *testing.T) {
	g := testGraph(t, "delaware")
	ctx := context.Background()
	sea := []TracePoint{{Point: orb.Point{-74.80, 38.60}}, {Point: orb.Point{-74.79, 38.60}}, {Point: orb.Point{-74.78, 38.61}}}
	if _, err := g.Match(ctx, Fastest, sea, MatchOptions{}); !errors.Is(err, ErrNoSegment) {
		t.Errorf("trace in the sea: %v, want ErrNoSegment", err)
	}
	r := testRoutes(t, g, Fastest, 1, 3, 5000, 15000)[0]
	pts, _ := traceOf(r, 10, 5, rand.New(rand.NewSource(9)))
	if _, err := g.Match(ctx, Fastest, pts[:1], MatchOptions{}); !errors.Is(err, ErrNoMatch) {
		t.Errorf("one point: %v, want ErrNoMatch", err)
	}
	mid := len(pts) / 2
	far := append([]TracePoint(nil), pts...)
	far[mid].Point = orb.Point{-74.80, 38.60}
	res, err := g.Match(ctx, Fastest, far, MatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Points[mid].OK || len(res.Matchings) != 1 || len(res.Matchings[0].Points) != len(pts)-1 {
		t.Errorf("fix %d in the sea: %+v, matchings %v: want it unmatched and one matching of the others", mid, res.Points[mid], matchingPoints(res))
	}

	const tidy = 150
	res, err = g.Match(ctx, Fastest, pts, MatchOptions{TidyM: tidy})
	if err != nil {
		t.Fatal(err)
	}
	last, dropped := -1, 0
	for i, p := range res.Points {
		near := last >= 0 && geo.HaversineM(pts[last].Point, pts[i].Point) < tidy
		if near {
			dropped++
			if p.OK {
				t.Errorf("tidy: fix %d within %d m of fix %d matched", i, tidy, last)
			}
			continue
		}
		last = i
	}
	if dropped == 0 {
		t.Errorf("tidy %d m dropped nothing of %d fixes every 10 s", tidy, len(pts))
	}
}

// TestCheckTrace: the traces Match refuses, each naming the point and
// field.
func TestCheckTrace(t *testing.T) {
	ok := TracePoint{Point: orb.Point{-75.5, 39.7}}
	at := func(s int) TracePoint { p := ok; p.Time = traceT0.Add(time.Duration(s) * time.Second); return p }
	with := func(f func(*TracePoint)) TracePoint { p := ok; f(&p); return p }
	for _, tc := range []struct {
		name  string
		pts   []TracePoint
		index int
		field string
	}{
		{"ok", []TracePoint{ok, ok}, 0, ""},
		{"timed", []TracePoint{at(0), at(0), ok, at(5)}, 0, ""},
		{"lon", []TracePoint{ok, with(func(p *TracePoint) { p.Point[0] = 181 })}, 1, "lon"},
		{"lon NaN", []TracePoint{with(func(p *TracePoint) { p.Point[0] = math.NaN() })}, 0, "lon"},
		{"lat", []TracePoint{ok, ok, with(func(p *TracePoint) { p.Point[1] = -91 })}, 2, "lat"},
		{"accuracy", []TracePoint{with(func(p *TracePoint) { p.AccuracyM = -1 })}, 0, "accuracy_m"},
		{"radius", []TracePoint{with(func(p *TracePoint) { p.RadiusM = MaxSnapRadiusM + 1 })}, 0, "radius"},
		{"time order", []TracePoint{at(10), ok, at(5)}, 2, "time"},
		{"too many", make([]TracePoint, MaxTracePoints+1), -1, "points"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckTrace(tc.pts)
			var te *TraceError
			switch {
			case tc.field == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.field == "":
			case !errors.As(err, &te):
				t.Fatalf("got %v, want a TraceError", err)
			case te.Index != tc.index || te.Field != tc.field:
				t.Errorf("got %v (index %d, field %s), want index %d, field %s", err, te.Index, te.Field, tc.index, tc.field)
			}
		})
	}
}

// TestMatchMetrics: a trace matched on the shortest metric (CH) and on a
// truck (a customized CCH metric) is one matching on the roads of the
// route it was made from.
func TestMatchMetrics(t *testing.T) {
	g := testGraph(t, "delaware")
	truck := Fastest
	truck.SetProfile(ProfileTruck)
	rng := rand.New(rand.NewSource(17))
	for _, r := range testRoutes(t, g, Fastest, 2, 29, 4000, 15000) {
		pts, _ := traceOf(r, 10, 10, rng)
		for _, m := range []Metric{Shortest, truck} {
			res, err := g.Match(context.Background(), m, pts, MatchOptions{})
			if err != nil {
				t.Fatalf("%v: %v", m, err)
			}
			checkMatchShape(t, pts, res)
			if a := agreement(r, res.Matchings...); len(res.Matchings) != 1 || a < 0.9 {
				t.Errorf("%v: %d matchings, agreement %.3f with the route, want 1 and >= 0.9", m, len(res.Matchings), a)
			}
		}
	}
}
