package api

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/boundary"
)

// adminHierarchy returns the administrative areas at p from admin0 down:
// for each level 0..8 the area adminv1 answers for it (AdminAt), each
// area once, at its own category (a level without an area of its own
// repeats a coarser one, which is not listed again).
func adminHierarchy(l *boundary.Layer, p orb.Point) []*boundary.Area {
	var out []*boundary.Area
	for level := 0; level <= boundary.MaxAdmin; level++ {
		if a, ok := l.AdminAt(p, level); ok && a.Admin == level {
			out = append(out, a)
		}
	}
	return out
}

// parseGeometryFlag reads xy2hierarchy's optional geometry: true or
// false (default false).
func parseGeometryFlag(q url.Values) (bool, string) {
	vs, ok := q["geometry"]
	if !ok || len(vs) == 0 {
		return false, ""
	}
	switch vs[0] {
	case "true":
		return true, ""
	case "false":
		return false, ""
	}
	return false, fmt.Sprintf("geometry must be true or false, got %s", quoteEcho(vs[0]))
}

// xy2hierarchy answers GET /adminv1/xy2hierarchy?x=&y=&geometry=: every
// administrative area containing the point, admin0 first, as a GeoJSON
// FeatureCollection whose features carry adminv1's properties; geometry
// null, or with geometry=true the Polygon of the area containing the
// point, as xy2admininfo gives it.
func (h *adminHandler) xy2hierarchy(c echo.Context) error {
	q := c.QueryParams()
	p, msg := parseLookupPoint(q, lookupLonX, lookupLatY)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	withGeom, msg := parseGeometryFlag(q)
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
	b := h.appendHierarchy(make([]byte, 0, 1024), bd.Boundaries, p, withGeom, langs)
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, b)
}

// appendHierarchy appends to b the xy2hierarchy answer at p on layer l.
func (h *adminHandler) appendHierarchy(b []byte, l *boundary.Layer, p orb.Point, withGeom bool, langs []string) []byte {
	areas := adminHierarchy(l, p)
	b = append(b, adminCollectionHead...)
	for i, a := range areas {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":"Feature","id":null,"geometry":`...)
		if withGeom {
			b = append(b, h.polygonJSON(l, a, p).json...)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, `,"geometry_name":"`+adminGeometryName+`","properties":`...)
		b = appendAdminProperties(b, a, adminNames{name: a.NameIn(langs), country: l.CountryNameIn(a, p, langs)})
		b = append(b, '}')
	}
	n := int64(len(areas))
	b = append(b, `],"totalFeatures":`...)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"numberMatched":`...)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"numberReturned":`...)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, `,"timeStamp":"`...)
	b = h.opts.Now().UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z")
	return append(b, `","crs":{"type":"name","properties":{"name":"`+adminCRS+`"}}}`...)
}

// appendAdminProperties appends the properties object of an adminv1
// feature of area a.
func appendAdminProperties(b []byte, a *boundary.Area, names adminNames) []byte {
	code, _ := a.AdminCategoryCode()
	b = append(b, `{"boundary_id":`...)
	b = strconv.AppendInt(b, a.ID, 10)
	b = append(b, `,"country_code":`...)
	b = strconv.AppendInt(b, int64(a.DialCode), 10)
	b = append(b, `,"country_name":`...)
	b = lookupJSONString(b, names.country)
	b = append(b, `,"category_code":"`...)
	b = append(b, code...)
	b = append(b, `","category_name":`...)
	b = lookupJSONString(b, a.CategoryName)
	b = append(b, `,"name":`...)
	b = lookupJSONString(b, names.name)
	b = append(b, `,"bbox":`...)
	b = appendCoords(b, a.BBox.Min[0], a.BBox.Min[1], a.BBox.Max[0], a.BBox.Max[1])
	b = append(b, `,"source":`...)
	b = lookupJSONString(b, a.Source)
	return append(b, '}')
}
