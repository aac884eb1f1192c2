package routing

import (
	"context"
	"errors"
	"math"

	"github.com/geosvc/geosvc/geo"
)

// matcher holds one Match call's state.
type matcher struct {
	g   *Graph
	m   Metric
	pts []TracePoint
	o   MatchOptions

	// kept are the input indexes left after tidying, in order.
	kept []int
	// cands and emit are, per input index, its candidate roads and their
	// log emission probabilities (nil for a point without any).
	cands [][]Snap
	emit  [][]float64
	// runs are the matchings found: per matching the input indexes of
	// its points; chosen is, per input index, its candidate in its
	// matching (-1 when unmatched); conf the matchings' confidences.
	runs   [][]int
	chosen []int
	conf   []float64
}

// hmmStep is one point of the Viterbi trellis: the best log probability
// of each candidate and the candidate of the previous step it came from.
type hmmStep struct {
	pt    int
	score []float64
	back  []int
}

// candidates finds every kept point's candidate roads: one per road edge
// within the point's radius, the nearest first, at most o.Candidates;
// roads of the main component only, unless the point has none within its
// radius (the rule of Snap). Log emission probabilities are those of a
// zero-mean Gaussian of the distance (the constant term left out: it is
// the same for every candidate of a point).
func (mt *matcher) candidates() error {
	g, o := mt.g, mt.o
	filter := g.snapFilter(mt.m)
	anyRoad := func(e uint32) bool {
		if g.edgeNode[directedID(e, 0)] < 0 && g.edgeNode[directedID(e, 1)] < 0 {
			return false
		}
		return filter == nil || filter(e)
	}
	mainRoad := func(e uint32) bool { return g.edgeFlags[e]&edgeOffMain == 0 && anyRoad(e) }
	n := len(mt.pts)
	mt.cands, mt.emit, mt.chosen = make([][]Snap, n), make([][]float64, n), make([]int, n)
	found := false
	last := -1
	for i, p := range mt.pts {
		mt.chosen[i] = -1
		if o.TidyM > 0 && last >= 0 && geo.HaversineM(mt.pts[last].Point, p.Point) < o.TidyM {
			continue
		}
		last = i
		mt.kept = append(mt.kept, i)
		r := o.radius(p)
		hits := g.snap.Within(p.Point, r, mainRoad, o.Candidates)
		if len(hits) == 0 && g.meta.OffMainNodes > 0 {
			hits = g.snap.Within(p.Point, r, anyRoad, o.Candidates)
		}
		if len(hits) == 0 {
			continue
		}
		found = true
		sigma := o.sigma(p)
		cs, em := make([]Snap, len(hits)), make([]float64, len(hits))
		for k, h := range hits {
			cs[k] = Snap{Input: p.Point, Point: h.Point, DistanceM: h.DistanceM, Edge: h.Edge, Fraction: h.Fraction, OK: true}
			z := h.DistanceM / sigma
			em[k] = -0.5 * z * z
		}
		mt.cands[i], mt.emit[i] = cs, em
	}
	if !found {
		return ErrNoSegment
	}
	return nil
}

// viterbi runs the trellis over the kept points with candidates, starting
// a new matching where the trace breaks: at a time gap longer than o.GapS
// (unless o.IgnoreGaps), or where no candidate of a point can be reached
// from the previous point's. A point that cannot be reached is first
// joined to the point before the previous one (the previous one is then
// the outlier, unmatched), else passed over as an outlier itself
// (unmatched); after maxSkipped of them in a row, the matching ends
// before the first and a new one starts there. Matchings of one point
// are dropped.
func (mt *matcher) viterbi(ctx context.Context) error {
	var cur []hmmStep
	var skipped []int // positions in kept passed over since the last step
	finish := func() {
		if len(cur) >= 2 {
			mt.backtrack(cur)
		}
		cur = nil
	}
	for k := 0; ; k++ {
		if k == len(mt.kept) {
			if len(skipped) == 0 {
				break
			}
			finish()
			k, skipped = skipped[0], nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		i := mt.kept[k]
		if mt.cands[i] == nil {
			continue
		}
		if len(cur) == 0 {
			cur = append(cur, hmmStep{pt: i, score: append([]float64(nil), mt.emit[i]...)})
			continue
		}
		prev := cur[len(cur)-1]
		if !mt.o.IgnoreGaps && mt.gapS(prev.pt, i) > mt.o.GapS {
			finish()
			skipped = nil
			cur = append(cur, hmmStep{pt: i, score: append([]float64(nil), mt.emit[i]...)})
			continue
		}
		st, ok, err := mt.transition(ctx, prev, i)
		if err != nil {
			return err
		}
		if ok {
			cur = append(cur, st)
			skipped = nil
			continue
		}
		if len(cur) >= 3 && len(skipped) == 0 {
			// The point before may be the outlier: join this one to the
			// one before that, leaving it unmatched.
			if st, ok, err = mt.transition(ctx, cur[len(cur)-2], i); err != nil {
				return err
			}
			if ok {
				cur = append(cur[:len(cur)-1], st)
				continue
			}
		}
		skipped = append(skipped, k)
		if len(skipped) > maxSkipped {
			finish()
			k, skipped = skipped[0]-1, nil // the loop's k++ starts a matching there
		}
	}
	finish()
	if len(mt.runs) == 0 {
		return ErrNoMatch
	}
	return nil
}

// gapS is the time between input points a and b in seconds, 0 when
// either has no time.
func (mt *matcher) gapS(a, b int) float64 {
	ta, tb := mt.pts[a].Time, mt.pts[b].Time
	if ta.IsZero() || tb.IsZero() {
		return 0
	}
	return tb.Sub(ta).Seconds()
}

// transition advances the trellis from step prev to input point i: the
// route distance between every pair of candidates (a small table on the
// metric), the log transition probability -|route - great circle| / beta,
// and Viterbi's maximum. For timed fixes, let D be the distance
// MaxSpeedMS covers in the time between them plus both radii: when the
// fixes are farther apart than D, every pair is impossible (a jump); a
// pair is impossible when no route joins them, or when its route is
// longer than the great-circle distance by more than D (timed; OSRM's
// bound, with the radii as slack) or 2 km (untimed, OSRM's bound). ok is
// false when every pair is impossible.
func (mt *matcher) transition(ctx context.Context, prev hmmStep, i int) (hmmStep, bool, error) {
	from, to := mt.cands[prev.pt], mt.cands[i]
	tab, err := mt.g.Matrix(ctx, mt.m, from, to)
	if err != nil {
		return hmmStep{}, false, err
	}
	a, b := mt.pts[prev.pt], mt.pts[i]
	gc := geo.HaversineM(a.Point, b.Point)
	timed := !a.Time.IsZero() && !b.Time.IsZero()
	maxDelta := b.Time.Sub(a.Time).Seconds()*mt.o.MaxSpeedMS + mt.o.radius(a) + mt.o.radius(b)
	if timed && gc > maxDelta {
		return hmmStep{}, false, nil // a jump faster than MaxSpeedMS
	}
	st := hmmStep{pt: i, score: make([]float64, len(to)), back: make([]int, len(to))}
	ok := false
	for j := range to {
		best, arg := math.Inf(-1), -1
		for s := range from {
			if math.IsInf(prev.score[s], -1) {
				continue
			}
			_, di := tab.At(s, j)
			d := float64(di)
			if held, ok := mt.held(from[s], to[j], a, b); ok && (di == NoRoute || d > held+1) {
				d = held
			} else if di == NoRoute {
				continue
			}
			delta := math.Abs(d - gc)
			if timed && d-gc > maxDelta || !timed && delta > maxDistanceDeltaM {
				continue
			}
			if v := prev.score[s] - delta/mt.o.BetaM; v > best {
				best, arg = v, s
			}
		}
		st.score[j], st.back[j] = best+mt.emit[i][j], arg
		if arg >= 0 {
			ok = true
		}
	}
	return st, ok, nil
}

// held returns the distance along their edge between two candidates on
// one road edge no farther apart than the two fixes' sigmas together:
// where the second lies behind the first in the direction of a one-way
// road, the route between them goes round the block, but a vehicle that
// barely moved between two noisy fixes is more likely. Such a pair is a
// hold: the second point is matched where the first is (result).
func (mt *matcher) held(s, t Snap, a, b TracePoint) (float64, bool) {
	if s.Edge != t.Edge {
		return 0, false
	}
	d := math.Abs(s.Fraction-t.Fraction) * mt.g.edgeLen[s.Edge]
	return d, d <= mt.o.sigma(a)+mt.o.sigma(b)
}

// backtrack records the most likely candidate sequence of a finished
// matching of two or more steps, and its confidence.
func (mt *matcher) backtrack(steps []hmmStep) {
	last := steps[len(steps)-1].score
	j := 0
	for k := range last {
		if last[k] > last[j] {
			j = k
		}
	}
	run := make([]int, len(steps))
	var share float64
	for s := len(steps) - 1; s >= 0; s-- {
		st := steps[s]
		run[s] = st.pt
		mt.chosen[st.pt] = j
		share += probShare(st.score, j)
		if s > 0 {
			j = st.back[j]
		}
	}
	mt.runs = append(mt.runs, run)
	mt.conf = append(mt.conf, share/float64(len(steps)))
}

// probShare is exp(score[j]) / sum of exp(score), computed stably.
func probShare(score []float64, j int) float64 {
	top := math.Inf(-1)
	for _, v := range score {
		top = max(top, v)
	}
	if math.IsInf(top, -1) || math.IsInf(score[j], -1) {
		return 0
	}
	var sum float64
	for _, v := range score {
		sum += math.Exp(v - top)
	}
	return math.Exp(score[j]-top) / sum
}

// result routes each matching through its chosen candidates.
func (mt *matcher) result(ctx context.Context) (*MatchResult, error) {
	res := &MatchResult{Points: make([]MatchedPoint, len(mt.pts))}
	for r, run := range mt.runs {
		mg := Matching{Confidence: mt.conf[r], Points: run}
		var prev Snap
		for w, i := range run {
			s := mt.cands[i][mt.chosen[i]]
			var rt *Route
			if w > 0 {
				var err error
				if rt, err = mt.g.Route(ctx, mt.m, prev, s); err != nil && !errors.Is(err, ErrNoRoute) {
					return nil, err
				}
				if h, ok := mt.held(prev, s, mt.pts[run[w-1]], mt.pts[i]); ok && (rt == nil || float64(rt.DistanceM) > h+1) {
					// A hold: matched where the point before was.
					s.Point, s.Fraction = prev.Point, prev.Fraction
					s.DistanceM = geo.HaversineM(s.Input, s.Point)
					if rt, err = mt.g.Route(ctx, mt.m, prev, s); err != nil {
						return nil, err
					}
				}
				if rt == nil {
					return nil, ErrNoRoute
				}
			}
			res.Points[i] = MatchedPoint{OK: true, Snap: s, Matching: r, Waypoint: w, Alternatives: len(mt.cands[i]) - 1}
			if w > 0 {
				leg := MatchLeg{Route: rt}
				for _, sg := range rt.Segments {
					leg.DurationS += sg.DurationS
					leg.DistanceM += sg.DistanceM
				}
				mg.Legs = append(mg.Legs, leg)
				mg.DurationS += leg.DurationS
				mg.DistanceM += leg.DistanceM
				for _, p := range rt.Geometry {
					if len(mg.Geometry) > 0 && mg.Geometry[len(mg.Geometry)-1] == p {
						continue
					}
					mg.Geometry = append(mg.Geometry, p)
				}
			}
			prev = s
		}
		if len(mg.Geometry) == 1 {
			mg.Geometry = append(mg.Geometry, mg.Geometry[0]) // a vehicle that did not move: a LineString has two points
		}
		res.Matchings = append(res.Matchings, mg)
	}
	return res, nil
}
