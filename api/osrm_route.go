package api

import (
	"context"
	"errors"
	"math"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"
	orbgeo "github.com/paulmach/orb/geo"

	"github.com/geosvc/geosvc/routing"
)

// osrmRouteOptions are the options of route (and trip) answers.
type osrmRouteOptions struct {
	shape osrmShape
	steps bool
	// annotations are the kinds asked for (duration, distance, speed,
	// weight, datasources).
	annotations map[string]bool
	// ends are the coordinates as given of the legs' ends (one more than
	// the legs; nil: none), for the modifiers of depart and arrive.
	ends []orb.Point
}

// osrmAnnotationKinds are the annotations of a route leg; true asks for
// them all.
var osrmAnnotationKinds = []string{"duration", "distance", "speed", "weight", "datasources", "nodes"}

// parseRouteOptions reads steps, annotations, geometries and overview.
func (r *osrmRequest) parseRouteOptions() (osrmRouteOptions, *osrmError) {
	o := osrmRouteOptions{shape: osrmShape{digits: 5, overview: "simplified"}}
	var oe *osrmError
	if o.steps, oe = r.boolOption("steps", false); oe != nil {
		return o, oe
	}
	switch g := r.q.Get("geometries"); g {
	case "", "polyline":
	case "polyline6":
		o.shape.digits = 6
	case "geojson":
		o.shape.digits = 0
	default:
		return o, r.malformed("geometries", "%s is not polyline, polyline6 or geojson", quoteEcho(g))
	}
	switch v := r.q.Get("overview"); v {
	case "":
	case "simplified", "full", "false":
		o.shape.overview = v
	default:
		return o, r.malformed("overview", "%s is not simplified, full or false", quoteEcho(v))
	}
	if !r.q.Has("annotations") {
		return o, nil
	}
	o.annotations = map[string]bool{}
	switch v := r.q.Get("annotations"); v {
	case "false":
	case "true":
		for _, k := range osrmAnnotationKinds {
			o.annotations[k] = true
		}
	default:
		for _, k := range strings.Split(v, ",") {
			if !slices.Contains(osrmAnnotationKinds, k) {
				return o, r.malformed("annotations", "%s is not duration, distance, speed, weight, datasources or nodes", quoteEcho(k))
			}
			o.annotations[k] = true
		}
	}
	return o, nil
}

// legOf describes one leg, a route between two waypoints (possibly
// through via points: the routes joined).
func (r *osrmRequest) legOf(g *routing.Graph, rt *routing.Route, o osrmRouteOptions, i int) (osrmLeg, []orb.Point) {
	var nodesOf func(routing.Segment) []int64
	if o.annotations["nodes"] {
		nodesOf = g.SegmentNodes
	}
	line, pieces, nodes := legGeometry(rt, nodesOf)
	var dur, dist float64
	for _, p := range pieces {
		dur += p.durationS
		dist += p.distanceM
	}
	w, _ := r.weightOf(dur, dist)
	r.localize(g, rt)
	leg := osrmLeg{Steps: []osrmStep{}, Weight: round1(w), Duration: round1(dur), Distance: round1(dist), Annotation: annotationOf(pieces, nodes, o.annotations, r.spec.Objective == routing.ObjectiveShortest)}
	steps := rt.Steps()
	// OSRM summarizes a leg only with its steps ("" without).
	if o.steps {
		leg.Summary = summaryOf(rt)
		leg.Steps = r.stepsOf(g, rt, steps, line, o.shape)
		if i+1 < len(o.ends) {
			endModifiers(leg.Steps, line, o.ends[i], o.ends[i+1])
		}
	}
	return leg, line
}

// summaryOf is OSRM's leg summary (its assemble_leg.hpp): the names of
// the two roads driven longest in time (a road's name, else its route
// numbers), in the order first driven.
func summaryOf(rt *routing.Route) string {
	dur := map[string]float64{}
	var order []string
	for _, s := range rt.Segments {
		if s.Name == "" {
			continue
		}
		if _, ok := dur[s.Name]; !ok {
			order = append(order, s.Name)
		}
		dur[s.Name] += s.DurationS
	}
	top := slices.Clone(order)
	sort.SliceStable(top, func(i, j int) bool { return dur[top[i]] > dur[top[j]] })
	if len(top) > 2 {
		top = top[:2]
	}
	var out []string
	for _, n := range order {
		if slices.Contains(top, n) {
			out = append(out, n)
		}
	}
	return strings.Join(out, ", ")
}

// stepsOf turns geosvc's steps into OSRM's: each step's geometry is the
// stretch of line from its maneuver to the next one's.
func (r *osrmRequest) stepsOf(g *routing.Graph, rt *routing.Route, steps []routing.Step, line []orb.Point, shape osrmShape) []osrmStep {
	if len(steps) == 0 || len(line) == 0 {
		return []osrmStep{}
	}
	// at[k] is the index in line of step k's maneuver point.
	at := make([]int, len(steps))
	i := 0
	for k, s := range steps {
		j := i
		for j < len(line) && line[j] != s.Point {
			j++
		}
		if j == len(line) {
			j = i // not found: keep the previous place
		}
		at[k], i = j, j
	}
	at[len(steps)-1] = len(line) - 1
	seg := 0
	out := make([]osrmStep, 0, len(steps))
	prevDur := []float64{0} // the last step's duration, its turn cost moved
	for k, s := range steps {
		before, after := 0, 0
		if at[k] > 0 {
			before = bearingInt(line[at[k]-1], line[at[k]])
		}
		if at[k] < len(line)-1 {
			after = bearingInt(line[at[k]], line[at[k]+1])
		}
		end := len(line) - 1
		if k+1 < len(steps) {
			end = at[k+1]
		}
		stretch := line[at[k] : end+1]
		if len(stretch) < 2 {
			stretch = []orb.Point{line[at[k]], line[at[k]]}
		}
		// The road the step drives: the first segment starting at its
		// maneuver.
		for seg < len(rt.Segments)-1 && (len(rt.Segments[seg].Geometry) == 0 || rt.Segments[seg].Geometry[0] != s.Point) {
			seg++
		}
		ref, side := "", "right"
		var classes []string
		if seg < len(rt.Segments) && steps[k].Maneuver != routing.Arrive {
			classes = osrmClasses(rt.Segments[seg])
		}
		if seg < len(rt.Segments) {
			ref = rt.Segments[seg].Ref
			if rt.Segments[seg].LeftHand {
				side = "left"
			}
		}
		typ := maneuverType(steps, k)
		m := osrmManeuver{BearingBefore: before, BearingAfter: after, Location: round6pt(s.Point), Type: typ}
		if typ != "depart" && typ != "arrive" {
			m.Modifier = osrmTurnModifier(before, after)
		}
		if typ == "arrive" {
			stretch = []orb.Point{s.Point, s.Point}
		}
		// The cost of the turn into this step is the step before's, as
		// OSRM counts it (to the turn).
		durS := s.DurationS
		if k > 0 && typ != "arrive" && seg < len(rt.Segments) && rt.Segments[seg].Geometry != nil && rt.Segments[seg].Geometry[0] == s.Point {
			tc := rt.Segments[seg].TurnCostS
			durS -= tc
			prevDur[0] += tc
		}
		if k > 0 {
			pw, _ := r.weightOf(prevDur[0], steps[k-1].DistanceM)
			out[k-1].Duration, out[k-1].Weight = round1(prevDur[0]), round1(pw)
		}
		prevDur[0] = durS
		w, _ := r.weightOf(durS, s.DistanceM)
		out = append(out, osrmStep{
			Geometry: shape.geometry(stretch), Maneuver: m, Mode: r.osrmMode(s.RoadType), DrivingSide: side,
			Name: s.Street, Ref: strings.ReplaceAll(ref, " / ", "; "), Destinations: s.Toward, Exits: s.Exit,
			Intersections: []osrmIntersection{withClasses(intersectionOf(typ, s.Point, before, after), classes)},
			Weight:        round1(w), Duration: round1(durS), Distance: round1(s.DistanceM),
		})
	}
	markRoundabouts(g, rt, steps, out)
	return out
}

// intersectionOf is the maneuver's intersection: the bearing the route
// comes in on (reversed, as OSRM lists roads leaving the intersection)
// and the one it leaves on.
func intersectionOf(typ string, p orb.Point, before, after int) osrmIntersection {
	x := osrmIntersection{Location: round6pt(p)}
	switch typ {
	case "depart":
		x.Bearings, x.Entry, x.Out = []int{after}, []bool{true}, new(int)
	case "arrive":
		x.Bearings, x.Entry, x.In = []int{(before + 180) % 360}, []bool{true}, new(int)
	default:
		in := (before + 180) % 360
		x.Bearings = []int{in, after}
		x.Entry = []bool{false, true}
		i, o := 0, 1
		if after < in {
			x.Bearings, x.Entry = []int{after, in}, []bool{true, false}
			i, o = 1, 0
		}
		if after == in { // a U-turn on the spot
			x.Bearings, x.Entry = []int{in}, []bool{true}
			o = 0
		}
		x.In, x.Out = &i, &o
	}
	return x
}

// bearingInt is the compass bearing from a to b in whole degrees, 0..359.
func bearingInt(a, b orb.Point) int {
	d := int(math.Round(orbgeo.Bearing(a, b)))
	return ((d % 360) + 360) % 360
}

// joinRoutes joins consecutive routes (the legs of via points) into one.
func joinRoutes(rs []*routing.Route) *routing.Route {
	if len(rs) == 1 {
		return rs[0]
	}
	out := &routing.Route{}
	for _, r := range rs {
		out.DurationS += r.DurationS
		out.DistanceM += r.DistanceM
		out.Segments = append(out.Segments, r.Segments...)
		for k, p := range r.Geometry {
			if k == 0 && len(out.Geometry) > 0 && out.Geometry[len(out.Geometry)-1] == p {
				continue
			}
			out.Geometry = append(out.Geometry, p)
		}
	}
	return out
}

// routeJSON makes OSRM's Route of legs, each a list of routes between
// consecutive coordinates (more than one through via points).
func (r *osrmRequest) routeJSON(g *routing.Graph, legs [][]*routing.Route, o osrmRouteOptions) osrmRouteJSON {
	out := osrmRouteJSON{Legs: make([]osrmLeg, 0, len(legs))}
	var full []orb.Point
	var dur, dist float64
	for i, parts := range legs {
		leg, line := r.legOf(g, joinRoutes(parts), o, i)
		out.Legs = append(out.Legs, leg)
		dur += leg.Duration
		dist += leg.Distance
		for k, p := range line {
			if k == 0 && len(full) > 0 && full[len(full)-1] == p {
				continue
			}
			full = append(full, p)
		}
	}
	out.Duration, out.Distance = round1(dur), round1(dist)
	w, name := r.weightOf(dur, dist)
	out.Weight, out.WeightName = round1(w), name
	out.Geometry = o.shape.overviewOf(full)
	return out
}

// osrmRouteAnswer is the body of a route answer.
type osrmRouteAnswer struct {
	Code      string          `json:"code"`
	Routes    []osrmRouteJSON `json:"routes"`
	Waypoints []osrmWaypoint  `json:"waypoints,omitempty"`
}

// snapAll snaps every coordinate, or answers NoSegment naming the first
// one with no road within its radius.
func (h *osrmHandler) snapAll(g *routing.Graph, r *osrmRequest) ([]routing.Snap, *osrmError) {
	snaps := g.SnapAllWith(r.spec, r.coords, h.opts.SnapRadiusM, r.snap)
	for i, s := range snaps {
		if !s.OK {
			return nil, osrmErr("NoSegment", "Could not find a matching segment for coordinate %d", i)
		}
	}
	return snaps, nil
}

// routeLegs routes between consecutive snaps; NoRoute when one pair has
// none.
func routeLegs(ctx context.Context, g *routing.Graph, spec routing.Metric, snaps []routing.Snap) ([]*routing.Route, error) {
	out := make([]*routing.Route, 0, len(snaps)-1)
	for i := 0; i+1 < len(snaps); i++ {
		rt, err := g.Route(ctx, spec, snaps[i], snaps[i+1])
		if errors.Is(err, routing.ErrNoRoute) {
			return nil, osrmErr("NoRoute", "Impossible route between points")
		}
		if err != nil {
			return nil, err
		}
		out = append(out, rt)
	}
	return out, nil
}

// route answers the route service.
func (h *osrmHandler) route(c echo.Context, g *routing.Graph, r *osrmRequest) error {
	n := len(r.coords)
	if n < 2 {
		return osrmErr("InvalidOptions", "Number of coordinates needs to be at least two.")
	}
	if n > h.opts.Limits.MaxViarouteSize {
		return osrmErr("TooBig", "Number of entries %d is higher than current maximum (%d)", n, h.opts.Limits.MaxViarouteSize)
	}
	o, oe := r.parseRouteOptions()
	if oe != nil {
		return oe
	}
	alts := 0
	switch v := r.q.Get("alternatives"); v {
	case "", "false":
	case "true":
		alts = 1
	default:
		k, err := strconv.Atoi(v)
		if err != nil || k < 0 || strings.HasPrefix(v, "+") {
			return r.malformed("alternatives", "%s is not true, false or a number", quoteEcho(v))
		}
		if k > h.opts.Limits.MaxAlternatives {
			return osrmErr("TooBig", "Requested number of alternatives is higher than current maximum (%d)", h.opts.Limits.MaxAlternatives)
		}
		alts = k
	}
	// OSRM's profiles go on straight at via points by default by car
	// (car.lua continue_straight_at_waypoint), not by bicycle or on foot.
	straight := r.profile.graph != "bicycle" && r.profile.graph != "foot"
	switch v := r.q.Get("continue_straight"); v {
	case "", "default":
	case "true", "false":
		straight = v == "true"
	default:
		return r.malformed("continue_straight", "%s is not default, true or false", quoteEcho(v))
	}
	wps, oe := r.indexList("waypoints")
	if oe != nil {
		return oe
	}
	if wps != nil {
		if wps[0] != 0 || wps[len(wps)-1] != n-1 {
			return osrmErr("InvalidValue", "First and last coordinates must be specified as waypoints.")
		}
		for i := 1; i < len(wps); i++ {
			if wps[i] <= wps[i-1] {
				return osrmErr("InvalidValue", "waypoints[%d]: the waypoints must be in increasing order", i)
			}
		}
	}
	snaps, oe := h.snapAll(g, r)
	if oe != nil {
		return oe
	}
	ctx := c.Request().Context()
	parts, err := g.RouteVia(ctx, r.spec, snaps, straight)
	if errors.Is(err, routing.ErrNoRoute) {
		return osrmErr("NoRoute", "Impossible route between points")
	}
	if err != nil {
		return err
	}
	for i := range snaps {
		if wps == nil || slices.Contains(wps, i) {
			o.ends = append(o.ends, snaps[i].Input)
		}
	}
	ans := osrmRouteAnswer{Code: "Ok", Routes: []osrmRouteJSON{r.routeJSON(g, groupLegs(parts, wps), o)}}
	if alts > 0 && n == 2 {
		rs, err := g.Alternatives(ctx, r.spec, snaps[0], snaps[1], alts+1)
		if err != nil && !errors.Is(err, routing.ErrNoRoute) {
			return err
		}
		for i, a := range rs {
			if i > 0 {
				ans.Routes = append(ans.Routes, r.routeJSON(g, [][]*routing.Route{{a}}, o))
			}
		}
	}
	if !r.skipWaypoints {
		for _, s := range snaps {
			ans.Waypoints = append(ans.Waypoints, r.waypointOf(g, s))
		}
	}
	setContentLanguage(c, r.answerLang())
	return c.JSON(http.StatusOK, ans)
}

// groupLegs groups the routes between consecutive coordinates into legs
// between the waypoints (every coordinate when wps is nil).
func groupLegs(parts []*routing.Route, wps []int) [][]*routing.Route {
	if wps == nil {
		out := make([][]*routing.Route, len(parts))
		for i, p := range parts {
			out[i] = []*routing.Route{p}
		}
		return out
	}
	out := make([][]*routing.Route, 0, len(wps)-1)
	for i := 0; i+1 < len(wps); i++ {
		out = append(out, parts[wps[i]:wps[i+1]])
	}
	return out
}

// withClasses sets an intersection's classes.
func withClasses(x osrmIntersection, classes []string) osrmIntersection {
	x.Classes = classes
	return x
}
