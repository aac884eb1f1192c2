package boundary

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/biter777/countries"
	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"
	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/geo/osmarea"
	"github.com/geosvc/geosvc/geo/osmfile"
	"github.com/geosvc/geosvc/geo/spatial"
	"github.com/geosvc/geosvc/geo/timezone"
)

// GeoJSONBaseID is the first id of areas from GeoJSON files without an id
// property.
const GeoJSONBaseID = 1_000_000_000_000_000

// selectRelation selects the relations the layer assembles.
func selectRelation(r *osm.Relation) bool {
	t := r.Tags.Find("type")
	if t != "boundary" && t != "multipolygon" {
		return false
	}
	return wantBoundary(r.Tags)
}

// selectWay selects closed ways that are areas of their own.
func selectWay(w *osm.Way) bool {
	return wantBoundary(w.Tags) && w.Tags.Find("name") != "" || w.Tags.Find("boundary") == "postal_code"
}

// wantBoundary reports whether tags make an area of the layer: an
// administrative boundary with an admin_level, or any other boundary=*
// except time zones (their own layer).
func wantBoundary(tags osm.Tags) bool {
	b := tags.Find("boundary")
	switch b {
	case "", "timezone", "marker":
		return false
	case "administrative":
		n, err := strconv.Atoi(tags.Find("admin_level"))
		return err == nil && n >= 1 && n <= 11
	}
	return true
}

func build(opts BuildOptions) (*Report, error) {
	levels, err := ParseAdminLevels(opts.AdminLevels)
	if err != nil {
		return nil, err
	}
	cats, err := ParseGeoCategories(opts.GeoBoundaries)
	if err != nil {
		return nil, err
	}
	f, err := osmfile.Open(opts.OSMPath)
	if err != nil {
		return nil, err
	}
	res, err := osmarea.Read(f, osmarea.Selector{Relation: selectRelation, Way: selectWay})
	if err != nil {
		return nil, fmt.Errorf("boundary: %w", err)
	}
	rep := &Report{Source: f.Name(), Relations: res.Relations, Ways: res.Ways,
		AdminByLevel: map[int]int{}, GeoByCategory: map[string]int{}}
	rep.Clipped = osmarea.ClipToSubareas(res)
	for _, b := range res.Broken {
		if b.Clipped {
			continue
		}
		lvl, _ := strconv.Atoi(b.Tags.Find("admin_level"))
		rep.Broken = append(rep.Broken, Broken{ID: b.ID, Name: b.Tags.Find("name"), AdminLevel: lvl, Reason: b.Reason()})
	}

	set := newCategorySet(cats)
	var newValues []string
	for _, a := range res.Areas {
		if v := a.Tags.Find("boundary"); v != "administrative" {
			newValues = append(newValues, v)
		}
	}
	rep.NewCategories = set.addNew(newValues)

	var areas []*Area
	var geoms []orb.MultiPolygon
	for _, oa := range res.Areas {
		a := areaFromTags(oa.ID, oa.Tags, set)
		a.Clipped = oa.Clipped
		areas = append(areas, a)
		geoms = append(geoms, oa.Polygons)
	}
	for _, path := range opts.GeoJSON {
		extra, eg, err := readGeoJSON(path, set)
		if err != nil {
			return nil, err
		}
		areas, geoms = mergeAreas(areas, geoms, extra, eg)
		rep.FromGeoJSON += len(extra)
	}
	for i, a := range areas {
		a.BBox = geoms[i].Bound()
		a.RepPoint = geo.InteriorPointMulti(geoms[i])
	}
	assignCountries(areas, geoms, levels)

	order := make([]int, len(areas))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return areas[order[i]].ID < areas[order[j]].ID })
	sorted := make([]*Area, len(areas))
	b := spatial.NewBuilder()
	for k, i := range order {
		sorted[k] = areas[i]
		b.Add(geoms[i])
		switch a := areas[i]; a.Kind {
		case KindAdmin:
			rep.Admin++
			rep.AdminByLevel[a.AdminLevel]++
		case KindGeo:
			rep.Geo++
			rep.GeoByCategory[a.CategoryName]++
		}
	}
	ix := b.Build()
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return nil, err
	}
	if err := write(opts.Out, sorted, set.cats, ix, meta{Source: rep.Source, Report: *rep}); err != nil {
		return nil, fmt.Errorf("boundary: %w", err)
	}
	return rep, nil
}

// areaFromTags makes the area of an OSM object (geometry, country and
// admin category come later).
func areaFromTags(id int64, tags osm.Tags, set *categorySet) *Area {
	a := &Area{ID: id, Name: tags.Find("name"), Boundary: tags.Find("boundary"), Admin: -1,
		ISO3166_2: tags.Find("ISO3166-2")}
	for _, t := range tags {
		if lang, ok := strings.CutPrefix(t.Key, "name:"); ok && lang != "" && t.Value != "" {
			if a.Names == nil {
				a.Names = map[string]string{}
			}
			a.Names[lang] = t.Value
		}
	}
	if n, err := strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(tags.Find("population")), ",", ""), 10, 64); err == nil && n > 0 {
		a.Population = n
	}
	if a.Boundary == "administrative" {
		a.Kind = KindAdmin
		a.AdminLevel, _ = strconv.Atoi(tags.Find("admin_level"))
	} else {
		a.Kind = KindGeo
		if a.Name == "" && a.Boundary == "postal_code" {
			a.Name = tags.Find("postal_code")
		}
		if c, sub := set.lookup(a.Boundary, tags.Find); c != nil {
			a.CategoryCode, a.CategoryName = c.Code, c.Name
			if sub != nil {
				a.SubCategoryCode, a.SubCategoryName, a.HasSubCategory = sub.Code, sub.Name, true
			}
		}
	}
	if cc := tagCountry(tags); cc != "" && a.AdminLevel == 2 {
		a.CountryISO2 = cc
	}
	return a
}

// tagCountry returns the ISO 3166-1 alpha-2 code a country's tags carry.
func tagCountry(tags osm.Tags) string {
	for _, k := range []string{"ISO3166-1:alpha2", "ISO3166-1", "country_code"} {
		if v := strings.ToUpper(tags.Find(k)); len(v) == 2 {
			return v
		}
	}
	return ""
}

// assignCountries gives every area its country: a country's own code; else
// the prefix of its ISO3166-2 code; else the country (admin_level 2 area)
// containing its representative point; else, for areas of a country the
// extract cut away (a neighbouring state's towns in a regional extract),
// the principal country of the time zone at the representative point. Then
// it maps admin levels to categories with the country's table.
func assignCountries(areas []*Area, geoms []orb.MultiPolygon, levels *AdminLevels) {
	b := spatial.NewBuilder()
	var countryOf []*Area
	for i, a := range areas {
		if a.Kind == KindAdmin && a.AdminLevel == 2 && a.CountryISO2 != "" {
			b.Add(geoms[i])
			countryOf = append(countryOf, a)
		}
	}
	ix := b.Build()
	for _, a := range areas {
		if a.CountryISO2 == "" {
			if pre, _, ok := strings.Cut(a.ISO3166_2, "-"); ok && len(pre) == 2 {
				a.CountryISO2 = strings.ToUpper(pre)
			}
		}
		if a.CountryISO2 == "" {
			var best *Area
			ix.Search(a.RepPoint, func(item, _ int) bool {
				if c := countryOf[item]; best == nil || boxArea(c.BBox) < boxArea(best.BBox) {
					best = c
				}
				return true
			})
			if best != nil {
				a.CountryISO2 = best.CountryISO2
			}
		}
		if a.CountryISO2 == "" {
			a.CountryISO2 = zoneCountry(a.RepPoint)
		}
		setCountry(a)
		if a.Kind == KindAdmin && a.Admin < 0 {
			if c, ok := levels.Category(a.CountryISO2, a.AdminLevel); ok {
				a.Admin = c
			}
		}
		if a.Kind == KindAdmin && a.Admin >= 0 {
			a.CategoryCode = AdminCategoryBase + a.Admin
			a.CategoryName = "admin" + strconv.Itoa(a.Admin)
		}
	}
}

// setCountry fills ISO3, name and dial code from CountryISO2.
// zoneCountry returns the ISO 3166-1 alpha-2 code of the principal country
// of the time zone at p (IANA zone1970.tab), "" when there is none (the
// sea). The zone finder is loaded on first use: most builds never need it.
func zoneCountry(p orb.Point) string {
	zoneFinderOnce.Do(func() { zoneFinder, _ = timezone.NewFinder() })
	if zoneFinder == nil {
		return ""
	}
	name := zoneFinder.Zone(p)
	if name == "" {
		return ""
	}
	z, err := timezone.ComputeZone(name, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil || len(z.Countries) == 0 {
		return ""
	}
	if c := countries.ByName(z.Countries[0]); c != countries.Unknown {
		return c.Alpha2()
	}
	return ""
}

var (
	zoneFinderOnce sync.Once
	zoneFinder     *timezone.Finder
)

func setCountry(a *Area) {
	if a.CountryISO2 == "" {
		return
	}
	c := countries.ByName(a.CountryISO2)
	if c == countries.Unknown {
		return
	}
	a.CountryISO3 = c.Alpha3()
	a.CountryName = c.String()
	if cc := c.CallCodes(); len(cc) > 0 {
		a.DialCode = int(cc[0])
	}
}

// readGeoJSON reads the areas of a GeoJSON FeatureCollection.
func readGeoJSON(path string, set *categorySet) ([]*Area, []orb.MultiPolygon, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("boundaries file: %w", err)
	}
	fc, err := geojson.UnmarshalFeatureCollection(data)
	if err != nil {
		return nil, nil, fmt.Errorf("boundaries file %s: %w", filepath.Base(path), err)
	}
	var areas []*Area
	var geoms []orb.MultiPolygon
	for i, ft := range fc.Features {
		var mp orb.MultiPolygon
		switch g := ft.Geometry.(type) {
		case orb.Polygon:
			mp = orb.MultiPolygon{g}
		case orb.MultiPolygon:
			mp = g
		default:
			return nil, nil, fmt.Errorf("boundaries file %s: feature %d: geometry %T, want Polygon or MultiPolygon", filepath.Base(path), i, ft.Geometry)
		}
		props := ft.Properties
		a := &Area{ID: GeoJSONBaseID + int64(i), Admin: -1, Name: props.MustString("name", props.MustString("NAME", ""))}
		if id, ok := number(props["id"]); ok {
			a.ID = int64(id)
		}
		for _, k := range []string{"iso_a2", "ISO_A2"} {
			if v, ok := props[k].(string); ok && len(v) == 2 {
				a.CountryISO2 = strings.ToUpper(v)
			}
		}
		if a.CountryISO2 == "" {
			for _, k := range []string{"iso_a3", "ISO_A3", "adm0_a3", "ADM0_A3"} {
				if v, ok := props[k].(string); ok && len(v) == 3 {
					if c := countries.ByName(strings.ToUpper(v)); c != countries.Unknown {
						a.CountryISO2 = c.Alpha2()
					}
					break
				}
			}
		}
		if lvl, ok := number(props["admin_level"]); ok {
			a.Kind, a.Boundary, a.AdminLevel = KindAdmin, "administrative", int(lvl)
		} else if a.CountryISO2 != "" && props["category"] == nil {
			a.Kind, a.Boundary, a.AdminLevel = KindAdmin, "administrative", 2 // a country file
		} else {
			a.Kind = KindGeo
			var c *Category
			if code, ok := number(props["category"]); ok {
				for k := range set.cats {
					if set.cats[k].Code == int(code) {
						c = &set.cats[k]
					}
				}
			} else if name, ok := props["category"].(string); ok {
				for k := range set.cats {
					if set.cats[k].Name == name {
						c = &set.cats[k]
					}
				}
			}
			if c == nil {
				return nil, nil, fmt.Errorf("boundaries file %s: feature %d: no admin_level and no known category (%v)", filepath.Base(path), i, props["category"])
			}
			a.CategoryCode, a.CategoryName, a.Boundary = c.Code, c.Name, c.Boundaries[0]
		}
		areas = append(areas, a)
		geoms = append(geoms, orient(mp))
	}
	return areas, geoms, nil
}

// number reads a JSON number or numeric string.
func number(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, !math.IsNaN(v)
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(v, 64)
		return f, err == nil
	}
	return 0, false
}

// orient winds outer rings counter-clockwise and holes clockwise.
func orient(mp orb.MultiPolygon) orb.MultiPolygon {
	for _, p := range mp {
		for k, r := range p {
			ccw := r.Orientation() == orb.CCW
			if (k == 0) != ccw {
				r.Reverse()
			}
		}
	}
	return mp
}

// mergeAreas adds extra areas, each replacing the area of the same id, or
// of a country with the same country code.
func mergeAreas(areas []*Area, geoms []orb.MultiPolygon, extra []*Area, eg []orb.MultiPolygon) ([]*Area, []orb.MultiPolygon) {
	for k, e := range extra {
		replaced := false
		for i, a := range areas {
			if a.ID == e.ID || e.Kind == KindAdmin && e.AdminLevel == 2 && a.Kind == KindAdmin && a.AdminLevel == 2 &&
				e.CountryISO2 != "" && a.CountryISO2 == e.CountryISO2 {
				if e.Name == "" {
					e.Name = a.Name
				}
				areas[i], geoms[i] = e, eg[k]
				replaced = true
				break
			}
		}
		if !replaced {
			areas = append(areas, e)
			geoms = append(geoms, eg[k])
		}
	}
	return areas, geoms
}
