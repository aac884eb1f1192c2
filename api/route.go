package api

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/keys"
	"github.com/geosvc/geosvc/routing"
)

// routeInterface is the interface name of the route endpoint, as keys and
// usage counters know it.
const routeInterface = keys.RouteV1

// RouteOptions configures the routev1 endpoint.
type RouteOptions struct {
	// Bundle is the data bundle answered from (its routing graph); nil, or
	// holding none yet, while it loads (the endpoint then answers 503).
	Bundle *bundle.Current
	// SnapRadiusM is how far from a road a point may be (default
	// routing.DefaultSnapRadiusM).
	SnapRadiusM float64
}

// RegisterRoute adds GET /routev1/route to g, which must authenticate
// requests (Server.Protected): the route between two points, as the SOAP
// route planner computes it, in JSON: duration, distance, the turn-by-turn
// steps and the geometry as GeoJSON.
//
// Query: from and to, each "lon,lat" (the order of tdmv1's addresses);
// optional: routing (fastest by default), speeds, avoid, avoid_polygons
// (a URL-encoded GeoJSON Polygon or MultiPolygon), profile (car or
// truck), vehicle (a truck's dimensions), alternatives and lang (the
// language of the steps' street names, BCP 47 as the geocoder's;
// Accept-Language without it); radiuses, bearings and approaches: OSRM's semicolon lists, "from;to",
// an empty entry for the default; snapping: default or any.
// Answers: 200 with the route; 400 {"message"} naming a bad parameter; 404
// {"message"} when a point has no road within the snapping radius or no
// route joins them; 503 while the bundle loads.
func RegisterRoute(g *echo.Group, opts RouteOptions) {
	if opts.SnapRadiusM <= 0 {
		opts.SnapRadiusM = routing.DefaultSnapRadiusM
	}
	h := &routeHandler{opts: opts}
	g.GET("/"+routeInterface+"/route", h.route)
}

type routeHandler struct{ opts RouteOptions }

// routeAnswer is the body of a routev1 answer.
type routeAnswer struct {
	// Routing is the metric the route minimises.
	Routing string `json:"routing"`
	// Profile is the vehicle routed (car or truck); Vehicle the truck's
	// dimensions, defaults filled in (absent for a car).
	Profile string       `json:"profile"`
	Vehicle *vehicleJSON `json:"vehicle,omitempty"`
	// DurationS and DistanceM are the route's, in whole seconds and metres.
	DurationS int `json:"duration"`
	DistanceM int `json:"distance"`
	// From and To are the points as given and where they were snapped.
	From routeEnd `json:"from"`
	To   routeEnd `json:"to"`
	// Steps are the turn-by-turn instructions.
	Steps []routeStep `json:"steps"`
	// Lang is the language the steps' streets are named in (lang or
	// Accept-Language: the first of the request's languages the data has
	// a name of these roads in; a street without one keeps its name);
	// absent when every street has its default name.
	Lang string `json:"lang,omitempty"`
	// Geometry is the route as a GeoJSON LineString.
	Geometry routeLine `json:"geometry"`
	// DepartureTime and ArrivalTime are the trip's times, local to the
	// origin (RFC 3339 with its offset), TimeZone that zone and
	// SpeedVersion the speed data's version, when departure_time or
	// arrival_time was given; TimeModel how the time applied
	// ("time-dependent" or "time-bucketed"; absent without speed data
	// and conditional turn restrictions).
	DepartureTime string `json:"departure_time,omitempty"`
	ArrivalTime   string `json:"arrival_time,omitempty"`
	TimeZone      string `json:"time_zone,omitempty"`
	SpeedVersion  string `json:"speed_version,omitempty"`
	TimeModel     string `json:"time_model,omitempty"`
	// Alternatives are the other routes asked for with alternatives=N,
	// best first (an empty list when none is admissible); absent unless
	// asked.
	Alternatives *[]routeAlternative `json:"alternatives,omitempty"`
}

// routeAlternative is an alternative route: its own duration, distance,
// steps and geometry, between the same snapped points.
type routeAlternative struct {
	DurationS int         `json:"duration"`
	DistanceM int         `json:"distance"`
	Steps     []routeStep `json:"steps"`
	Geometry  routeLine   `json:"geometry"`
}

// maxRouteAlternatives is the most alternative routes routev1 gives (the
// SOAP route planner's Fastest3 and Shortest3 give as many).
const maxRouteAlternatives = 2

// routeEnd is one end of a route.
type routeEnd struct {
	Input   [2]float64 `json:"input"`
	Snapped [2]float64 `json:"snapped"`
	MovedM  float64    `json:"moved_m"`
}

// routeStep is one instruction: a maneuver at a location onto a street,
// then the stretch driven on it.
type routeStep struct {
	Maneuver  string     `json:"maneuver"`
	Street    string     `json:"street"`
	RoadType  string     `json:"road_type"`
	Location  [2]float64 `json:"location"`
	DistanceM float64    `json:"distance"`
	DurationS float64    `json:"duration"`
	// Ramp marks a step onto a ramp or link road; Toward is where its
	// signs lead and Exit its exit number, when tagged.
	Ramp   bool   `json:"ramp,omitempty"`
	Toward string `json:"toward,omitempty"`
	Exit   string `json:"exit,omitempty"`
}

// routeLine is a GeoJSON LineString.
type routeLine struct {
	Type        string       `json:"type"`
	Coordinates [][2]float64 `json:"coordinates"`
}

func (h *routeHandler) route(c echo.Context) error {
	q, err := semicolonQuery(c.Request().URL.RawQuery)
	if err != nil {
		return httpError(http.StatusBadRequest, err.Error())
	}
	if msg := repeatedParam(q, routeParams); msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	from, msg := parseLonLatParam(q, "from")
	if msg == "" {
		var to orb.Point
		to, msg = parseLonLatParam(q, "to")
		if msg == "" {
			return h.answer(c, q, from, to)
		}
	}
	return httpError(http.StatusBadRequest, msg)
}

func (h *routeHandler) answer(c echo.Context, q url.Values, from, to orb.Point) error {
	spec, msg := routeSpecOf(q)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	alts := 0
	if v := strings.TrimSpace(q.Get("alternatives")); v != "" || q.Has("alternatives") {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > maxRouteAlternatives {
			return httpErrorf(http.StatusBadRequest, "alternatives must be a whole number from 0 to %d, got %s", maxRouteAlternatives, quoteEcho(v))
		}
		alts = n
	}
	opts, msg := routeSnapOptions(q.Get, 2)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	tt, msg := routeTripTime(q, nowOf(h.opts.Bundle.Load()))
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	profile, msg := parseProfile(q.Get("profile"))
	if msg != "" {
		return httpError(http.StatusBadRequest, "profile: "+msg)
	}
	langs, msg := requestLang(c, q)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	var g *routing.Graph
	b := h.opts.Bundle.Load()
	if b != nil {
		if msg := profileMissing(b, profile.graph); msg != "" {
			return httpError(http.StatusBadRequest, "profile: "+msg)
		}
		g = b.GraphFor(profile.graph)
	}
	if g == nil {
		return errBundleLoading
	}
	snaps := g.SnapAllWith(spec, []orb.Point{from, to}, h.opts.SnapRadiusM, opts)
	for i, s := range snaps {
		if !s.OK {
			radius := h.opts.SnapRadiusM
			if opts[i].RadiusM > 0 {
				radius = opts[i].RadiusM
			}
			outside := ""
			if !spec.Areas.IsZero() {
				outside = " outside avoid_polygons"
			}
			if opts[i].HasBearing || opts[i].Curb {
				return httpErrorf(http.StatusNotFound, "%s: no road%s within %g m of the point with the bearing and approach asked", [2]string{"from", "to"}[i], outside, radius)
			}
			return httpErrorf(http.StatusNotFound, "%s: no road%s within %g m of the point", [2]string{"from", "to"}[i], outside, radius)
		}
	}
	ctx := c.Request().Context()
	var r *routing.Route
	var err error
	var timed tripTimes
	if tt.given {
		spec, r, timed, err = timedRoute(ctx, b, g, spec, snaps[0], snaps[1], tt)
	} else {
		r, err = g.Route(ctx, spec, snaps[0], snaps[1])
	}
	if errors.Is(err, routing.ErrNoRoute) {
		return httpError(http.StatusNotFound, "no route joins the two points")
	}
	if err != nil {
		return err
	}
	var others []*routing.Route // the alternatives, best first
	if alts > 0 {
		rs, err := g.Alternatives(ctx, spec, snaps[0], snaps[1], alts+1)
		if err != nil && !errors.Is(err, routing.ErrNoRoute) {
			return err
		}
		if len(rs) > 0 {
			others = rs[1:] // rs[0] is the best route, answered above
		}
	}
	lang := g.LocalizeRoute(g.NameLangs(langs), append([]*routing.Route{r}, others...)...)
	ans := routeAnswer{Routing: spec.Objective.String(), Profile: profile.String(), Vehicle: vehicleOf(spec), DurationS: r.DurationS, DistanceM: r.DistanceM,
		From: newRouteEnd(snaps[0]), To: newRouteEnd(snaps[1]), Steps: routeSteps(r), Geometry: routeGeometry(r), Lang: lang,
		DepartureTime: timed.departure, ArrivalTime: timed.arrival, TimeZone: timed.zone, SpeedVersion: timed.version, TimeModel: timed.model}
	if alts > 0 {
		list := []routeAlternative{}
		for _, a := range others {
			list = append(list, routeAlternative{DurationS: a.DurationS, DistanceM: a.DistanceM, Steps: routeSteps(a), Geometry: routeGeometry(a)})
		}
		ans.Alternatives = &list
	}
	setContentLanguage(c, lang)
	return c.JSON(http.StatusOK, ans)
}

// routeSteps are a route's turn-by-turn steps as routev1 writes them.
func routeSteps(r *routing.Route) []routeStep {
	steps := []routeStep{}
	for _, s := range r.Steps() {
		steps = append(steps, routeStep{Maneuver: s.Maneuver.String(), Street: s.Street, RoadType: s.RoadType.String(),
			Location: round7pt(s.Point), DistanceM: math.Round(s.DistanceM*10) / 10, DurationS: math.Round(s.DurationS*10) / 10,
			Ramp: s.Ramp, Toward: s.Toward, Exit: s.Exit})
	}
	return steps
}

// routeGeometry is a route's GeoJSON LineString, lon/lat to 7 decimals.
func routeGeometry(r *routing.Route) routeLine {
	l := routeLine{Type: "LineString", Coordinates: make([][2]float64, len(r.Geometry))}
	for i, p := range r.Geometry {
		l.Coordinates[i] = round7pt(p)
	}
	return l
}

// routeSpecOf reads the metric parameters of a route: routing (fastest,
// shortest, efficient or most_efficient, safest), speeds
// ("Motorway:80,LocalRoadCity:20", km/h by RoadType), avoid
// ("toll,ferry"), profile (car or truck), vehicle
// ("height_m:4.5,weight_t:40,hazmat:true", truck only) and avoid_polygons
// (a GeoJSON Polygon or MultiPolygon). It returns a message naming the
// bad parameter.
func routeSpecOf(q url.Values) (routing.Metric, string) {
	r := strings.TrimSpace(q.Get("routing"))
	spec, err := routing.NewMetric(r, nil, nil)
	if err != nil {
		return spec, fmt.Sprintf("routing %s is not a routing option: use fastest, shortest, efficient (or most_efficient) or safest", quoteEcho(r))
	}
	if v := strings.TrimSpace(q.Get("speeds")); v != "" {
		for _, kv := range strings.Split(v, ",") {
			name, val, ok := strings.Cut(strings.TrimSpace(kv), ":")
			kmh, perr := strconv.ParseFloat(strings.TrimSpace(val), 64)
			if !ok || perr != nil {
				return spec, fmt.Sprintf("speeds: %s is not RoadType:km/h (e.g. speeds=Motorway:80,LocalRoadCity:20)", quoteEcho(kv))
			}
			if err := spec.SetSpeed(strings.TrimSpace(name), kmh); err != nil {
				return spec, err.Error()
			}
		}
	}
	if v := strings.TrimSpace(q.Get("avoid")); v != "" {
		for _, a := range strings.Split(v, ",") {
			f, err := routing.ParseAvoid(a)
			if err != nil {
				return spec, err.Error()
			}
			spec.Avoid |= f
		}
	}
	if msg := routeProfileOf(q, &spec); msg != "" {
		return spec, msg
	}
	if v := strings.TrimSpace(q.Get("avoid_polygons")); v != "" || q.Has("avoid_polygons") {
		a, err := routing.ParseAreas([]byte(v))
		if err != nil {
			return spec, err.Error()
		}
		spec.Areas = a
	}
	return spec, ""
}

func newRouteEnd(s routing.Snap) routeEnd {
	return routeEnd{Input: round7pt(s.Input), Snapped: round7pt(s.Point), MovedM: math.Round(s.DistanceM*100) / 100}
}

// round7pt rounds a point to 7 decimals.
func round7pt(p orb.Point) [2]float64 { return [2]float64(geo.Round7Point(p)) }

// parseLonLatParam reads a required "lon,lat" query parameter with the
// rules of tdmv1's addresses.
func parseLonLatParam(q url.Values, param string) (orb.Point, string) {
	s := strings.TrimSpace(q.Get(param))
	if s == "" {
		return orb.Point{}, fmt.Sprintf("%s is required: a point written lon,lat in decimal degrees", param)
	}
	p, reason := parseLonLat(s)
	if reason != "" {
		return orb.Point{}, param + ": " + reason
	}
	return p, ""
}
