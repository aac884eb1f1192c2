package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// newRouteServer serves routev1 on the graph of routing/testdata's
// fixture (nil while not loaded) and returns it with a key.
func newRouteServer(t *testing.T, fixture string, loaded bool) (*Server, string) {
	t.Helper()
	g := routingtest.Graph(t, fixture)
	if !loaded {
		g = nil
	}
	return newRouteServerGraph(t, g)
}

// newRouteServerGraph serves routev1 on g (nil: not loaded) and returns
// it with a key.
func newRouteServerGraph(t *testing.T, g *routing.Graph) (*Server, string) {
	t.Helper()
	srv, key := keyedServer(t, "route test")
	cur := &bundle.Current{}
	if g != nil {
		cur.Store(&bundle.Bundle{Graph: g})
	}
	RegisterRoute(srv.Protected(), RouteOptions{Bundle: cur})
	return srv, key
}

func TestRouteV1(t *testing.T) {
	srv, key := newRouteServer(t, "roundabout.osm", true)
	get := func(q string) (int, string) {
		req := httptest.NewRequest(http.MethodGet, "/routev1/route?"+q, nil)
		req.Header.Set(headerAPIKey, key)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	// S2 -> E2 of the fixture: 379.644 m, 54.948 s by hand; S2 -> W2 round
	// the one-way ring: 694.151 m, 111.027 s.
	for _, tc := range []struct {
		q                  string
		duration, distance int
		streets            []string
	}{
		{"from=10.002,0.000&to=10.004,0.002", 55, 380, []string{"South Arm", "Ring", "East Arm", "East Arm"}},
		{"from=10.002,0.000&to=10.000,0.002&routing=fastest", 111, 694, []string{"South Arm", "Ring", "West Arm", "West Arm"}},
		{"from=10.002,0.000&to=10.000,0.002&routing=shortest", 111, 694, nil},
		{"from=10.002,0.000&to=10.000,0.002&routing=most_efficient", 111, 694, nil},
		{"from=10.002,0.000&to=10.004,0.002&routing=safest&avoid=toll,ferry", 55, 380, nil},
		// Every road is OtherRoadCity: at 50 km/h 379.644 m take 27.334 s,
		// plus the 0.280 s of turns.
		{"from=10.002,0.000&to=10.004,0.002&speeds=OtherRoadCity:50,Motorway:20", 28, 380, nil},
		// A truck: the fixture's roads are residential, at 20 km/h for a
		// truck (configs/truck.yaml): 68.336 s plus 0.280 s of turns; at
		// a top speed of 15 km/h 91.115 s plus the turns.
		{"from=10.002,0.000&to=10.004,0.002&profile=truck", 69, 380, []string{"South Arm", "Ring", "East Arm", "East Arm"}},
		{"from=10.002,0.000&to=10.004,0.002&profile=truck&vehicle=height_m:4.5,weight_t:40,hazmat:true,max_speed_kmh:15", 91, 380, nil},
	} {
		t.Run(tc.q, func(t *testing.T) {
			code, body := get(tc.q)
			if code != 200 {
				t.Fatalf("%d %s", code, body)
			}
			var a routeAnswer
			if err := json.Unmarshal([]byte(body), &a); err != nil {
				t.Fatal(err)
			}
			if a.DurationS != tc.duration || a.DistanceM != tc.distance {
				t.Errorf("%d s %d m, want %d s %d m", a.DurationS, a.DistanceM, tc.duration, tc.distance)
			}
			if a.Geometry.Type != "LineString" || len(a.Geometry.Coordinates) < 2 ||
				a.Geometry.Coordinates[0] != a.From.Snapped || a.Geometry.Coordinates[len(a.Geometry.Coordinates)-1] != a.To.Snapped {
				t.Errorf("geometry %+v, from %v to %v", a.Geometry, a.From, a.To)
			}
			if tc.streets != nil {
				var got []string
				for _, s := range a.Steps {
					got = append(got, s.Street)
				}
				if strings.Join(got, "|") != strings.Join(tc.streets, "|") || a.Steps[0].Maneuver != "depart" || a.Steps[len(a.Steps)-1].Maneuver != "arrive" {
					t.Errorf("steps %+v, want streets %v from depart to arrive", a.Steps, tc.streets)
				}
			}
		})
	}
	for _, tc := range []struct {
		q    string
		code int
		want string
	}{
		{"to=10.004,0.002", 400, "from is required"},
		{"from=10.002,0.000&to=10.004,0.002&profile=bus", 400, "profile: unknown profile \\\"bus\\\": want car, truck, bicycle or foot"},
		{"from=10.002,0.000&to=10.004,0.002&vehicle=height_m:4", 400, "vehicle is only for profile=truck"},
		{"from=10.002,0.000&to=10.004,0.002&profile=truck&vehicle=height_m:12", 400, "vehicle.height_m: 12 is out of range (0, 6]"},
		{"from=10.002,0.000&to=10.004,0.002&profile=truck&vehicle=height_m", 400, "vehicle: \\\"height_m\\\" is not field:value"},
		{"from=10.002,0.000&to=10.004,0.002&profile=truck&vehicle=hazmat:maybe", 400, "vehicle.hazmat: \\\"maybe\\\" is not true or false"},
		{"from=10.002,0.000&to=10.004,0.002&profile=truck&vehicle=height_m:4.5,height_m:3", 400, "vehicle.height_m: given twice"},
		{"from=10.002,0.000&to=10.004,0.002&profile=truck&vehicle=height_m:4.5;weight_t:40", 400, "vehicle: fields are separated by ','"},
		{"from=10.002&to=10.004,0.002", 400, "from:"},
		{"from=0.000,10.002&to=10.004,0.002", 404, "from: no road"},
		{"from=10.002,0.000&to=10.004,0.002&routing=bogus", 400, "routing"},
		{"from=10.002,0.000&to=10.004,0.002&speeds=OtherRoadCity:0", 400, "speeds.OtherRoadCity: 0 km/h is out of range"},
		{"from=10.002,0.000&to=10.004,0.002&speeds=Autobahn:90", 400, "is not a RoadType"},
		{"from=10.002,0.000&to=10.004,0.002&speeds=OtherRoadCity", 400, "is not RoadType:km/h"},
		{"from=10.002,0.000&to=10.004,0.002&avoid=bridges", 400, "avoid: \\\"bridges\\\" is not an avoid option"},
		{"from=10.002,0.000&to=10.004,95", 400, "to: latitude"},
		{"from=10.002,0.000&to=10.004,0.002&alternatives=3", 400, "alternatives must be a whole number from 0 to 2"},
		{"from=10.002,0.000&to=10.004,0.002&alternatives=two", 400, "alternatives must be"},
		{"from=10.002,0.000&to=10.004,0.002&alternatives=", 400, "alternatives must be"},
		{"from=10.002,0.000&to=10.004,0.002&alternatives=-1", 400, "alternatives must be"},
		// avoid_polygons: the ring's side from S to E closed leaves no way
		// round the one-way ring; a box round E's arm makes E snap to the
		// ring, 100 m away, outside it; a box elsewhere changes nothing.
		{"from=10.002,0.000&to=10.004,0.002&avoid_polygons=" + url.QueryEscape(`{"type":"Polygon","coordinates":[[[10.0023,0.0013],[10.0027,0.0013],[10.0027,0.0017],[10.0023,0.0017],[10.0023,0.0013]]]}`), 404, "no route joins the two points"},
		{"from=10.002,0.000&to=10.004,0.002&avoid_polygons=" + url.QueryEscape(`{"type":"Polygon","coordinates":[[[10.0033,0.0015],[10.005,0.0015],[10.005,0.0025],[10.0033,0.0025],[10.0033,0.0015]]]}`), 200, `"moved_m":1`},
		{"from=10.002,0.000&to=10.004,0.002&avoid_polygons=" + url.QueryEscape(`{"type":"MultiPolygon","coordinates":[[[[11,1],[11.1,1],[11.1,1.1],[11,1.1],[11,1]]]]}`), 200, `"duration":55,"distance":380`},
		{"from=10.002,0.000&to=10.004,0.002&avoid_polygons=" + url.QueryEscape(`{"type":"Polygon","coordinates":[[[9,-1],[11,-1],[11,1],[9,1],[9,-1]]]}`), 400, "avoid_polygons.coordinates: spans 222 km"},
		{"from=10.002,0.000&to=10.004,0.002&avoid_polygons=" + url.QueryEscape(`{"type":"Polygon","coordinates":[[[10,0],[10.1,0],[10.1,0.1],[10,0.1]]]}`), 400, "avoid_polygons.coordinates[0]: is not closed"},
		{"from=10.002,0.000&to=10.004,0.002&avoid_polygons=" + url.QueryEscape(`{"type":"LineString","coordinates":[[10,0],[10.1,0]]}`), 400, `avoid_polygons.type: is \"LineString\"`},
		{"from=10.002,0.000&to=10.004,0.002&avoid_polygons=", 400, "avoid_polygons: must be a GeoJSON Polygon or MultiPolygon object"},
		{"from=10.004,0.002&to=10.002,0.000&avoid_polygons=" + url.QueryEscape(`{"type":"Polygon","coordinates":[[[9.99,-0.01],[10.01,-0.01],[10.01,0.01],[9.99,0.01],[9.99,-0.01]]]}`), 404, "from: no road outside avoid_polygons within 1000 m"},
		// Asked: the list, empty when no other route is admissible (the
		// fixture's one-way ring leaves none); not asked: no list.
		{"from=10.002,0.000&to=10.000,0.002&alternatives=2", 200, `"alternatives":[]`},
		{"from=10.002,0.000&to=10.000,0.002&alternatives=0", 200, `"geometry"`},
	} {
		code, body := get(tc.q)
		if code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d %s, want %d with %q", tc.q, code, body, tc.code, tc.want)
		}
		if strings.HasSuffix(tc.q, "alternatives=0") && strings.Contains(body, "alternatives") {
			t.Errorf("%s: an alternatives list not asked for: %s", tc.q, body)
		}
	}
	loading, key2 := newRouteServer(t, "roundabout.osm", false)
	req := httptest.NewRequest(http.MethodGet, "/routev1/route?from=10.002,0.000&to=10.004,0.002", nil)
	req.Header.Set(headerAPIKey, key2)
	rec := httptest.NewRecorder()
	loading.ServeHTTP(rec, req)
	if rec.Code != 503 {
		t.Errorf("while loading: %d", rec.Code)
	}
}

// TestRouteV1Alternatives: routing/testdata/alternatives.osm, from S to T
// by length: the best route along Main Street (1112 m), then North Road
// (1204 m) and South Road (1291 m), worked out by hand in the fixture.
func TestRouteV1Alternatives(t *testing.T) {
	srv, key := newRouteServer(t, "alternatives.osm", true)
	req := httptest.NewRequest(http.MethodGet, "/routev1/route?from=10.000,0&to=10.010,0&routing=shortest&alternatives=2", nil)
	req.Header.Set(headerAPIKey, key)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	var a routeAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil || rec.Code != 200 {
		t.Fatalf("%d %v: %s", rec.Code, err, rec.Body)
	}
	if a.DistanceM != 1112 || a.Alternatives == nil || len(*a.Alternatives) != 2 {
		t.Fatalf("best %d m, alternatives %+v; want 1112 m and two", a.DistanceM, a.Alternatives)
	}
	for i, want := range []struct {
		distance int
		street   string
	}{{1204, "North Road"}, {1291, "South Road"}} {
		alt := (*a.Alternatives)[i]
		var streets []string
		for _, s := range alt.Steps {
			streets = append(streets, s.Street)
		}
		if alt.DistanceM != want.distance || !slices.Contains(streets, want.street) {
			t.Errorf("alternative %d: %d m along %v, want %d m along %s", i+1, alt.DistanceM, streets, want.distance, want.street)
		}
		if c := alt.Geometry.Coordinates; len(c) < 2 || c[0] != a.From.Snapped || c[len(c)-1] != a.To.Snapped {
			t.Errorf("alternative %d: geometry does not join the snapped points", i+1)
		}
	}
}
