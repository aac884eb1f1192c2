package boundary

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/paulmach/orb"
)

// TestBuildFixtureWithGeoJSON builds the hand-written osmarea fixture plus
// a GeoJSON file: a country (replacing the clipped OSM country of the same
// code), a postal-code area by category name, and an area by category code.
func TestBuildFixtureWithGeoJSON(t *testing.T) {
	dir := t.TempDir()
	gj := filepath.Join(dir, "extra.geojson")
	const doc = `{"type":"FeatureCollection","features":[
 {"type":"Feature","properties":{"name":"Xanadu","iso_a2":"XA"},"geometry":{"type":"Polygon","coordinates":[[[0.15,-0.05],[0.35,-0.05],[0.35,0.15],[0.15,0.15],[0.15,-0.05]]]}},
 {"type":"Feature","properties":{"name":"19901","category":"postal_code"},"geometry":{"type":"Polygon","coordinates":[[[0.2,0],[0.3,0],[0.3,0.1],[0.2,0.1],[0.2,0]]]}},
 {"type":"Feature","properties":{"id":77,"name":"Ward 7","category":924},"geometry":{"type":"MultiPolygon","coordinates":[[[[0.2,0],[0.25,0],[0.25,0.05],[0.2,0]]]]}}
]}`
	if err := os.WriteFile(gj, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Build(BuildOptions{OSMPath: filepath.Join("..", "osmarea", "testdata", "areas.osm"), Out: dir, GeoJSON: []string{gj}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.FromGeoJSON != 3 || len(rep.Clipped) != 2 {
		t.Errorf("report: %s", rep)
	}
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := orb.Point{0.22, 0.01} // in "Four ways" (admin_level 4, XA-FW), the postcode and the ward
	c, ok := l.AdminAt(p, 0)
	if !ok || c.Name != "Xanadu" || c.Clipped || c.AdminLevel != 2 || c.ID == 400 {
		t.Errorf("admin0 = %+v, want the GeoJSON country Xanadu", c)
	}
	s, ok := l.AdminAt(p, 1)
	if !ok || s.Name != "Four ways" || s.CountryISO2 != "XA" || s.ISO3166_2 != "XA-FW" {
		t.Errorf("admin1 = %+v", s)
	}
	gb := l.GeoBoundariesAt(p, nil)
	if len(gb) != 2 || gb[0].ID != 77 || gb[0].CategoryName != "political" || gb[1].Name != "19901" || gb[1].CategoryCode != 920 {
		t.Errorf("geo-boundaries = %v", gb)
	}
	for _, a := range l.Areas() {
		if !a.Contains(a.RepPoint) {
			t.Errorf("area %d %q misses its representative point", a.ID, a.Name)
		}
	}
	// The square with a hole: protect_class 2.
	sq, ok := l.ByID(100)
	if !ok || sq.CategoryCode != 921 || !sq.HasSubCategory || sq.SubCategoryCode != 2 || sq.SubCategoryName != "national_park" {
		t.Errorf("r100 = %+v", sq)
	}
	if in := (orb.Point{0.045, 0.045}); sq.Contains(in) {
		t.Error("r100 contains a point of its hole")
	}
}

func TestBuildErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.geojson")
	os.WriteFile(bad, []byte(`{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"x"},"geometry":{"type":"Point","coordinates":[0,0]}}]}`), 0o644)
	fixture := filepath.Join("..", "osmarea", "testdata", "areas.osm")
	for name, opts := range map[string]BuildOptions{
		"missing osm":   {OSMPath: filepath.Join(dir, "none.osm.pbf"), Out: dir},
		"point geojson": {OSMPath: fixture, Out: dir, GeoJSON: []string{bad}},
		"bad levels":    {OSMPath: fixture, Out: dir, AdminLevels: []byte("default: {2: 12}")},
		"bad cats":      {OSMPath: fixture, Out: dir, GeoBoundaries: []byte("categories: [{code: 901, name: x}]")},
	} {
		if _, err := Build(opts); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Load(dir); err == nil {
		t.Error("Load of a directory without the layer: no error")
	}
}
