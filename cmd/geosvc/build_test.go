package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/configs"
)

// TestBuildIfStale runs `geosvc build --if-stale` on a small fixture and
// checks that it rebuilds exactly when the extract, the profile or a
// layer's input file changed.
func TestBuildIfStale(t *testing.T) {
	dir := t.TempDir()
	osmFile := filepath.Join(dir, "roundabout.osm")
	copyFile(t, filepath.Join("..", "..", "routing", "testdata", "roundabout.osm"), osmFile)
	car, err := configs.CarProfile()
	if err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(dir, "car.yaml")
	if err := os.WriteFile(prof, car, 0o644); err != nil {
		t.Fatal(err)
	}
	zip := filepath.Join(dir, "zip4.geojson")
	writeZip4 := func(plus4 string) {
		t.Helper()
		geo := `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"zip":"19901","plus4":"` + plus4 + `"},` +
			`"geometry":{"type":"Polygon","coordinates":[[[-75.51,38.99],[-75.49,38.99],[-75.49,39.01],[-75.51,39.01],[-75.51,38.99]]]}}]}`
		if err := os.WriteFile(zip, []byte(geo), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeZip4("0001")
	areas := filepath.Join(dir, "areas.geojson")
	if err := os.WriteFile(areas, []byte(`{"type":"FeatureCollection","features":[{"type":"Feature",`+
		`"properties":{"name":"19901","category":"postal_code"},"geometry":{"type":"Polygon",`+
		`"coordinates":[[[-75.51,38.99],[-75.49,38.99],[-75.49,39.01],[-75.51,39.01],[-75.51,38.99]]]}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "data")
	base := []string{"--osm", osmFile, "--out", out, "--if-stale"}
	for _, step := range []struct {
		name    string
		args    []string
		before  func()
		rebuilt bool
		why     string
	}{
		{"first build", base, nil, true, ""},
		{"nothing changed", base, nil, false, ""},
		{"explicit profile, same text", append(base, "--profile", prof), nil, true, "built with profile embedded:configs/car.yaml, now profile car.yaml"},
		{"same profile file", append(base, "--profile", prof), nil, false, ""},
		{"profile edited", append(base, "--profile", prof), func() {
			if err := os.WriteFile(prof, append(append([]byte(nil), car...), "\n# edited\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
		}, true, "profile car.yaml changed"},
		{"zip4 file added", append(base, "--profile", prof, "--zip4", zip), nil, true, "zip4 zip4.geojson not used in the last build"},
		{"zip4 file unchanged", append(base, "--profile", prof, "--zip4", zip), nil, false, ""},
		{"zip4 file edited", append(base, "--profile", prof, "--zip4", zip), func() { writeZip4("0002") }, true, "zip4 zip4.geojson changed"},
		{"zip4 file dropped", append(base, "--profile", prof), nil, true, "built with zip4 zip4.geojson, not given now"},
		{"boundaries file added", append(base, "--profile", prof, "--boundaries", areas), nil, true, "boundaries areas.geojson not used in the last build"},
		{"boundaries file unchanged", append(base, "--profile", prof, "--boundaries", areas), nil, false, ""},
		// The flag is repeatable: a second run in one process must not
		// still hold the first run's file.
		{"boundaries file dropped", append(base, "--profile", prof), nil, true, "built with boundaries areas.geojson, not given now"},
		{"extract edited", append(base, "--profile", prof), func() {
			b, err := os.ReadFile(osmFile)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(osmFile, append(b, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}, true, "source roundabout.osm changed"},
	} {
		if step.before != nil {
			step.before()
		}
		var runErr error
		stdout, stderr := capture(t, func() { runErr = runBuild(step.args) })
		if runErr != nil {
			t.Fatalf("%s: %v\n%s%s", step.name, runErr, stdout, stderr)
		}
		upToDate := strings.Contains(stdout, "is up to date")
		if upToDate == step.rebuilt {
			t.Errorf("%s: rebuilt = %v, want %v:\n%s", step.name, !upToDate, step.rebuilt, stdout)
		}
		if step.why != "" && !strings.Contains(stdout, "is stale: "+step.why+";") {
			t.Errorf("%s: want reason %q in:\n%s", step.name, step.why, firstLine(stdout))
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		err  bool
	}{
		{"14GB", 14e9, false}, {"14GiB", 14 << 30, false}, {"1.5 GB", 1.5e9, false}, {"2000MB", 2e9, false},
		{"512KiB", 512 << 10, false}, {"123", 123, false}, {"0", 0, true}, {"-1GB", 0, true}, {"lots", 0, true}, {"GB", 0, true},
	} {
		got, err := parseBytes(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d, error %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}
