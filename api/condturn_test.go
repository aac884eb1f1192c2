package api

import (
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
)

// condTurnsGraph builds routing/testdata/conditional_turns.osm: three
// islands with conditional turn restrictions whose routes its comment
// works out by hand (no speed data).
func condTurnsGraph(t *testing.T) *routing.Graph {
	return fixtureGraph(t, "conditional_turns.osm")
}

// fixtureGraph builds the car graph of a hand-made OSM file of
// routing/testdata.
func fixtureGraph(t *testing.T, name string) *routing.Graph {
	t.Helper()
	prof, err := profile.Load(filepath.Join("..", "configs", "car.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	net, err := osmroad.Read(filepath.Join("..", "routing", "testdata", name), prof)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := routing.Build(net, prof)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestRouteV1ConditionalTurns: routev1 with departure_time on
// conditional_turns.osm (Africa/Libreville, UTC+1; 1 December 2026 is a
// Tuesday, 4 December a Friday, 5 December a Saturday): the routes the
// fixture's comment works out, time-dependent (routing fastest: the turn
// at the minute the car makes it) and time-bucketed (shortest: the
// departure's hour), and as without the restrictions' times when no time
// is given.
func TestRouteV1ConditionalTurns(t *testing.T) {
	g := condTurnsGraph(t)
	cur := bundle.NewCurrent(&bundle.Bundle{Graph: g, TimeZones: tzIndex(t)})
	if info := describe(cur.Load()); info.ConditionalTurns == nil || *info.ConditionalTurns != 3 {
		t.Errorf("/v1/info: conditional_turns %v, want 3 (two via-node turns, one out of a via copy)", info.ConditionalTurns)
	}
	srv, key := keyedServer(t, "conditional turns test")
	RegisterRoute(srv.Protected(), RouteOptions{Bundle: cur})
	// Island A: S (node 2) -> W2 (node 6); B: S (105) -> T (106); C: S
	// (22) -> W2 (26).
	A, B, C := "from=10.001,0&to=9.999,0.001", "from=10.101,0&to=10.102,0", "from=10.201,0&to=10.199,0.001"
	for _, c := range []struct {
		name, q  string
		wantM    int
		model    string
		depLocal string
	}{
		{"A no time", A, 334, "", ""},
		{"A Tue 07:30", A + "&departure_time=2026-12-01T06:30:00Z", 491, "time-dependent", "2026-12-01T07:30:00+01:00"},
		{"A Tue 09:01", A + "&departure_time=2026-12-01T09:01:00%2B01:00", 334, "time-dependent", "2026-12-01T09:01:00+01:00"},
		{"A Sat 08:00", A + "&departure_time=2026-12-05T08:00:00%2B01:00", 334, "time-dependent", "2026-12-05T08:00:00+01:00"},
		// The car turns at X at 09:00:06: open (time-dependent) ...
		{"A Tue 08:59:50", A + "&departure_time=2026-12-01T08:59:50%2B01:00", 334, "time-dependent", "2026-12-01T08:59:50+01:00"},
		// ... but the hour is 08:00 for a bucketed metric.
		{"A Tue 08:59:50 shortest", A + "&routing=shortest&departure_time=2026-12-01T08:59:50%2B01:00", 491, "time-bucketed", "2026-12-01T08:59:50+01:00"},
		{"B no time", B, 334, "", ""},
		{"B Tue 07:30", B + "&departure_time=2026-12-01T07:30:00%2B01:00", 778, "time-dependent", "2026-12-01T07:30:00+01:00"},
		{"B Tue 09:01", B + "&departure_time=2026-12-01T09:01:00%2B01:00", 334, "time-dependent", "2026-12-01T09:01:00+01:00"},
		{"B Sat 08:00 shortest", B + "&routing=shortest&departure_time=2026-12-05T08:00:00%2B01:00", 334, "time-bucketed", "2026-12-05T08:00:00+01:00"},
		{"C no time", C, 491, "", ""},
		{"C Tue 07:30", C + "&departure_time=2026-12-01T07:30:00%2B01:00", 491, "time-dependent", "2026-12-01T07:30:00+01:00"},
		{"C Sat 10:00", C + "&departure_time=2026-12-05T10:00:00%2B01:00", 334, "time-dependent", "2026-12-05T10:00:00+01:00"},
		{"C Sat 10:00 shortest", C + "&routing=shortest&departure_time=2026-12-05T10:00:00%2B01:00", 334, "time-bucketed", "2026-12-05T10:00:00+01:00"},
	} {
		req := httptest.NewRequest(http.MethodGet, "/routev1/route?"+c.q, nil)
		req.Header.Set(headerAPIKey, key)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		var a routeAnswer
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &a) != nil {
			t.Fatalf("%s: %d %s", c.name, rec.Code, rec.Body)
		}
		if a.DistanceM != c.wantM || a.TimeModel != c.model || a.DepartureTime != c.depLocal || a.SpeedVersion != "" {
			t.Errorf("%s: %d m, model %q, departure %q, version %q; want %d m, %q, %q", c.name, a.DistanceM, a.TimeModel, a.DepartureTime, a.SpeedVersion, c.wantM, c.model, c.depLocal)
		}
		if c.depLocal != "" && a.TimeZone != "Africa/Libreville" {
			t.Errorf("%s: zone %q", c.name, a.TimeZone)
		}
	}
}

// TestTDMConditionalTurns: a tdmv1 cell with a departure_time closes
// the conditional turns of the departure's hour (the metric key the
// order carries), and one without a time does not.
func TestTDMConditionalTurns(t *testing.T) {
	g := condTurnsGraph(t)
	cur := bundle.NewCurrent(&bundle.Bundle{Graph: g, TimeZones: tzIndex(t)})
	f := newTDMFixtureWith(t, 100, TDMOptions{Inline: graphComputer{g}, InlineCells: 100, Bundle: cur})
	for _, c := range []struct {
		name, from, to, dep string
		wantM               float64
	}{
		{"A no time", "10.001,0", "9.999,0.001", "", 334},
		{"A Tue 07:30", "10.001,0", "9.999,0.001", "2026-12-01T07:30:00+01:00", 491},
		{"A Sat 08:00", "10.001,0", "9.999,0.001", "2026-12-05T08:00:00+01:00", 334},
		{"B Tue 07:30", "10.101,0", "10.102,0", "2026-12-01T07:30:00+01:00", 778},
		{"C no time", "10.201,0", "10.199,0.001", "", 491},
		{"C Sun 12:00", "10.201,0", "10.199,0.001", "2026-12-06T12:00:00+01:00", 334},
	} {
		body := `{"origin_addresses":["` + c.from + `"],"destination_addresses":["` + c.to + `"],"result":["distance"]`
		if c.dep != "" {
			body += `,"departure_time":"` + c.dep + `"`
		}
		id := f.order(t, body+"}")
		code, m := f.fetchJSON(t, f.key, id)
		if code != 200 || m["status"] != "Finished" {
			t.Fatalf("%s: %d %v", c.name, code, m)
		}
		if got := m["distance"].([]any)[0].([]any)[0].(float64); got != c.wantM {
			t.Errorf("%s: %v m, want %v", c.name, got, c.wantM)
		}
	}
}

// TestOSRMConditionalTurns: the OSRM API's departure_time closes the
// turns conditional turn restrictions close at its hour on a bundle
// without speed data (conditional_turns.osm's island A, worked out by
// hand in its comment: 333.6 m straight through X without a time or on
// a Saturday, 490.9 m round the block on Tuesday at 07:30), and so does
// the table.
func TestOSRMConditionalTurns(t *testing.T) {
	g := condTurnsGraph(t)
	cur := bundle.NewCurrent(&bundle.Bundle{Graph: g, TimeZones: tzIndex(t)})
	srv, key := keyedServer(t, "conditional turns OSRM test")
	RegisterOSRM(srv.Protected(), OSRMOptions{Bundle: cur})
	get := func(path string) (int, []byte) {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set(headerAPIKey, key)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec.Code, rec.Body.Bytes()
	}
	for _, c := range []struct {
		name, q string
		wantM   float64
	}{
		{"no time", "", 333.6},
		{"Tue 07:30", "&departure_time=2026-12-01T07:30:00%2B01:00", 490.9},
		{"Sat 08:00", "&departure_time=2026-12-05T08:00:00%2B01:00", 333.6},
	} {
		code, body := get("/osrm/route/v1/driving/10.001,0.000;9.999,0.001?overview=false" + c.q)
		var a osrmRouteAnswer
		if code != 200 || json.Unmarshal(body, &a) != nil || len(a.Routes) != 1 {
			t.Fatalf("%s: route %d %s", c.name, code, body)
		}
		if a.Routes[0].Distance != c.wantM {
			t.Errorf("%s: route %v m, want %v", c.name, a.Routes[0].Distance, c.wantM)
		}
		code, body = get("/osrm/table/v1/driving/10.001,0.000;9.999,0.001?annotations=distance" + c.q)
		var ta osrmTableAnswer
		if code != 200 || json.Unmarshal(body, &ta) != nil || len(ta.Distances) != 2 || ta.Distances[0][1] == nil {
			t.Fatalf("%s: table %d %s", c.name, code, body)
		}
		if got := *ta.Distances[0][1]; math.Abs(got-c.wantM) > 0.5 {
			t.Errorf("%s: table %v m, want %v (whole metres)", c.name, got, c.wantM)
		}
	}
}

// TestInfoConditionalTurns: /v1/info's conditional_turns is always
// answered once the graph is loaded: 3 on conditional_turns.osm (two
// via-node turns and one out of a via-way copy), 0 on no_left_turn.osm
// (a plain restriction only), left out without a graph.
func TestInfoConditionalTurns(t *testing.T) {
	for _, c := range []struct {
		name string
		b    *bundle.Bundle
		want string
	}{
		{"conditional_turns.osm", &bundle.Bundle{Graph: condTurnsGraph(t)}, `"conditional_turns":3,`},
		{"no_left_turn.osm", &bundle.Bundle{Graph: fixtureGraph(t, "no_left_turn.osm")}, `"conditional_turns":0,`},
		{"no graph", &bundle.Bundle{}, ""},
	} {
		js, err := json.Marshal(describe(c.b))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(js); c.want == "" && strings.Contains(got, "conditional_turns") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %s, want %q", c.name, got, c.want)
		}
	}
}
