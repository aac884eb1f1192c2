package api

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/keys"
)

// geoBoundariesInterface is the interface name of the geo-boundary
// endpoint, as keys and usage counters know it.
const geoBoundariesInterface = keys.GeoBoundariesV1

// RegisterGeoBoundaries adds GET /geoboundariesv1/xy2bounddata to g, which
// must authenticate requests (Server.Protected).
//
// The answer is {"boundaries": [...]}: the non-administrative boundaries
// containing x (lon), y (lat), smaller first, or only those of category
// geo_boundary when given. Bad input (including a geo_boundary that is not
// an integer or not a category of the layer) answers 400 {"message"};
// 503 until the layer is loaded.
func RegisterGeoBoundaries(g *echo.Group, opts BoundaryOptions) {
	h := &geoBoundariesHandler{opts: opts}
	g.GET("/"+geoBoundariesInterface+"/xy2bounddata", h.xy2bounddata)
}

// geoBoundariesHandler serves geoboundariesv1.
type geoBoundariesHandler struct {
	opts BoundaryOptions
}

// geoBoundary is one entry of the answer.
type geoBoundary struct {
	BoundaryID      int64   `json:"boundary_id"`
	CountryCode     int     `json:"country_code"`
	CountryName     string  `json:"country_name"`
	CategoryCode    int     `json:"category_code"`
	CategoryName    string  `json:"category_name"`
	GeoBoundaryName string  `json:"geo_boundary_name,omitempty"`
	SubCategoryCode *int    `json:"sub_category_code"`
	SubCategoryName *string `json:"sub_category_name"`
}

// geoBoundariesAnswer is the body of xy2bounddata.
type geoBoundariesAnswer struct {
	Boundaries []geoBoundary `json:"boundaries"`
}

func (h *geoBoundariesHandler) xy2bounddata(c echo.Context) error {
	q := c.QueryParams()
	p, msg := parseLookupPoint(q, lookupLonX, lookupLatY)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	code, hasCode, msg := parseCategoryCode(q, "geo_boundary")
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	bd := h.opts.Bundle.Load()
	if bd == nil || bd.Boundaries == nil {
		return errBoundaryLoading
	}
	l := bd.Boundaries
	var cat *int
	if hasCode {
		if !l.HasCategory(code) {
			return httpError(http.StatusBadRequest, fmt.Sprintf("geo_boundary %d is not a category: use one of %s", code, categoryList(l)))
		}
		cat = &code
	}
	return c.JSON(http.StatusOK, geoBoundariesAt(l, p, cat))
}

// geoBoundariesAt is the xy2bounddata answer at p on layer l (cat: nil
// for every category).
func geoBoundariesAt(l *boundary.Layer, p orb.Point, cat *int) geoBoundariesAnswer {
	ans := geoBoundariesAnswer{Boundaries: []geoBoundary{}}
	for _, a := range l.GeoBoundariesAt(p, cat) {
		gb := geoBoundary{BoundaryID: a.ID, CountryCode: a.DialCode, CountryName: a.CountryName,
			CategoryCode: a.CategoryCode, CategoryName: a.CategoryName, GeoBoundaryName: a.Name}
		if a.HasSubCategory {
			sc, sn := a.SubCategoryCode, a.SubCategoryName
			gb.SubCategoryCode, gb.SubCategoryName = &sc, &sn
		}
		ans.Boundaries = append(ans.Boundaries, gb)
	}
	return ans
}

// categoryList renders the layer's categories for a message:
// "920 (postal_code), 921 (protected_area), ...".
func categoryList(l *boundary.Layer) string {
	var parts []string
	for _, c := range l.Categories() {
		parts = append(parts, strconv.Itoa(c.Code)+" ("+c.Name+")")
	}
	return strings.Join(parts, ", ")
}
