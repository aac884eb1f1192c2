package zip4

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paulmach/orb"
)

func writeTemp(t *testing.T, name, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadGeoJSON(t *testing.T) {
	// A square with a square hole (code as zip9 with a dash), and a
	// two-polygon feature (code as numbers zip + plus4, a fips).
	path := writeTemp(t, "zip4.geojson", `{"type":"FeatureCollection","features":[
	 {"type":"Feature","properties":{"zip9":"19901-0123","uid":"A"},"geometry":{"type":"Polygon","coordinates":[
	   [[0,0],[10,0],[10,10],[0,10],[0,0]],[[4,4],[4,6],[6,6],[6,4],[4,4]]]}},
	 {"type":"Feature","properties":{"zip":19711,"plus4":"0007","fips":"10003"},"geometry":{"type":"MultiPolygon","coordinates":[
	   [[[20,0],[21,0],[21,1],[20,1],[20,0]]],[[[30,0],[32,0],[32,2],[30,2],[30,0]]]]}}]}`)
	fs, err := ReadGeoJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 {
		t.Fatalf("%d features", len(fs))
	}
	// Sorted by zip9: 19711 first.
	if fs[0].Zip9 != "197110007" || fs[0].UID != "file.1" || fs[0].FIPS != "10003" ||
		fs[1].Zip9 != "199010123" || fs[1].UID != "A" || fs[1].FIPS != "" {
		t.Fatalf("features %+v", fs)
	}
	l := NewLayer(fs, Meta{Source: SourceFile})
	for _, tc := range []struct {
		p    orb.Point
		want string
	}{
		{orb.Point{1, 1}, "199010123"},
		{orb.Point{5, 5}, ""}, // in the hole
		{orb.Point{20.5, 0.5}, "197110007"},
		{orb.Point{31, 1}, "197110007"},
		{orb.Point{25, 0.5}, ""},
	} {
		got := ""
		if ids := l.At(nil, tc.p); len(ids) == 1 {
			got = l.Zip9(ids[0])
		}
		if got != tc.want {
			t.Errorf("At(%v) = %q, want %q", tc.p, got, tc.want)
		}
	}
	for _, f := range fs {
		if ids := l.At(nil, f.Rep); len(ids) != 1 || l.Zip9(ids[0]) != f.Zip9 {
			t.Errorf("%s: representative point %v not inside", f.Zip9, f.Rep)
		}
	}
	if rep := fs[1].Rep; rep == (orb.Point{5, 5}) {
		t.Errorf("representative point in the hole")
	}
}

func TestReadGeoJSONErrors(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
	}{
		{"not geojson", `{"type":"Point"}`, "not a GeoJSON FeatureCollection"},
		{"no code", `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"zip":"19901"},
		  "geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}]}`, "feature 0: no nine-digit ZIP+4 code"},
		{"a point", `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"zip9":"199010001"},
		  "geometry":{"type":"Point","coordinates":[0,0]}}]}`, "feature 0: geometry orb.Point, want Polygon or MultiPolygon"},
		{"no area", `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"zip9":"199010001"},
		  "geometry":{"type":"Polygon","coordinates":[[[0,0],[1,1],[2,2],[0,0]]]}}]}`, "feature 0: polygons without area"},
		{"latitude out of range", `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"zip9":"199010001"},
		  "geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,95],[0,0]]]}}]}`, "outside lon/lat range"},
	} {
		_, err := ReadGeoJSON(writeTemp(t, "bad.geojson", tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
