package bundle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestHashFileAndName(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "delaware-latest.osm.pbf")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := HashFile(p)
	if err != nil {
		t.Fatal(err)
	}
	want := Source{File: "delaware-latest.osm.pbf", Size: 3, SHA256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}
	if src != want {
		t.Errorf("HashFile = %+v, want %+v", src, want)
	}
	if got := (Manifest{Source: src}).Name(); got != "delaware-latest" {
		t.Errorf("Name = %q", got)
	}
}

func TestWriteReadStale(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "routing.graph"), []byte("graph"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := Source{File: "a.osm.pbf", SHA256: "00", Size: 10}
	m := Manifest{
		BundleVersion: "1.1", Source: src,
		OSMTimestamp: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), BuiltAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Layers: []Layer{{Name: "routing", File: "routing.graph", Size: 5}},
		Inputs: []Input{{Role: "profile", Source: HashBytes("car.yaml", []byte("speeds"))}},
	}
	if err := Write(dir, m); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, ManifestFile)); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("manifest.json mode %v (%v), want 0644 like the other bundle files", fi.Mode().Perm(), err)
	}
	got, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	inputs := m.Inputs
	zip := Input{Role: "zip4", Source: Source{File: "zip4.geojson", SHA256: "aa", Size: 3}}
	if got.BundleVersion != "1.1" || got.Source != src || len(got.Inputs) != 1 || got.Inputs[0] != inputs[0] || !got.OSMTimestamp.Equal(m.OSMTimestamp) || len(got.Layers) != 1 || got.LayerNames()[0] != "routing" {
		t.Errorf("Read = %+v", got)
	}
	tests := []struct {
		name    string
		version string
		src     Source
		inputs  []Input
		mutate  func()
		stale   bool
	}{
		{"same", "1.1", src, inputs, nil, false},
		{"new bundle version", "1.2", src, inputs, nil, true},
		{"source changed", "1.1", Source{File: "a.osm.pbf", SHA256: "01", Size: 10}, inputs, nil, true},
		{"source size changed", "1.1", Source{File: "a.osm.pbf", SHA256: "00", Size: 11}, inputs, nil, true},
		{"other source", "1.1", Source{File: "b.osm.pbf", SHA256: "00", Size: 10}, inputs, nil, true},
		{"profile changed", "1.1", src, []Input{{Role: "profile", Source: HashBytes("car.yaml", []byte("faster"))}}, nil, true},
		{"other profile file", "1.1", src, []Input{{Role: "profile", Source: HashBytes("truck.yaml", []byte("speeds"))}}, nil, true},
		{"zip4 file added", "1.1", src, append(inputs[:1:1], zip), nil, true},
		{"no inputs now", "1.1", src, nil, nil, true},
		{"layer gone", "1.1", src, inputs, func() { os.Remove(filepath.Join(dir, "routing.graph")) }, true},
	}
	for _, tt := range tests {
		if tt.mutate != nil {
			tt.mutate()
		}
		if stale, why := Stale(dir, got, tt.version, tt.src, tt.inputs); stale != tt.stale {
			t.Errorf("%s: Stale = %v (%s), want %v", tt.name, stale, why, tt.stale)
		}
	}
	if _, err := Read(t.TempDir()); !os.IsNotExist(err) {
		t.Errorf("Read(empty dir) = %v, want not-exist", err)
	}
}

func TestLayerNamesFoldsParts(t *testing.T) {
	tests := []struct {
		layers []string
		want   string
	}{
		{nil, ""},
		{[]string{"routing"}, "routing"},
		{[]string{"routing", "routing.snap", "routing.cch", "routing.fastest", "routing.shortest", "boundaries", "zip4"}, "routing,boundaries,zip4"},
		{[]string{"boundaries", "geocode", "mapdata"}, "boundaries,geocode,mapdata"},
	}
	for _, tc := range tests {
		var m Manifest
		for _, n := range tc.layers {
			m.Layers = append(m.Layers, Layer{Name: n})
		}
		if got := strings.Join(m.LayerNames(), ","); got != tc.want {
			t.Errorf("LayerNames(%v) = %q, want %q", tc.layers, got, tc.want)
		}
	}
}

// TestCheckNoBundleNamesWhatWorks: serve's default ./data holds no
// bundle after `make data`, which writes data/<extract name>: the error
// names the bundles of the subdirectories to serve, else how to build
// one.
func TestCheckNoBundleNamesWhatWorks(t *testing.T) {
	dir := t.TempDir()
	_, err := Check(dir)
	want := "no data bundle in " + dir + ": `make run` builds and serves one (data/delaware-latest); or `make data`, then serve --data data/delaware-latest; or `geosvc build --osm FILE.osm.pbf --out " + dir + "`"
	if err == nil || err.Error() != want {
		t.Errorf("empty directory: %v\nwant %s", err, want)
	}
	de := filepath.Join(dir, "delaware-latest")
	fakeBundle(t, de)
	if err := os.MkdirAll(filepath.Join(dir, "not-a-bundle"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = Check(dir)
	want = "no data bundle in " + dir + ", but one in " + de + ": serve it with --data " + de + " (or GEOSVC_DATA=" + de + ")"
	if err == nil || err.Error() != want {
		t.Errorf("one bundle below: %v\nwant %s", err, want)
	}
	an := filepath.Join(dir, "andorra-latest")
	fakeBundle(t, an)
	_, err = Check(dir)
	want = "no data bundle in " + dir + ", but 2 in its directories (" + an + ", " + de + "): choose one with --data (or GEOSVC_DATA)"
	if err == nil || err.Error() != want {
		t.Errorf("two bundles below: %v\nwant %s", err, want)
	}
}

// fakeBundle makes dir with a manifest in it: a bundle to Check's eyes.
func fakeBundle(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
}
