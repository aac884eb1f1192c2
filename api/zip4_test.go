package api

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/zip4"
)

// zip4TestLayer is two derived faces: a 0.01 x 0.01 degree square north
// of a street in Dover (left side, 19901-0001) and the one south of it
// (right side, 19901-0002).
func zip4TestLayer() *zip4.Layer {
	sq := func(minLon, minLat float64) orb.MultiPolygon {
		return orb.MultiPolygon{{{{minLon, minLat}, {minLon + 0.01, minLat}, {minLon + 0.01, minLat + 0.01},
			{minLon, minLat + 0.01}, {minLon, minLat}}}}
	}
	return zip4.NewLayer([]zip4.Feature{
		{UID: "w100.0.L", Zip9: "199010001", FIPS: "10001", Street: "Loockerman Street", Side: zip4.SideLeft,
			Geometry: sq(-75.53, 39.16), Rep: orb.Point{-75.525, 39.165}},
		{UID: "w100.0.R", Zip9: "199010002", FIPS: "10001", Street: "Loockerman Street", Side: zip4.SideRight,
			Geometry: sq(-75.53, 39.15), Rep: orb.Point{-75.525, 39.155}},
	}, zip4.Meta{Source: zip4.SourceDerived, Derived: true})
}

// zip4Fixture is a server with zip4v1 registered; set the layer with
// layer.Store.
func zip4Fixture(t *testing.T) (*fixture, *zip4Slot) {
	f := newFixture(t, nil)
	layer := &zip4Slot{}
	RegisterZip4(f.srv.Protected(), Zip4Options{Bundle: &layer.cur})
	return f, layer
}

// zip4Slot is the bundle of a zip4Fixture: Store a layer (nil: loading).
type zip4Slot struct{ cur bundle.Current }

func (z *zip4Slot) Store(l *zip4.Layer) {
	if l == nil {
		z.cur.Store(nil)
		return
	}
	z.cur.Store(&bundle.Bundle{Zip4: l})
}

const zip4Empty = `{"type":"FeatureCollection","totalFeatures":0,"features":[],` +
	`"crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::4326"}},"bbox":null}`

// TestZip4Golden fixes the whole answer: every field name, type and the
// two bbox orders (top level latitude first, properties longitude first).
func TestZip4Golden(t *testing.T) {
	f, layer := zip4Fixture(t)
	layer.Store(zip4TestLayer())
	north := `{"type":"FeatureCollection","totalFeatures":1,"features":[{"type":"Feature","id":"zip4.w100.0.L",` +
		`"geometry":{"type":"MultiPolygon","coordinates":[[[[-75.53,39.16],[-75.52,39.16],[-75.52,39.17],[-75.53,39.17],[-75.53,39.16]]]]},` +
		`"geometry_name":"geom","properties":{"uid":"w100.0.L","zip":"19901","zip9":"199010001","fips":"10001",` +
		`"bbox":[-75.53,39.16,-75.52,39.17],"source":"derived-tiger","derived":true,"street":"Loockerman Street","side":"left"}}],` +
		`"crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::4326"}},"bbox":[39.16,-75.53,39.17,-75.52]}`
	for _, tc := range []struct {
		name, query, want string
	}{
		{"point north of the street (x is the latitude)", "x=39.165&y=-75.525", north},
		{"its code", "zip9=199010001", north},
		{"point in no face", "x=39.5&y=-75.525", zip4Empty},
		{"unknown code", "zip9=199019999", zip4Empty},
		{"swapped coordinates find nothing", "x=-75.525&y=39.165", ""}, // x=-75.5 is a valid latitude
	} {
		rec := f.do(http.MethodGet, "/zip4v1/xy2zip?"+tc.query, f.key, "", nil)
		if rec.Code != http.StatusOK {
			t.Errorf("%s: %d %s", tc.name, rec.Code, rec.Body)
			continue
		}
		if tc.want == "" {
			tc.want = zip4Empty
		}
		if got := strings.TrimSpace(rec.Body.String()); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestZip4Shape checks the JSON types of a two-feature answer generically.
func TestZip4Shape(t *testing.T) {
	f, layer := zip4Fixture(t)
	layer.Store(zip4TestLayer())
	// On the shared edge both squares may answer; use each code instead
	// and the collection's own fields.
	for _, code := range []string{"199010001", "199010002"} {
		rec := f.do(http.MethodGet, "/zip4v1/xy2zip?zip9="+code, f.key, "", nil)
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		feats := body["features"].([]any)
		if len(feats) != 1 || body["totalFeatures"].(float64) != 1 || len(body["bbox"].([]any)) != 4 {
			t.Fatalf("%s: %s", code, rec.Body)
		}
		ft := feats[0].(map[string]any)
		props := ft["properties"].(map[string]any)
		for k, want := range map[string]string{"uid": "string", "zip": "string", "zip9": "string", "fips": "string",
			"source": "string", "street": "string", "side": "string"} {
			if _, ok := props[k].(string); !ok {
				t.Errorf("%s: properties.%s is %T, want %s", code, k, props[k], want)
			}
		}
		if props["zip9"] != code || props["zip"] != code[:5] || props["derived"] != true {
			t.Errorf("%s: properties %v", code, props)
		}
		if _, ok := ft["id"].(string); !ok {
			t.Errorf("%s: id %T", code, ft["id"])
		}
		bb := body["bbox"].([]any)
		pb := props["bbox"].([]any)
		if bb[0] != pb[1] || bb[1] != pb[0] || bb[2] != pb[3] || bb[3] != pb[2] {
			t.Errorf("%s: top-level bbox %v is not the latitude-first form of %v", code, bb, pb)
		}
	}
}

func TestZip4BadRequests(t *testing.T) {
	f, layer := zip4Fixture(t)
	layer.Store(zip4TestLayer())
	for _, tc := range []struct {
		query, msg string
	}{
		{"x=95&y=-75.5", "x is a latitude in [-90, 90]"},
		{"x=-90.0001&y=-75.5", "x is a latitude in [-90, 90]"},
		{"x=39&y=181", "y is a longitude in [-180, 180]"},
		{"x=39&y=-1e3", "y is a longitude in [-180, 180]"},
		{"x=39", "y (longitude) is required"},
		{"y=-75.5", "x (latitude) is required"},
		{"", "give x (latitude) and y (longitude), or zip9 alone"},
		{"x=abc&y=1", `x must be a decimal number (latitude in degrees), got "abc"`},
		{"x=NaN&y=1", `x must be a decimal number (latitude in degrees), got "NaN"`},
		{"x=0x1p-2&y=1", `x must be a decimal number (latitude in degrees), got "0x1p-2"`},
		{"x=&y=1", `x must be a decimal number (latitude in degrees), got ""`},
		{"x=1&x=2&y=1", "x is given 2 times; give it once"},
		{"zip9=199010001&x=39.1", "zip9 is the only parameter of a code lookup: leave out x and y"},
		{"zip9=199010001&y=-75", "zip9 is the only parameter of a code lookup: leave out x and y"},
		{"zip9=19901", `zip9 must be exactly 9 digits (ZIP5 and +4, e.g. 199010001), got "19901"`},
		{"zip9=19901-0001", `zip9 must be exactly 9 digits (ZIP5 and +4, e.g. 199010001), got "19901-0001"`},
		{"zip9=1990100010", `zip9 must be exactly 9 digits (ZIP5 and +4, e.g. 199010001), got "1990100010"`},
		{"zip9=", `zip9 must be exactly 9 digits (ZIP5 and +4, e.g. 199010001), got ""`},
	} {
		rec := f.do(http.MethodGet, "/zip4v1/xy2zip?"+tc.query, f.key, "", nil)
		var m messageBody
		_ = json.Unmarshal(rec.Body.Bytes(), &m)
		if rec.Code != http.StatusBadRequest || m.Message != tc.msg {
			t.Errorf("%q: %d %s, want 400 %q", tc.query, rec.Code, rec.Body, tc.msg)
		}
	}
}

func TestZip4LoadingAndKey(t *testing.T) {
	f, layer := zip4Fixture(t)
	for _, tc := range []struct {
		name, key string
		code      int
		body      string
	}{
		{"loading", f.key, http.StatusServiceUnavailable, `{"message":"data bundle loading"}`},
		{"no key", "", http.StatusForbidden, `{"message":"Forbidden"}`},
		{"key of another interface", f.restricted, http.StatusForbidden, `{"message":"Forbidden"}`},
	} {
		rec := f.do(http.MethodGet, "/zip4v1/xy2zip?x=39.165&y=-75.525", tc.key, "", nil)
		if rec.Code != tc.code || strings.TrimSpace(rec.Body.String()) != tc.body {
			t.Errorf("%s: %d %s, want %d %s", tc.name, rec.Code, rec.Body, tc.code, tc.body)
		}
	}
	layer.Store(zip4TestLayer())
	if rec := f.do(http.MethodGet, "/zip4v1/xy2zip?x=39.165&y=-75.525", f.key, "", nil); rec.Code != http.StatusOK {
		t.Errorf("loaded: %d %s", rec.Code, rec.Body)
	}
}

// FuzzZip4Query feeds raw query strings to the parser: it must never
// panic, and whatever it accepts must be in range.
func FuzzZip4Query(f *testing.F) {
	for _, s := range []string{"x=39.1&y=-75.5", "zip9=199010001", "x=95&y=0", "zip9=1&x=2", "x=1e2&y=-1E-3",
		"x=%2B1.&y=-.5", "x=1&x=2", "y=180&x=-90", "zip9=%EF%BC%91", "x=.&y=-", "x=1e&y=1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := parseZip4Query(v)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if q.ByCode {
			if !zip4.ValidZip9(q.Zip9) || v.Has("x") || v.Has("y") {
				t.Fatalf("accepted code %q from %q", q.Zip9, raw)
			}
			return
		}
		if !(q.Point[1] >= -90 && q.Point[1] <= 90 && q.Point[0] >= -180 && q.Point[0] <= 180) {
			t.Fatalf("accepted point %v from %q", q.Point, raw)
		}
		if v.Has("zip9") {
			t.Fatalf("accepted a point query with zip9: %q", raw)
		}
	})
}
