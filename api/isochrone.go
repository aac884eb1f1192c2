package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/keys"
	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/isochrone"
)

// isochroneInterface is the interface name of the isochrone endpoint, as
// keys and usage counters know it.
const isochroneInterface = keys.IsochroneV1

// Limits of isochronev1 (docs/isochrone.md).
const (
	// maxIsoContours is the most contours of one request.
	maxIsoContours = 5
	// maxIsoMinutes is the largest time contour, maxIsoKm the largest
	// distance contour.
	maxIsoMinutes = 120
	maxIsoKm      = 200
	// maxIsoOrigins is the most origins of a POST.
	maxIsoOrigins = 5
)

// IsochroneOptions configures the isochronev1 endpoint.
type IsochroneOptions struct {
	// Bundle is the data bundle answered from; nil, or holding none yet,
	// while it loads (the endpoint then answers 503).
	Bundle *bundle.Current
	// SnapRadiusM is how far from a road a point may be (default
	// routing.DefaultSnapRadiusM).
	SnapRadiusM float64
}

// RegisterIsochrone adds GET and POST /isochronev1/isochrone to g, which
// must authenticate requests (Server.Protected): where a vehicle gets
// within given times or distances (reverse: from where it gets to the
// point), as a GeoJSON FeatureCollection with one feature per origin and
// contour (docs/isochrone.md).
func RegisterIsochrone(g *echo.Group, opts IsochroneOptions) {
	if opts.SnapRadiusM <= 0 {
		opts.SnapRadiusM = routing.DefaultSnapRadiusM
	}
	h := &isoHandler{opts: opts}
	g.GET("/"+isochroneInterface+"/isochrone", h.get)
	g.POST("/"+isochroneInterface+"/isochrone", h.post)
}

type isoHandler struct{ opts IsochroneOptions }

// isoRequest is a parsed isochrone request.
type isoRequest struct {
	origins  []orb.Point
	fields   []string // each origin's name in messages: "x,y" or "origins[i]"
	snap     []routing.SnapOptions
	contours []float64 // as given: minutes or kilometres
	distance bool
	lines    bool
	reverse  bool
	spec     routing.Metric
	profile  requestProfile
	// departure is departure_time as given ("" for none): read at the
	// answer, on the bundle's clock, in each origin's time zone.
	departure string
}

// isoAnswer is the FeatureCollection answered; origins is a foreign
// member (RFC 7946 section 6.1): each origin as given and as snapped.
type isoAnswer struct {
	Type     string       `json:"type"`
	Features []isoFeature `json:"features"`
	Origins  []routeEnd   `json:"origins"`
	Profile  string       `json:"profile"`
	Vehicle  *vehicleJSON `json:"vehicle,omitempty"`
}

type isoFeature struct {
	Type       string            `json:"type"`
	Properties isoProperties     `json:"properties"`
	Geometry   *geojson.Geometry `json:"geometry"`
}

type isoProperties struct {
	// Contour is the contour's value as asked: minutes or kilometres.
	Contour float64 `json:"contour"`
	// Metric is "time" or "distance".
	Metric string `json:"metric"`
	// Origin is the index of the origin (0 for GET).
	Origin  int  `json:"origin"`
	Reverse bool `json:"reverse"`
	// DepartureTime is departure_time read in the origin's time zone
	// (with reverse, the arrival there), TimeZone that zone and
	// SpeedVersion the speed data whose hour applied; absent without a
	// departure_time.
	DepartureTime string `json:"departure_time,omitempty"`
	TimeZone      string `json:"time_zone,omitempty"`
	SpeedVersion  string `json:"speed_version,omitempty"`
	// CellM is the polygon's grid cell in metres (absent for lines).
	CellM float64 `json:"cell_m,omitempty"`
}

func (h *isoHandler) get(c echo.Context) error {
	q, err := semicolonQuery(c.Request().URL.RawQuery)
	if err != nil {
		return httpError(http.StatusBadRequest, err.Error())
	}
	r, msg := parseIsoQuery(q)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	return h.answer(c, r)
}

// parseIsoQuery reads a GET's parameters; it returns a message naming
// the bad one.
func parseIsoQuery(q url.Values) (isoRequest, string) {
	var r isoRequest
	if q.Has("departure_time") {
		if r.departure = strings.TrimSpace(q.Get("departure_time")); r.departure == "" {
			return r, "departure_time: is empty: want " + tripTimeWant
		}
	}
	var p orb.Point
	for i, name := range []string{"x", "y"} {
		s := strings.TrimSpace(q.Get(name))
		if s == "" {
			return r, fmt.Sprintf("%s is required: the origin's %s in decimal degrees", name, [2]string{"longitude", "latitude"}[i])
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || !isDecimal(s) {
			return r, fmt.Sprintf("%s: %s is not a number in decimal degrees", name, quoteEcho(s))
		}
		if lim := [2]float64{180, 90}[i]; v < -lim || v > lim {
			return r, fmt.Sprintf("%s: %s is out of range -%g..%g", name, s, lim, lim)
		}
		p[i] = v
	}
	r.origins, r.fields = []orb.Point{p}, []string{"x,y"}
	var msg string
	if r.distance, msg = parseIsoMetric(q.Get("metric"), q.Has("metric")); msg != "" {
		return r, msg
	}
	if r.contours, msg = parseIsoContourList(q.Get("contours")); msg != "" {
		return r, msg
	}
	if fe := checkIsoContours(r.contours, r.distance); fe != nil {
		return r, fe.Field + ": " + fe.Reason
	}
	var ok bool
	if r.lines, ok = parseIsoBool(q, "polygons", true); !ok {
		return r, "polygons must be true or false"
	}
	r.lines = !r.lines
	if r.reverse, ok = parseIsoBool(q, "reverse", false); !ok {
		return r, "reverse must be true or false"
	}
	if r.snap, msg = routeSnapOptions(q.Get, 1); msg != "" {
		return r, msg
	}
	if r.profile, msg = parseProfile(q.Get("profile")); msg != "" {
		return r, "profile: " + msg
	}
	if q.Has("routing") {
		return r, "routing: an isochrone's metric decides what it minimises (metric=time: the fastest, metric=distance: the shortest); leave routing out"
	}
	if r.spec, msg = routeSpecOf(q); msg != "" {
		return r, msg
	}
	return r, ""
}

// parseIsoBool reads an optional true/false parameter.
func parseIsoBool(q url.Values, name string, def bool) (bool, bool) {
	if !q.Has(name) {
		return def, true
	}
	switch strings.ToLower(strings.TrimSpace(q.Get(name))) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return def, false
}

// parseIsoMetric reads metric: time (the default) or distance.
func parseIsoMetric(v string, given bool) (distance bool, msg string) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "time":
		return false, ""
	case "distance":
		return true, ""
	case "":
		if !given {
			return false, ""
		}
	}
	return false, fmt.Sprintf("metric %s is not an isochrone metric: use time (contours in minutes) or distance (contours in kilometres)", quoteEcho(v))
}

// parseIsoContourList reads contours=5,10,15.
func parseIsoContourList(s string) ([]float64, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Sprintf("contours is required: 1 to %d values, minutes for metric=time, kilometres for metric=distance (e.g. contours=5,10,15)", maxIsoContours)
	}
	parts := strings.Split(s, ",")
	if len(parts) > maxIsoContours {
		return nil, fmt.Sprintf("contours holds %d values: the limit is %d", len(parts), maxIsoContours)
	}
	out := make([]float64, len(parts))
	for i, p := range parts {
		p = strings.TrimSpace(p)
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || !isDecimal(p) {
			return nil, fmt.Sprintf("contours[%d]: %s is not a number", i, quoteEcho(p))
		}
		out[i] = v
	}
	return out, ""
}

// checkIsoContours checks the contours' number, range and order.
func checkIsoContours(cs []float64, distance bool) *fieldError {
	lim, unit := float64(maxIsoMinutes), "minutes"
	if distance {
		lim, unit = maxIsoKm, "kilometres"
	}
	switch {
	case len(cs) == 0:
		return &fieldError{"contours", fmt.Sprintf("is empty: give 1 to %d values", maxIsoContours)}
	case len(cs) > maxIsoContours:
		return &fieldError{"contours", fmt.Sprintf("holds %d values: the limit is %d", len(cs), maxIsoContours)}
	}
	for i, v := range cs {
		f := fmt.Sprintf("contours[%d]", i)
		if math.IsNaN(v) || v <= 0 || v > lim {
			return &fieldError{f, fmt.Sprintf("%g is out of range: a contour is more than 0 and at most %g %s", v, lim, unit)}
		}
	}
	return nil
}

// sortContours sorts contours ascending, each once.
func sortContours(cs []float64) []float64 {
	out := append([]float64(nil), cs...)
	sort.Float64s(out)
	return slices.Compact(out)
}

// isoBodyFields are the fields a POST's JSON object may hold.
var isoBodyFields = []string{"origins", "origin_radiuses", "origin_bearings", "origin_approaches", "snapping",
	"contours", "metric", "polygons", "reverse", "profile", "vehicle", "speeds", "avoid", "avoid_polygons", "departure_time"}

func (h *isoHandler) post(c echo.Context) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return err // a body over the limit becomes 413
	}
	r, errs := parseIsoBody(body)
	if len(errs) > 0 {
		return echo.NewHTTPError(http.StatusBadRequest, newValidationError("request", errs))
	}
	return h.answer(c, r)
}

// parseIsoBody validates a POST body.
func parseIsoBody(body []byte) (isoRequest, []fieldError) {
	var r isoRequest
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil || fields == nil {
		reason := "must be a JSON object"
		if err != nil {
			reason = bodyReason(err)
		}
		return r, []fieldError{{"body", reason}}
	}
	var errs []fieldError
	var unknown []string
	for k := range fields {
		if !containsString(isoBodyFields, k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		errs = append(errs, fieldError{k, "unknown field: a request takes " + strings.Join(isoBodyFields, ", ")})
	}
	if raw := fields["departure_time"]; !isNull(raw) {
		if json.Unmarshal(raw, &r.departure) != nil || strings.TrimSpace(r.departure) == "" {
			errs = append(errs, fieldError{"departure_time", "must be a string: " + tripTimeWant})
		} else if _, msg := parseTripTime(r.departure, time.Now()); msg != "" {
			// Listed with the body's other problems; the answer reads it
			// again on the bundle's clock.
			errs = append(errs, fieldError{"departure_time", msg})
		}
	}
	_, r.origins, errs = parseAddresses("origins", "origins", fields["origins"], maxIsoOrigins, errs)
	for i := range r.origins {
		r.fields = append(r.fields, fmt.Sprintf("origins[%d]", i))
	}
	var pointOpts []queue.PointOptions
	pointOpts, errs = parsePointOptions(fields, "origin", len(r.origins), errs)
	var snapAny bool
	snapAny, errs = parseSnapping(fields, errs)
	r.snap = make([]routing.SnapOptions, len(r.origins))
	for i := range r.snap {
		var o queue.PointOptions
		if i < len(pointOpts) {
			o = pointOpts[i]
		}
		r.snap[i] = o.SnapOptions(snapAny)
	}
	if raw := fields["metric"]; !isNull(raw) {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			errs = append(errs, fieldError{"metric", `must be "time" or "distance"`})
		} else if d, msg := parseIsoMetric(s, true); msg != "" {
			errs = append(errs, fieldError{"metric", msg})
		} else {
			r.distance = d
		}
	}
	if raw := fields["contours"]; isNull(raw) {
		errs = append(errs, fieldError{"contours", fmt.Sprintf("is required: an array of 1 to %d numbers, minutes for metric time, kilometres for distance", maxIsoContours)})
	} else if err := json.Unmarshal(raw, &r.contours); err != nil {
		errs = append(errs, fieldError{"contours", "must be an array of numbers"})
	} else if fe := checkIsoContours(r.contours, r.distance); fe != nil {
		errs = append(errs, *fe)
	}
	polygons := true
	for _, b := range []struct {
		name string
		v    *bool
	}{{"polygons", &polygons}, {"reverse", &r.reverse}} {
		if raw := fields[b.name]; !isNull(raw) && json.Unmarshal(raw, b.v) != nil {
			errs = append(errs, fieldError{b.name, "must be true or false"})
		}
	}
	r.lines = !polygons
	var prof string
	prof, errs = parseOrderProfile(fields["profile"], errs)
	r.profile, _ = parseProfile(prof)
	key, errs2 := parseMetric(orderBody{Speeds: fields["speeds"], Avoid: fields["avoid"], AvoidAreas: fields["avoid_polygons"],
		Profile: fields["profile"], Vehicle: fields["vehicle"]}, nil)
	errs = append(errs, errs2...)
	if len(errs) == 0 {
		spec, err := routing.ParseMetric(key)
		if err != nil {
			errs = append(errs, fieldError{"body", err.Error()})
		}
		r.spec = spec
	}
	return r, errs
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// answer snaps the origins and computes their contours.
func (h *isoHandler) answer(c echo.Context, r isoRequest) error {
	r.spec.Objective = routing.ObjectiveFastest
	q, metric, unit := routing.QuantityTime, "time", 60.0
	if r.distance {
		r.spec.Objective, q, metric, unit = routing.ObjectiveShortest, routing.QuantityDistance, "distance", 1000
	}
	var g *routing.Graph
	b := h.opts.Bundle.Load()
	if b != nil {
		if msg := profileMissing(b, r.profile.graph); msg != "" {
			return httpError(http.StatusBadRequest, "profile: "+msg)
		}
		g = b.GraphFor(r.profile.graph)
	}
	if g == nil {
		return errBundleLoading
	}
	var departure time.Time
	if r.departure != "" {
		var msg string
		if departure, msg = parseTripTime(r.departure, nowOf(b)); msg != "" {
			return httpError(http.StatusBadRequest, "departure_time: "+msg)
		}
	}
	snaps := g.SnapAllWith(r.spec, r.origins, h.opts.SnapRadiusM, r.snap)
	for i, s := range snaps {
		if !s.OK {
			radius := h.opts.SnapRadiusM
			if r.snap[i].RadiusM > 0 {
				radius = r.snap[i].RadiusM
			}
			return httpErrorf(http.StatusBadRequest, "%s: no road the profile drives within %g m of the point", r.fields[i], radius)
		}
	}
	r.contours = sortContours(r.contours)
	limits := make([]float64, len(r.contours))
	for i, v := range r.contours {
		limits[i] = v * unit
	}
	ans := isoAnswer{Type: "FeatureCollection", Features: []isoFeature{}, Profile: r.profile.String(), Vehicle: vehicleOf(r.spec)}
	ctx := c.Request().Context()
	for i, s := range snaps {
		ans.Origins = append(ans.Origins, newRouteEnd(s))
		spec, props := r.spec, isoProperties{Metric: metric, Origin: i, Reverse: r.reverse}
		if r.departure != "" {
			// Time-bucketed as routev1 and tdmv1: the speed data of the
			// hour read at the origin applies to the whole search.
			clock := localClock(b, r.origins[i], departure)
			spec, props.SpeedVersion = g.AtHour(spec, clock.Hour)
			props.DepartureTime, props.TimeZone = clock.Local.Format(time.RFC3339), clock.Zone
		}
		cs, err := isochrone.Compute(ctx, g, s, isochrone.Request{Metric: spec, Quantity: q, Contours: limits, Reverse: r.reverse, Lines: r.lines})
		if errors.Is(err, isochrone.ErrNotSnapped) {
			return httpErrorf(http.StatusBadRequest, "%s: the point is not on a road", r.fields[i])
		}
		if err != nil {
			return err
		}
		// Largest first, so that a map draws the smaller ones on top.
		for k := len(cs) - 1; k >= 0; k-- {
			props.Contour, props.CellM = r.contours[k], math.Round(cs[k].CellM)
			f := isoFeature{Type: "Feature", Properties: props}
			if cs[k].Geometry != nil {
				f.Geometry = geojson.NewGeometry(round6(cs[k].Geometry))
			}
			ans.Features = append(ans.Features, f)
		}
	}
	return c.JSON(http.StatusOK, ans)
}

// round6 rounds a geometry's coordinates to 6 decimals (about 0.1 m)
// in place.
func round6(g orb.Geometry) orb.Geometry {
	r := func(ps []orb.Point) {
		for i, p := range ps {
			ps[i] = orb.Point{math.Round(p[0]*1e6) / 1e6, math.Round(p[1]*1e6) / 1e6}
		}
	}
	switch g := g.(type) {
	case orb.Polygon:
		for _, ring := range g {
			r(ring)
		}
	case orb.MultiPolygon:
		for _, poly := range g {
			for _, ring := range poly {
				r(ring)
			}
		}
	case orb.MultiLineString:
		for _, l := range g {
			r(l)
		}
	}
	return g
}
