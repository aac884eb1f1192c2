package api

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/geocode"
)

// defaultAutocompleteLimit is autocomplete's limit when none is given.
const defaultAutocompleteLimit = 10

// autocompleteLayers are the values of autocomplete's layers.
var autocompleteLayers = map[string]geocode.Kind{
	"address": geocode.KindAddress, "street": geocode.KindStreet, "place": geocode.KindPlace,
	"poi": geocode.KindPOI, "postcode": geocode.KindPostcode,
}

// badAutocomplete is autocomplete's answer to bad input: HTTP 400 with
// the geocoder's body, INVALID_REQUEST and a message naming the field.
func badAutocomplete(msg string) error {
	return &geocodeFailure{http.StatusBadRequest, geocodeInvalidRequest, msg}
}

// autocomplete answers GET /geocoderv1/autocomplete?text=...: the
// completions of text typed so far (geocode.Index.Autocomplete), in the
// geocoder's result shape.
func (h *geocoderHandler) autocomplete(c echo.Context) error {
	q, err := url.ParseQuery(c.Request().URL.RawQuery)
	if err != nil {
		return badAutocomplete("malformed query string")
	}
	if vs, ok := q["format"]; geocodeFormat(q) == "" || ok && strings.TrimSpace(vs[0]) == "" {
		return badAutocomplete("format must be json or xml")
	}
	if _, given := langParam(q); !given {
		varyAcceptLanguage(c.Response().Header())
	}
	query, msg := parseAutocomplete(q, c.Request().Header.Get("Accept-Language"))
	if msg != "" {
		return badAutocomplete(msg)
	}
	return h.answer(c, q, func(ix *geocode.Index) []geocode.Candidate { return ix.Autocomplete(query) })
}

// parseAutocomplete reads autocomplete's parameters, with a message
// naming the first bad one.
func parseAutocomplete(q url.Values, acceptLanguage string) (geocode.Query, string) {
	text := strings.TrimSpace(q.Get("text"))
	switch {
	case text == "":
		return geocode.Query{}, "text is required: the words typed so far"
	case utf8.RuneCountInString(text) > maxAddressLen:
		return geocode.Query{}, fmt.Sprintf("text longer than %d characters", maxAddressLen)
	}
	query := geocode.Query{Text: text, Limit: defaultAutocompleteLimit}
	if s, ok := q["focus"]; ok {
		p, msg := parseFocus(s[0])
		if msg != "" {
			return query, msg
		}
		query.Focus = &p
	}
	if s, ok := q["limit"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(s[0]))
		if err != nil || n < 1 || n > geocode.MaxAutocompleteLimit {
			return query, fmt.Sprintf("limit must be an integer from 1 to %d, got %s", geocode.MaxAutocompleteLimit, quoteEcho(s[0]))
		}
		query.Limit = n
	}
	if s, ok := q["layers"]; ok {
		layers, msg := parseLayers(s[0])
		if msg != "" {
			return query, msg
		}
		query.Layers = layers
	}
	var msg string
	if query.Bounds, query.BoundsRestrict, msg = parseBoundsMode(q); msg != "" {
		return query, msg
	}
	s, given := langParam(q)
	query.Lang, msg = parseLang(s, given, acceptLanguage)
	return query, msg
}

// parseFocus reads focus: "lon,lat" in decimal degrees.
func parseFocus(s string) (orb.Point, string) {
	lon, lat, ok := strings.Cut(s, ",")
	a, b := strings.TrimSpace(lon), strings.TrimSpace(lat)
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	if !ok || err1 != nil || err2 != nil || !isDecimal(a) || !isDecimal(b) {
		return orb.Point{}, fmt.Sprintf("focus must be lon,lat in decimal degrees, got %s", quoteEcho(s))
	}
	if math.Abs(x) > 180 || math.Abs(y) > 90 {
		return orb.Point{}, fmt.Sprintf("focus out of range: longitude -180 to 180, latitude -90 to 90, got %s", quoteEcho(s))
	}
	return orb.Point{x, y}, ""
}

// parseLayers reads layers: a comma-separated list of autocompleteLayers.
func parseLayers(s string) ([]geocode.Kind, string) {
	var out []geocode.Kind
	for _, l := range strings.Split(s, ",") {
		k, ok := autocompleteLayers[strings.TrimSpace(l)]
		if !ok {
			return nil, fmt.Sprintf("layers: unknown layer %s (address, street, place, poi, postcode)", quoteEcho(strings.TrimSpace(l)))
		}
		out = append(out, k)
	}
	return out, ""
}

// parseBoundsMode reads bounds and bounds_mode (bias, the default, or
// restrict): the box and whether it restricts.
func parseBoundsMode(q url.Values) (*orb.Bound, bool, string) {
	restrict := false
	if m, ok := q["bounds_mode"]; ok {
		switch strings.TrimSpace(m[0]) {
		case "bias":
		case "restrict":
			restrict = true
		default:
			return nil, false, fmt.Sprintf("bounds_mode must be bias or restrict, got %s", quoteEcho(m[0]))
		}
	}
	b := q.Get("bounds")
	if b == "" {
		if restrict {
			return nil, false, "bounds_mode=restrict needs bounds"
		}
		return nil, false, ""
	}
	bound, err := parseBounds(b)
	if err != nil {
		return nil, false, err.Error()
	}
	return &bound, restrict, ""
}
