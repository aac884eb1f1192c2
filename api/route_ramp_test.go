package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestRouteV1Ramp: routing/testdata/ramp.osm, from the motorway by the
// exit ramp 3B (signed "US 13 South", "Dover;Smyrna") onto Main Street:
// the ramp's step says so.
func TestRouteV1Ramp(t *testing.T) {
	srv, key := newRouteServer(t, "ramp.osm", true)
	req := httptest.NewRequest(http.MethodGet, "/routev1/route?from=10.001,0&to=10.005,-0.002", nil)
	req.Header.Set(headerAPIKey, key)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	var a routeAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil || rec.Code != 200 {
		t.Fatalf("%d %v: %s", rec.Code, err, rec.Body)
	}
	type step struct {
		street, toward, exit string
		ramp                 bool
	}
	want := []step{{"Delaware Turnpike", "", "", false}, {"", "US-13 South: Dover, Smyrna", "3B", true}, {"Main Street", "", "", false}, {"Main Street", "", "", false}}
	if len(a.Steps) != len(want) {
		t.Fatalf("steps %+v", a.Steps)
	}
	for i, w := range want {
		s := a.Steps[i]
		if (step{s.Street, s.Toward, s.Exit, s.Ramp}) != w {
			t.Errorf("step %d %+v, want %+v", i, s, w)
		}
	}
}
