package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/world/internal/config"
	"github.com/geosvc/geosvc/geo/world/internal/worldfile"
)

// topology returns a TopoJSON topology with the given grid arcs
// (absolute positions, delta-encoded here), transform and objects.
func topology(t *testing.T, scale, translate [2]float64, arcs [][][2]int, objects map[string]any) []byte {
	t.Helper()
	enc := make([][][2]int, len(arcs))
	for i, a := range arcs {
		var px, py int
		for _, p := range a {
			enc[i] = append(enc[i], [2]int{p[0] - px, p[1] - py})
			px, py = p[0], p[1]
		}
	}
	b, err := json.Marshal(map[string]any{
		"type":      "Topology",
		"transform": map[string]any{"scale": scale, "translate": translate},
		"arcs":      enc,
		"objects":   objects,
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func square(x0, y0, x1, y1 int) [][2]int {
	return [][2]int{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}}
}

func poly(id, name string, arcs ...int) map[string]any {
	g := map[string]any{"type": "Polygon", "arcs": [][]int{arcs}, "properties": map[string]string{"name": name}}
	if id != "" {
		g["id"] = id
	}
	return g
}

func jsonCollection(gs ...map[string]any) map[string]any {
	return map[string]any{"type": "GeometryCollection", "geometries": gs}
}

// worldPackage is a small world-atlas: grid step 0.01 degree from 0, 0.
func worldPackage(t *testing.T) map[string][]byte {
	arcs := [][][2]int{
		square(0, 0, 100, 100),         // 0 United States of America
		square(200, 0, 300, 100),       // 1 Australia
		square(400, 0, 410, 10),        // 2 Ashmore and Cartier Is.
		square(500, 0, 550, 50),        // 3 Kosovo
		square(600, 0, 610, 10),        // 4 Spratly Is.
		square(700, 0, 710, 10),        // 5 Indian Ocean Ter., west
		square(800, 0, 810, 10),        // 6 Indian Ocean Ter., east
		{{900, 0}, {900, 5}, {900, 0}}, // 7 Vatican: no area
	}
	iot := map[string]any{"type": "MultiPolygon", "arcs": [][][]int{{{5}}, {{6}}}, "properties": map[string]string{"name": "Indian Ocean Ter."}}
	countries := jsonCollection(
		poly("840", "United States of America", 0), poly("036", "Australia", 1), poly("036", "Ashmore and Cartier Is.", 2),
		poly("", "Kosovo", 3), poly("", "Spratly Is.", 4), iot, poly("336", "Vatican", 7))
	return map[string][]byte{
		"package.json":       []byte(`{"name":"world-atlas","version":"2.0.2","license":"ISC"}`),
		"README.md":          []byte("Natural Earth's vector data, version 4.1.0 as TopoJSON."),
		"countries-10m.json": topology(t, [2]float64{0.01, 0.01}, [2]float64{0, 0}, arcs, map[string]any{"countries": countries}),
	}
}

// usPackage is a small us-atlas: Delaware with Kent County, Alaska with
// Anchorage, Alaska's state ring left one step short of closed (arc 3
// closes it, as in us-atlas's Illinois).
func usPackage(t *testing.T) map[string][]byte {
	arcs := [][][2]int{
		square(0, 0, 10, 10),
		square(100, 100, 110, 110),
		{{100, 100}, {110, 100}, {110, 110}, {100, 110}, {100, 101}},
		{{100, 101}, {100, 100}},
	}
	states := jsonCollection(poly("10", "Delaware", 0), poly("02", "Alaska", 2))
	counties := jsonCollection(poly("10001", "Kent", 0), poly("02020", "Anchorage", 1))
	return map[string][]byte{
		"package.json":      []byte(`{"name":"us-atlas","version":"3.0.1","license":"ISC"}`),
		"README.md":         []byte("the Census Bureau's [cartographic boundary shapefiles](http://www.census.gov/x), 2017 edition as TopoJSON"),
		"counties-10m.json": topology(t, [2]float64{0.01, 0.01}, [2]float64{-100, 30}, arcs, map[string]any{"states": states, "counties": counties}),
		"states-10m.json":   topology(t, [2]float64{0.01, 0.01}, [2]float64{-100, 30}, arcs[:1], map[string]any{"states": jsonCollection(poly("10", "Delaware", 0), poly("02", "Alaska", 0))}),
	}
}

func testConfig() *config.Config {
	return &config.Config{
		Countries: config.Countries{
			Unidentified: []config.Unidentified{
				{Name: "Kosovo", ID: "900", ISO2: "XK"},
				{Name: "Spratly Is.", Omit: true},
				{Name: "Indian Ocean Ter.", Parts: []config.Part{
					{ID: "162", As: "Christmas Island", Box: [4]float64{6.9, -1, 7.2, 1}},
					{ID: "166", As: "Cocos (Keeling) Islands", Box: [4]float64{7.9, -1, 8.2, 1}},
				}},
			},
			Duplicates: map[string]string{"036": "Australia"},
		},
		Counties: config.Counties{
			Default:  "County",
			Listed:   []string{"02"},
			Counties: map[string]string{"02020": "Municipality"},
		},
	}
}

// writeDir writes files into a new directory and returns it.
func writeDir(t *testing.T, files map[string][]byte) string {
	dir := t.TempDir()
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// writeTarball writes files as npm pack does (under package/, gzipped).
func writeTarball(t *testing.T, files map[string][]byte) string {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for n, b := range files {
		if err := tw.WriteHeader(&tar.Header{Name: "package/" + n, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(b)
	}
	tw.Close()
	gz.Close()
	p := filepath.Join(t.TempDir(), "pkg.tgz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func buildFrom(t *testing.T, world, us map[string][]byte, cfg *config.Config, tarball bool) ([]byte, []string, error) {
	t.Helper()
	write := writeDir
	if tarball {
		write = writeTarball
	}
	wp, err := readPackage(write(t, world), worldFile)
	if err != nil {
		t.Fatal(err)
	}
	up, err := readPackage(write(t, us), countiesFile, statesFile)
	if err != nil {
		t.Fatal(err)
	}
	return build(wp, up, cfg)
}

func TestBuild(t *testing.T) {
	b, notes, err := buildFrom(t, worldPackage(t), usPackage(t), testConfig(), true)
	if err != nil {
		t.Fatal(err)
	}
	// Deterministic, and the same from a directory as from a tarball.
	for _, tarball := range []bool{true, false} {
		again, _, err := buildFrom(t, worldPackage(t), usPackage(t), testConfig(), tarball)
		if err != nil || !bytes.Equal(b, again) {
			t.Fatalf("second build (tarball %v) differs: %v", tarball, err)
		}
	}
	d, err := worldfile.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		kind           uint8
		id, iso2, name string
		polygons       int
	}
	var got []row
	for _, f := range d.Features {
		got = append(got, row{f.Kind, f.ID, f.ISO2, f.Name, len(f.Polygons)})
	}
	want := []row{
		{worldfile.KindCountry, "036", "AU", "Australia", 2},
		{worldfile.KindCountry, "162", "CX", "Christmas Island", 1},
		{worldfile.KindCountry, "166", "CC", "Cocos (Keeling) Islands", 1},
		{worldfile.KindCountry, "336", "VA", "Vatican", 0},
		{worldfile.KindCountry, "840", "US", "United States of America", 1},
		{worldfile.KindCountry, "900", "XK", "Kosovo", 1},
		{worldfile.KindState, "02", "US", "Alaska", 1},
		{worldfile.KindState, "10", "US", "Delaware", 1},
		{worldfile.KindCounty, "02020", "US", "Anchorage Municipality", 1},
		{worldfile.KindCounty, "10001", "US", "Kent County", 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("features\n%v\nwant\n%v", got, want)
	}
	// The Spratly arc and the Vatican's are pruned; the closing arc kept.
	if n := d.Topologies[0].Arcs(); n != 6 {
		t.Errorf("%d world arcs kept, want 6", n)
	}
	alaska, err := d.Geometry(&d.Features[6])
	if err != nil {
		t.Fatal(err)
	}
	if r := alaska[0][0]; len(r) != 6 || r[0] != r[len(r)-1] || !r.Bound().Contains(orb.Point{-98.95, 31.05}) {
		t.Errorf("Alaska ring %v: want the unclosed ring closed by the joining arc", r)
	}
	src := d.Topologies[0].Source
	if src.Version != "2.0.2" || src.Data != "Natural Earth 4.1.0 Admin 0 - Countries, 1:10m" || src.PackageLicense != "ISC" || len(src.SHA256) != 64 {
		t.Errorf("world source %+v", src)
	}
	if us := d.Topologies[1].Source; !strings.Contains(us.Data, "2017 edition") || us.Name != "census" {
		t.Errorf("US source %+v", us)
	}
	for _, want := range []string{"Spratly Is.: left out", "336 Vatican: no area left", "02 Alaska: ring closed", "id 036: Australia + Ashmore and Cartier Is. merged as Australia"} {
		if !containsPrefix(notes, want) {
			t.Errorf("no note %q in %q", want, notes)
		}
	}
}

func containsPrefix(notes []string, prefix string) bool {
	for _, n := range notes {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}

// TestBuildRefuses: whatever the rules do not cover is an error.
func TestBuildRefuses(t *testing.T) {
	tests := []struct {
		name   string
		change func(cfg *config.Config)
		want   string
	}{
		{"id-less feature without a rule", func(c *config.Config) { c.Countries.Unidentified = c.Countries.Unidentified[1:] }, `"Kosovo" has no id and no rule`},
		{"rule for no feature", func(c *config.Config) {
			c.Countries.Unidentified = append(c.Countries.Unidentified, config.Unidentified{Name: "Atlantis", Omit: true})
		}, `"Atlantis", which is no id-less feature`},
		{"repeated id not listed", func(c *config.Config) { c.Countries.Duplicates = nil }, "list it under countries.duplicates"},
		{"iso2 contradicting the countries module", func(c *config.Config) { c.Countries.Unidentified[0].ISO2 = "KV" }, "the rules say KV"},
		{"unknown id without iso2", func(c *config.Config) { c.Countries.Unidentified[0].ID, c.Countries.Unidentified[0].ISO2 = "990", "" }, "990 Kosovo"},
		{"part box holding nothing", func(c *config.Config) { c.Countries.Unidentified[2].Parts[1].Box = [4]float64{50, 50, 51, 51} }, "in no part's box"},
		{"listed county without an entry", func(c *config.Config) { c.Counties.Counties = nil }, "02020 Anchorage"},
		{"county rule for no county", func(c *config.Config) { c.Counties.Counties["02999"] = "Borough" }, "[02999]"},
		{"state rule for no state", func(c *config.Config) { c.Counties.States = map[string]string{"99": ""} }, "99, which is no state"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			tt.change(cfg)
			_, _, err := buildFrom(t, worldPackage(t), usPackage(t), cfg, false)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
