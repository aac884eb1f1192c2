package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"syscall"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"
	"github.com/paulmach/orb/planar"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// newIsoServer serves isochronev1 on g and returns it with a key.
func newIsoServer(t testing.TB, g *routing.Graph) (*Server, string) {
	t.Helper()
	srv, key := keyedServer(t, "isochrone test")
	cur := &bundle.Current{}
	cur.Store(&bundle.Bundle{Graph: g})
	RegisterIsochrone(srv.Protected(), IsochroneOptions{Bundle: cur})
	return srv, key
}

// isoDo sends a GET (body nil) or POST to isochronev1.
func isoDo(srv *Server, key, query string, body []byte) *httptest.ResponseRecorder {
	method := http.MethodGet
	var rd io.Reader
	if body != nil {
		method, rd = http.MethodPost, bytes.NewReader(body)
	}
	req := httptest.NewRequest(method, "/isochronev1/isochrone?"+query, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set(headerAPIKey, key)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return rec
}

// isoFC decodes an answer's features and origins.
type isoFC struct {
	Type     string `json:"type"`
	Features []struct {
		Properties isoProperties    `json:"properties"`
		Geometry   geojson.Geometry `json:"geometry"`
	} `json:"features"`
	Origins []routeEnd `json:"origins"`
}

func inside(g orb.Geometry, p orb.Point) bool {
	switch g := g.(type) {
	case orb.Polygon:
		return planar.PolygonContains(g, p)
	case orb.MultiPolygon:
		return planar.MultiPolygonContains(g, p)
	}
	return false
}

// TestIsochroneV1Delaware: 10, 20 and 30 minutes from Wilmington over
// HTTP, largest first, and the same from two origins by POST; every
// sampled junction the Dijkstra oracle (Reach) reaches within a contour
// is inside its polygon, and one 50 % beyond the contour is outside;
// polygons=false answers the reached roads as lines.
func TestIsochroneV1Delaware(t *testing.T) {
	g := routingtest.Extract(t, "delaware")
	srv, key := newIsoServer(t, g)
	wilmington, dover := orb.Point{-75.5466, 39.7459}, orb.Point{-75.5244, 39.1582}
	rec := isoDo(srv, key, "x=-75.5466&y=39.7459&contours=10,20,30", nil)
	if rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	var fc isoFC
	if err := json.Unmarshal(rec.Body.Bytes(), &fc); err != nil {
		t.Fatal(err)
	}
	if fc.Type != "FeatureCollection" || len(fc.Features) != 3 || len(fc.Origins) != 1 {
		t.Fatalf("answer %s", rec.Body.String()[:min(300, rec.Body.Len())])
	}
	js := g.JunctionsWithin(wilmington, 60000)
	check := func(from orb.Point, reverse bool, f int, contour float64, geom orb.Geometry) {
		t.Helper()
		s := g.Snap(routing.Fastest, from, 0)
		want, err := g.Reach(context.Background(), routing.Fastest, s, 1e9, reverse)
		if err != nil {
			t.Fatal(err)
		}
		in, out := 0, 0
		for k, j := range js {
			if k%20 != 0 {
				continue
			}
			c, ok := want[j.Vertex]
			switch {
			case ok && c.DurationS <= contour*60:
				in++
				if !inside(geom, j.Point) {
					t.Errorf("feature %d (%v min): junction %d reached in %.0f s is outside", f, contour, j.Vertex, c.DurationS)
				}
			case !ok || c.DurationS > contour*90:
				out++
				if inside(geom, j.Point) && ok {
					t.Errorf("feature %d (%v min): junction %d reached in %.0f s only is inside", f, contour, j.Vertex, c.DurationS)
				}
			}
		}
		if in == 0 || out == 0 {
			t.Errorf("feature %d: %d junctions checked inside, %d outside", f, in, out)
		}
	}
	for i, want := range []float64{30, 20, 10} {
		f := fc.Features[i]
		if f.Properties.Contour != want || f.Properties.Metric != "time" || f.Properties.Origin != 0 || f.Properties.CellM <= 0 {
			t.Errorf("feature %d properties %+v", i, f.Properties)
		}
		if typ := f.Geometry.Geometry().GeoJSONType(); typ != "Polygon" && typ != "MultiPolygon" {
			t.Errorf("feature %d is a %s", i, typ)
		}
		check(wilmington, false, i, want, f.Geometry.Geometry())
	}
	// POST, two origins, reverse.
	body := `{"origins": ["-75.5466,39.7459", "-75.5244,39.1582"], "contours": [15], "reverse": true}`
	rec = isoDo(srv, key, "", []byte(body))
	if rec.Code != 200 {
		t.Fatalf("POST %d %s", rec.Code, rec.Body)
	}
	fc = isoFC{}
	if err := json.Unmarshal(rec.Body.Bytes(), &fc); err != nil {
		t.Fatal(err)
	}
	if len(fc.Features) != 2 || fc.Features[1].Properties.Origin != 1 || !fc.Features[0].Properties.Reverse {
		t.Fatalf("POST features %+v", fc.Features)
	}
	check(wilmington, true, 0, 15, fc.Features[0].Geometry.Geometry())
	js = g.JunctionsWithin(dover, 60000)
	check(dover, true, 1, 15, fc.Features[1].Geometry.Geometry())
	// Lines.
	rec = isoDo(srv, key, "x=-75.5466&y=39.7459&contours=3&polygons=false&metric=distance", nil)
	fc = isoFC{}
	if err := json.Unmarshal(rec.Body.Bytes(), &fc); err != nil || rec.Code != 200 {
		t.Fatalf("lines %d %s", rec.Code, rec.Body)
	}
	if len(fc.Features) != 1 || fc.Features[0].Geometry.Geometry().GeoJSONType() != "MultiLineString" || fc.Features[0].Properties.Metric != "distance" {
		t.Fatalf("lines %+v", fc.Features)
	}
	snapped := orb.Point(fc.Origins[0].Snapped)
	for _, l := range fc.Features[0].Geometry.Geometry().(orb.MultiLineString) {
		for _, p := range l {
			if d := geo.HaversineM(p, snapped); d > 3001 {
				t.Fatalf("a road 3 km by road away lies %.0f m away in a straight line", d)
			}
		}
	}
}

// TestIsochroneV1BadInput: every bad parameter is a 400 whose message
// names it (and its index); a request without a key is a 403.
func TestIsochroneV1BadInput(t *testing.T) {
	srv, key := newIsoServer(t, routingtest.Graph(t, "roundabout.osm"))
	ok := "x=10.002&y=0.000"
	for _, tc := range []struct{ query, body, want string }{
		{"y=0&contours=5", "", "x is required"},
		{"x=ten&y=0&contours=5", "", "x: "},
		{"x=10&y=95&contours=5", "", "y: 95 is out of range"},
		{ok, "", "contours is required"},
		{ok + "&contours=0", "", "contours[0]: 0 is out of range"},
		{ok + "&contours=121", "", "contours[0]: 121 is out of range"},
		{ok + "&contours=201&metric=distance", "", "contours[0]: 201 is out of range"},
		{ok + "&contours=5,0", "", "contours[1]: 0 is out of range"},
		{ok + "&contours=5,x", "", "contours[1]: "},
		{ok + "&contours=1,2,3,4,5,6", "", "contours holds 6 values"},
		{ok + "&contours=5&metric=speed", "", "metric "},
		{ok + "&contours=5&polygons=maybe", "", "polygons must be"},
		{ok + "&contours=5&reverse=2", "", "reverse must be"},
		{ok + "&contours=5&profile=boat", "", "profile: "},
		{ok + "&contours=5&routing=shortest", "", "routing: "},
		{ok + "&contours=5&avoid=rocks", "", "avoid"},
		{ok + "&contours=5&radiuses=-1", "", "radiuses"},
		{ok + "&contours=5&departure_time=tomorrow", "", "is not an RFC 3339 time"},
		{"x=20&y=20&contours=5", "", "x,y: no road"},
		{"", `{"contours": [5]}`, "origins: is required"},
		{"", `{"origins": ["10.002,0", "1,2,3"], "contours": [5]}`, "origins[1]: "},
		{"", `{"origins": ["10.002,0", "10.002,0", "10.002,0", "10.002,0", "10.002,0", "10.002,0"], "contours": [5]}`, "origins: holds 6"},
		{"", `{"origins": ["10.002,0"], "contours": [5, 200]}`, "contours[1]: 200 is out of range"},
		{"", `{"origins": ["10.002,0"], "contours": "5"}`, "contours: must be an array"},
		{"", `{"origins": ["10.002,0"], "contours": [5], "colour": "red"}`, "colour: unknown field"},
		{"", `{"origins": ["10.002,0"], "contours": [5], "departure_time": 0}`, "departure_time: "},
		{"", `{"origins": ["10.002,0"], "contours": [500], "departure_time": "x"}`, "is not an RFC 3339 time"},
		{"", `{"origins": ["10.002,0"], "contours": [5], "origin_radiuses": [0]}`, "origin_radiuses[0]: "},
		{"", `{"origins": ["10.002,0"], "contours": [5], "speeds": {"Motorway": "fast"}}`, "speeds.Motorway: "},
		{"", `{"origins": ["10.002,0", "20,20"], "contours": [5]}`, "origins[1]: no road"},
		{"", `[1]`, "body: "},
	} {
		t.Run(tc.query+tc.body, func(t *testing.T) {
			var body []byte
			if tc.body != "" {
				body = []byte(tc.body)
			}
			rec := isoDo(srv, key, tc.query, body)
			if rec.Code != 400 || !strings.Contains(rec.Body.String(), tc.want) {
				t.Errorf("%d %s, want 400 naming %q", rec.Code, rec.Body, tc.want)
			}
		})
	}
	for _, k := range []string{"", "not-a-key"} {
		rec := isoDo(srv, k, ok+"&contours=5", nil)
		if rec.Code != 403 || strings.TrimSpace(rec.Body.String()) != `{"message":"Forbidden"}` {
			t.Errorf("key %q: %d %s", k, rec.Code, rec.Body)
		}
	}
	// The fixture answers: a 1-minute isochrone round the roundabout.
	rec := isoDo(srv, key, ok+"&contours=1,0.5,1", nil)
	if rec.Code != 200 || strings.Count(rec.Body.String(), `"contour":1,`) != 1 || !strings.Contains(rec.Body.String(), `"contour":0.5,`) {
		t.Errorf("fixture: %d %s", rec.Code, rec.Body)
	}
}

// FuzzIsoQuery: no query makes the GET parser panic, and what it accepts
// has 1 to maxIsoContours contours within the limits.
func FuzzIsoQuery(f *testing.F) {
	for _, s := range []string{"x=1&y=2&contours=5,10", "x=1&y=2&contours=5&metric=distance&polygons=false", "x=&y=&contours=,",
		"x=1e3&y=-0&contours=120,5", "x=1&y=2&contours=NaN", "x=1&y=2&contours=0x10&reverse=true", "x=1&y=2&contours=5&radiuses=10;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		r, msg := parseIsoQuery(q)
		if msg != "" {
			return
		}
		if len(r.contours) == 0 || len(r.contours) > maxIsoContours || checkIsoContours(r.contours, r.distance) != nil {
			t.Fatalf("%q accepted with contours %v", raw, r.contours)
		}
	})
}

// BenchmarkIsochroneV1HTTP: a 30-minute isochrone polygon from
// Wilmington on Delaware over HTTP (a real listener, the key gate, JSON
// encoding), one connection.
func BenchmarkIsochroneV1HTTP(b *testing.B) {
	g := routingtest.Extract(b, "delaware")
	srv, key := newIsoServer(b, g)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	req, err := http.NewRequest(http.MethodGet, ts.URL+"/isochronev1/isochrone?x=-75.5466&y=39.7459&contours=30", nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set(headerAPIKey, key)
	n := 0
	var ru0, ru1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	for b.Loop() {
		resp, err := ts.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("%d %s", resp.StatusCode, body)
		}
		n += len(body)
	}
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := (ru1.Utime.Nano() + ru1.Stime.Nano()) - (ru0.Utime.Nano() + ru0.Stime.Nano())
	b.ReportMetric(float64(n)/float64(b.N), "bytes/op")
	b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op") // server and client: one process
}

// FuzzIsoBody: no POST body makes the parser panic, and what it accepts
// has 1 to maxIsoOrigins origins, one snapping option each, and valid
// contours.
func FuzzIsoBody(f *testing.F) {
	for _, s := range []string{`{"origins": ["10.002,0"], "contours": [5]}`, `{"origins": ["1,2", "3,4"], "contours": [5, 1], "metric": "distance", "reverse": true}`,
		`{"origins": [], "contours": []}`, `{"origins": ["1,2"], "contours": [5], "origin_radiuses": [null], "origin_bearings": [[90, 10]], "speeds": {"Motorway": 80}}`,
		`[]`, `null`, `{"origins": ["1,2"], "contours": [1e400]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, errs := parseIsoBody(body)
		if len(errs) > 0 {
			return
		}
		if len(r.origins) == 0 || len(r.origins) > maxIsoOrigins || len(r.snap) != len(r.origins) || checkIsoContours(r.contours, r.distance) != nil {
			t.Fatalf("%q accepted: %d origins, %d snapping options, contours %v", body, len(r.origins), len(r.snap), r.contours)
		}
	})
}
