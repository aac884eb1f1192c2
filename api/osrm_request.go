package api

import (
	"encoding/base64"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/routing"
)

// OSRM v5's request grammar: /{service}/v1/{profile}/{coordinates}[.json]
// ?option=value&... (docs/osrm.md).

// osrmError is an OSRM error answer, {"code", "message"}, always with
// HTTP status 400 as OSRM sends it.
type osrmError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *osrmError) Error() string { return e.Code + ": " + e.Message }

// osrmErr returns an OSRM error of code with a formatted message.
func osrmErr(code, format string, args ...any) *osrmError {
	return &osrmError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// The services of OSRM's API and whether geosvc serves them.
const (
	osrmRoute   = "route"
	osrmTable   = "table"
	osrmNearest = "nearest"
	osrmTrip    = "trip"
	osrmMatch   = "match"
)

// osrmServices are the services served; OSRM's tile is not.
var osrmServices = []string{osrmRoute, osrmTable, osrmNearest, osrmTrip, osrmMatch}

// osrmProfiles maps the profile segment to geosvc's profile names.
var osrmProfiles = map[string]string{
	"driving": "car", "car": "car", "truck": "truck",
	"cycling": "bicycle", "bicycle": "bicycle", "bike": "bicycle",
	"walking": "foot", "foot": "foot",
}

// osrmRequest is a parsed request: the URL's parts and the options every
// service takes.
type osrmRequest struct {
	service string
	// profile is geosvc's profile name (car, truck, bicycle, foot).
	profile requestProfile
	coords  []orb.Point
	// q holds the query's options (semicolonQuery), pos where each one
	// starts in the URL (for OSRM's "close to position" messages).
	q   url.Values
	pos map[string]int
	// snap are the per-coordinate snapping options.
	snap []routing.SnapOptions
	// spec is the metric: the profile's, exclude, geosvc's extensions.
	spec          routing.Metric
	generateHints bool
	skipWaypoints bool
	// langs are the languages of language (OSM name:xx keys, preferred
	// first; none without it), nameLangs them resolved against the
	// graph (nameLangsOf) and usedLang those the answer's names were
	// given in.
	langs     []string
	nameLangs *routing.NameLangs
	usedLang  map[string]bool
}

// osrmCommonOptions are the options of every service; osrmExtensions
// geosvc's own (docs/osrm.md); osrmServiceOptions each service's.
var (
	osrmCommonOptions  = []string{"bearings", "radiuses", "approaches", "hints", "generate_hints", "exclude", "snapping", "skip_waypoints", "format"}
	osrmExtensions     = []string{"speeds", "avoid", "avoid_polygons", "vehicle", "routing", "api_key"}
	osrmServiceOptions = map[string][]string{
		osrmRoute:   {"alternatives", "steps", "annotations", "geometries", "overview", "continue_straight", "waypoints", "departure_time", "language"},
		osrmTable:   {"sources", "destinations", "annotations", "fallback_speed", "fallback_coordinate", "scale_factor", "departure_time"},
		osrmNearest: {"number"},
		osrmTrip:    {"roundtrip", "source", "destination", "steps", "annotations", "geometries", "overview", "language"},
		osrmMatch:   {"timestamps", "gaps", "tidy", "steps", "annotations", "geometries", "overview", "language"},
	}
)

// parseOSRMURL reads a request's path (escaped, after the mount prefix and
// any key segment: "route/v1/driving/1,2;3,4.json") and raw query.
// prefixLen is the length of the path before it, for positions.
func parseOSRMURL(path, rawQuery string, prefixLen int) (*osrmRequest, *osrmError) {
	segs := strings.Split(path, "/")
	malformed := func(at int) *osrmError {
		full := path
		at = min(max(at, 0), len(full))
		ctx := full[max(at-3, 0):min(at+3, len(full))]
		return osrmErr("InvalidUrl", "URL string malformed close to position %d: %q", prefixLen+at, ctx)
	}
	if len(segs) < 4 || segs[0] == "" {
		return nil, malformed(len(path))
	}
	if len(segs) > 4 {
		return nil, malformed(len(strings.Join(segs[:4], "/")))
	}
	r := &osrmRequest{service: segs[0]}
	if !slices.Contains(osrmServices, r.service) {
		if r.service == "tile" {
			return nil, osrmErr("InvalidService", "Service %s not found! geosvc's OSRM API serves %s", r.service, strings.Join(osrmServices, ", "))
		}
		return nil, osrmErr("InvalidService", "Service %s not found!", cutEcho(r.service))
	}
	if segs[1] != "v1" {
		return nil, osrmErr("InvalidVersion", "Service %s not found! (version %s: only v1 is served)", r.service, cutEcho(segs[1]))
	}
	name, ok := osrmProfiles[strings.ToLower(segs[2])]
	if !ok {
		return nil, osrmErr("InvalidUrl", "profile %s is not served: use driving (or car), truck, cycling (or bicycle) or walking (or foot)", quoteEcho(segs[2]))
	}
	r.profile, _ = parseProfile(name)
	coords, err := url.PathUnescape(segs[3])
	if err != nil {
		return nil, malformed(len(strings.Join(segs[:3], "/")) + 1)
	}
	if i := strings.LastIndexByte(coords, '.'); i >= 0 && isLetters(coords[i+1:]) {
		if f := coords[i+1:]; f != "json" {
			return nil, osrmErr("InvalidQuery", "format %s is not served: geosvc answers json only", quoteEcho(f))
		}
		coords = coords[:i]
	}
	var oe *osrmError
	if r.coords, oe = parseOSRMCoordinates(coords); oe != nil {
		return nil, oe
	}
	if oe := r.parseQuery(rawQuery, prefixLen+len(path)+1); oe != nil {
		return nil, oe
	}
	return r, nil
}

// isLetters reports whether s is a non-empty run of ASCII letters (a
// format suffix such as json).
func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

// parseOSRMCoordinates reads the coordinates segment: lon,lat;lon,lat,
// polyline(...) (precision 1e5) or polyline6(...) (1e6), each point lat
// first as Google's format has it.
func parseOSRMCoordinates(s string) ([]orb.Point, *osrmError) {
	var pts []orb.Point
	for _, enc := range []struct {
		prefix string
		digits int
	}{{"polyline(", 5}, {"polyline6(", 6}} {
		if !strings.HasPrefix(s, enc.prefix) {
			continue
		}
		if !strings.HasSuffix(s, ")") {
			return nil, osrmErr("InvalidQuery", "coordinates: %s has no closing parenthesis", enc.prefix+"...")
		}
		var err error
		pts, err = decodePolyline(s[len(enc.prefix):len(s)-1], enc.digits)
		if err != nil {
			return nil, osrmErr("InvalidQuery", "coordinates: %s...) is not an encoded polyline: %v", enc.prefix, err)
		}
		if len(pts) == 0 {
			return nil, osrmErr("InvalidQuery", "coordinates: the polyline holds no point")
		}
		break
	}
	if pts == nil {
		for i, c := range strings.Split(s, ";") {
			lon, lat, ok := strings.Cut(c, ",")
			if !ok || !isDecimal(lon) || !isDecimal(lat) {
				return nil, osrmErr("InvalidQuery", "coordinates[%d]: %s is not lon,lat (two decimal numbers, longitude first)", i, quoteEcho(c))
			}
			x, err1 := strconv.ParseFloat(lon, 64)
			y, err2 := strconv.ParseFloat(lat, 64)
			if err1 != nil || err2 != nil {
				return nil, osrmErr("InvalidQuery", "coordinates[%d]: %s is not lon,lat", i, quoteEcho(c))
			}
			pts = append(pts, orb.Point{x, y})
		}
	}
	for i, p := range pts {
		if math.IsNaN(p[0]) || p[0] < -180 || p[0] > 180 {
			return nil, osrmErr("InvalidValue", "Invalid coordinate value: coordinates[%d] longitude %g is out of -180..180", i, p[0])
		}
		if math.IsNaN(p[1]) || p[1] < -90 || p[1] > 90 {
			return nil, osrmErr("InvalidValue", "Invalid coordinate value: coordinates[%d] latitude %g is out of -90..90", i, p[1])
		}
	}
	return pts, nil
}

// parseQuery reads the raw query: every option known to the service,
// once; the general options into r. base is the position of the query in
// the URL.
func (r *osrmRequest) parseQuery(raw string, base int) *osrmError {
	r.q, r.pos = url.Values{}, map[string]int{}
	allowed := slices.Concat(osrmCommonOptions, osrmExtensions, osrmServiceOptions[r.service])
	off := 0
	for _, pair := range strings.Split(raw, "&") {
		at := base + off
		off += len(pair) + 1
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		key, err1 := url.QueryUnescape(k)
		val, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil {
			return osrmErr("InvalidQuery", "Query string malformed close to position %d: %s is not URL-encoded correctly", at, quoteEcho(k))
		}
		if !slices.Contains(allowed, key) {
			return osrmErr("InvalidQuery", "Query string malformed close to position %d: %s is not an option of the %s service", at, quoteEcho(key), r.service)
		}
		if r.q.Has(key) {
			return osrmErr("InvalidQuery", "Query string malformed close to position %d: %s is given twice", at, key)
		}
		r.q.Set(key, val)
		r.pos[key] = at
	}
	return r.parseCommon()
}

// malformed is OSRM's InvalidQuery naming the option and why.
func (r *osrmRequest) malformed(key, format string, args ...any) *osrmError {
	return osrmErr("InvalidQuery", "Query string malformed close to position %d: %s: %s", r.pos[key], key, fmt.Sprintf(format, args...))
}

// boolOption reads a true|false option, def when absent.
func (r *osrmRequest) boolOption(key string, def bool) (bool, *osrmError) {
	if !r.q.Has(key) {
		return def, nil
	}
	switch r.q.Get(key) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, r.malformed(key, "%s is not true or false", quoteEcho(r.q.Get(key)))
}

// osrmExclude maps OSRM's exclude classes (its car profile's toll,
// motorway, ferry; geosvc adds unpaved) to geosvc's avoid flags.
var osrmExclude = map[string]routing.Avoid{
	"toll": routing.AvoidToll, "motorway": routing.AvoidMotorway, "ferry": routing.AvoidFerry, "unpaved": routing.AvoidUnpaved,
}

// parseCommon reads the general options: the per-coordinate lists, the
// flags, exclude and geosvc's metric extensions.
func (r *osrmRequest) parseCommon() *osrmError {
	n := len(r.coords)
	// A hint is base64 (OSRM's or geosvc's own): anything else fails
	// OSRM's grammar before the list's length is looked at.
	if v := r.q.Get("hints"); v != "" {
		for i, h := range strings.Split(v, ";") {
			if h != "" && !isBase64(h) {
				return r.malformed("hints", "entry %d, %s, is not a hint (base64)", i, quoteEcho(h))
			}
		}
	}
	for _, k := range []string{"bearings", "radiuses", "approaches", "hints"} {
		if v := r.q.Get(k); v != "" {
			if c := strings.Count(v, ";") + 1; c != n {
				return osrmErr("InvalidOptions", "Number of elements in %s size %d does not match coordinate size %d", k, c, n)
			}
		}
	}
	// OSRM's radius "unlimited" is the largest radius geosvc snaps within.
	radiuses := strings.Split(r.q.Get("radiuses"), ";")
	for i, v := range radiuses {
		if v == "unlimited" {
			radiuses[i] = strconv.Itoa(routing.MaxSnapRadiusM)
		}
	}
	q := url.Values{"radiuses": {strings.Join(radiuses, ";")}, "bearings": {r.q.Get("bearings")},
		"approaches": {r.q.Get("approaches")}, "snapping": {r.q.Get("snapping")}}
	var msg string
	if r.snap, msg = routeSnapOptions(q.Get, n); msg != "" {
		key, _, _ := strings.Cut(msg, "[")
		key, _, _ = strings.Cut(key, " ")
		// A bearing out of range passes OSRM's grammar and fails its
		// check of the values: InvalidOptions, as OSRM answers.
		if key == "bearings" && strings.Contains(msg, " is out of ") {
			return osrmErr("InvalidOptions", "%s", msg)
		}
		return osrmErr("InvalidQuery", "Query string malformed close to position %d: %s", r.pos[key], msg)
	}
	var oe *osrmError
	if r.generateHints, oe = r.boolOption("generate_hints", true); oe != nil {
		return oe
	}
	if r.skipWaypoints, oe = r.boolOption("skip_waypoints", false); oe != nil {
		return oe
	}
	if r.q.Has("language") {
		langs, err := geocode.ParseLangs(r.q.Get("language"))
		if err != nil {
			return r.malformed("language", "%s is not BCP 47 language tags separated by commas (de, fr-CA, zh-Hant)", quoteEcho(r.q.Get("language")))
		}
		r.langs = langs
	}
	if f := r.q.Get("format"); r.q.Has("format") && f != "json" {
		return osrmErr("InvalidOptions", "format %s is not served: geosvc answers json only", quoteEcho(f))
	}
	spec := url.Values{"profile": {r.profile.String()}}
	for _, k := range []string{"speeds", "avoid", "avoid_polygons", "vehicle", "routing"} {
		if r.q.Has(k) {
			spec.Set(k, r.q.Get(k))
		}
	}
	if r.spec, msg = routeSpecOf(spec); msg != "" {
		return osrmErr("InvalidValue", "%s", msg)
	}
	if v := r.q.Get("exclude"); v != "" {
		for _, c := range strings.Split(v, ",") {
			f, ok := osrmExclude[c]
			if !ok {
				return osrmErr("InvalidValue", "Exclude flag combination is not supported: exclude %s is not toll, motorway, ferry or unpaved", quoteEcho(c))
			}
			r.spec.Avoid |= f
		}
	}
	return nil
}

// indexList reads a semicolon list of coordinate indexes (sources,
// destinations, waypoints); nil for "all" or an absent option.
func (r *osrmRequest) indexList(key string) ([]int, *osrmError) {
	v := r.q.Get(key)
	if !r.q.Has(key) || v == "all" {
		return nil, nil
	}
	var out []int
	for i, s := range strings.Split(v, ";") {
		k, err := strconv.Atoi(s)
		if err != nil || k < 0 || strings.HasPrefix(s, "+") {
			return nil, r.malformed(key, "entry %d, %s, is not a coordinate index", i, quoteEcho(s))
		}
		if k >= len(r.coords) {
			return nil, osrmErr("InvalidOptions", "%s[%d]: index %d is out of bounds: there are %d coordinates", key, i, k, len(r.coords))
		}
		out = append(out, k)
	}
	return out, nil
}

// atDeparture applies geosvc's departure_time (route and table): the
// metric takes the speed data of the departure's hour, read in the time
// zone of the first coordinate (of the first source for a table), for
// the whole request, as routev1 and tdmv1 (time-bucketed), and the
// turns conditional turn restrictions close at that hour are closed. A
// bundle without speed data, conditional maximum speeds and conditional
// turn restrictions answers as without the time.
func (r *osrmRequest) atDeparture(b *bundle.Bundle, g *routing.Graph) *osrmError {
	if !r.q.Has("departure_time") {
		return nil
	}
	t, reason := parseTripTime(r.q.Get("departure_time"), nowOf(b))
	if reason != "" {
		return osrmErr("InvalidValue", "departure_time: %s", reason)
	}
	origin := r.coords[0]
	if src, oe := r.indexList("sources"); r.service == osrmTable && oe == nil && len(src) > 0 {
		origin = r.coords[src[0]]
	}
	clock := localClock(b, origin, t)
	r.spec, _ = g.AtHour(r.spec, clock.Hour)
	return nil
}

// isBase64 reports whether s is base64, URL-safe or standard, padded or
// not.
func isBase64(s string) bool {
	t := strings.TrimRight(s, "=")
	for _, enc := range []*base64.Encoding{base64.RawURLEncoding, base64.RawStdEncoding} {
		if _, err := enc.DecodeString(t); err == nil {
			return true
		}
	}
	return false
}

// nameLangsOf returns the request's languages resolved against g's.
func (r *osrmRequest) nameLangsOf(g *routing.Graph) routing.NameLangs {
	if r.nameLangs == nil {
		nl := g.NameLangs(r.langs)
		r.nameLangs = &nl
	}
	return *r.nameLangs
}

// localize names the routes' streets in the request's languages (where
// the data has them) and notes the language used.
func (r *osrmRequest) localize(g *routing.Graph, routes ...*routing.Route) {
	if len(r.langs) == 0 {
		return
	}
	if l := g.LocalizeRoute(r.nameLangsOf(g), routes...); l != "" {
		if r.usedLang == nil {
			r.usedLang = map[string]bool{}
		}
		r.usedLang[l] = true
	}
}

// answerLang is the language the answer's names were given in: of those
// used, the one language prefers ("" for the default names).
func (r *osrmRequest) answerLang() string {
	for _, l := range r.langs {
		if r.usedLang[l] {
			return l
		}
	}
	return ""
}
