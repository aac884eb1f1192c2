package api

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing"
)

// TestOSRMDepartureTime: geosvc's departure_time on the OSRM API's route
// and table, on timedGraph (alternatives.osm in Gabon, UTC+1, Main
// Street at 5 km/h on Mondays 08:00-08:59 local): the answers are
// routing's own on the metric of the hour read in the first
// coordinate's zone; the slow hour takes the Bypass Lane, another hour
// Main Street as without a time; a bad time is InvalidValue.
func TestOSRMDepartureTime(t *testing.T) {
	srv, key, _, g := timedRouteServer(t)
	get := func(path string) (int, string) {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set(headerAPIKey, key)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	pts := []orb.Point{{10.0001, 0}, {10.0099, 0}}
	const coords = "10.0001,0;10.0099,0"
	for _, c := range []struct {
		name, q string
		hour    int // of the week, -1: none
		bypass  bool
	}{
		{"no time", "", -1, false},
		{"Monday 08:30 local", "&departure_time=2026-11-30T07:30:00Z", 8, true},
		{"Monday 09:30 local", "&departure_time=2026-11-30T08:30:00Z", 9, false},
		{"Tuesday 08:30 local", "&departure_time=2026-12-01T08:30:00%2B01:00", 32, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			spec := routing.Fastest
			if c.hour >= 0 {
				spec, _ = g.AtHour(spec, c.hour)
			}
			snaps := g.SnapAll(spec, pts, 0)
			want, err := g.Route(context.Background(), spec, snaps[0], snaps[1])
			if err != nil {
				t.Fatal(err)
			}
			code, body := get("/osrm/route/v1/driving/" + coords + "?overview=false&steps=true" + c.q)
			var a osrmRouteAnswer
			if code != 200 || json.Unmarshal([]byte(body), &a) != nil || len(a.Routes) != 1 {
				t.Fatalf("route: %d %s", code, body)
			}
			rt := a.Routes[0]
			if math.Abs(rt.Duration-float64(want.DurationS)) > 1 || math.Abs(rt.Distance-float64(want.DistanceM)) > 1 ||
				strings.Contains(rt.Legs[0].Summary, "Bypass Lane") != c.bypass {
				t.Errorf("route: %v s %v m %q, routing %d s %d m (bypass %v)", rt.Duration, rt.Distance, rt.Legs[0].Summary, want.DurationS, want.DistanceM, c.bypass)
			}
			tab, err := g.Matrix(context.Background(), spec, snaps, snaps)
			if err != nil {
				t.Fatal(err)
			}
			code, body = get("/osrm/table/v1/driving/" + coords + "?annotations=duration,distance" + c.q)
			var ta osrmTableAnswer
			if code != 200 || json.Unmarshal([]byte(body), &ta) != nil || len(ta.Durations) != 2 {
				t.Fatalf("table: %d %s", code, body)
			}
			d, m := tab.At(0, 1)
			if *ta.Durations[0][1] != float64(d) || *ta.Distances[0][1] != float64(m) {
				t.Errorf("table: %v s %v m, routing %d s %d m", *ta.Durations[0][1], *ta.Distances[0][1], d, m)
			}
		})
	}
	for _, q := range []string{"departure_time=yesterday", "departure_time=2030-01-01T00:00:00Z", "departure_time="} {
		code, body := get("/osrm/route/v1/driving/" + coords + "?" + q)
		if code != 400 || !strings.Contains(body, `"code":"InvalidValue"`) || !strings.Contains(body, "departure_time") {
			t.Errorf("%s: %d %s, want 400 InvalidValue naming departure_time", q, code, body)
		}
	}
	// Not an option of nearest.
	if code, body := get("/osrm/nearest/v1/driving/10.0001,0?departure_time=now"); code != 400 || !strings.Contains(body, "InvalidQuery") {
		t.Errorf("nearest with departure_time: %d %s", code, body)
	}
}
