package main

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/internal/testenv"
)

// mvtClientsDir holds the independent MVT decoder (@mapbox/vector-tile
// and pbf, pinned in its package.json) and its script.
const mvtClientsDir = "testdata/mvtclients"

// decodedFeature is a feature as testdata/mvtclients/decode.js prints it.
type decodedFeature struct {
	Type       string         `json:"type"`
	Properties map[string]any `json:"properties"`
	Points     int            `json:"points"`
	BBox       [4]float64     `json:"bbox"`
	Exteriors  int            `json:"exteriors"`
	Rings      [][][2]float64 `json:"rings"`
}

type decodedLayer struct {
	Extent   int              `json:"extent"`
	Version  int              `json:"version"`
	Features []decodedFeature `json:"features"`
}

// decodeMVT decodes tiles (raw bytes, gzip or not) with node's
// @mapbox/vector-tile; the test is skipped without node and npm (fails
// under CI=true).
func decodeMVT(t *testing.T, tiles map[string][]byte) map[string]map[string]decodedLayer {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Skip(t, "node is not installed: it decodes the tiles")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		testenv.Skip(t, "npm is not installed: it installs the decoder")
	}
	if _, err := os.Stat(mvtClientsDir + "/node_modules/.package-lock.json"); err != nil {
		cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = mvtClientsDir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
	}
	dir := t.TempDir()
	args := []string{"decode.js"}
	for name, b := range tiles {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	cmd := exec.Command(node, args...)
	cmd.Dir = mvtClientsDir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node decode.js: %v", err)
	}
	var byPath map[string]map[string]decodedLayer
	if err := json.Unmarshal(out, &byPath); err != nil {
		t.Fatalf("decode.js output: %v", err)
	}
	res := map[string]map[string]decodedLayer{}
	for p, ls := range byPath {
		res[filepath.Base(p)] = ls
	}
	return res
}

// tilePixel is where web-mercator math, written out here, puts lon/lat
// in tile z/x/y of extent units.
func tilePixel(lon, lat float64, z, x, y, extent int) (float64, float64) {
	n := math.Exp2(float64(z))
	fx := (lon + 180) / 360 * n
	fy := (1 - math.Asinh(math.Tan(lat*math.Pi/180))/math.Pi) / 2 * n
	return (fx - float64(x)) * float64(extent), (fy - float64(y)) * float64(extent)
}

// inRings reports whether p is inside rings by the even-odd rule.
func inRings(rings [][][2]float64, px, py float64) bool {
	in := false
	for _, r := range rings {
		for i, j := 0, len(r)-1; i < len(r); j, i = i, i+1 {
			a, b := r[i], r[j]
			if (a[1] > py) != (b[1] > py) && px < (b[0]-a[0])*(py-a[1])/(b[1]-a[1])+a[0] {
				in = !in
			}
		}
	}
	return in
}

// TestVectorTilesDelaware: geosvc serve's vector tiles of the Delaware
// bundle decode with an independent decoder (node's @mapbox/vector-tile)
// and hold what the OSM data has: in Dover (z14) the streets checked by
// hand in the extract (osmium extract of the tile's box: West Division
// Street a secondary road numbered DE 8, West Loockerman Street and
// Martin Luther King Jr Blvd N one-way in places, Forest Street, South
// State Street) and the place Dover; in Delaware Bay (z10) water at
// 39.1° N 75.2° W, mid-bay between Kitts Hummock and the New Jersey
// shore; the St. Georges Bridge a bridge on layer 1. gzip when asked, a tile token opens them, bad indexes are 400s,
// and a tile of open ocean is an empty MVT.
func TestVectorTilesDelaware(t *testing.T) {
	if testing.Short() && !testenv.Required() {
		t.Skip("-short: skipping the Delaware vector tiles")
	}
	const key = "gs_mvt_test_key_0123456789abcdefghijkl"
	data, err := delawareBundle(t)
	if err != nil {
		testenv.Skip(t, "no Delaware bundle: %v", err)
	}
	base := inProcessServer(t, data, key)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(path, encoding string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		if !strings.Contains(path, "token=") {
			req.Header.Set("x-api-key", key)
		}
		if encoding != "" {
			req.Header.Set("Accept-Encoding", encoding)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	tiles := map[string][]byte{}
	for _, tc := range []struct{ name, path, enc string }{
		{"dover.mvt", "/tilesv1/14/4754/6252.mvt", "gzip"},
		{"dover-plain.mvt", "/tilesv1/14/4754/6252.mvt", ""},
		{"bay.mvt", "/tilesv1/10/298/390.mvt", "gzip, deflate"},
		{"canal.mvt", "/tilesv1/14/4749/6229.mvt", "gzip"},
	} {
		resp, b := get(tc.path, tc.enc)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/vnd.mapbox-vector-tile" {
			t.Fatalf("%s: %d %q %s", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
		gz := resp.Header.Get("Content-Encoding") == "gzip"
		if gz != (tc.enc != "") || (gz && (len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b)) {
			t.Errorf("%s (Accept-Encoding %q): Content-Encoding %q", tc.path, tc.enc, resp.Header.Get("Content-Encoding"))
		}
		if resp.Header.Get("ETag") == "" || resp.Header.Get("Cache-Control") != "private, max-age=3600" {
			t.Errorf("%s: ETag %q Cache-Control %q", tc.path, resp.Header.Get("ETag"), resp.Header.Get("Cache-Control"))
		}
		tiles[tc.name] = b
	}
	// Open ocean (the South Pacific): a tile of no feature.
	if resp, b := get("/tilesv1/6/3/40.mvt", ""); resp.StatusCode != http.StatusOK || len(b) != 0 {
		t.Errorf("an ocean tile: %d, %d bytes, want 200 and an empty MVT", resp.StatusCode, len(b))
	}
	for path, msg := range map[string]string{
		"/tilesv1/21/0/0.mvt":  "z must be an integer in 0..20",
		"/tilesv1/2/4/0.mvt":   "x must be an integer in 0..3 at zoom 2",
		"/tilesv1/2/0/-1.mvt":  "y must be an integer in 0..3 at zoom 2",
		"/tilesv1/2/0/0.mvt.x": "a tile is",
	} {
		resp, b := get(path, "")
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), msg) {
			t.Errorf("%s: %d %s, want 400 naming %q", path, resp.StatusCode, b, msg)
		}
	}

	// A tile token opens vector tiles as it opens PNG tiles; the TileJSON
	// and the style carry it into the tile URLs.
	req, _ := http.NewRequest(http.MethodPost, base+"/tilesv1/token", nil)
	req.Header.Set("x-api-key", key)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tok struct{ Token string }
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || tok.Token == "" {
		t.Fatalf("token: %v %+v", err, tok)
	}
	resp.Body.Close()
	if resp, b := get("/tilesv1/14/4754/6252.mvt?token="+tok.Token, ""); resp.StatusCode != http.StatusOK || len(b) == 0 {
		t.Errorf("a tile by token: %d, %d bytes", resp.StatusCode, len(b))
	}
	if resp, _ := get("/tilesv1/14/4754/6252.mvt?token=forged.1.x", ""); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a forged token: %d, want 403", resp.StatusCode)
	}
	resp, b := get("/tilesv1/tiles.json?token="+tok.Token, "")
	var tj struct {
		TileJSON     string    `json:"tilejson"`
		Tiles        []string  `json:"tiles"`
		Bounds       []float64 `json:"bounds"`
		Extract      []float64 `json:"extract_bounds"`
		MinZoom      int       `json:"minzoom"`
		MaxZoom      int       `json:"maxzoom"`
		VectorLayers []struct {
			ID     string            `json:"id"`
			Fields map[string]string `json:"fields"`
		} `json:"vector_layers"`
	}
	if err := json.Unmarshal(b, &tj); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("tiles.json: %d %v %s", resp.StatusCode, err, b)
	}
	if tj.TileJSON != "3.0.0" || len(tj.Tiles) != 1 || tj.Tiles[0] != base+"/tilesv1/{z}/{x}/{y}.mvt?token="+tok.Token ||
		len(tj.Bounds) != 4 || tj.Bounds[0] != -180 || tj.Bounds[2] != 180 || tj.MaxZoom != 14 ||
		len(tj.Extract) != 4 || tj.Extract[0] > -75.53 || tj.Extract[2] < -75.53 || tj.Extract[1] > 39.16 || tj.Extract[3] < 39.16 {
		t.Errorf("tiles.json: %s", b)
	}
	ids := map[string]bool{}
	for _, l := range tj.VectorLayers {
		ids[l.ID] = len(l.Fields) > 0 || l.ID == "buildings"
	}
	for _, id := range []string{"water", "landuse", "buildings", "roads", "railways", "boundaries", "places"} {
		if !ids[id] {
			t.Errorf("tiles.json: no vector layer %s with its fields", id)
		}
	}

	dec := decodeMVT(t, tiles)
	dover := dec["dover.mvt"]
	if plain := dec["dover-plain.mvt"]; len(plain["roads"].Features) != len(dover["roads"].Features) {
		t.Errorf("gzip and plain tiles differ: %d and %d roads", len(dover["roads"].Features), len(plain["roads"].Features))
	}
	for name, l := range dover {
		if l.Version != 2 || l.Extent != 4096 {
			t.Errorf("Dover layer %s: version %d extent %d", name, l.Version, l.Extent)
		}
		for _, f := range l.Features {
			if f.Type == "Polygon" && f.Exteriors == 0 {
				t.Errorf("Dover layer %s: a polygon without an exterior ring (winding): %+v", name, f.Properties)
			}
		}
	}
	for _, want := range []string{"water", "buildings", "roads", "places", "land"} {
		if len(dover[want].Features) == 0 {
			t.Errorf("Dover z14: no %s", want)
		}
	}
	type road struct {
		class, ref string
		oneway     bool
	}
	roads := map[string][]road{}
	for _, f := range dover["roads"].Features {
		if f.Type != "LineString" {
			t.Errorf("a road of type %s", f.Type)
		}
		n, _ := f.Properties["name"].(string)
		c, _ := f.Properties["class"].(string)
		r, _ := f.Properties["ref"].(string)
		roads[n] = append(roads[n], road{c, r, f.Properties["oneway"] == float64(1)})
	}
	has := func(name string, ok func(road) bool) bool {
		for _, r := range roads[name] {
			if ok(r) {
				return true
			}
		}
		return false
	}
	for _, tc := range []struct {
		name string
		ok   func(road) bool
		what string
	}{
		// OSM's "DE 8" as geosvc writes route numbers everywhere (routev1's
		// descriptions too): "DE-8".
		{"West Division Street", func(r road) bool { return r.class == "secondary" && r.ref == "DE-8" }, "secondary, ref DE-8"},
		{"West Loockerman Street", func(r road) bool { return r.oneway }, "one-way in places"},
		{"Martin Luther King Jr Blvd N", func(r road) bool { return r.oneway }, "one-way"},
		{"Forest Street", func(road) bool { return true }, "present"},
		{"South State Street", func(road) bool { return true }, "present"},
	} {
		if !has(tc.name, tc.ok) {
			t.Errorf("Dover z14: %s not %s: %+v", tc.name, tc.what, roads[tc.name])
		}
	}
	dovers := 0
	for _, f := range dover["places"].Features {
		if f.Properties["name"] == "Dover" && f.Type == "Point" {
			dovers++
		}
	}
	if dovers != 1 {
		t.Errorf("Dover z14: %d places named Dover, want 1", dovers)
	}

	// The St. Georges Bridge over the C&D Canal (OSM way 43563437:
	// highway=primary, ref US 13, bridge=yes, layer=1).
	bridge := false
	for _, f := range dec["canal.mvt"]["roads"].Features {
		if f.Properties["name"] == "St. Georges Bridge" && f.Properties["brunnel"] == "bridge" && f.Properties["layer"] == float64(1) &&
			f.Properties["ref"] == "US-13" && f.Properties["class"] == "primary" {
			bridge = true
		}
	}
	if !bridge {
		t.Errorf("C&D Canal z14: no St. Georges Bridge (primary, US-13, bridge, layer 1)")
	}

	bay := dec["bay.mvt"]
	px, py := tilePixel(-75.2, 39.1, 10, 298, 390, 4096)
	water := false
	for _, f := range bay["water"].Features {
		water = water || inRings(f.Rings, px, py)
	}
	if !water {
		t.Errorf("Delaware Bay z10: no water at 39.1 N 75.2 W (tile pixel %.0f, %.0f) in %d water features", px, py, len(bay["water"].Features))
	}
	// The tile is mid-bay and New Jersey (outside the extract): land of
	// the world base layer, no roads.
	if len(bay["land"].Features) == 0 {
		t.Errorf("Delaware Bay z10: no land")
	}
}
