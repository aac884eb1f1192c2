package api

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"
	"github.com/paulmach/orb/maptile"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/covid"
	"github.com/geosvc/geosvc/keys"
)

// covidInterface is the interface name of the health alert zones, as keys
// and usage counters know it.
const covidInterface = keys.CovidV1

// Tile zooms of xy2tile and index2tile (SPEC.md, Limits), and index2tile's
// zoom when none is given.
const (
	minCovidZoom     = 14
	maxCovidZoom     = 20
	defaultCovidZoom = 16
)

// covidCRS is the CRS of the tile collections (SPEC.md, rule 4).
const covidCRS = "urn:ogc:def:crs:OGC:1.3:CRS84"

// CovidOptions configures the covidv1 endpoints.
type CovidOptions struct {
	// Bundle is the data bundle answered from: its COVID-19 layer, and
	// its boundary layer (with the world base layer) that places a point
	// in its country, state and county. Nil, or holding none yet, while
	// it loads (the endpoints then answer 503).
	Bundle *bundle.Current
}

// RegisterCovid adds the health alert zone endpoints to g, which must
// authenticate requests (Server.Protected):
//
//	GET /covidv1/countries/list
//	GET /covidv1/country2data?country=ISO3&admin=N[&date=YYYY-MM-DD]
//	GET /covidv1/xy2data?x=LON&y=LAT&admin=N[&date=YYYY-MM-DD]
//	GET /covidv1/xy2tile?x=LON&y=LAT&zoom=Z
//	GET /covidv1/index2tile?x=TX&y=TY[&zoom=Z]
//
// Answers: 200; 400 {"message"} naming a missing or malformed parameter;
// 404 for an unknown country; 503 until the layers are loaded.
func RegisterCovid(g *echo.Group, opts CovidOptions) {
	h := &covidHandler{opts: opts}
	base := "/" + covidInterface
	g.GET(base+"/countries/list", h.countries)
	g.GET(base+"/country2data", h.country2data)
	g.GET(base+"/xy2data", h.xy2data)
	g.GET(base+"/xy2tile", h.xy2tile)
	g.GET(base+"/index2tile", h.index2tile)
}

type covidHandler struct{ opts CovidOptions }

// layers returns both layers, or the 503 of a bundle still loading.
func (h *covidHandler) layers() (*covid.Layer, *boundary.Layer, error) {
	b := h.opts.Bundle.Load()
	if b == nil || b.Covid == nil || b.Boundaries == nil {
		return nil, nil, errBundleLoading
	}
	return b.Covid, b.Boundaries, nil
}

// countries answers {codes: [{ISO3, name, dial_code}]}.
func (h *covidHandler) countries(c echo.Context) error {
	hl, _, err := h.layers()
	if err != nil {
		return err
	}
	return writeCovidJSON(c, struct {
		Codes []covid.Country `json:"codes"`
	}{hl.Countries()})
}

// country2data answers {data: [records], timestamp}: every administration
// of the country at the level.
func (h *covidHandler) country2data(c echo.Context) error {
	q := c.QueryParams()
	level, msg := parseCovidAdmin(q)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	code := strings.TrimSpace(q.Get("country"))
	if code == "" {
		return httpError(http.StatusBadRequest, "country is required: an ISO3 code of /covidv1/countries/list")
	}
	hl, _, err := h.layers()
	if err != nil {
		return err
	}
	asOf, err := parseCovidDate(q, hl)
	if err != nil {
		return err
	}
	if !hasCountry(hl, code) {
		return httpErrorf(http.StatusNotFound, "no health data for country %s: the codes are those of /covidv1/countries/list", quoteEcho(code))
	}
	recs := hl.Records(code, level, asOf)
	b := make([]byte, 0, 64+256*len(recs))
	b = append(b, `{"data":`...)
	b = appendRecords(b, recs)
	b = appendCovidTimestamp(b, hl, asOf)
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, append(b, '}'))
}

// hasCountry reports whether the layer has an admin0 record of code (an
// ISO3 code, any case).
func hasCountry(hl *covid.Layer, code string) bool {
	id := covid.CountryID(code)
	if id == "" {
		return false
	}
	_, ok := hl.Record(id, time.Time{})
	return ok
}

// xy2data answers {hierarchy_data: {p0, p1, ...}, timestamp}: the
// administration at the point at the level (or the finest above it with
// data), and every one above it up to the country.
func (h *covidHandler) xy2data(c echo.Context) error {
	q := c.QueryParams()
	p, msg := parseLookupPoint(q, lookupLonX, lookupLatY)
	if msg == "" {
		_, msg = parseCovidAdmin(q)
	}
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	level, _ := parseCovidAdmin(q)
	hl, bl, err := h.layers()
	if err != nil {
		return err
	}
	asOf, err := parseCovidDate(q, hl)
	if err != nil {
		return err
	}
	b := appendCovidXY(make([]byte, 0, 1024), hl, bl, p, level, asOf)
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, b)
}

// appendCovidXY appends the xy2data answer at p, level, asOf to b.
func appendCovidXY(b []byte, hl *covid.Layer, bl *boundary.Layer, p orb.Point, level int, asOf time.Time) []byte {
	b = append(b, `{"hierarchy_data":`...)
	b = appendHierarchy(b, covidChain(hl, bl, p, level, asOf, false))
	b = appendCovidTimestamp(b, hl, asOf)
	return append(b, '}')
}

// appendCovidTimestamp appends the answer's "timestamp" member, if any.
func appendCovidTimestamp(b []byte, hl *covid.Layer, asOf time.Time) []byte {
	if ts := covidTimestamp(hl, asOf); ts != "" {
		b = append(b, `,"timestamp":"`...)
		b = append(b, ts...)
		b = append(b, '"')
	}
	return b
}

// hierarchyData is the spec's hierarchy data: records under "p0", "p1",
// ... in that order.
type hierarchyData []covid.Record

// MarshalJSON writes the records as an object keyed p0, p1, ...
func (hd hierarchyData) MarshalJSON() ([]byte, error) { return appendHierarchy(nil, hd), nil }

// covidChain returns the records of the administrations containing p,
// finest first: the one at level (or, where the layer has none there, the
// finest above it; with withCases, the finest whose record has case data),
// then each one above it up to the country. Countries come from the
// boundary layer's precedence (the extract's areas, else the world base
// layer); US states and counties from the base layer's Census areas (their
// FIPS codes are the records' ids); New York City's ZIP areas from the
// health layer's own polygons; other countries' provinces from the
// extract's admin1 areas, by name.
func covidChain(hl *covid.Layer, bl *boundary.Layer, p orb.Point, level int, asOf time.Time, withCases bool) hierarchyData {
	country, ok := bl.AdminAt(p, 0)
	if !ok || country.CountryISO3 == "" {
		return hierarchyData{}
	}
	iso3 := country.CountryISO3
	// Candidate ids of p0, finest first.
	var ids []string
	if level >= 8 {
		if id, ok := hl.ZIPAreaAt(p); ok {
			ids = append(ids, id)
		}
	}
	if iso3 == "USA" {
		if base := bl.Base(); base != nil {
			if level >= 2 {
				if a, ok := base.AdminAt(p, 2); ok && a.Admin == 2 {
					ids = append(ids, covid.CountyID(fipsOf(a)))
				}
			}
			if level >= 1 {
				if a, ok := base.AdminAt(p, 1); ok && a.Admin == 1 {
					ids = append(ids, covid.StateID(fipsOf(a)))
				}
			}
		}
	} else if level >= 1 {
		if a, ok := bl.AdminAt(p, 1); ok && a.Admin == 1 {
			ids = append(ids, covid.CountryID(iso3)+"|"+a.Name)
		}
	}
	ids = append(ids, covid.CountryID(iso3))
	var out hierarchyData
	for _, id := range ids {
		r, ok := hl.Record(id, asOf)
		if !ok || withCases && r.TotalCases == nil {
			continue
		}
		out = append(out, r)
		for up := covid.ParentID(id); up != ""; up = covid.ParentID(up) {
			if r, ok := hl.Record(up, asOf); ok {
				out = append(out, r)
			}
		}
		return out
	}
	return hierarchyData{}
}

// fipsOf returns the FIPS code of a base-layer US state or county ("10",
// "10001").
func fipsOf(a *boundary.Area) string {
	n := a.ID - boundary.BaseUSID
	if n < 100 {
		return fmt.Sprintf("%02d", n)
	}
	return fmt.Sprintf("%05d", n)
}

// xy2tile answers the tile of zoom z holding the point.
func (h *covidHandler) xy2tile(c echo.Context) error {
	q := c.QueryParams()
	p, msg := parseLookupPoint(q, lookupLonX, lookupLatY)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	z, msg := parseCovidZoom(q, true)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	return h.tile(c, tileAt(p, z))
}

// index2tile answers the tile of zoom z (default 16) at index x, y.
func (h *covidHandler) index2tile(c echo.Context) error {
	q := c.QueryParams()
	z, msg := parseCovidZoom(q, false)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	x, msg := parseTileIndex(q, "x", z)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	y, msg := parseTileIndex(q, "y", z)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	return h.tile(c, maptile.New(x, y, z))
}

// tileAt returns the web-mercator tile of zoom z holding p. Latitudes
// beyond web mercator's limit (±85.0511°) fall in the first or last row,
// longitude 180 (the antimeridian) in the last column.
func tileAt(p orb.Point, z maptile.Zoom) maptile.Tile {
	const maxLat = 85.0511287798066
	p[1] = math.Max(-maxLat, math.Min(maxLat, p[1]))
	t := maptile.At(p, z)
	last := uint32(1)<<z - 1
	t.X, t.Y = min(t.X, last), min(t.Y, last)
	return t
}

// tile writes the collection of one tile feature.
func (h *covidHandler) tile(c echo.Context, t maptile.Tile) error {
	hl, bl, err := h.layers()
	if err != nil {
		return err
	}
	b := t.Bound()
	poly := orb.Polygon{{b.Min, {b.Max[0], b.Min[1]}, b.Max, {b.Min[0], b.Max[1]}, b.Min}}
	chain := covidChain(hl, bl, b.Center(), 8, time.Time{}, true)
	var td covid.TileData
	if len(chain) > 0 {
		td = hl.TileData(t, chain[0])
	} else {
		td = hl.TileData(t, covid.Record{})
	}
	if chain == nil {
		chain = hierarchyData{}
	}
	out := make([]byte, 0, 2048)
	out = append(out, `{"type":"FeatureCollection","totalFeatures":1,"features":[{"type":"Feature","id":"`...)
	out = strconv.AppendUint(out, uint64(t.Z), 10)
	out = append(out, '/')
	out = strconv.AppendUint(out, uint64(t.X), 10)
	out = append(out, '/')
	out = strconv.AppendUint(out, uint64(t.Y), 10)
	out = append(out, `","geometry_name":"geom","geometry":{"type":"Polygon","coordinates":[[`...)
	for i, p := range poly[0] {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendFloats(out, p[0], p[1])
	}
	out = append(out, `]],"bbox":`...)
	out = appendFloats(out, b.Min[0], b.Min[1], b.Max[0], b.Max[1])
	out = append(out, `},"properties":{"hierarchy_data":`...)
	out = appendHierarchy(out, chain)
	out = append(out, `,"x_index":`...)
	out = strconv.AppendUint(out, uint64(t.X), 10)
	out = append(out, `,"y_index":`...)
	out = strconv.AppendUint(out, uint64(t.Y), 10)
	if td.BusinessDensity != "" {
		out = append(out, `,"business_density":`...)
		out = lookupJSONString(out, td.BusinessDensity)
	}
	if td.CovidRiskScore != "" {
		out = append(out, `,"covid_risk_score":`...)
		out = lookupJSONString(out, td.CovidRiskScore)
	}
	out = append(out, `}}],"crs":{"type":"name","properties":{"name":"`+covidCRS+`"}}}`...)
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, out)
}

// writeCovidJSON answers v as JSON.
func writeCovidJSON(c echo.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, b)
}

// covidTimestamp is the answer's timestamp: the requested date, else the
// latest date_reported of the layer, as an ISO 8601 date-time.
func covidTimestamp(hl *covid.Layer, asOf time.Time) string {
	t := asOf
	if t.IsZero() {
		t = hl.Timestamp()
	}
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05Z")
}

// covidLevels lists the allowed values of admin.
const covidLevels = "0 to 8 (or admin0 to admin8)"

// parseCovidAdmin reads the admin parameter: required, 0..8, also written
// admin0..admin8.
func parseCovidAdmin(q url.Values) (int, string) {
	s := strings.TrimSpace(q.Get("admin"))
	if s == "" {
		return 0, "admin is required: the administrative level, " + covidLevels
	}
	n := strings.TrimPrefix(strings.ToLower(s), "admin")
	if len(n) == 1 && n[0] >= '0' && n[0] <= '8' {
		return int(n[0] - '0'), ""
	}
	return 0, fmt.Sprintf("admin %s is not a level: use %s", quoteEcho(s), covidLevels)
}

// parseCovidDate reads the optional date (YYYY-MM-DD) of country2data and
// xy2data: 400 when malformed, or when no series of the layer covers it.
func parseCovidDate(q url.Values, hl *covid.Layer) (time.Time, error) {
	s := strings.TrimSpace(q.Get("date"))
	if s == "" {
		return time.Time{}, nil
	}
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		return time.Time{}, httpErrorf(http.StatusBadRequest, "date must be a day written YYYY-MM-DD, got %s", quoteEcho(s))
	}
	if !hl.Covers(d) {
		return time.Time{}, httpErrorf(http.StatusBadRequest, "date %s: no series of the health data covers that day (they run from %s to %s)",
			s, hl.Start().Format("2006-01-02"), hl.Timestamp().Format("2006-01-02"))
	}
	return d, nil
}

// parseCovidZoom reads zoom: 14..20; required for xy2tile, default 16 for
// index2tile.
func parseCovidZoom(q url.Values, required bool) (maptile.Zoom, string) {
	s := strings.TrimSpace(q.Get("zoom"))
	if s == "" {
		if required {
			return 0, fmt.Sprintf("zoom is required: an integer %d to %d", minCovidZoom, maxCovidZoom)
		}
		return defaultCovidZoom, ""
	}
	z, err := strconv.Atoi(s)
	if err != nil || z < minCovidZoom || z > maxCovidZoom {
		return 0, fmt.Sprintf("zoom must be an integer %d to %d, got %s", minCovidZoom, maxCovidZoom, quoteEcho(s))
	}
	return maptile.Zoom(z), ""
}

// parseTileIndex reads a tile index parameter: required, 0..2^z-1.
func parseTileIndex(q url.Values, param string, z maptile.Zoom) (uint32, string) {
	s := strings.TrimSpace(q.Get(param))
	last := uint64(1)<<z - 1
	if s == "" {
		return 0, fmt.Sprintf("%s is required: a tile index 0 to %d at zoom %d", param, last, z)
	}
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil || n > last {
		return 0, fmt.Sprintf("%s must be a tile index 0 to %d at zoom %d, got %s", param, last, z, quoteEcho(s))
	}
	return uint32(n), ""
}
