package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/internal/redistest"
	"github.com/geosvc/geosvc/keys"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// osrmServer serves the OSRM API on graph g (nil: loading) with limits,
// and returns a get that sends a path (with the key in the header unless
// noKey) and decodes the answer.
type osrmServer struct {
	srv   *Server
	key   string
	keyID string
	store *keys.Store
}

func newOSRMServer(t testing.TB, g *routing.Graph, limits OSRMLimits) *osrmServer {
	t.Helper()
	rd := redistest.New(t)
	store := keys.NewStore(rd.Client, keys.Options{Prefix: rd.Prefix})
	k, key, err := store.Create(context.Background(), keys.CreateOptions{Owner: "osrm test"})
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Redis: rd.Client, Gate: keys.NewGate(store, keys.GateOptions{})})
	cur := &bundle.Current{}
	if g != nil {
		cur.Store(&bundle.Bundle{Graph: g})
	}
	RegisterOSRM(srv.Protected(), OSRMOptions{Bundle: cur, Limits: limits})
	return &osrmServer{srv: srv, key: key, keyID: k.ID, store: store}
}

// get sends GET path with the key in the x-api-key header.
func (s *osrmServer) get(t testing.TB, path string) (int, string) {
	t.Helper()
	return s.do(t, path, s.key)
}

// do sends GET path with header as the x-api-key ("" for none).
func (s *osrmServer) do(t testing.TB, path, header string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if header != "" {
		req.Header.Set(headerAPIKey, header)
	}
	rec := httptest.NewRecorder()
	s.srv.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

// TestOSRMErrors: bad requests answer OSRM's code with HTTP 400 (never a
// 5xx, never "Ok"), the message naming the option or coordinate.
func TestOSRMErrors(t *testing.T) {
	s := newOSRMServer(t, routingtest.Graph(t, "roundabout.osm"), OSRMLimits{MaxTableSize: 2, MaxViarouteSize: 3, MaxTripSize: 3, MaxNearestSize: 2, MaxAlternatives: 1})
	const ab = "10.002,0.000;10.004,0.002"
	for _, tc := range []struct {
		path, code, want string
	}{
		{"/osrm/route/v1/driving", "InvalidUrl", "URL string malformed close to position"},
		{"/osrm/route/v1/driving/" + ab + "/x", "InvalidUrl", "URL string malformed"},
		{"/osrm/routes/v1/driving/" + ab, "InvalidService", "Service routes not found!"},
		{"/osrm/tile/v1/driving/" + ab, "InvalidService", "Service tile not found!"},
		{"/osrm/match/v1/driving/" + ab + "?timestamps=1;2;3", "InvalidOptions", "timestamps size 3 does not match coordinate size 2"},
		{"/osrm/match/v1/driving/" + ab + "?timestamps=1;x", "InvalidQuery", "timestamps: entry 1"},
		{"/osrm/match/v1/driving/" + ab + "?timestamps=2;1", "InvalidValue", "points[1].time"},
		{"/osrm/match/v1/driving/" + ab + "?bearings=0,90;", "InvalidOptions", "bearings: geosvc's map matching does not use them"},
		{"/osrm/match/v1/driving/" + ab + "?gaps=close", "InvalidQuery", "gaps"},
		{"/osrm/match/v1/driving/" + ab + "?roundtrip=true", "InvalidQuery", "not an option of the match service"},
		{"/osrm/match/v1/driving/0,10;0.001,10", "NoSegment", "Could not find a matching segment for any coordinate."},
		{"/osrm/match/v1/driving/10.002,0.000", "InvalidOptions", "at least two"},
		{"/osrm/route/v2/driving/" + ab, "InvalidVersion", "only v1"},
		{"/osrm/route/v1/boat/" + ab, "InvalidUrl", `profile "boat" is not served`},
		{"/osrm/route/v1/driving/" + ab + ".xml", "InvalidQuery", `format "xml"`},
		{"/osrm/route/v1/driving/10.002,0.000;10.004", "InvalidQuery", `coordinates[1]: "10.004" is not lon,lat`},
		{"/osrm/route/v1/driving/10.002,0.000;abc,1", "InvalidQuery", "coordinates[1]"},
		{"/osrm/route/v1/driving/10.002,0.000;10.004,95", "InvalidValue", "coordinates[1] latitude 95 is out of -90..90"},
		{"/osrm/route/v1/driving/polyline(_p~iF", "InvalidQuery", "no closing parenthesis"},
		{"/osrm/route/v1/driving/polyline(~)", "InvalidQuery", "is not an encoded polyline"},
		{"/osrm/route/v1/driving/10.002,0.000", "InvalidOptions", "Number of coordinates needs to be at least two."},
		{"/osrm/route/v1/driving/" + ab + ";10.003,0.002;10.001,0.002", "TooBig", "Number of entries 4 is higher than current maximum (3)"},
		{"/osrm/route/v1/driving/" + ab + "?bogus=1", "InvalidQuery", `Query string malformed close to position 49: "bogus" is not an option of the route service`},
		{"/osrm/route/v1/driving/" + ab + "?steps=yes", "InvalidQuery", `steps: "yes" is not true or false`},
		{"/osrm/route/v1/driving/" + ab + "?steps=true&steps=false", "InvalidQuery", "steps is given twice"},
		{"/osrm/route/v1/driving/" + ab + "?geometries=wkt", "InvalidQuery", "geometries"},
		{"/osrm/route/v1/driving/" + ab + "?overview=some", "InvalidQuery", "overview"},
		{"/osrm/route/v1/driving/" + ab + "?annotations=colour", "InvalidQuery", "annotations"},
		{"/osrm/route/v1/driving/" + ab + "?alternatives=2", "TooBig", "alternatives is higher than current maximum (1)"},
		{"/osrm/route/v1/driving/" + ab + "?alternatives=x", "InvalidQuery", "alternatives"},
		{"/osrm/route/v1/driving/" + ab + "?continue_straight=maybe", "InvalidQuery", "continue_straight"},
		{"/osrm/route/v1/driving/" + ab + "?radiuses=10", "InvalidOptions", "Number of elements in radiuses size 1 does not match coordinate size 2"},
		{"/osrm/route/v1/driving/" + ab + "?radiuses=10;x", "InvalidQuery", `radiuses[1]: "x" is not a number of metres`},
		{"/osrm/route/v1/driving/" + ab + "?bearings=400,20;", "InvalidOptions", "bearings[0]: 400 is out of 0..360"},
		{"/osrm/route/v1/driving/" + ab + "?approaches=curb;opposite", "InvalidQuery", "approaches[1]"},
		{"/osrm/route/v1/driving/" + ab + "?hints=a;b;c", "InvalidQuery", "hints: entry 0"},
		{"/osrm/route/v1/driving/" + ab + "?exclude=bridge", "InvalidValue", "Exclude flag combination is not supported"},
		{"/osrm/route/v1/driving/" + ab + "?snapping=near", "InvalidQuery", "snapping"},
		{"/osrm/route/v1/driving/" + ab + "?waypoints=1;1", "InvalidValue", "First and last coordinates must be specified as waypoints."},
		{"/osrm/route/v1/driving/" + ab + "?waypoints=0;5", "InvalidOptions", "waypoints[1]: index 5 is out of bounds"},
		{"/osrm/route/v1/driving/" + ab + "?speeds=OtherRoadCity:0", "InvalidValue", "speeds.OtherRoadCity"},
		{"/osrm/route/v1/driving/" + ab + "?vehicle=height_m:4", "InvalidValue", "vehicle is only for profile=truck"},
		{"/osrm/route/v1/truck/" + ab + "?vehicle=height_m:12", "InvalidValue", "vehicle.height_m"},
		{"/osrm/route/v1/driving/" + ab + "?routing=scenic", "InvalidValue", "routing"},
		{"/osrm/route/v1/driving/" + ab + "?format=flatbuffers", "InvalidOptions", "json only"},
		{"/osrm/route/v1/driving/0,10;10.004,0.002", "NoSegment", "Could not find a matching segment for coordinate 0"},
		{"/osrm/route/v1/driving/10.002,0.000;10.004,0.0021?radiuses=;0.5", "NoSegment", "coordinate 1"},
		{"/osrm/route/v1/cycling/" + ab, "InvalidUrl", `"bicycle" is not in this bundle`},
		{"/osrm/table/v1/driving/" + ab + ";10.003,0.002", "TooBig", "Too many table coordinates: 3 x 3 is more than 2 x 2 cells; order larger matrices from tdmv1"},
		{"/osrm/table/v1/driving/" + ab + "?sources=0;2", "InvalidOptions", "sources[1]: index 2 is out of bounds"},
		{"/osrm/table/v1/driving/" + ab + "?sources=a", "InvalidQuery", "sources"},
		{"/osrm/table/v1/driving/" + ab + "?annotations=speed", "InvalidQuery", "annotations"},
		{"/osrm/table/v1/driving/" + ab + "?fallback_speed=0", "InvalidOptions", "fallback_speed: 0 must be more than 0"},
		{"/osrm/table/v1/driving/" + ab + "?scale_factor=x", "InvalidQuery", "scale_factor"},
		{"/osrm/table/v1/driving/" + ab + "?fallback_coordinate=middle", "InvalidQuery", "fallback_coordinate"},
		{"/osrm/table/v1/driving/" + ab + "?steps=true", "InvalidQuery", "not an option of the table service"},
		{"/osrm/nearest/v1/driving/" + ab, "InvalidOptions", "Only one input coordinate is supported"},
		{"/osrm/nearest/v1/driving/10.002,0.000?number=3", "TooBig", "Number of results 3 is higher than current maximum (2)"},
		{"/osrm/nearest/v1/driving/10.002,0.000?number=0", "InvalidQuery", "number"},
		{"/osrm/nearest/v1/driving/0,10", "NoSegment", "coordinate 0"},
		{"/osrm/trip/v1/driving/" + ab + ";10.003,0.002;10.001,0.002", "TooBig", "Too many trip coordinates"},
		{"/osrm/trip/v1/driving/" + ab + "?roundtrip=false", "NotImplemented", "roundtrip=false needs source=first or destination=last"},
		{"/osrm/trip/v1/driving/" + ab + "?source=last", "InvalidQuery", "source"},
		{"/osrm/trip/v1/driving/" + ab + "?destination=first", "InvalidQuery", "destination"},
		// The one-way ring has no way from its arm W2 back to... every
		// arm is two-way: an unreachable pair needs another fixture.
	} {
		code, body := s.get(t, tc.path)
		var e osrmError
		if err := json.Unmarshal([]byte(body), &e); err != nil || code != http.StatusBadRequest || e.Code != tc.code || !strings.Contains(e.Message, tc.want) {
			t.Errorf("%s: %d %s, want 400 %s with %q", tc.path, code, body, tc.code, tc.want)
		}
	}
}

// TestOSRMKeys: the key in the header, the path or ?api_key= opens the
// API; none, a bad one, two, or one not allowed osrmv1 is 403
// {"message":"Forbidden"}; the path key is taken out of the URL.
func TestOSRMKeys(t *testing.T) {
	s := newOSRMServer(t, routingtest.Graph(t, "roundabout.osm"), OSRMLimits{})
	_, routeOnly, err := s.store.Create(context.Background(), keys.CreateOptions{Owner: "routev1 only", Interfaces: []string{keys.RouteV1}})
	if err != nil {
		t.Fatal(err)
	}
	const rest = "route/v1/driving/10.002,0.000;10.004,0.002"
	for _, tc := range []struct {
		name, path, header string
		code               int
	}{
		{"header", "/osrm/" + rest, s.key, 200},
		{"path", "/osrm/" + s.key + "/" + rest, "", 200},
		{"path .json", "/osrm/" + s.key + "/" + rest + ".json?steps=true", "", 200},
		{"query", "/osrm/" + rest + "?api_key=" + s.key, "", 200},
		{"none", "/osrm/" + rest, "", 403},
		{"bad header", "/osrm/" + rest, "nope", 403},
		{"bad path", "/osrm/not-a-key/" + rest, "", 403},
		{"bad query", "/osrm/" + rest + "?api_key=nope", "", 403},
		{"two", "/osrm/" + s.key + "/" + rest, s.key, 403},
		{"two in the query", "/osrm/" + rest + "?api_key=" + s.key + "&api_key=" + s.key, "", 403},
		{"not allowed osrmv1", "/osrm/" + routeOnly + "/" + rest, "", 403},
	} {
		code, body := s.do(t, tc.path, tc.header)
		if code != tc.code || (code == 403 && strings.TrimSpace(body) != `{"message":"Forbidden"}`) || (code == 200 && !strings.Contains(body, `"code":"Ok"`)) {
			t.Errorf("%s: %d %s, want %d", tc.name, code, body, tc.code)
		}
	}
	// The four answers of s.key counted as osrmv1 requests; its refusal
	// (two keys) not.
	u, err := s.store.Usage(context.Background(), s.keyID, 1)
	if err != nil || u[0].Counts[keys.OSRMV1] != 4 || len(u[0].Counts) != 1 {
		t.Errorf("usage %+v (%v), want 4 osrmv1 requests", u, err)
	}
	if got := osrmKeys(httptest.NewRequest(http.MethodGet, "/osrm/"+s.key+"/"+rest, nil), nil); len(got) != 1 || got[0] != s.key {
		t.Errorf("osrmKeys = %v", got)
	}
	req := httptest.NewRequest(http.MethodGet, "/osrm/"+s.key+"/"+rest, nil)
	osrmPathKey(req)
	if strings.Contains(req.URL.Path, s.key) || req.URL.Path != "/osrm/"+rest {
		t.Errorf("path after taking the key: %s", req.URL.Path)
	}
	loading := newOSRMServer(t, nil, OSRMLimits{})
	if code, _ := loading.get(t, "/osrm/"+rest); code != 503 {
		t.Errorf("while loading: %d, want 503", code)
	}
}

// TestOSRMRouteFixture: the roundabout fixture's S2 -> E2, worked out by
// hand (379.644 m, 54.948 s): OSRM's Route with its legs, steps,
// annotations and waypoints, in each geometry encoding. The ring (629 m
// round: a radius of 100 m, named "Ring", a name none of its arms has)
// is a rotary in OSRM's terms: into it at S ("rotary", exit 1, right:
// from heading north to heading east), out of it at E ("exit rotary").
func TestOSRMRouteFixture(t *testing.T) {
	s := newOSRMServer(t, routingtest.Graph(t, "roundabout.osm"), OSRMLimits{})
	for _, geom := range []string{"polyline", "polyline6", "geojson"} {
		code, body := s.get(t, "/osrm/route/v1/car/10.002,0.000;10.004,0.002.json?steps=true&annotations=true&overview=full&geometries="+geom)
		if code != 200 {
			t.Fatalf("%s: %d %s", geom, code, body)
		}
		var a struct {
			Code   string
			Routes []struct {
				Geometry                   json.RawMessage
				Duration, Distance, Weight float64
				WeightName                 string `json:"weight_name"`
				Legs                       []osrmLeg
			}
			Waypoints []osrmWaypoint
		}
		if err := json.Unmarshal([]byte(body), &a); err != nil {
			t.Fatal(err)
		}
		if a.Code != "Ok" || len(a.Routes) != 1 || len(a.Routes[0].Legs) != 1 || len(a.Waypoints) != 2 {
			t.Fatalf("%s: %s", geom, body)
		}
		rt := a.Routes[0]
		if math.Abs(rt.Duration-54.9) > 0.15 || math.Abs(rt.Distance-379.6) > 0.15 || rt.Weight != rt.Duration || rt.WeightName != "duration" {
			t.Errorf("%s: %v s %v m (weight %v %s), want 54.9 s 379.6 m", geom, rt.Duration, rt.Distance, rt.Weight, rt.WeightName)
		}
		leg := rt.Legs[0]
		var names, types []string
		sumDur := 0.0
		for _, st := range leg.Steps {
			names = append(names, st.Name)
			types = append(types, st.Maneuver.Type+":"+st.Maneuver.Modifier+":"+strconv.Itoa(st.Maneuver.Exit))
			sumDur += st.Duration
			if st.Mode != "driving" || st.DrivingSide != "right" || len(st.Intersections) != 1 {
				t.Errorf("%s: step %+v", geom, st)
			}
		}
		if strings.Join(names, "|") != "South Arm|East Arm|East Arm|East Arm" ||
			strings.Join(types, "|") != "depart::0|rotary:right:1|exit rotary:right:1|arrive::0" || leg.Steps[1].RotaryName != "Ring" {
			t.Errorf("%s: steps %v %v", geom, names, types)
		}
		if math.Abs(sumDur-rt.Duration) > 0.2 || leg.Summary != "South Arm, Ring" && leg.Summary != "Ring, East Arm" && leg.Summary != "South Arm, East Arm" {
			t.Errorf("%s: steps add up to %v s of %v; summary %q", geom, sumDur, rt.Duration, leg.Summary)
		}
		// The depart heads north up the South Arm; the ring leaves S
		// heading north-east.
		if m := leg.Steps[0].Maneuver; m.BearingAfter != 0 || m.Location != [2]float64{10.002, 0} {
			t.Errorf("%s: depart %+v", geom, m)
		}
		if m := leg.Steps[1].Maneuver; m.BearingBefore != 0 || m.BearingAfter != 45 || m.Location != [2]float64{10.002, 0.001} {
			t.Errorf("%s: onto the ring %+v", geom, m)
		}
		an := leg.Annotation
		if an == nil || len(an.Duration) != len(an.Distance) || len(an.Speed) != len(an.Duration) || len(an.Datasources) != len(an.Duration) {
			t.Fatalf("%s: annotation %+v", geom, an)
		}
		d := 0.0
		for _, v := range an.Distance {
			d += v
		}
		if math.Abs(d-rt.Distance) > 0.5 {
			t.Errorf("%s: annotation distances add up to %v, route %v", geom, d, rt.Distance)
		}
		var line [][2]float64
		switch geom {
		case "geojson":
			var l routeLine
			_ = json.Unmarshal(rt.Geometry, &l)
			line = l.Coordinates
		default:
			var enc string
			_ = json.Unmarshal(rt.Geometry, &enc)
			pts, err := decodePolyline(enc, map[string]int{"polyline": 5, "polyline6": 6}[geom])
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range pts {
				line = append(line, [2]float64(p))
			}
		}
		// South Arm, the ring's S -> E side, the East Arm: 4 points.
		want := [][2]float64{{10.002, 0}, {10.002, 0.001}, {10.003, 0.002}, {10.004, 0.002}}
		if len(line) != len(want) || len(an.Duration) != len(line)-1 {
			t.Fatalf("%s: geometry %v (annotation of %d), want %v", geom, line, len(an.Duration), want)
		}
		for i := range want {
			if math.Abs(line[i][0]-want[i][0]) > 1e-5 || math.Abs(line[i][1]-want[i][1]) > 1e-5 {
				t.Errorf("%s: geometry %v, want %v", geom, line, want)
				break
			}
		}
		if w := a.Waypoints[1]; w.Name != "East Arm" || w.Location != [2]float64{10.004, 0.002} || w.Hint == "" {
			t.Errorf("%s: waypoint %+v", geom, w)
		}
	}
	// overview=false drops the geometry; skip_waypoints the waypoints;
	// generate_hints=false the hints; steps=false leaves an empty list.
	_, body := s.get(t, "/osrm/route/v1/driving/10.002,0.000;10.004,0.002?overview=false&skip_waypoints=true")
	if strings.Contains(body, `"geometry"`) || strings.Contains(body, `"waypoints"`) || !strings.Contains(body, `"steps":[]`) {
		t.Errorf("overview=false&skip_waypoints=true: %s", body)
	}
	_, body = s.get(t, "/osrm/route/v1/driving/10.002,0.000;10.004,0.002?generate_hints=false&hints=abc;&radiuses=unlimited;&exclude=toll,ferry")
	if strings.Contains(body, `"hint"`) || !strings.Contains(body, `"code":"Ok"`) {
		t.Errorf("generate_hints=false: %s", body)
	}
	// Through a via point (E) that is no waypoint: one leg.
	_, body = s.get(t, "/osrm/route/v1/driving/10.002,0.000;10.003,0.002;10.004,0.002?waypoints=0;2")
	var a osrmRouteAnswer
	if err := json.Unmarshal([]byte(body), &a); err != nil || len(a.Routes) != 1 || len(a.Routes[0].Legs) != 1 || len(a.Waypoints) != 3 {
		t.Errorf("waypoints=0;2: %s", body)
	}
}

// TestOSRMClientRequests: the requests OSRM's clients send, as they
// write them, answer Ok: VROOM's table and route (6-decimal coordinates,
// radiuses=35 each; the key in the path, after VROOM's -a HOST/PATH),
// Leaflet Routing Machine's route (hints, alternatives=true), routingpy's.
func TestOSRMClientRequests(t *testing.T) {
	s := newOSRMServer(t, routingtest.Graph(t, "roundabout.osm"), OSRMLimits{})
	const c = "10.002000,0.000000;10.004000,0.002000;10.000000,0.002000"
	for _, path := range []string{
		"/osrm/" + s.key + "/table/v1/car/" + c + "?annotations=duration,distance&radiuses=35;35;35",
		"/osrm/" + s.key + "/route/v1/car/" + c + "?alternatives=false&steps=false&overview=full&continue_straight=false&radiuses=35;35;35",
		"/osrm/" + s.key + "/route/v1/driving/10.002,0;10.004,0.002?overview=false&alternatives=true&steps=true&hints=;",
		"/osrm/" + s.key + "/route/v1/driving/10.002,0;10.004,0.002?overview=false&alternatives=true&steps=true&hints=BAAAAAAAAAAAAAAA;BQAAAAAAAAAAAPA_",
		"/osrm/" + s.key + "/route/v1/driving/10.002,0;10.004,0.002?overview=full&alternatives=true&steps=true&continue_straight=false",
		"/osrm/route/v1/driving/10.002,0;10.004,0.002?alternatives=false&steps=true&annotations=true&geometries=geojson&overview=full&continue_straight=default&api_key=" + s.key,
		"/osrm/table/v1/driving/10.002,0;10.004,0.002?sources=0&destinations=1&annotations=distance,duration&api_key=" + s.key,
	} {
		code, body := s.do(t, path, "")
		if code != 200 || !strings.Contains(body, `"code":"Ok"`) {
			t.Errorf("%s: %d %.300s", path, code, body)
		}
	}
}

// TestOSRMUnreachable: island.osm's Island Road joins nothing: from A to
// I2 (snapped on the island with radiuses=;100: the main roads, 1496 m
// away, are within the default radius) is NoRoute, a trip through it
// NoTrips, and its table cells null, or with fallback_speed the
// straight line at that speed, listed in fallback_speed_cells.
func TestOSRMUnreachable(t *testing.T) {
	s := newOSRMServer(t, routingtest.Graph(t, "island.osm"), OSRMLimits{})
	const a, c, i2 = "10.000,0.000", "10.000,0.002", "10.010,0.011"
	for _, tc := range []struct{ path, code, want string }{
		{"/osrm/route/v1/driving/" + a + ";" + i2 + "?radiuses=;100", "NoRoute", "Impossible route between points"},
		{"/osrm/trip/v1/driving/" + a + ";" + c + ";" + i2 + "?radiuses=;;100", "NoTrips", "No trip visiting all destinations possible."},
	} {
		code, body := s.get(t, tc.path)
		if code != 400 || !strings.Contains(body, `"code":"`+tc.code+`"`) || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d %s", tc.path, code, body)
		}
	}
	code, body := s.get(t, "/osrm/table/v1/driving/"+a+";"+c+";"+i2+"?radiuses=;;100&annotations=duration,distance")
	var tab osrmTableAnswer
	if err := json.Unmarshal([]byte(body), &tab); err != nil || code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	// A -> C: 222.390 m, 32.031 s by hand (the fixture's comment).
	if d := tab.Durations[0][1]; d == nil || *d != 32 || *tab.Distances[0][1] != 222 || tab.Durations[0][2] != nil || tab.Distances[2][0] != nil || tab.FallbackSpeedCells != nil {
		t.Errorf("table %s", body)
	}
	_, body = s.get(t, "/osrm/table/v1/driving/"+a+";"+c+";"+i2+"?radiuses=;;100&annotations=duration,distance&fallback_speed=10")
	tab = osrmTableAnswer{}
	_ = json.Unmarshal([]byte(body), &tab)
	// A to I2 as the crow flies: 0.010 degrees east, 0.011 north at the
	// equator, 111.195 km a degree.
	crow := math.Hypot(0.010, 0.011) * 111195
	if d := tab.Distances[0][2]; d == nil || math.Abs(*d-crow) > 2 || math.Abs(*tab.Durations[0][2]-crow/10) > 0.3 {
		t.Errorf("fallback cell A -> I2: %s, want %.1f m, %.1f s", body, crow, crow/10)
	}
	if want := [][2]int{{0, 2}, {1, 2}, {2, 0}, {2, 1}}; len(tab.FallbackSpeedCells) != 4 || tab.FallbackSpeedCells[0] != want[0] || tab.FallbackSpeedCells[3] != want[3] {
		t.Errorf("fallback_speed_cells %v, want %v", tab.FallbackSpeedCells, want)
	}
}

// TestOSRMMatch: a trace along the roundabout fixture's South Arm, ring
// and East Arm (S2 -> E2, 379.644 m by hand) matches as one matching of
// that length through Graph.Match, each point a tracepoint on it; a
// limit of 3 coordinates refuses 4 (TooBig).
func TestOSRMMatch(t *testing.T) {
	s := newOSRMServer(t, routingtest.Graph(t, "roundabout.osm"), OSRMLimits{MaxMatchingSize: 3})
	const trace = "10.002,0.0001;10.0025,0.0015;10.0039,0.002"
	code, body := s.get(t, "/osrm/match/v1/driving/"+trace+"?timestamps=0;30;60&overview=full&steps=true&radiuses=10;10;10")
	var a osrmMatchAnswer
	if err := json.Unmarshal([]byte(body), &a); err != nil || code != 200 || a.Code != "Ok" {
		t.Fatalf("%d %s", code, body)
	}
	if len(a.Matchings) != 1 || len(a.Tracepoints) != 3 || len(a.Matchings[0].Legs) != 2 {
		t.Fatalf("%s", body)
	}
	m := a.Matchings[0]
	// From 11.1 m up the South Arm to 11.1 m before E2: 379.644 - 22.2.
	if math.Abs(m.Distance-357.4) > 1 || m.Confidence <= 0 || m.Confidence > 1 {
		t.Errorf("matching %v m, confidence %v; want 357.4 m", m.Distance, m.Confidence)
	}
	for i, tp := range a.Tracepoints {
		if tp == nil || tp.MatchingsIndex != 0 || tp.WaypointIndex != i {
			t.Errorf("tracepoint %d: %+v", i, tp)
		}
	}
	if code, body := s.get(t, "/osrm/match/v1/driving/"+trace+";10.004,0.002"); code != 400 || !strings.Contains(body, `"code":"TooBig"`) {
		t.Errorf("4 coordinates over a limit of 3: %d %s", code, body)
	}
}
