package api

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// newMatchServer serves matchv1 on the graph of routing/testdata's
// fixture (nil while not loaded) and returns it with a key.
func newMatchServer(t testing.TB, fixture string, loaded bool) (*Server, string) {
	t.Helper()
	g := routingtest.Graph(t, fixture)
	srv, key := keyedServer(t, "match test")
	cur := &bundle.Current{}
	if loaded {
		cur.Store(&bundle.Bundle{Graph: g})
	}
	RegisterMatch(srv.Protected(), MatchOptions{Bundle: cur})
	return srv, key
}

func postMatch(srv *Server, key, body string) (int, string) {
	req := httptest.NewRequest(http.MethodPost, "/matchv1/match", strings.NewReader(body))
	req.Header.Set(echoContentType, "application/json")
	if key != "" {
		req.Header.Set(headerAPIKey, key)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

const echoContentType = "Content-Type"

// roundaboutTrace is a trace from S2 to E2 of routing/testdata's
// roundabout.osm, on the roads, a fix every 8 s: up the South Arm, the
// ring from S to E, out along the East Arm (379.644 m by hand).
const roundaboutTrace = `[
 {"lon": 10.002, "lat": 0.0000, "time": "2026-05-01T08:00:00Z"},
 {"lon": 10.002, "lat": 0.0005, "time": "2026-05-01T08:00:08Z", "accuracy_m": 5},
 {"lon": 10.002, "lat": 0.0010, "time": 1777622416},
 {"lon": 10.0025, "lat": 0.0015, "time": 1777622424},
 {"lon": 10.003, "lat": 0.0020, "time": 1777622432.5},
 {"lon": 10.0035, "lat": 0.0020, "time": "2026-05-01T08:00:40Z"},
 {"lon": 10.004, "lat": 0.0020, "time": "2026-05-01T08:00:48Z"}]`

// TestMatchV1: the roundabout trace is one matching of the route's
// length (the fixture's figure), through every fix, on the roads the
// fixture names; a fix far from the roads is null and the rest still
// match; the key gate applies.
func TestMatchV1(t *testing.T) {
	srv, key := newMatchServer(t, "roundabout.osm", true)
	code, body := postMatch(srv, key, `{"points": `+roundaboutTrace+`}`)
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	var a matchAnswer
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatal(err)
	}
	if a.Code != "Ok" || len(a.Matchings) != 1 || len(a.Tracepoints) != 7 {
		t.Fatalf("answer %s", body)
	}
	m := a.Matchings[0]
	if math.Abs(m.DistanceM-379.644) > 0.5 || len(m.Legs) != 6 || m.Geometry.Type != "LineString" {
		t.Errorf("matching: %.1f m, %d legs, want 379.6 m and 6 legs: %s", m.DistanceM, len(m.Legs), body)
	}
	var roads []string
	for _, l := range m.Legs {
		for _, r := range l.Roads {
			if len(roads) == 0 || roads[len(roads)-1] != r.Name {
				roads = append(roads, r.Name)
			}
		}
	}
	if fmt.Sprint(roads) != "[South Arm Ring East Arm]" {
		t.Errorf("roads %v, want South Arm, Ring, East Arm", roads)
	}
	for i, tp := range a.Tracepoints {
		if tp == nil || tp.MatchingsIndex != 0 || tp.WaypointIndex != i || tp.DistanceM > 1 {
			t.Errorf("tracepoint %d: %+v", i, tp)
		}
	}

	// The fifth fix moved 5 km off every road: null, the others matched.
	off := strings.Replace(roundaboutTrace, `"lon": 10.003, "lat": 0.0020`, `"lon": 10.05, "lat": 0.0020`, 1)
	code, body = postMatch(srv, key, `{"points": `+off+`, "gaps": "ignore"}`)
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	a = matchAnswer{}
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatal(err)
	}
	if a.Tracepoints[4] != nil || a.Tracepoints[5] == nil || a.Tracepoints[5].WaypointIndex != 4 || math.Abs(a.Matchings[0].DistanceM-379.644) > 0.5 {
		t.Errorf("a fix off the roads: %s", body)
	}

	// Every road at 50 km/h: 379.644 m take 27.334 s, plus the 0.280 s of
	// turns (routev1's figures on this fixture).
	code, body = postMatch(srv, key, `{"points": `+roundaboutTrace+`, "speeds": "OtherRoadCity:50", "profile": "truck", "vehicle": "height_m:4", "avoid": "toll"}`)
	a = matchAnswer{}
	if err := json.Unmarshal([]byte(body), &a); err != nil || code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	if len(a.Matchings) != 1 || math.Abs(a.Matchings[0].DurationS-27.6) > 0.15 {
		t.Errorf("speeds OtherRoadCity:50: %s, want 27.6 s", body)
	}

	if code, body := postMatch(srv, "", `{"points": `+roundaboutTrace+`}`); code != 403 || strings.TrimSpace(body) != `{"message":"Forbidden"}` {
		t.Errorf("no key: %d %s", code, body)
	}
	srv2, key2 := newMatchServer(t, "roundabout.osm", false)
	if code, body := postMatch(srv2, key2, `{"points": `+roundaboutTrace+`}`); code != 503 {
		t.Errorf("bundle loading: %d %s", code, body)
	}
}

// TestMatchV1BadInput: every bad input is a 400 naming the field (and
// index), never a 5xx; a trace with no road near (in the sea) is a 404
// NoSegment, one whose points cannot be joined a 404 NoMatch.
func TestMatchV1BadInput(t *testing.T) {
	srv, key := newMatchServer(t, "roundabout.osm", true)
	pt := `{"lon": 10.002, "lat": 0.001}`
	many := strings.Repeat(pt+",", 5000) + pt
	for _, tc := range []struct {
		name, body, code, field string
	}{
		{"not json", `{"points": [`, "InvalidInput", "body"},
		{"unknown field", `{"points": [` + pt + `,` + pt + `], "gap": "split"}`, "InvalidInput", "body"},
		{"no points", `{}`, "InvalidInput", "points"},
		{"one point", `{"points": [` + pt + `]}`, "InvalidInput", "points"},
		{"too many points", `{"points": [` + many + `]}`, "InvalidInput", "points"},
		{"lon a string", `{"points": [` + pt + `, {"lon": "10.002", "lat": 0.001}]}`, "InvalidInput", "points[1].lon"},
		{"lat missing", `{"points": [` + pt + `, {"lon": 10.002}]}`, "InvalidInput", "points[1].lat"},
		{"lat out of range", `{"points": [` + pt + `, {"lon": 10.002, "lat": 91}]}`, "InvalidInput", "points[1].lat"},
		{"point not an object", `{"points": [` + pt + `, [10, 0]]}`, "InvalidInput", "points[1]"},
		{"bad time", `{"points": [` + pt + `, {"lon": 10.002, "lat": 0.001, "time": "yesterday"}]}`, "InvalidInput", "points[1].time"},
		{"offset -24:00 (Go reads it as a day later)", `{"points": [` + pt + `, {"lon": 10.002, "lat": 0.001, "time": "2026-05-01T08:00:08-24:00"}]}`, "InvalidInput", "points[1].time"},
		{"time order", `{"points": [{"lon": 10.002, "lat": 0.0, "time": 1777622410}, {"lon": 10.002, "lat": 0.001, "time": 1777622400}]}`, "InvalidInput", "points[1].time"},
		{"accuracy", `{"points": [` + pt + `, {"lon": 10.002, "lat": 0.001, "accuracy_m": -3}]}`, "InvalidInput", "points[1].accuracy_m"},
		{"radiuses length", `{"points": [` + pt + `,` + pt + `], "radiuses": [10]}`, "InvalidInput", "radiuses"},
		{"radius zero", `{"points": [` + pt + `,` + pt + `], "radiuses": [null, 0]}`, "InvalidInput", "radiuses[1]"},
		{"gaps", `{"points": [` + pt + `,` + pt + `], "gaps": "join"}`, "InvalidInput", "gaps"},
		{"tidy", `{"points": [` + pt + `,` + pt + `], "tidy": -1}`, "InvalidInput", "tidy"},
		{"profile", `{"points": [` + pt + `,` + pt + `], "profile": "boat"}`, "InvalidInput", "profile"},
		{"routing", `{"points": [` + pt + `,` + pt + `], "routing": 3}`, "InvalidInput", "routing"},
		{"speeds", `{"points": [` + pt + `,` + pt + `], "speeds": "Motorway:900"}`, "InvalidInput", "speeds"},
		{"avoid", `{"points": [` + pt + `,` + pt + `], "avoid": "tolls"}`, "InvalidInput", "avoid"},
		{"vehicle without truck", `{"points": [` + pt + `,` + pt + `], "vehicle": "height_m:4"}`, "InvalidInput", "vehicle"},
		{"vehicle out of range", `{"points": [` + pt + `,` + pt + `], "profile": "truck", "vehicle": "height_m:12"}`, "InvalidInput", "vehicle"},
		{"avoid_polygons", `{"points": [` + pt + `,` + pt + `], "avoid_polygons": {"type": "Point", "coordinates": [0, 0]}}`, "InvalidInput", "avoid_polygons"},
		{"sea", `{"points": [{"lon": 11, "lat": 1}, {"lon": 11.001, "lat": 1}]}`, "NoSegment", ""},
		{"no road near the second", `{"points": [` + pt + `, {"lon": 11, "lat": 1}]}`, "NoMatch", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := postMatch(srv, key, tc.body)
			var e matchError
			want := 400
			if tc.code != "InvalidInput" {
				want = 404
			}
			if err := json.Unmarshal([]byte(body), &e); err != nil || code != want {
				t.Fatalf("%d %s", code, body)
			}
			if e.Code != tc.code || e.Message == "" {
				t.Errorf("code %q, want %q: %s", e.Code, tc.code, body)
			}
			if tc.field != "" && (len(e.Errors) != 1 || e.Errors[0].Field != tc.field || !strings.Contains(e.Message, tc.field)) {
				t.Errorf("want field %s named: %s", tc.field, body)
			}
		})
	}
}

// FuzzParseMatch: the body parser never panics; what it accepts is a
// trace CheckTrace accepts, of 2 to 5,000 points, with every field in
// range.
func FuzzParseMatch(f *testing.F) {
	for _, s := range []string{
		`{"points": ` + roundaboutTrace + `}`,
		`{"points": [{"lon": 1, "lat": 2}, {"lon": 1, "lat": 2.001, "accuracy_m": 20}], "radiuses": [null, 30], "gaps": "ignore", "tidy": true}`,
		`{"points": [{"lon": 1, "lat": 2, "time": 0}, {"lon": 1, "lat": 2, "time": "1970-01-01T00:00:01Z"}], "tidy": 15, "profile": "truck", "routing": "shortest"}`,
		`{"points": [{"lon": 1e400, "lat": 2}]}`,
		`{"points": null, "profile": 5}`,
		`{"points": [{"lon": 1, "lat": 2}, {"lon": 1, "lat": 2.01}], "profile": "truck", "vehicle": "height_m:4.5", "speeds": "Motorway:80", "avoid": "toll", "avoid_polygons": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}}`,
		`[]`, `{"points": [{}, {}]}`, `{"points": [{"lon": 1, "lat": 2}, {"lon": 1, "lat": 2}], "radiuses": [1e309, -0]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, fe := parseMatch(body)
		if fe != nil {
			if fe.Field == "" || fe.Reason == "" {
				t.Fatalf("an error without field or reason: %+v", fe)
			}
			return
		}
		if n := len(r.points); n < minMatchPoints || n > 5000 {
			t.Fatalf("accepted %d points", n)
		}
		for i, p := range r.points {
			if math.IsNaN(p.Point[0]) || math.Abs(p.Point[0]) > 180 || math.IsNaN(p.Point[1]) || math.Abs(p.Point[1]) > 90 ||
				!(p.AccuracyM >= 0) || !(p.RadiusM >= 0) || p.RadiusM > 10000 {
				t.Fatalf("point %d accepted out of range: %+v", i, p)
			}
		}
		if r.opts.TidyM < 0 || r.opts.TidyM > maxMatchTidyM {
			t.Fatalf("tidy %g accepted", r.opts.TidyM)
		}
	})
}
