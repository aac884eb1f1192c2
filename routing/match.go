package routing

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/paulmach/orb"
)

// Map matching follows the hidden Markov model of P. Newson and J. Krumm,
// "Hidden Markov Map Matching Through Noise and Sparseness", ACM
// SIGSPATIAL GIS 2009, pp. 336-343, as OSRM's /match and Valhalla's
// trace_route do: the hidden states of a GPS fix are the road candidates
// within its radius; the emission probability is a zero-mean Gaussian of
// the great-circle distance from the fix to the candidate (sigma the
// fix's accuracy); the transition probability is exponential in
// |route distance - great-circle distance| between consecutive fixes
// (beta); Viterbi finds the most likely sequence. Where no transition is
// possible (no route, or a route far longer than the time between the
// fixes allows) the trace breaks and a new matching begins, as in OSRM.

// Defaults and limits of map matching.
const (
	// MaxTracePoints is the most points one trace may have.
	MaxTracePoints = 5000
	// DefaultMatchSigmaM is the standard deviation of a fix's position
	// error, in metres, when the fix gives no accuracy.
	DefaultMatchSigmaM = 10
	// MinMatchRadiusM is the smallest default search radius: a fix's
	// candidates lie within max(MinMatchRadiusM, 4 sigma) unless it gives
	// its own radius (at most MaxSnapRadiusM).
	MinMatchRadiusM = 50
	// DefaultMatchBetaM is the transition scale beta, in metres.
	DefaultMatchBetaM = 10
	// DefaultMatchCandidates is the most candidate roads per fix.
	DefaultMatchCandidates = 8
	// DefaultMaxSpeedMS bounds how fast the traced vehicle may have
	// driven between two timed fixes (50 m/s, 180 km/h, OSRM's bound).
	DefaultMaxSpeedMS = 50
	// maxDistanceDeltaM bounds |route - great-circle distance| between
	// two untimed fixes (OSRM's 2000 m).
	maxDistanceDeltaM = 2000
	// minGapS is the shortest time gap that splits a trace; the default
	// gap is the larger of this and gapIntervals median intervals.
	minGapS      = 60
	gapIntervals = 10
	// maxSkipped is how many fixes in a row may be dropped as outliers
	// before the trace is split at the first of them.
	maxSkipped = 2
)

// TracePoint is one fix of a GPS trace.
type TracePoint struct {
	// Point is the fix, lon/lat.
	Point orb.Point
	// Time is when it was taken; the zero time when unknown. The times
	// given must not decrease along the trace.
	Time time.Time
	// AccuracyM is the standard deviation of its position error in
	// metres; 0: MatchOptions.SigmaM.
	AccuracyM float64
	// RadiusM is how far from the fix its roads may lie, in metres; 0:
	// max(MinMatchRadiusM, 4 sigma).
	RadiusM float64
}

// MatchOptions tune Match; the zero value takes every default.
type MatchOptions struct {
	// SigmaM is the default standard deviation of the fixes' position
	// error (DefaultMatchSigmaM when 0).
	SigmaM float64
	// BetaM is the transition scale (DefaultMatchBetaM when 0).
	BetaM float64
	// Candidates is the most candidate roads per fix
	// (DefaultMatchCandidates when 0).
	Candidates int
	// IgnoreGaps keeps a trace whole across long time gaps (OSRM's
	// gaps=ignore); by default a gap longer than GapS splits it.
	IgnoreGaps bool
	// GapS is the time gap that splits a trace, in seconds; 0: the larger
	// of 60 s and ten times the trace's median interval.
	GapS float64
	// TidyM drops every fix closer than this many metres to the last fix
	// kept (0 keeps all); dropped fixes are unmatched.
	TidyM float64
	// MaxSpeedMS is the fastest plausible speed between timed fixes
	// (DefaultMaxSpeedMS when 0).
	MaxSpeedMS float64
}

// MatchResult is a matched trace.
type MatchResult struct {
	// Matchings are the matched stretches of the trace, in trace order.
	Matchings []Matching
	// Points has one entry per input point, OK false where the point was
	// not matched (no road within its radius, an outlier, tidied away, or
	// a stretch of one point).
	Points []MatchedPoint
}

// Matching is one matched stretch of a trace: the route through its
// matched points.
type Matching struct {
	// DurationS and DistanceM are the route's, unrounded.
	DurationS, DistanceM float64
	// Geometry is the route through the matched points.
	Geometry orb.LineString
	// Confidence is in [0, 1]: the mean, over the matching's points, of
	// the chosen road's share of the Viterbi probability of all the
	// point's candidates (1 when no other candidate came close).
	Confidence float64
	// Points are the input indexes of the matching's waypoints, in order.
	Points []int
	// Legs are the routes between consecutive waypoints: len(Points)-1.
	Legs []MatchLeg
}

// MatchLeg is the route between two consecutive matched points.
type MatchLeg struct {
	DurationS, DistanceM float64
	// Route is the leg's route; its Segments name the roads driven.
	Route *Route
}

// MatchedPoint is an input point's match.
type MatchedPoint struct {
	// OK is false when the point was not matched.
	OK bool
	// Snap is where it was matched.
	Snap Snap
	// Matching is the index of its matching, Waypoint its index among the
	// matching's waypoints.
	Matching, Waypoint int
	// Alternatives is how many other candidate roads the point had.
	Alternatives int
}

// ErrNoSegment is returned by Match when no point of the trace has a road
// within its radius (a trace in the sea, say).
var ErrNoSegment = errors.New("routing: no point of the trace has a road within its radius")

// ErrNoMatch is returned by Match when points have roads near them but no
// two consecutive ones could be joined into a matching.
var ErrNoMatch = errors.New("routing: no two points of the trace could be matched to a route")

// TraceError is a trace Match refuses: the point (Index) and what is wrong.
type TraceError struct {
	// Index is the point's index in the trace, -1 for the whole trace.
	Index int
	// Field is the field at fault: "lon", "lat", "time", "accuracy_m",
	// "radius", or "points" for the whole trace.
	Field  string
	Reason string
}

func (e *TraceError) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("%s: %s", e.Field, e.Reason)
	}
	return fmt.Sprintf("points[%d].%s: %s", e.Index, e.Field, e.Reason)
}

// CheckTrace returns a *TraceError for a trace Match would refuse: more
// than MaxTracePoints points, a coordinate out of range, a time earlier
// than the one before it, a negative or non-finite accuracy or radius,
// or a radius above MaxSnapRadiusM.
func CheckTrace(pts []TracePoint) error {
	if len(pts) > MaxTracePoints {
		return &TraceError{Index: -1, Field: "points", Reason: fmt.Sprintf("%d points, at most %d", len(pts), MaxTracePoints)}
	}
	var last time.Time
	for i, p := range pts {
		switch {
		case math.IsNaN(p.Point[0]) || p.Point[0] < -180 || p.Point[0] > 180:
			return &TraceError{Index: i, Field: "lon", Reason: "must be a number from -180 to 180"}
		case math.IsNaN(p.Point[1]) || p.Point[1] < -90 || p.Point[1] > 90:
			return &TraceError{Index: i, Field: "lat", Reason: "must be a number from -90 to 90"}
		case !(p.AccuracyM >= 0) || math.IsInf(p.AccuracyM, 0):
			return &TraceError{Index: i, Field: "accuracy_m", Reason: "must be a number of metres, 0 or more"}
		case !(p.RadiusM >= 0) || p.RadiusM > MaxSnapRadiusM:
			return &TraceError{Index: i, Field: "radius", Reason: fmt.Sprintf("must be from 0 to %d metres", MaxSnapRadiusM)}
		}
		if !p.Time.IsZero() {
			if p.Time.Before(last) {
				return &TraceError{Index: i, Field: "time", Reason: "is earlier than a time before it: the points must be in time order"}
			}
			last = p.Time
		}
	}
	return nil
}

// withDefaults fills in o's defaults for the trace pts.
func (o MatchOptions) withDefaults(pts []TracePoint) MatchOptions {
	if o.SigmaM <= 0 {
		o.SigmaM = DefaultMatchSigmaM
	}
	if o.BetaM <= 0 {
		o.BetaM = DefaultMatchBetaM
	}
	if o.Candidates <= 0 {
		o.Candidates = DefaultMatchCandidates
	}
	if o.MaxSpeedMS <= 0 {
		o.MaxSpeedMS = DefaultMaxSpeedMS
	}
	if o.GapS <= 0 {
		o.GapS = max(minGapS, gapIntervals*medianInterval(pts))
	}
	return o
}

// medianInterval is the median time between consecutive timed points of
// the trace, in seconds (0 without two).
func medianInterval(pts []TracePoint) float64 {
	var dts []float64
	for i := 1; i < len(pts); i++ {
		if !pts[i].Time.IsZero() && !pts[i-1].Time.IsZero() {
			dts = append(dts, pts[i].Time.Sub(pts[i-1].Time).Seconds())
		}
	}
	if len(dts) == 0 {
		return 0
	}
	slices.Sort(dts)
	return dts[len(dts)/2]
}

// sigma is point p's standard deviation of position error.
func (o MatchOptions) sigma(p TracePoint) float64 {
	if p.AccuracyM > 0 {
		return p.AccuracyM
	}
	return o.SigmaM
}

// radius is point p's search radius.
func (o MatchOptions) radius(p TracePoint) float64 {
	if p.RadiusM > 0 {
		return p.RadiusM
	}
	return min(MaxSnapRadiusM, max(MinMatchRadiusM, 4*o.sigma(p)))
}

// Match matches a GPS trace to the roads of metric m (Newson and Krumm's
// hidden Markov model, see the package's matching notes): it returns the
// matchings, the routes through their matched points, and each point's
// match. It returns a *TraceError for a trace CheckTrace refuses,
// ErrNoSegment when no point has a road within its radius, ErrNoMatch
// when no two points could be joined, and ctx's error when ctx ends.
func (g *Graph) Match(ctx context.Context, m Metric, pts []TracePoint, o MatchOptions) (*MatchResult, error) {
	if err := CheckTrace(pts); err != nil {
		return nil, err
	}
	o = o.withDefaults(pts)
	mt := &matcher{g: g, m: m, pts: pts, o: o}
	if err := mt.candidates(); err != nil {
		return nil, err
	}
	if err := mt.viterbi(ctx); err != nil {
		return nil, err
	}
	return mt.result(ctx)
}
