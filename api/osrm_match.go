package api

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/routing"
)

// osrmMatchAnswer is the body of a match answer: the matchings, and one
// tracepoint per coordinate, null where it was not matched.
type osrmMatchAnswer struct {
	Code        string             `json:"code"`
	Matchings   []osrmMatchingJSON `json:"matchings"`
	Tracepoints []*osrmTracepoint  `json:"tracepoints,omitempty"`
}

// osrmMatchingJSON is a Route with its confidence.
type osrmMatchingJSON struct {
	Confidence float64 `json:"confidence"`
	osrmRouteJSON
}

// osrmTracepoint is a Waypoint with its place in the matchings.
type osrmTracepoint struct {
	osrmWaypoint
	MatchingsIndex    int `json:"matchings_index"`
	WaypointIndex     int `json:"waypoint_index"`
	AlternativesCount int `json:"alternatives_count"`
}

// match answers the match service on routing.Graph.Match (docs/matching.md):
// OSRM's radiuses are each point's accuracy (standard deviation, metres),
// timestamps UNIX seconds, gaps split|ignore, tidy true|false.
func (h *osrmHandler) match(c echo.Context, g *routing.Graph, r *osrmRequest) error {
	n := len(r.coords)
	if n < 2 {
		return osrmErr("InvalidOptions", "Number of coordinates needs to be at least two.")
	}
	if n > h.opts.Limits.MaxMatchingSize {
		return osrmErr("TooBig", "Too many trace coordinates: %d is more than %d", n, h.opts.Limits.MaxMatchingSize)
	}
	for _, k := range []string{"bearings", "approaches"} {
		if r.q.Get(k) != "" {
			return osrmErr("InvalidOptions", "%s: geosvc's map matching does not use them", k)
		}
	}
	o, oe := r.parseRouteOptions()
	if oe != nil {
		return oe
	}
	pts := make([]routing.TracePoint, n)
	for i, p := range r.coords {
		pts[i] = routing.TracePoint{Point: p, AccuracyM: r.snap[i].RadiusM}
	}
	if v := r.q.Get("timestamps"); v != "" {
		ts := strings.Split(v, ";")
		if len(ts) != n {
			return osrmErr("InvalidOptions", "Number of elements in timestamps size %d does not match coordinate size %d", len(ts), n)
		}
		for i, s := range ts {
			sec, err := strconv.ParseInt(s, 10, 64)
			if err != nil || sec < 0 {
				return r.malformed("timestamps", "entry %d, %s, is not UNIX seconds", i, quoteEcho(s))
			}
			pts[i].Time = time.Unix(sec, 0)
		}
	}
	var mo routing.MatchOptions
	switch v := r.q.Get("gaps"); v {
	case "", "split":
	case "ignore":
		mo.IgnoreGaps = true
	default:
		return r.malformed("gaps", "%s is not split or ignore", quoteEcho(v))
	}
	tidy, oe := r.boolOption("tidy", false)
	if oe != nil {
		return oe
	}
	if tidy {
		mo.TidyM = defaultMatchTidyM
	}
	if err := routing.CheckTrace(pts); err != nil {
		return osrmErr("InvalidValue", "%v", err)
	}
	res, err := g.Match(c.Request().Context(), r.spec, pts, mo)
	switch {
	case errors.Is(err, routing.ErrNoSegment):
		return osrmErr("NoSegment", "Could not find a matching segment for any coordinate.")
	case errors.Is(err, routing.ErrNoMatch):
		return osrmErr("NoMatch", "Could not match the trajectory.")
	case err != nil:
		var te *routing.TraceError
		if errors.As(err, &te) {
			return osrmErr("InvalidValue", "%v", te)
		}
		return err
	}
	ans := osrmMatchAnswer{Code: "Ok", Matchings: []osrmMatchingJSON{}}
	for _, m := range res.Matchings {
		legs := make([][]*routing.Route, len(m.Legs))
		for i, l := range m.Legs {
			legs[i] = []*routing.Route{l.Route}
		}
		ans.Matchings = append(ans.Matchings, osrmMatchingJSON{Confidence: round(m.Confidence, 3), osrmRouteJSON: r.routeJSON(g, legs, o)})
	}
	if !r.skipWaypoints {
		ans.Tracepoints = make([]*osrmTracepoint, n)
		for i, p := range res.Points {
			if p.OK {
				ans.Tracepoints[i] = &osrmTracepoint{osrmWaypoint: r.waypointOf(g, p.Snap), MatchingsIndex: p.Matching, WaypointIndex: p.Waypoint, AlternativesCount: p.Alternatives}
			}
		}
	}
	setContentLanguage(c, r.answerLang())
	return c.JSON(http.StatusOK, ans)
}
