package boundary

import (
	"sort"
	"strconv"

	"github.com/biter777/countries"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/geo/spatial"
)

// Sources of an area (Area.Source).
const (
	// SourceOSM is an area of the OSM extract.
	SourceOSM = "osm"
	// SourceFile is an area of a --boundaries GeoJSON file.
	SourceFile = "file"
	// SourceNaturalEarth is a country of the world base layer (Natural
	// Earth admin 0 at 1:10m).
	SourceNaturalEarth = "naturalearth"
	// SourceCensus is a US state or county of the world base layer (US
	// Census cartographic boundaries).
	SourceCensus = "census"
)

// Ids of base-layer areas: they cannot collide with OSM ids (relations,
// negated ways) or with the ids of GeoJSON areas (10^15 + n).
const (
	// BaseCountryID + the ISO 3166-1 numeric code is a country's id.
	BaseCountryID int64 = 2_000_000_000_000_000
	// BaseUSID + the FIPS code is a US state's (2 digits) or county's (5
	// digits) id.
	BaseUSID int64 = 3_000_000_000_000_000
)

// fileIDBase is where the ids of areas from --boundaries files begin.
const fileIDBase int64 = 1_000_000_000_000_000

// BaseArea is one area of a base layer, as NewBase takes it.
type BaseArea struct {
	// ID is the area's boundary id (BaseCountryID or BaseUSID based).
	ID int64
	// Name is the area's name ("France", "Delaware", "Kent County").
	Name string
	// Admin is the administrative category (0 country, 1 state, 2
	// county) and AdminLevel the OSM admin_level it stands for (2, 4, 6).
	Admin, AdminLevel int
	// CountryISO2 is the area's country (ISO 3166-1 alpha-2).
	CountryISO2 string
	// ISO3166_2 is the subdivision code ("US-DE"), "" for countries and
	// counties.
	ISO3166_2 string
	// Source is SourceNaturalEarth or SourceCensus.
	Source string
	// Geometry is the area's polygons, lon/lat.
	Geometry orb.MultiPolygon
}

// NewBase returns a layer of the base areas: administrative areas that
// answer where a bundle's own areas do not (see Layer.WithBase).
func NewBase(in []BaseArea) *Layer {
	sorted := append([]BaseArea(nil), in...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	l := &Layer{}
	b := spatial.NewBuilder()
	for _, ba := range sorted {
		a := &Area{ID: ba.ID, Name: ba.Name, Kind: KindAdmin, Boundary: "administrative",
			AdminLevel: ba.AdminLevel, Admin: ba.Admin, CountryISO2: ba.CountryISO2,
			ISO3166_2: ba.ISO3166_2, Source: ba.Source,
			CategoryCode: AdminCategoryBase + ba.Admin, CategoryName: "admin" + strconv.Itoa(ba.Admin),
			BBox: ba.Geometry.Bound(), RepPoint: geo.InteriorPointMulti(ba.Geometry)}
		setCountry(a)
		if a.CountryName == "" && ba.Admin == 0 {
			a.CountryName = ba.Name
		}
		l.areas = append(l.areas, a)
		b.Add(ba.Geometry)
	}
	l.ix = b.Build()
	l.init()
	return l
}

// WithBase makes l answer from base where its own areas do not, and
// returns l. Precedence, at each administrative category: an area of a
// --boundaries file, else the extract's complete OSM area, else the base
// layer's. An OSM area that the extract cuts (Clipped: the union of its
// complete sub-areas stands in for it) gives way wherever the base layer
// has an area of its category. Call it before the layer is shared.
func (l *Layer) WithBase(base *Layer) *Layer {
	l.base = base
	return l
}

// Base returns the base layer l answers from, nil when it has none.
func (l *Layer) Base() *Layer { return l.base }

// sourceRank orders sources at one administrative category: a file's
// area beats the extract's, which beats the base layer's.
func sourceRank(s string) int {
	switch s {
	case SourceFile:
		return 0
	case SourceOSM:
		return 1
	}
	return 2
}

// baseAdmins returns, per administrative category, the base layer's
// named area containing p (nil where none).
func (l *Layer) baseAdmins(p orb.Point) (out [MaxAdmin + 1]*Area) {
	if l.base == nil {
		return out
	}
	l.base.ix.Search(p, func(item, _ int) bool {
		a := l.base.areas[item]
		if a.Admin >= 0 && a.Admin <= MaxAdmin && (out[a.Admin] == nil || moreSpecific(a, out[a.Admin])) {
			out[a.Admin] = a
		}
		return true
	})
	return out
}

// countryCode returns the ISO 3166-1 alpha-2 code of the country
// containing p by the layer's precedence, "" in none.
func (l *Layer) countryCode(p orb.Point) string {
	if a, ok := l.adminAt(p, 0); ok {
		return a.CountryISO2
	}
	return ""
}

// setSources gives the areas read from a bundle their source: the id
// range of --boundaries files, else OSM.
func (l *Layer) setSources() {
	for _, a := range l.areas {
		if a.Source != "" {
			continue
		}
		a.Source = SourceOSM
		if a.ID >= fileIDBase && a.ID < BaseCountryID {
			a.Source = SourceFile
		}
	}
}

// CountryByNumeric returns the ISO 3166-1 alpha-2 code of a numeric code
// ("250" -> "FR"), "" when biter777/countries does not know it.
func CountryByNumeric(numeric int) string {
	c := countries.ByNumeric(numeric)
	if c == countries.Unknown {
		return ""
	}
	return c.Alpha2()
}
