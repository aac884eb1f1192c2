// Package boundary owns the boundary layer of the data bundle: every
// administrative area of the OSM extract (countries, states, counties,
// municipalities, ...) and every other boundary=* area (postal codes,
// protected areas, census, political, maritime, ...), with their polygons
// in a spatial index, written as boundaries.bin and answered from memory.
//
// Administrative areas carry their OSM admin_level and the category
// admin0..admin8 it maps to in their country (configs/admin_levels.yaml);
// the other areas carry a numbered geo-boundary category and, where the
// tags say, a sub-category (configs/geoboundaries.yaml).
package boundary

import (
	"strconv"

	"github.com/paulmach/orb"
)

// FileName is the layer's file in the bundle directory.
const FileName = "boundaries.bin"

// Admin category codes: admin0 (country) is 900, admin8 (the lowest
// level, usually municipalities) is 908.
const (
	// AdminCategoryBase is the code of admin0.
	AdminCategoryBase = 900
	// MaxAdmin is the lowest administrative category, admin8.
	MaxAdmin = 8
)

// Kind tells administrative areas from the other boundaries.
type Kind uint8

// Kinds of area.
const (
	// KindAdmin is a boundary=administrative area with an admin_level.
	KindAdmin Kind = iota + 1
	// KindGeo is any other boundary=* area (postal code, protected area,
	// census, ...): a geo-boundary.
	KindGeo
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case KindAdmin:
		return "admin"
	case KindGeo:
		return "geo"
	}
	return "unknown"
}

// Area is one boundary of the layer. Areas are shared and read-only.
type Area struct {
	// ID is the stable boundary id: the OSM relation id of a relation,
	// the negated OSM way id of a closed way, or an id of 10^15 and
	// above for areas added from a --boundaries GeoJSON file.
	ID int64
	// Name is the area's name tag (for a postal code area without a name,
	// its postal_code).
	Name string
	// Names are the name:LANG tags (key: "en", "fr", ...), nil when none.
	Names map[string]string
	// Kind is KindAdmin or KindGeo.
	Kind Kind
	// Boundary is the boundary=* value ("administrative", "postal_code",
	// "protected_area", ...).
	Boundary string
	// AdminLevel is the OSM admin_level (2..11), 0 when not tagged.
	AdminLevel int
	// Admin is the administrative category 0..8 (admin0..admin8) the
	// admin_level maps to in the area's country, -1 when it maps to none
	// (levels below admin8, like suburbs) and for geo-boundaries.
	Admin int
	// CategoryCode is 900+Admin for administrative areas with a category,
	// the geo-boundary category code for the others, 0 for admin areas
	// without a category.
	CategoryCode int
	// CategoryName is "admin0".."admin8", or the geo-boundary category's
	// name ("postal_code", "protected_area", ...); "" when none.
	CategoryName string
	// SubCategoryCode and SubCategoryName are the geo-boundary
	// sub-category (e.g. protect_class 2 "national_park"); HasSubCategory
	// is false when the area has none.
	SubCategoryCode int
	SubCategoryName string
	HasSubCategory  bool
	// CountryISO2 and CountryISO3 are the area's country ("US", "USA"),
	// "" when unknown; CountryName is its English name ("United States").
	CountryISO2, CountryISO3, CountryName string
	// DialCode is the country's international dial code (1 for the US,
	// 376 for Andorra), 0 when unknown.
	DialCode int
	// ISO3166_2 is the ISO3166-2 tag ("US-DE"), "" when not tagged.
	ISO3166_2 string
	// Population is the population tag, 0 when not tagged or not a number.
	Population int64
	// BBox is the bounding box of the geometry.
	BBox orb.Bound
	// RepPoint is a point inside the area (on its largest polygon, away
	// from its edges where the shape allows).
	RepPoint orb.Point
	// Clipped is true when the OSM relation could not be closed in the
	// extract and the geometry is the union of its complete sub-areas
	// inside the extract (a country of a regional extract).
	Clipped bool
	// Source is where the area comes from: SourceOSM, SourceFile, or the
	// world base layer's SourceNaturalEarth and SourceCensus.
	Source string `json:"-"`

	index int32 // position in the layer's spatial index
	layer *Layer
}

// Geometry returns the area's polygons (outer rings counter-clockwise,
// holes clockwise, as RFC 7946 asks). The rings alias the layer's memory:
// treat them as read-only.
func (a *Area) Geometry() orb.MultiPolygon { return a.layer.geometry(a.index) }

// PolygonAt returns the polygon of the area that contains p (holes kept),
// and false when none does.
func (a *Area) PolygonAt(p orb.Point) (orb.Polygon, bool) { return a.layer.polygonAt(a.index, p) }

// Contains reports whether p is inside the area (on its boundary counts as
// inside).
func (a *Area) Contains(p orb.Point) bool { return a.layer.contains(a.index, p) }

// AdminCategoryCode returns the adminv1 category code as a string
// ("900".."908") and false when the area has no admin category.
func (a *Area) AdminCategoryCode() (string, bool) {
	if a.Kind != KindAdmin || a.Admin < 0 {
		return "", false
	}
	return strconv.Itoa(AdminCategoryBase + a.Admin), true
}

// Filter selects areas; nil selects all.
type Filter func(*Area) bool

// Category is a geo-boundary category of the layer.
type Category struct {
	// Code is the category code (920 and up; 990 and up for boundary=*
	// values not in configs/geoboundaries.yaml, numbered in the order of
	// their names at build time).
	Code int `json:"code" yaml:"code"`
	// Name is the category's name, usually the boundary=* value.
	Name string `json:"name" yaml:"name"`
	// Boundaries are the boundary=* values of the category.
	Boundaries []string `json:"boundaries" yaml:"boundaries"`
	// SubKey is the tag the sub-category is read from ("protect_class"),
	// "" when the category has none.
	SubKey string `json:"sub_key,omitempty" yaml:"sub_key"`
	// Sub are the sub-categories.
	Sub []SubCategory `json:"sub,omitempty" yaml:"sub"`
}

// SubCategory is a sub-category of a geo-boundary category.
type SubCategory struct {
	// Code is the sub-category code.
	Code int `json:"code" yaml:"code"`
	// Name names it.
	Name string `json:"name" yaml:"name"`
	// Values are the tag values that select it.
	Values []string `json:"values" yaml:"values"`
}
