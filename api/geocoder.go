package api

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/keys"
)

// geocoderInterface is the interface name of the geocoder endpoints.
const geocoderInterface = keys.GeocoderV1

// Geocoder statuses (SPEC.md, Errors).
const (
	// geocodeOK: at least one result.
	geocodeOK = "OK"
	// geocodeZeroResults: a valid request that found nothing.
	geocodeZeroResults = "ZERO_RESULTS"
	// geocodeInvalidRequest: a missing or invalid parameter.
	geocodeInvalidRequest = "INVALID_REQUEST"
	// geocodeUnknownError: a server error (HTTP 5xx); a retry may succeed.
	geocodeUnknownError = "UNKNOWN_ERROR"
)

// mimeJSONUTF8 is the geocoder's JSON content type, with the charset
// parameter that Google's geocoder also sends (echo deprecates its constant
// for this value, not the value).
const mimeJSONUTF8 = "application/json; charset=UTF-8"

// maxAddressLen is the longest address, and the longest components
// filter, the forward geocoder accepts, in characters (Unicode code
// points), each on its own: openapi.yaml's maxLength.
const maxAddressLen = 1024

// GeocoderOptions configures the geocoderv1 endpoints.
type GeocoderOptions struct {
	// Bundle is the data bundle answered from (its gazetteer); nil, or
	// holding none yet, while it loads (the endpoints then answer 503
	// UNKNOWN_ERROR).
	Bundle *bundle.Current
	// AddressTolerance and StreetTolerance are the reverse geocoder's
	// largest distances in metres; 0 means geocode's defaults (50, 200).
	AddressTolerance, StreetTolerance float64
	// Logger receives errors; default slog.Default().
	Logger *slog.Logger
}

// RegisterGeocoder adds GET /geocoderv1/geocoder,
// /geocoderv1/rev-geocoder and /geocoderv1/autocomplete to g (which
// authenticates requests).
//
// As Google's geocoder does, OK, ZERO_RESULTS and INVALID_REQUEST come
// with HTTP 200 and the status in the body; UNKNOWN_ERROR with a 5xx
// (503 while the data bundle loads). format=json (the default) or xml.
func RegisterGeocoder(g *echo.Group, opts GeocoderOptions) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	h := &geocoderHandler{opts: opts}
	shape := withErrorWriter(h.writeError)
	g.GET("/"+geocoderInterface+"/geocoder", h.forward, shape)
	g.GET("/"+geocoderInterface+"/rev-geocoder", h.reverse, shape)
	g.GET("/"+geocoderInterface+"/autocomplete", h.autocomplete, shape)
}

type geocoderHandler struct{ opts GeocoderOptions }

// geocodeResponse is the body of both endpoints (JSON, or XML with the
// GeocodeResponse root element).
type geocodeResponse struct {
	// XMLName is the XML root element, GeocodeResponse.
	XMLName xml.Name `json:"-" xml:"GeocodeResponse"`
	// Status is OK, ZERO_RESULTS, INVALID_REQUEST or UNKNOWN_ERROR.
	Status string `json:"status" xml:"status"`
	// ErrorMessage says what was wrong, beside a status other than OK.
	ErrorMessage string `json:"error_message,omitempty" xml:"error_message,omitempty"`
	// Results are the hits, most specific first (an empty array, never
	// null, in JSON).
	Results []geocodeResult `json:"results" xml:"result"`
}

// geocodeResult is one result (Google's layout).
type geocodeResult struct {
	// Types are the result's types ("street_address", "route", ...).
	Types []string `json:"types" xml:"type"`
	// FormattedAddress is the address as one line.
	FormattedAddress string `json:"formatted_address" xml:"formatted_address"`
	// AddressComponents are the address parts, most specific first.
	AddressComponents []addressComponent `json:"address_components" xml:"address_component"`
	// Geometry is the location, its precision and viewport.
	Geometry geocodeGeometry `json:"geometry" xml:"geometry"`
	// PlaceID identifies the result stably across builds of the same data.
	PlaceID string `json:"place_id" xml:"place_id"`
	// PartialMatch is true when not every word of the query matched.
	PartialMatch bool `json:"partial_match,omitempty" xml:"partial_match,omitempty"`
}

// addressComponent is one part of a result's address.
type addressComponent struct {
	// LongName is the full name ("Main Street", "Delaware").
	LongName string `json:"long_name" xml:"long_name"`
	// ShortName is the abbreviated name ("Main St", "DE").
	ShortName string `json:"short_name" xml:"short_name"`
	// Types are its types ("route"; "locality", "political").
	Types []string `json:"types" xml:"type"`
}

// geocodeGeometry is a result's location, its precision and viewport.
type geocodeGeometry struct {
	// Location is the result's point.
	Location latLngJSON `json:"location" xml:"location"`
	// LocationType is ROOFTOP, RANGE_INTERPOLATED, GEOMETRIC_CENTER or
	// APPROXIMATE.
	LocationType string `json:"location_type" xml:"location_type"`
	// Viewport is the box to show the result in.
	Viewport viewport `json:"viewport" xml:"viewport"`
}

// latLngJSON is a point, latitude first as in Google's format.
type latLngJSON struct {
	// Lat is the latitude in degrees.
	Lat float64 `json:"lat" xml:"lat"`
	// Lng is the longitude in degrees.
	Lng float64 `json:"lng" xml:"lng"`
}

// viewport is a box by its south-west and north-east corners.
type viewport struct {
	// Southwest is the lowest latitude and longitude.
	Southwest latLngJSON `json:"southwest" xml:"southwest"`
	// Northeast is the highest latitude and longitude.
	Northeast latLngJSON `json:"northeast" xml:"northeast"`
}

// newGeocodeResponse renders candidates as a response (OK, or
// ZERO_RESULTS when there are none).
func newGeocodeResponse(cs []geocode.Candidate) geocodeResponse {
	r := geocodeResponse{Status: geocodeOK, Results: make([]geocodeResult, 0, len(cs))}
	if len(cs) == 0 {
		r.Status = geocodeZeroResults
	}
	for _, c := range cs {
		res := geocodeResult{Types: c.Types, FormattedAddress: c.FormattedAddress, PlaceID: c.PlaceID,
			PartialMatch: c.PartialMatch,
			Geometry: geocodeGeometry{Location: latLng(c.Location), LocationType: string(c.LocationType),
				Viewport: viewport{Southwest: latLng(c.Viewport.Min), Northeast: latLng(c.Viewport.Max)}}}
		if res.Types == nil {
			res.Types = []string{}
		}
		res.AddressComponents = make([]addressComponent, len(c.Components))
		for i, comp := range c.Components {
			res.AddressComponents[i] = addressComponent{comp.LongName, comp.ShortName, comp.Types}
		}
		r.Results = append(r.Results, res)
	}
	return r
}

func latLng(p orb.Point) latLngJSON {
	return latLngJSON{Lat: geo.Round7(p[1]), Lng: geo.Round7(p[0])}
}

// geocodeFormat returns the requested format, "" when unknown.
func geocodeFormat(q url.Values) string {
	switch f := strings.ToLower(strings.TrimSpace(q.Get("format"))); f {
	case "", "json":
		return "json"
	case "xml":
		return "xml"
	}
	return ""
}

// write answers r in format (json when unknown) with HTTP code.
func (h *geocoderHandler) write(c echo.Context, format string, code int, r geocodeResponse) error {
	if format == "xml" {
		b, err := xml.Marshal(r)
		if err != nil {
			return err
		}
		c.Response().Header().Set(echo.HeaderContentType, "application/xml; charset=UTF-8")
		c.Response().WriteHeader(code)
		if _, err := c.Response().Write([]byte(xml.Header)); err != nil {
			return err
		}
		_, err = c.Response().Write(b)
		return err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return c.Blob(code, mimeJSONUTF8, b)
}

// geocodeFailure is a geocoder answer without results: INVALID_REQUEST
// (on HTTP 200, as Google answers it) or UNKNOWN_ERROR (on a 5xx). The
// handlers return it as their error; writeError renders it.
type geocodeFailure struct {
	code        int
	status, msg string
}

func (f *geocodeFailure) Error() string { return f.status + ": " + f.msg }

// StatusCode is the HTTP status the failure is answered with.
func (f *geocodeFailure) StatusCode() int { return f.code }

// invalidRequest is the INVALID_REQUEST answer with msg.
func invalidRequest(msg string) error {
	return &geocodeFailure{http.StatusOK, geocodeInvalidRequest, msg}
}

// writeError is the geocoder routes' errorWriter: every error of theirs,
// a panic turned into a 500 by the server's recovery included, is answered
// in Google's shape and in the requested format (JSON when the format is
// unknown): a geocodeFailure as it is, any other 5xx as UNKNOWN_ERROR with
// no detail, any other status as INVALID_REQUEST with its message.
func (h *geocoderHandler) writeError(c echo.Context, code int, msg string, err error) error {
	format := geocodeFormat(c.QueryParams())
	if format == "" {
		format = "json"
	}
	f, ok := err.(*geocodeFailure)
	switch {
	case ok:
	case code >= 500:
		f = &geocodeFailure{code, geocodeUnknownError, "internal error, retry later"}
	default:
		f = &geocodeFailure{code, geocodeInvalidRequest, msg}
	}
	return h.write(c, format, f.code, geocodeResponse{Status: f.status, ErrorMessage: f.msg, Results: []geocodeResult{}})
}

// parseQuery reads the query string both endpoints share: a malformed one,
// or a format other than json and xml, is INVALID_REQUEST.
func parseQuery(c echo.Context) (url.Values, error) {
	q, err := url.ParseQuery(c.Request().URL.RawQuery)
	if err != nil {
		return nil, invalidRequest("malformed query string")
	}
	// A format given empty ("format=", "format= ") is no format: only a
	// request without the parameter defaults to json.
	if vs, ok := q["format"]; geocodeFormat(q) == "" || ok && strings.TrimSpace(vs[0]) == "" {
		return nil, invalidRequest("format must be json or xml")
	}
	return q, nil
}

// answer runs search on the loaded index and writes its candidates in the
// requested format; before the index is loaded it is a 503 UNKNOWN_ERROR
// with Retry-After.
func (h *geocoderHandler) answer(c echo.Context, q url.Values, search func(*geocode.Index) []geocode.Candidate) error {
	var ix *geocode.Index
	if b := h.opts.Bundle.Load(); b != nil {
		ix = b.Geocoder
	}
	if ix == nil {
		c.Response().Header().Set("Retry-After", "5")
		return &geocodeFailure{http.StatusServiceUnavailable, geocodeUnknownError, "data bundle loading"}
	}
	return h.write(c, geocodeFormat(q), http.StatusOK, newGeocodeResponse(search(ix)))
}

// forward answers GET /geocoderv1/geocoder?address=...
func (h *geocoderHandler) forward(c echo.Context) error {
	q, err := parseQuery(c)
	if err != nil {
		return err
	}
	address := strings.TrimSpace(q.Get("address"))
	if utf8.RuneCountInString(address) > maxAddressLen {
		return invalidRequest(fmt.Sprintf("address longer than %d characters", maxAddressLen))
	}
	var cf geocode.Components
	if comps := q.Get("components"); comps != "" {
		if utf8.RuneCountInString(comps) > maxAddressLen {
			return invalidRequest(fmt.Sprintf("components longer than %d characters", maxAddressLen))
		}
		var err error
		if cf, err = parseComponents(comps); err != nil {
			return invalidRequest(err.Error())
		}
	}
	// The filter values are also words of the query: components alone
	// are a query of their values (as Google takes them), and
	// "address=10&components=route:Main St" finds 10 Main St.
	if t := cf.Text(); t != "" {
		address = strings.TrimPrefix(address+", "+t, ", ")
	}
	if address == "" {
		return invalidRequest("address or components is required")
	}
	query := geocode.Query{Text: address, Components: cf}
	var msg string
	if query.ResultTypes, query.LocationTypes, msg = parseTypeFilters(q); msg != "" {
		return invalidRequest(msg)
	}
	if query.Bounds, query.BoundsRestrict, msg = parseBoundsMode(q); msg != "" {
		return invalidRequest(msg)
	}
	if query.Lang, msg = requestLang(c, q); msg != "" {
		return invalidRequest(msg)
	}
	return h.answer(c, q, func(ix *geocode.Index) []geocode.Candidate { return ix.Forward(query) })
}

// reverse answers GET /geocoderv1/rev-geocoder?x=lon&y=lat
func (h *geocoderHandler) reverse(c echo.Context) error {
	q, err := parseQuery(c)
	if err != nil {
		return err
	}
	// The coordinate rules of the point lookups: plain decimal numbers
	// (no hex, no underscores), within range, the first of a repeat.
	pt, msg := parseLookupPoint(q, lookupLonX, lookupLatY)
	if msg != "" {
		return invalidRequest(msg)
	}
	lon, lat := pt[0], pt[1]
	opts := geocode.ReverseOptions{AddressTolerance: h.opts.AddressTolerance, StreetTolerance: h.opts.StreetTolerance}
	var msg2 string
	if opts.ResultTypes, opts.LocationTypes, msg2 = parseTypeFilters(q); msg2 != "" {
		return invalidRequest(msg2)
	}
	if opts.Lang, msg2 = requestLang(c, q); msg2 != "" {
		return invalidRequest(msg2)
	}
	return h.answer(c, q, func(ix *geocode.Index) []geocode.Candidate { return ix.Reverse(orb.Point{lon, lat}, opts) })
}

// parseTypeFilters reads Google's result_type and location_type lists
// ("street_address|route", "ROOFTOP|APPROXIMATE"), with a message naming
// the first invalid value.
func parseTypeFilters(q url.Values) ([]string, []geocode.LocationType, string) {
	var rts []string
	var lts []geocode.LocationType
	for _, t := range splitList(q.Get("result_type")) {
		if !geocode.ValidResultType(t) {
			return nil, nil, fmt.Sprintf("invalid result_type %q", t)
		}
		rts = append(rts, t)
	}
	for _, t := range splitList(q.Get("location_type")) {
		if !geocode.ValidLocationType(t) {
			return nil, nil, fmt.Sprintf("invalid location_type %q", t)
		}
		lts = append(lts, geocode.LocationType(strings.ToUpper(t)))
	}
	return rts, lts, ""
}

// splitList splits a Google list parameter ("a|b").
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "|") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// parseBounds reads Google's bounds: "south,west|north,east" (latitudes
// first).
func parseBounds(s string) (orb.Bound, error) {
	corners := strings.Split(s, "|")
	if len(corners) != 2 {
		return orb.Bound{}, fmt.Errorf("bounds must be lat,lng|lat,lng")
	}
	var pts [2]orb.Point
	for i, c := range corners {
		ll := strings.Split(c, ",")
		if len(ll) != 2 {
			return orb.Bound{}, fmt.Errorf("bounds must be lat,lng|lat,lng")
		}
		a, b := strings.TrimSpace(ll[0]), strings.TrimSpace(ll[1])
		lat, err1 := strconv.ParseFloat(a, 64)
		lng, err2 := strconv.ParseFloat(b, 64)
		if err1 != nil || err2 != nil || !isDecimal(a) || !isDecimal(b) || math.Abs(lat) > 90 || math.Abs(lng) > 180 {
			return orb.Bound{}, fmt.Errorf("bounds must be lat,lng|lat,lng in degrees")
		}
		pts[i] = orb.Point{lng, lat}
	}
	return pts[0].Bound().Extend(pts[1]), nil
}

// parseComponents reads Google's components filter:
// "postal_code:19711|locality:Newark|country:US".
func parseComponents(s string) (geocode.Components, error) {
	var c geocode.Components
	for _, part := range splitList(s) {
		k, v, ok := strings.Cut(part, ":")
		v = strings.TrimSpace(v)
		if !ok || v == "" {
			return c, fmt.Errorf("components must be name:value pairs separated by |")
		}
		var field *string
		switch strings.TrimSpace(k) {
		case "postal_code":
			field = &c.PostalCode
		case "locality":
			field = &c.Locality
		case "country":
			field = &c.Country
		case "route":
			field = &c.Route
		case "administrative_area":
			field = &c.AdministrativeArea
		default:
			return c, fmt.Errorf("unknown component filter %q (route, locality, administrative_area, postal_code, country)", k)
		}
		if *field != "" {
			return c, fmt.Errorf("component filter %q given twice", strings.TrimSpace(k))
		}
		*field = v
	}
	return c, nil
}
