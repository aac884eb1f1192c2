package api

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"

	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/internal/redistest"
	"github.com/geosvc/geosvc/keys"
)

var bndNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// bndDelaware builds the boundary layer of the Delaware extract once.
var bndDelaware = sync.OnceValues(func() (*boundary.Layer, error) {
	path, err := extracts.Path("delaware")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "api-boundary")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if _, err := boundary.Build(boundary.BuildOptions{OSMPath: path, Out: dir}); err != nil {
		return nil, err
	}
	return boundary.Load(dir)
})

type bndFixture struct {
	srv *Server
	key string
	cur bundle.Current
}

// newBndFixture serves adminv1 and geoboundariesv1; with delaware, on the
// Delaware layer (skipping when absent), else with no layer loaded.
func newBndFixture(t testing.TB, delaware bool) *bndFixture {
	t.Helper()
	rd := redistest.New(t)
	store := keys.NewStore(rd.Client, keys.Options{Prefix: rd.Prefix})
	_, plain, err := store.Create(context.Background(), keys.CreateOptions{Owner: "boundary test"})
	if err != nil {
		t.Fatal(err)
	}
	f := &bndFixture{key: plain}
	f.srv = New(Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Redis: rd.Client, Gate: keys.NewGate(store, keys.GateOptions{})})
	opts := BoundaryOptions{Bundle: &f.cur, Now: func() time.Time { return bndNow }}
	RegisterAdmin(f.srv.Protected(), opts)
	RegisterGeoBoundaries(f.srv.Protected(), opts)
	if delaware {
		l, err := bndDelaware()
		extracts.Need(t, err)
		f.cur.Store(&bundle.Bundle{Boundaries: l})
	}
	return f
}

func (f *bndFixture) get(t testing.TB, path string) (int, []byte) {
	t.Helper()
	rec := f.getWith(t, path, nil)
	return rec.Code, rec.Body.Bytes()
}

// getWith is get with extra request headers, answering the recorder.
func (f *bndFixture) getWith(t testing.TB, path string, header http.Header) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	maps.Copy(req.Header, header)
	req.Header.Set(headerAPIKey, f.key)
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, req)
	return rec
}

// TestAdminGzip: a client that accepts gzip gets the same answer
// compressed (the polygon compressed once, the rest per request), every
// time; a client that does not, or an empty collection, gets it plain;
// Content-Length is the length of what is sent.
func TestAdminGzip(t *testing.T) {
	f := newBndFixture(t, true)
	tests := []struct {
		name, path, accept string
		gzipped            bool
	}{
		{"country, gzip", "/adminv1/xy2admininfo?x=-75.5244&y=39.1582&type=admin0", "gzip", true},
		{"country, gzip among others", "/adminv1/xy2admininfo?x=-75.5244&y=39.1582&type=admin0", "br;q=1.0, gzip;q=0.8, *;q=0.1", true},
		{"country, gzip refused", "/adminv1/xy2admininfo?x=-75.5244&y=39.1582&type=admin0", "gzip;q=0", false},
		{"country, no Accept-Encoding", "/adminv1/xy2admininfo?x=-75.5244&y=39.1582&type=admin0", "", false},
		{"city, gzip", "/adminv1/xy2admininfo?x=-75.5466&y=39.7459&type=admin8", "gzip", true},
		{"empty collection, gzip", "/adminv1/xy2admininfo?x=-74.0&y=38.0&type=admin0", "gzip", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, plain := f.get(t, tc.path)
			for range 2 { // the second answer comes from the cached prefix
				rec := f.getWith(t, tc.path, http.Header{"Accept-Encoding": {tc.accept}})
				body := rec.Body.Bytes()
				if rec.Code != http.StatusOK {
					t.Fatalf("status %d: %s", rec.Code, body)
				}
				if n, _ := strconv.Atoi(rec.Header().Get("Content-Length")); n != len(body) {
					t.Errorf("Content-Length %q, body %d bytes", rec.Header().Get("Content-Length"), len(body))
				}
				if !slices.Contains(rec.Header().Values("Vary"), "Accept-Encoding") {
					t.Errorf("Vary %q lacks Accept-Encoding", rec.Header().Values("Vary"))
				}
				if got := rec.Header().Get("Content-Encoding") == "gzip"; got != tc.gzipped {
					t.Fatalf("Content-Encoding %q, want gzip: %v", rec.Header().Get("Content-Encoding"), tc.gzipped)
				}
				if tc.gzipped {
					zr, err := gzip.NewReader(bytes.NewReader(body))
					if err != nil {
						t.Fatal(err)
					}
					if body, err = io.ReadAll(zr); err != nil {
						t.Fatalf("gunzip: %v", err)
					}
					if len(plain) > 10000 && 2*rec.Body.Len() > len(plain) {
						t.Errorf("%d bytes gzipped from %d: less than half saved", rec.Body.Len(), len(plain))
					}
				}
				if !bytes.Equal(body, plain) {
					t.Errorf("answer of %d bytes differs from the plain one of %d", len(body), len(plain))
				}
			}
		})
	}
}

// bndShape returns the JSON value's shape: objects with their keys in order
// and value shapes, arrays by their first element, scalars by type.
func bndShape(t testing.TB, b []byte) string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var walk func() string
	walk = func() string {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("bad JSON %s: %v", b, err)
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' {
				var parts []string
				for dec.More() {
					k, _ := dec.Token()
					parts = append(parts, k.(string)+":"+walk())
				}
				dec.Token()
				return "{" + strings.Join(parts, ",") + "}"
			}
			first := ""
			n := 0
			for dec.More() {
				s := walk()
				if n == 0 {
					first = s
				}
				n++
			}
			dec.Token()
			if n == 4 && first == "num" {
				return "[num*4]"
			}
			return "[" + first + "]"
		case json.Number:
			if strings.ContainsAny(v.String(), ".eE") {
				return "num"
			}
			return "int"
		case string:
			return "str"
		case bool:
			return "bool"
		case nil:
			return "null"
		}
		return "?"
	}
	return walk()
}

func TestAdminGoldenShape(t *testing.T) {
	f := newBndFixture(t, true)
	code, body := f.get(t, "/adminv1/xy2admininfo?x=-75.5244&y=39.1582&type=admin2")
	if code != http.StatusOK {
		t.Fatalf("status %d: %s", code, body)
	}
	const want = `{type:str,features:[{type:str,id:null,geometry:{type:str,coordinates:[[[num]]]},geometry_name:str,` +
		`properties:{boundary_id:int,country_code:int,country_name:str,category_code:str,category_name:str,name:str,bbox:[num*4],source:str}}],` +
		`totalFeatures:int,numberMatched:int,numberReturned:int,timeStamp:str,crs:{type:str,properties:{name:str}},bbox:[num*4]}`
	if got := bndShape(t, body); got != want {
		t.Errorf("shape\n got %s\nwant %s", got, want)
	}
	var fc struct {
		Type     string
		Features []struct {
			Type     string
			ID       any
			Geometry struct {
				Type        string
				Coordinates [][][2]float64
			}
			GeometryName string `json:"geometry_name"`
			Properties   struct {
				BoundaryID   int64      `json:"boundary_id"`
				CountryCode  int        `json:"country_code"`
				CountryName  string     `json:"country_name"`
				CategoryCode string     `json:"category_code"`
				CategoryName string     `json:"category_name"`
				Name         string     `json:"name"`
				BBox         [4]float64 `json:"bbox"`
			}
		}
		TotalFeatures, NumberMatched, NumberReturned int
		TimeStamp                                    string
		CRS                                          struct {
			Type       string
			Properties struct{ Name string }
		}
		BBox [4]float64
	}
	if err := json.Unmarshal(body, &fc); err != nil {
		t.Fatal(err)
	}
	if fc.Type != "FeatureCollection" || fc.TotalFeatures != 1 || fc.NumberMatched != 1 || fc.NumberReturned != 1 ||
		fc.TimeStamp != "2026-03-01T12:00:00.000Z" || fc.CRS.Type != "name" || fc.CRS.Properties.Name != "urn:ogc:def:crs:EPSG::4326" {
		t.Errorf("collection header: %+v", fc)
	}
	ft := fc.Features[0]
	pr := ft.Properties
	if ft.Type != "Feature" || ft.ID != nil || ft.Geometry.Type != "Polygon" || ft.GeometryName != "geom" ||
		pr.BoundaryID != 1245078 || pr.CountryCode != 1 || pr.CountryName != "United States" ||
		pr.CategoryCode != "902" || pr.CategoryName != "admin2" || pr.Name != "Kent County" {
		t.Errorf("feature: %+v", ft)
	}
	// properties.bbox is longitude first, the top-level bbox latitude first.
	if pr.BBox[0] > -75 || pr.BBox[0] < -76 || pr.BBox[1] < 38.5 || pr.BBox[1] > 39.5 || pr.BBox[2] < pr.BBox[0] || pr.BBox[3] < pr.BBox[1] {
		t.Errorf("properties.bbox %v is not [min_lon, min_lat, max_lon, max_lat] of Kent County", pr.BBox)
	}
	if fc.BBox[0] < 38.5 || fc.BBox[0] > 39.5 || fc.BBox[1] > -75 || fc.BBox[2] < fc.BBox[0] || fc.BBox[3] < fc.BBox[1] {
		t.Errorf("bbox %v is not [min_lat, min_lon, max_lat, max_lon]", fc.BBox)
	}
	ring := ft.Geometry.Coordinates[0]
	if len(ring) < 4 || ring[0] != ring[len(ring)-1] {
		t.Errorf("outer ring of %d points, not closed", len(ring))
	}
}

func TestAdminKnownPoints(t *testing.T) {
	f := newBndFixture(t, true)
	tests := []struct {
		x, y  string
		typ   string
		name  string
		code  string
		count int
	}{
		{"-75.5244", "39.1582", "admin0", "United States of America", "900", 1},
		{"-75.5244", "39.1582", "admin1", "Delaware", "901", 1},
		{"-75.5244", "39.1582", "admin2", "Kent County", "902", 1},
		{"-75.5244", "39.1582", "admin4", "Kent County", "902", 1},
		{"-75.5244", "39.1582", "admin8", "Dover", "908", 1},
		{"-75.5466", "39.7459", "admin8", "Wilmington", "908", 1},
		{"-74.0", "38.0", "admin0", "", "", 0},
	}
	for _, tc := range tests {
		code, body := f.get(t, "/adminv1/xy2admininfo?x="+tc.x+"&y="+tc.y+"&type="+tc.typ)
		if code != http.StatusOK {
			t.Fatalf("%s,%s %s: status %d %s", tc.x, tc.y, tc.typ, code, body)
		}
		var fc struct {
			TotalFeatures int
			BBox          any
			Features      []struct {
				Properties struct {
					Name         string
					CategoryCode string `json:"category_code"`
				}
			}
		}
		if err := json.Unmarshal(body, &fc); err != nil {
			t.Fatal(err)
		}
		if fc.TotalFeatures != tc.count || len(fc.Features) != tc.count {
			t.Errorf("%s,%s %s: %d features, want %d", tc.x, tc.y, tc.typ, len(fc.Features), tc.count)
			continue
		}
		if tc.count == 0 {
			if fc.BBox != nil || !strings.Contains(string(body), `"features":[]`) {
				t.Errorf("empty collection: %s", body)
			}
			continue
		}
		if p := fc.Features[0].Properties; p.Name != tc.name || p.CategoryCode != tc.code {
			t.Errorf("%s,%s %s = %q %s, want %q %s", tc.x, tc.y, tc.typ, p.Name, p.CategoryCode, tc.name, tc.code)
		}
	}
}

func TestGeoBoundariesGoldenShape(t *testing.T) {
	f := newBndFixture(t, true)
	// Delaware Seashore State Park (protect_class 5) and nothing else.
	code, body := f.get(t, "/geoboundariesv1/xy2bounddata?x=-75.0667&y=38.6097")
	if code != http.StatusOK {
		t.Fatalf("status %d: %s", code, body)
	}
	const want = `{boundaries:[{boundary_id:int,country_code:int,country_name:str,category_code:int,category_name:str,geo_boundary_name:str,sub_category_code:int,sub_category_name:str}]}`
	if got := bndShape(t, body); got != want {
		t.Errorf("shape\n got %s\nwant %s", got, want)
	}
	var ans struct{ Boundaries []map[string]any }
	json.Unmarshal(body, &ans)
	wantB := map[string]any{"boundary_id": 3159007.0, "country_code": 1.0, "country_name": "United States", "category_code": 921.0,
		"category_name": "protected_area", "geo_boundary_name": "Delaware Seashore State Park", "sub_category_code": 5.0, "sub_category_name": "protected_landscape_seascape"}
	if len(ans.Boundaries) != 1 || !reflect.DeepEqual(ans.Boundaries[0], wantB) {
		t.Errorf("boundaries = %v, want [%v]", ans.Boundaries, wantB)
	}
	// A national park: no sub-category, present as null.
	_, body = f.get(t, "/geoboundariesv1/xy2bounddata?x=-75.4667&y=39.25&geo_boundary=922")
	if !strings.Contains(string(body), `"sub_category_code":null,"sub_category_name":null`) || !strings.Contains(string(body), `"category_code":922`) {
		t.Errorf("national park: %s", body)
	}
	// Filtered out, and outside every boundary: an empty list.
	for _, q := range []string{"x=-75.0667&y=38.6097&geo_boundary=920", "x=-74&y=38"} {
		if code, body := f.get(t, "/geoboundariesv1/xy2bounddata?"+q); code != 200 || string(body) != "{\"boundaries\":[]}\n" {
			t.Errorf("%s: %d %q", q, code, body)
		}
	}
}

func TestBoundaryBadInput(t *testing.T) {
	f := newBndFixture(t, true)
	tests := []struct{ path, want string }{
		{"/adminv1/xy2admininfo?y=39&type=admin0", "x is required"},
		{"/adminv1/xy2admininfo?x=-75&type=admin0", "y is required"},
		{"/adminv1/xy2admininfo?x=abc&y=39&type=admin0", "x must be a number"},
		{"/adminv1/xy2admininfo?x=0x1p-2&y=39&type=admin0", "x must be a number"},
		{"/adminv1/xy2admininfo?x=-75&y=3_9&type=admin0", "y must be a number"},
		{"/adminv1/xy2admininfo?x=NaN&y=39&type=admin0", "x must be a finite number"},
		{"/adminv1/xy2admininfo?x=-75&y=91&type=admin0", "y (latitude) must be between -90 and 90"},
		{"/adminv1/xy2admininfo?x=181&y=39&type=admin0", "x (longitude) must be between -180 and 180"},
		{"/adminv1/xy2admininfo?x=-75&y=39", "type is required: one of admin0, admin1"},
		{"/adminv1/xy2admininfo?x=-75&y=39&type=admin9", `type "admin9" is not allowed: use one of admin0,`},
		{"/adminv1/xy2admininfo?x=-75&y=39&type=ADMIN1", `type "ADMIN1" is not allowed`},
		{"/geoboundariesv1/xy2bounddata?x=-75&y=39&geo_boundary=abc", `geo_boundary must be an integer category code, got "abc"`},
		{"/geoboundariesv1/xy2bounddata?x=-75&y=39&geo_boundary=900", "geo_boundary 900 is not a category: use one of 920 (postal_code), 921 (protected_area)"},
		{"/geoboundariesv1/xy2bounddata?x=-75&y=-91", "y (latitude) must be between"},
	}
	for _, tc := range tests {
		code, body := f.get(t, tc.path)
		var m messageBody
		json.Unmarshal(body, &m)
		if code != http.StatusBadRequest || !strings.Contains(m.Message, tc.want) {
			t.Errorf("%s: %d %s, want 400 with %q", tc.path, code, body, tc.want)
		}
	}
}

func TestBoundaryLoading(t *testing.T) {
	f := newBndFixture(t, false)
	for _, p := range []string{"/adminv1/xy2admininfo?x=-75&y=39&type=admin0", "/geoboundariesv1/xy2bounddata?x=-75&y=39"} {
		code, body := f.get(t, p)
		if code != http.StatusServiceUnavailable || string(body) != "{\"message\":\"data bundle loading\"}\n" {
			t.Errorf("%s: %d %s", p, code, body)
		}
	}
}

func TestLookupJSONString(t *testing.T) {
	for _, s := range []string{"", "Kent County", `a"b\c`, "tab\there\n", "Sant Julià de Lòria", "bad\xffutf8", "\u2028"} {
		var got string
		if err := json.Unmarshal(lookupJSONString(nil, s), &got); err != nil || got != strings.ToValidUTF8(s, "\ufffd") {
			t.Errorf("lookupJSONString(%q) = %s (%v)", s, lookupJSONString(nil, s), err)
		}
	}
}

func FuzzLookupQuery(f *testing.F) {
	for _, q := range []string{"x=-75.5&y=39.1&type=admin2", "x=1e400&y=0", "x=-0&y=1e-400&type=admin8", "x=&y=", "type=admin", "geo_boundary=921", "geo_boundary=99999999999999999999"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		p, msg := parseLookupPoint(q, lookupLonX, lookupLatY)
		if msg == "" && (p[0] < -180 || p[0] > 180 || p[1] < -90 || p[1] > 90 || p[0] != p[0] || p[1] != p[1]) {
			t.Errorf("%q: accepted %v", raw, p)
		}
		if lvl, msg := parseAdminType(q); msg == "" && (lvl < 0 || lvl > 8 || q.Get("type") != "admin"+string(rune('0'+lvl))) {
			t.Errorf("%q: type level %d", raw, lvl)
		}
		if _, ok, msg := parseCategoryCode(q, "geo_boundary"); ok && msg != "" {
			t.Errorf("%q: ok with message %q", raw, msg)
		}
	})
}
