package api

import (
	"errors"
	"io"
	"math"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/keys"
	"github.com/geosvc/geosvc/routing"
)

// matchInterface is the interface name of the map-matching endpoint.
const matchInterface = keys.MatchV1

// MatchOptions configures the matchv1 endpoint.
type MatchOptions struct {
	// Bundle is the data bundle answered from (its routing graphs); nil,
	// or holding none yet, while it loads (the endpoint then answers 503).
	Bundle *bundle.Current
}

// RegisterMatch adds POST /matchv1/match to g, which must authenticate
// requests (Server.Protected): a GPS trace matched to the roads of the
// profile's graph (routing.Graph.Match, Newson and Krumm's hidden Markov
// model), answered in the shape of OSRM's /match: code, matchings (each
// with distance, duration, a GeoJSON geometry, confidence and legs with
// their roads) and tracepoints (one per input point, null where it was
// not matched).
//
// Answers: 200 {"code": "Ok", ...}; 400 {"code": "InvalidInput",
// "message", "errors": [{"field", "reason"}]} naming the field and index
// of a bad input; 404 {"code": "NoSegment", "message"} when no point has
// a road within its radius, {"code": "NoMatch"} when no two points could
// be joined (routev1's status for no road or route); 503 while the
// bundle loads.
func RegisterMatch(g *echo.Group, opts MatchOptions) {
	h := &matchHandler{opts: opts}
	g.POST("/"+matchInterface+"/match", h.match)
}

type matchHandler struct{ opts MatchOptions }

// matchError is the body of a 400 answer: OSRM's code, the message, and
// for invalid input the field at fault.
type matchError struct {
	Code    string       `json:"code"`
	Message string       `json:"message"`
	Errors  []fieldError `json:"errors,omitempty"`
}

// matchAnswer is the body of a matchv1 answer, OSRM's match shape.
type matchAnswer struct {
	Code        string            `json:"code"`
	Matchings   []matchingJSON    `json:"matchings"`
	Tracepoints []*tracepointJSON `json:"tracepoints"`
	// TraceTime, TimeZone and SpeedVersion (extensions): on a bundle
	// with speed data, a trace with times is matched on the speed bucket
	// of its first time's local hour: that time on the local clock, the
	// zone and the speed data's version.
	TraceTime    string `json:"trace_time,omitempty"`
	TimeZone     string `json:"time_zone,omitempty"`
	SpeedVersion string `json:"speed_version,omitempty"`
}

// matchingJSON is one matching.
type matchingJSON struct {
	Confidence float64   `json:"confidence"`
	DistanceM  float64   `json:"distance"`
	DurationS  float64   `json:"duration"`
	Geometry   routeLine `json:"geometry"`
	Legs       []legJSON `json:"legs"`
}

// legJSON is the route between two consecutive matched points: its
// distance, duration, OSRM's summary (the names of its two longest
// roads) and the roads driven in order.
type legJSON struct {
	DistanceM float64    `json:"distance"`
	DurationS float64    `json:"duration"`
	Summary   string     `json:"summary"`
	Roads     []roadJSON `json:"roads"`
}

// roadJSON is a stretch of one road of a leg: its name (else its route
// numbers), route numbers and length.
type roadJSON struct {
	Name      string  `json:"name"`
	Ref       string  `json:"ref,omitempty"`
	DistanceM float64 `json:"distance"`
}

// tracepointJSON is an input point's match.
type tracepointJSON struct {
	Location          [2]float64 `json:"location"`
	Name              string     `json:"name"`
	DistanceM         float64    `json:"distance"`
	MatchingsIndex    int        `json:"matchings_index"`
	WaypointIndex     int        `json:"waypoint_index"`
	AlternativesCount int        `json:"alternatives_count"`
}

func badMatch(code, msg string, errs []fieldError) error {
	return echo.NewHTTPError(http.StatusBadRequest, matchError{Code: code, Message: msg, Errors: errs})
}

// noMatch is a 404 with OSRM's code: the input is valid, but no road (or
// route) answers it, as routev1's 404.
func noMatch(code, msg string) error {
	return echo.NewHTTPError(http.StatusNotFound, matchError{Code: code, Message: msg})
}

func (h *matchHandler) match(c echo.Context) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return err
	}
	req, fe := parseMatch(body)
	if fe != nil {
		return badMatch("InvalidInput", "invalid match request: "+fe.Field+": "+fe.Reason, []fieldError{*fe})
	}
	var g *routing.Graph
	if b := h.opts.Bundle.Load(); b != nil {
		if msg := profileMissing(b, req.profile.graph); msg != "" {
			return badMatch("InvalidInput", "profile: "+msg, []fieldError{{Field: "profile", Reason: msg}})
		}
		g = b.GraphFor(req.profile.graph)
	}
	if g == nil {
		return errBundleLoading
	}
	spec, timed := req.spec, tripTimes{}
	if i := firstTimed(req.points); i >= 0 && (g.Speeds() != nil || g.ConditionalTurns() > 0) {
		// The speed data's bucket (and the conditional turns) of the trace's first time, read on the
		// local clock of its point (time-bucketed, as isochronev1).
		clock := localClock(h.opts.Bundle.Load(), req.points[i].Point, req.points[i].Time)
		spec, timed.version = g.AtHour(spec, clock.Hour)
		timed.departure, timed.zone = clock.Local.Format(time.RFC3339), clock.Zone
	}
	res, err := g.Match(c.Request().Context(), spec, req.points, req.opts)
	var te *routing.TraceError
	switch {
	case errors.Is(err, routing.ErrNoSegment):
		return noMatch("NoSegment", "no point of the trace has a road within its radius")
	case errors.Is(err, routing.ErrNoMatch):
		return noMatch("NoMatch", "no two points of the trace could be joined by a route")
	case errors.As(err, &te):
		return badMatch("InvalidInput", te.Error(), nil)
	case err != nil:
		return err
	}
	ans := matchAnswerOf(res)
	ans.TraceTime, ans.TimeZone, ans.SpeedVersion = timed.departure, timed.zone, timed.version
	return c.JSON(http.StatusOK, ans)
}

// firstTimed returns the index of the trace's first point with a time,
// -1 when none has one.
func firstTimed(pts []routing.TracePoint) int {
	for i, p := range pts {
		if !p.Time.IsZero() {
			return i
		}
	}
	return -1
}

// matchAnswerOf writes a match result in OSRM's shape.
func matchAnswerOf(res *routing.MatchResult) matchAnswer {
	ans := matchAnswer{Code: "Ok", Matchings: []matchingJSON{}, Tracepoints: make([]*tracepointJSON, len(res.Points))}
	for _, m := range res.Matchings {
		mj := matchingJSON{Confidence: round(m.Confidence, 3), DistanceM: round(m.DistanceM, 1), DurationS: round(m.DurationS, 1),
			Geometry: routeLine{Type: "LineString", Coordinates: make([][2]float64, len(m.Geometry))}, Legs: []legJSON{}}
		for i, p := range m.Geometry {
			mj.Geometry.Coordinates[i] = round7pt(p)
		}
		for _, l := range m.Legs {
			mj.Legs = append(mj.Legs, legOf(l))
		}
		ans.Matchings = append(ans.Matchings, mj)
	}
	for i, p := range res.Points {
		if !p.OK {
			continue
		}
		name := ""
		if m := res.Matchings[p.Matching]; p.Waypoint > 0 {
			if segs := m.Legs[p.Waypoint-1].Route.Segments; len(segs) > 0 {
				name = segs[len(segs)-1].Name
			}
		} else if segs := m.Legs[0].Route.Segments; len(segs) > 0 {
			name = segs[0].Name
		}
		ans.Tracepoints[i] = &tracepointJSON{Location: round7pt(p.Snap.Point), Name: name, DistanceM: round(p.Snap.DistanceM, 2),
			MatchingsIndex: p.Matching, WaypointIndex: p.Waypoint, AlternativesCount: p.Alternatives}
	}
	return ans
}

// legOf is a leg's JSON: consecutive segments of one road are one road.
func legOf(l routing.MatchLeg) legJSON {
	lj := legJSON{DistanceM: round(l.DistanceM, 1), DurationS: round(l.DurationS, 1), Roads: []roadJSON{}}
	byName := map[string]float64{}
	for _, s := range l.Route.Segments {
		byName[s.Name] += s.DistanceM
		if n := len(lj.Roads); n > 0 && lj.Roads[n-1].Name == s.Name && lj.Roads[n-1].Ref == s.Ref {
			lj.Roads[n-1].DistanceM += s.DistanceM
			continue
		}
		lj.Roads = append(lj.Roads, roadJSON{Name: s.Name, Ref: s.Ref, DistanceM: s.DistanceM})
	}
	for i := range lj.Roads {
		lj.Roads[i].DistanceM = round(lj.Roads[i].DistanceM, 1)
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		if n != "" {
			names = append(names, n)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		if byName[names[i]] != byName[names[j]] {
			return byName[names[i]] > byName[names[j]]
		}
		return names[i] < names[j]
	})
	lj.Summary = strings.Join(names[:min(2, len(names))], ", ")
	return lj
}

// round rounds v to n decimals.
func round(v float64, n int) float64 {
	p := math.Pow10(n)
	return math.Round(v*p) / p
}
