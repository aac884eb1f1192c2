package api

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/routing"
)

// routeTime is a route's departure_time or arrival_time parameter.
type routeTime struct {
	given   bool
	arrival bool
	t       time.Time
}

// tripTimes are a timed route's answer members.
type tripTimes struct {
	departure, arrival, zone, version string
	// model is "time-dependent" or "time-bucketed" ("" without speed
	// data and conditional turn restrictions: the plain route).
	model string
}

// routeTripTime reads departure_time or arrival_time (not both); the
// message names the bad one.
func routeTripTime(q url.Values, now time.Time) (routeTime, string) {
	dep, arr := strings.TrimSpace(q.Get("departure_time")), strings.TrimSpace(q.Get("arrival_time"))
	switch {
	case dep != "" && arr != "":
		return routeTime{}, "departure_time and arrival_time: give one of them, not both"
	case dep == "" && arr == "" && (q.Has("departure_time") || q.Has("arrival_time")):
		field := "departure_time"
		if !q.Has(field) {
			field = "arrival_time"
		}
		return routeTime{}, field + ": is empty: want " + tripTimeWant
	case dep == "" && arr == "":
		return routeTime{}, ""
	}
	field, v := "departure_time", dep
	if arr != "" {
		field, v = "arrival_time", arr
	}
	t, reason := parseTripTime(v, now)
	if reason != "" {
		return routeTime{}, field + ": " + reason
	}
	return routeTime{given: true, arrival: arr != "", t: t}, ""
}

// timedRoute routes at a departure time, or to arrive at an arrival
// time. A metric whose weights are travel times (routing.TimeDependent)
// is routed time-dependently: each road at the speed of the time it is
// driven, the clock read in the origin's zone. The others are
// time-bucketed: the speed bucket of the departure's local hour applies
// to the whole trip. For an arrival time the departure is found by going
// back the route's duration, again until the departure gives a route
// of the same duration (time-dependent) or the same bucket (at most
// three times). The metric returned is the departure hour's bucket (the
// alternatives' metric).
func timedRoute(ctx context.Context, b *bundle.Bundle, g *routing.Graph, spec routing.Metric, from, to routing.Snap, tt routeTime) (routing.Metric, *routing.Route, tripTimes, error) {
	dep := tt.t
	exact := routing.TimeDependent(spec) && (g.Speeds() != nil || g.ConditionalTurns() > 0)
	var m routing.Metric
	var r *routing.Route
	var version string
	for try := 0; try < 3; try++ {
		clock := localClock(b, from.Input, dep)
		mm, v := g.AtHour(spec, clock.Hour)
		if !exact && r != nil && mm == m {
			break
		}
		var err error
		var rr *routing.Route
		if exact {
			rr, v, err = g.RouteAt(ctx, spec, from, to, clock.Local)
		} else {
			rr, err = g.Route(ctx, mm, from, to)
		}
		if err != nil {
			return spec, nil, tripTimes{}, err
		}
		same := r != nil && rr.DurationS == r.DurationS
		r, m, version = rr, mm, v
		if !tt.arrival || same {
			break
		}
		dep = tt.t.Add(-time.Duration(r.DurationS) * time.Second)
	}
	clock := localClock(b, from.Input, dep)
	arr := clock.Local.Add(time.Duration(r.DurationS) * time.Second)
	model := ""
	switch {
	case exact:
		model = "time-dependent"
	case version != "" || g.ConditionalTurns() > 0:
		model = "time-bucketed"
	}
	return m, r, tripTimes{departure: clock.Local.Format(time.RFC3339), arrival: arr.Format(time.RFC3339), zone: clock.Zone, version: version, model: model}, nil
}
