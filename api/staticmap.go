package api

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/geo/render"
	"github.com/geosvc/geosvc/keys"
	"github.com/geosvc/geosvc/routing"
)

// mapsInterface is the interface name of the static maps, as keys and
// usage counters know it.
const mapsInterface = keys.MapsV1

// staticAttribution is the credit every static map carries (the map's
// data is OpenStreetMap's, under the ODbL).
const staticAttribution = "© OpenStreetMap contributors"

// maxStaticZoom is the deepest zoom of a static map, as of the tiles.
const maxStaticZoom = maxTileZoom

// fitPaddingPx is the margin, in pixels at scale 1, kept around the
// markers, paths and route a static map is fitted to.
const fitPaddingPx = 24

// maxFitZoom is the deepest zoom a map fitted to its overlays gets.
const maxFitZoom = 17

// StaticMapOptions configures the mapsv1 interface.
type StaticMapOptions struct {
	// Bundle is the data bundle drawn from (its map sources) and routed
	// on (its car graph); nil, or holding none yet, while it loads (503).
	Bundle *bundle.Current
}

// RegisterStaticMaps adds GET /mapsv1/static to g, which must
// authenticate requests (Server.Protected; the key may also come as
// ?key=, for an <img>): a map image of a centre and zoom or of a bbox
// (or fitted to its overlays), size x scale pixels, with markers, paths
// and a route computed as routev1 computes it, drawn by
// geo/cartography as the tiles and the SOAP maps are.
func RegisterStaticMaps(g *echo.Group, opts StaticMapOptions) {
	h := &staticMapHandler{opts: opts}
	g.GET("/"+mapsInterface+"/static", h.static)
}

type staticMapHandler struct{ opts StaticMapOptions }

// staticRequest is a parsed static map request.
type staticRequest struct {
	center      orb.Point
	zoom        float64
	hasCenter   bool
	bbox        orb.Bound
	hasBBox     bool
	w, h, scale int
	format      render.Format
	ctype       string
	markers     []cartography.Marker
	paths       []cartography.Path
	route       []orb.Point
}

// staticFormats are the image formats and their media types.
var staticFormats = map[string]struct {
	f     render.Format
	ctype string
}{"png": {render.PNG, "image/png"}, "gif": {render.GIF, "image/gif"}, "webp": {render.WebP, "image/webp"}}

// parseStaticRequest reads a static map's query, or says which
// parameter is wrong.
func parseStaticRequest(q url.Values) (staticRequest, string) {
	r := staticRequest{scale: 1, format: render.PNG, ctype: "image/png"}
	size := strings.TrimSpace(q.Get("size"))
	if size == "" {
		return r, "size is required: WIDTHxHEIGHT in pixels (e.g. 600x400)"
	}
	var msg string
	if r.w, r.h, msg = parseSize(size); msg != "" {
		return r, msg
	}
	if v := strings.TrimSpace(q.Get("scale")); v != "" || q.Has("scale") {
		if v != "1" && v != "2" {
			return r, fmt.Sprintf("scale %s must be 1 or 2", quoteEcho(v))
		}
		r.scale, _ = strconv.Atoi(v)
	}
	if r.w*r.scale > maxStaticSide || r.h*r.scale > maxStaticSide {
		return r, fmt.Sprintf("size %dx%d at scale %d is a %dx%d image: the image may be at most %dx%d pixels", r.w, r.h, r.scale, r.w*r.scale, r.h*r.scale, maxStaticSide, maxStaticSide)
	}
	if v := strings.TrimSpace(q.Get("format")); v != "" || q.Has("format") {
		f, ok := staticFormats[strings.ToLower(v)]
		if !ok {
			return r, fmt.Sprintf("format %s must be png, gif or webp", quoteEcho(v))
		}
		r.format, r.ctype = f.f, f.ctype
	}
	c, z, b := strings.TrimSpace(q.Get("center")), strings.TrimSpace(q.Get("zoom")), strings.TrimSpace(q.Get("bbox"))
	switch {
	case (q.Has("center") || q.Has("zoom")) && q.Has("bbox"):
		return r, "bbox: give center and zoom, or bbox, not both"
	case q.Has("bbox"):
		if r.bbox, msg = parseBBox(b); msg != "" {
			return r, msg
		}
		r.hasBBox = true
	case q.Has("center") && !q.Has("zoom"):
		return r, "zoom is required with center: an integer 0 to 20"
	case q.Has("zoom") && !q.Has("center"):
		return r, "center is required with zoom: a point lon,lat"
	case q.Has("center"):
		p, msg := parseLonLat(c)
		if msg == "" {
			msg = checkMercatorLat(p[1])
		}
		if msg != "" {
			return r, "center: " + msg
		}
		zi, err := strconv.Atoi(z)
		if err != nil || zi < 0 || zi > maxStaticZoom {
			return r, fmt.Sprintf("zoom %s must be an integer 0 to %d", quoteEcho(z), maxStaticZoom)
		}
		r.center, r.zoom, r.hasCenter = p, float64(zi), true
	}
	for i, v := range q["markers"] {
		ms, msg := parseMarkers(i, v)
		if msg != "" {
			return r, msg
		}
		r.markers = append(r.markers, ms...)
		if len(r.markers) > maxStaticMarkers {
			return r, fmt.Sprintf("markers[%d]: more than %d markers in all", i, maxStaticMarkers)
		}
	}
	if len(q["path"]) > maxStaticPaths {
		return r, fmt.Sprintf("path: at most %d paths, got %d", maxStaticPaths, len(q["path"]))
	}
	points := 0
	for i, v := range q["path"] {
		p, msg := parsePath(i, v)
		if msg != "" {
			return r, msg
		}
		if points += len(p.Points); points > maxStaticPathPoints {
			return r, fmt.Sprintf("path[%d]: more than %d points in all paths", i, maxStaticPathPoints)
		}
		r.paths = append(r.paths, p)
	}
	if v := q.Get("route"); v != "" || q.Has("route") {
		if r.route, msg = parseRoutePoints(v); msg != "" {
			return r, msg
		}
	}
	if !r.hasCenter && !r.hasBBox && len(r.markers) == 0 && len(r.paths) == 0 && len(r.route) == 0 {
		return r, "center and zoom, or bbox, are required (or markers, path or route to fit the map to)"
	}
	return r, ""
}

func (h *staticMapHandler) static(c echo.Context) error {
	q, err := semicolonQuery(c.Request().URL.RawQuery)
	if err != nil {
		return httpError(http.StatusBadRequest, err.Error())
	}
	r, msg := parseStaticRequest(q)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	b := h.opts.Bundle.Load()
	if b == nil {
		return errBundleLoading
	}
	var route []orb.Point
	if len(r.route) > 0 {
		if route, err = staticRoute(c, b, r.route); err != nil {
			return err
		}
	}
	v, z := staticView(r, route)
	canvas, _, err := cartography.Draw(b.MapSources(), cartography.Request{
		View: v, Style: cartography.Default(), Road: cartography.TileRoads(int(math.Floor(z))), Labels: true,
		Route: route, Paths: r.paths, Markers: r.markers, Attribution: staticAttribution, Scale: float64(r.scale),
	})
	if err != nil {
		return err
	}
	img, err := canvas.Encode(r.format)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "private, max-age=3600")
	return c.Blob(http.StatusOK, r.ctype, img)
}

// staticRoute routes through the points on the bundle's car graph with
// routev1's defaults (fastest, its snapping radius): each leg as
// routev1's route between two points, joined.
func staticRoute(c echo.Context, b *bundle.Bundle, pts []orb.Point) ([]orb.Point, error) {
	g := b.GraphFor("")
	if g == nil {
		return nil, errBundleLoading
	}
	spec, err := routing.NewMetric("", nil, nil)
	if err != nil {
		return nil, err
	}
	snaps := g.SnapAllWith(spec, pts, routing.DefaultSnapRadiusM, nil)
	for i, s := range snaps {
		if !s.OK {
			return nil, httpErrorf(http.StatusNotFound, "route[%d]: no road within %d m of the point", i, routing.DefaultSnapRadiusM)
		}
	}
	var line []orb.Point
	for i := 1; i < len(snaps); i++ {
		rt, err := g.Route(c.Request().Context(), spec, snaps[i-1], snaps[i])
		if errors.Is(err, routing.ErrNoRoute) {
			return nil, httpErrorf(http.StatusNotFound, "route: no route joins route[%d] and route[%d]", i-1, i)
		}
		if err != nil {
			return nil, err
		}
		geom := rt.Geometry
		if len(line) > 0 && len(geom) > 0 && geom[0] == line[len(line)-1] {
			geom = geom[1:]
		}
		line = append(line, geom...)
	}
	return line, nil
}

// mercXY is a point's web-mercator position in the world square
// [0, 1) x [0, 1): x east from the antimeridian, y south from 85.05° N.
func mercXY(p orb.Point) (float64, float64) {
	lat := math.Max(-maxMercatorLat, math.Min(maxMercatorLat, p[1])) * math.Pi / 180
	return (p[0] + 180) / 360, (1 - math.Asinh(math.Tan(lat))/math.Pi) / 2
}

// mercPoint is the inverse of mercXY.
func mercPoint(x, y float64) orb.Point {
	return orb.Point{x*360 - 180, math.Atan(math.Sinh(math.Pi*(1-2*y))) * 180 / math.Pi}
}

// staticView is the view a static map shows and its zoom: the centre and
// zoom asked; or the bbox, centred, at the (fractional) zoom at which it
// just fills the image on one axis; or, with neither, the bound of the
// markers, paths and route with a margin, at most at zoom 17.
func staticView(r staticRequest, route []orb.Point) (render.View, float64) {
	if r.hasCenter {
		return render.MercatorView(r.center, r.zoom, r.w*r.scale, r.h*r.scale, cartography.TileSize*r.scale), r.zoom
	}
	b, pad, maxZ := r.bbox, 0, float64(maxStaticZoom)
	if !r.hasBBox {
		var pts []orb.Point
		for _, m := range r.markers {
			pts = append(pts, m.Point)
		}
		for _, p := range r.paths {
			pts = append(pts, p.Points...)
		}
		pts = append(pts, route...)
		pts = append(pts, r.route...)
		b = orb.MultiPoint(pts).Bound()
		pad, maxZ = fitPaddingPx, maxFitZoom
	}
	x0, y1 := mercXY(b.Min)
	x1, y0 := mercXY(b.Max)
	cx, cy := (x0+x1)/2, (y0+y1)/2
	w, h := float64(max(r.w-2*pad, 1)), float64(max(r.h-2*pad, 1))
	z := maxZ
	if dx := x1 - x0; dx > 0 {
		z = math.Min(z, math.Log2(w/(cartography.TileSize*dx)))
	}
	if dy := y1 - y0; dy > 0 {
		z = math.Min(z, math.Log2(h/(cartography.TileSize*dy)))
	}
	z = math.Max(0, z)
	return render.MercatorView(mercPoint(cx, cy), z, r.w*r.scale, r.h*r.scale, cartography.TileSize*r.scale), z
}

// staticMapKeys adds to the x-api-key header values of a static map
// request those of ?key= (for an <img>, which cannot send a header; more
// than one key in all is refused by the gate, as two headers are).
func staticMapKeys(req *http.Request, header []string) []string {
	vals := slices.Clone(header)
	if q, err := semicolonQuery(req.URL.RawQuery); err == nil {
		vals = append(vals, q["key"]...)
	}
	return vals
}
