package api

import (
	"compress/flate"
	"net/http"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/keys"
)

// adminInterface is the interface name of the administrative boundary
// endpoint, as keys and usage counters know it.
const adminInterface = keys.AdminV1

// adminGeometryName is the geometry_name of adminv1 features.
const adminGeometryName = "geom"

// adminCRS is the CRS name of adminv1 and zip4v1 collections.
const adminCRS = "urn:ogc:def:crs:EPSG::4326"

// BoundaryOptions configures the adminv1 and geoboundariesv1 endpoints.
type BoundaryOptions struct {
	// Bundle is the data bundle answered from; nil, or holding none yet,
	// while it loads (the endpoints then answer 503).
	Bundle *bundle.Current
	// Now is the clock of adminv1's timeStamp; default time.Now.
	Now func() time.Time
}

// errBoundaryLoading answers a lookup before the layer is loaded.
var errBoundaryLoading = httpError(http.StatusServiceUnavailable, "data bundle loading")

// RegisterAdmin adds GET /adminv1/xy2admininfo and the extension GET
// /adminv1/xy2hierarchy (every level at once, admin_hierarchy.go) to g,
// which must authenticate requests (Server.Protected).
//
// The answer is a GeoJSON FeatureCollection with at most one feature: the
// area of category admin<type> containing the point x (lon), y (lat), or
// the nearest coarser one where the country has no area of that category
// there. Its geometry is the Polygon of the area that contains the point
// (for a MultiPolygon area, the part the point is in, holes kept);
// properties.bbox is the bbox of the whole area [min_lon, min_lat,
// max_lon, max_lat]; the top-level bbox is that of the returned polygon,
// latitude first [min_lat, min_lon, max_lat, max_lon]. A point outside
// every area answers an empty collection (counts 0, bbox null). Bad
// input answers 400 {"message"}; 503 until the layer is loaded.
func RegisterAdmin(g *echo.Group, opts BoundaryOptions) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	h := &adminHandler{opts: opts}
	h.bufs.New = func() any { b := make([]byte, 0, 16<<10); return &b }
	g.GET("/"+adminInterface+"/xy2admininfo", h.xy2admininfo)
	g.GET("/"+adminInterface+"/xy2hierarchy", h.xy2hierarchy)
}

// adminHandler serves adminv1.
type adminHandler struct {
	opts BoundaryOptions
	bufs sync.Pool
	// geoms caches the JSON of each returned polygon, by adminGeomKey.
	geoms sync.Map
}

// adminGeomKey identifies one polygon of one area of one loaded layer.
type adminGeomKey struct {
	layer *boundary.Layer
	id    int64
	poly  int
}

// adminGeom is the cached JSON geometry of a polygon and its bbox.
type adminGeom struct {
	json  []byte
	bound orb.Bound
	// gz is the gzip member begun by the answer up to the end of the
	// polygon (adminFeatureHead, json), made on the first request that
	// accepts gzip.
	gzOnce sync.Once
	gz     *gzipPrefix
	gzErr  error
}

// gzipped returns g's gzip prefix, compressing it on first call.
func (g *adminGeom) gzipped() (*gzipPrefix, error) {
	g.gzOnce.Do(func() {
		g.gz, g.gzErr = newGzipPrefix(flate.BestCompression, []byte(adminFeatureHead), g.json)
	})
	return g.gz, g.gzErr
}

// adminCollectionHead and adminFeatureHead begin every adminv1 answer,
// the latter those with a feature, up to its geometry.
const (
	adminCollectionHead = `{"type":"FeatureCollection","features":[`
	adminFeatureHead    = adminCollectionHead + `{"type":"Feature","id":null,"geometry":`
)

func (h *adminHandler) xy2admininfo(c echo.Context) error {
	q := c.QueryParams()
	p, msg := parseLookupPoint(q, lookupLonX, lookupLatY)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	level, msg := parseAdminType(q)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	langs, msg := requestLang(c, q)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	bd := h.opts.Bundle.Load()
	if bd == nil || bd.Boundaries == nil {
		return errBoundaryLoading
	}
	l := bd.Boundaries
	a, ok := l.AdminAt(p, level)
	var g *adminGeom
	if ok {
		g = h.polygonJSON(l, a, p)
	}
	bp := h.bufs.Get().(*[]byte)
	defer h.bufs.Put(bp)
	var names adminNames
	if ok {
		names = adminNames{name: a.NameIn(langs), country: l.CountryNameIn(a, p, langs)}
	}
	b, at := appendAdminCollection((*bp)[:0], a, names, g, h.opts.Now())
	*bp = b
	resp := c.Response()
	resp.Header().Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	if g != nil && acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding)) {
		if gz, err := g.gzipped(); err == nil {
			bp2 := h.bufs.Get().(*[]byte)
			defer h.bufs.Put(bp2)
			*bp2 = gz.appendTail((*bp2)[:0], b[at:])
			resp.Header().Set(echo.HeaderContentEncoding, "gzip")
			return writeAdminCollection(resp, gz.member, nil, *bp2)
		}
	}
	return writeAdminCollection(resp, b[:at], g, b[at:])
}

// writeAdminCollection writes the answer made of head, the polygon's
// cached JSON (none for an empty collection) and tail: the polygon, up to
// 600 KB for a country, goes out from the cache without a copy into the
// body. A gzipped answer is the cached gzip prefix as head, then the
// member's end as tail.
func writeAdminCollection(w *echo.Response, head []byte, g *adminGeom, tail []byte) error {
	n := len(head) + len(tail)
	if g != nil {
		n += len(g.json)
	}
	w.Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	w.Header().Set(echo.HeaderContentLength, strconv.Itoa(n))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(head); err != nil {
		return err
	}
	if g != nil {
		if _, err := w.Write(g.json); err != nil {
			return err
		}
	}
	_, err := w.Write(tail)
	return err
}

// polygonJSON returns the cached geometry of a's polygon containing p.
func (h *adminHandler) polygonJSON(l *boundary.Layer, a *boundary.Area, p orb.Point) *adminGeom {
	poly, ok := a.PolygonAt(p)
	k := 0
	if ok {
		for i, q := range a.Geometry() {
			if len(q) > 0 && len(poly) > 0 && &q[0][0] == &poly[0][0] {
				k = i
				break
			}
		}
	} else {
		poly = a.Geometry()[0]
	}
	key := adminGeomKey{layer: l, id: a.ID, poly: k}
	if v, ok := h.geoms.Load(key); ok {
		return v.(*adminGeom)
	}
	g := &adminGeom{json: appendPolygonGeometry(nil, poly), bound: poly.Bound()}
	h.geoms.Store(key, g)
	return g
}

// adminNames are the names an adminv1 answer gives its area, in the
// request's language (lang, Accept-Language) where the data has them.
type adminNames struct{ name, country string }

// appendAdminCollection appends to b the adminv1 FeatureCollection of
// area a (nil: none) whose returned polygon is g, all but g's JSON, which
// goes at offset at of the returned text.
func appendAdminCollection(b []byte, a *boundary.Area, names adminNames, g *adminGeom, now time.Time) (_ []byte, at int) {
	n := 0
	if a != nil {
		n = 1
	}
	if a == nil {
		b = append(b, adminCollectionHead...)
	} else {
		b = append(b, adminFeatureHead...)
		at = len(b)
		b = append(b, `,"geometry_name":"`+adminGeometryName+`","properties":`...)
		b = appendAdminProperties(b, a, names)
		b = append(b, '}')
	}
	if a == nil {
		at = len(b)
	}
	b = append(b, `],"totalFeatures":`...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, `,"numberMatched":`...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, `,"numberReturned":`...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, `,"timeStamp":"`...)
	b = now.UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z")
	b = append(b, `","crs":{"type":"name","properties":{"name":"`+adminCRS+`"}},"bbox":`...)
	if a == nil {
		b = append(b, "null"...)
	} else {
		b = appendCoords(b, g.bound.Min[1], g.bound.Min[0], g.bound.Max[1], g.bound.Max[0])
	}
	return append(b, '}'), at
}

// appendPolygonGeometry appends a GeoJSON Polygon geometry.
func appendPolygonGeometry(b []byte, p orb.Polygon) []byte {
	b = append(b, `{"type":"Polygon","coordinates":[`...)
	for i, r := range p {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for j, pt := range r {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendCoords(b, pt[0], pt[1])
		}
		b = append(b, ']')
	}
	return append(b, "]}"...)
}

// appendCoords appends a JSON array of coordinates in degrees, rounded to
// 7 decimals (1 cm; OSM's own precision). The world base layer's points
// lie on a grid whose steps are not decimal and would otherwise be
// written with 17 digits.
func appendCoords(b []byte, vs ...float64) []byte {
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendFloat(b, geo.Round7(v), 'f', -1, 64)
	}
	return append(b, ']')
}

// appendFloats appends a JSON array of numbers.
func appendFloats(b []byte, vs ...float64) []byte {
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendFloat(b, v, 'f', -1, 64)
	}
	return append(b, ']')
}

// lookupJSONString appends s as a JSON string (control characters, quote
// and backslash escaped; invalid UTF-8 replaced by U+FFFD).
func lookupJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, "\\ufffd"...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
