package api

import (
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// TestRouteV1UnnamedRing: routev1 and the OSRM API describe an unnamed
// roundabout differently, on purpose. In Andorra the ring at Ordino's
// CS-340 / CG-3 junction is way 6197723 (highway=primary,
// junction=roundabout, no name nor ref) and the road out is way 31726701
// (name "Carretera General 3", ref CG-3), read with osmium on the
// paulmach/osm module's andorra-latest.osm.bz2. routev1 gives the ring a
// step of its own named as tagged: street "" (road type
// FederalHighway); the OSRM API, as OSRM does, names the step into the
// ring ("roundabout turn") after the road out. The step after the ring
// has the road out's name in both.
func TestRouteV1UnnamedRing(t *testing.T) {
	g := routingtest.Extract(t, "andorra")
	srv, key := newRouteServerGraph(t, g)
	cur := &bundle.Current{}
	cur.Store(&bundle.Bundle{Graph: g})
	RegisterOSRM(srv.Protected(), OSRMOptions{Bundle: cur})
	get := func(p string, v any) {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, p, nil)
		req.Header.Set(headerAPIKey, key)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), v) != nil {
			t.Fatalf("%s: %d %.300s", p, rec.Code, rec.Body)
		}
	}
	const a, b = "1.57739,42.56676", "1.46969,42.47661"
	ring := [2]float64{1.5330057, 42.5556338} // where the route enters the ring
	var rv routeAnswer
	get("/routev1/route?from="+a+"&to="+b, &rv)
	var o struct {
		Routes []struct {
			Legs []struct {
				Steps []struct {
					Name     string
					Maneuver struct {
						Type     string
						Location [2]float64
					}
				}
			}
		}
	}
	get("/osrm/route/v1/driving/"+a+";"+b+"?steps=true&overview=false", &o)
	near := func(p, q [2]float64) bool { return math.Abs(p[0]-q[0]) < 2e-6 && math.Abs(p[1]-q[1]) < 2e-6 }
	k := -1
	for i, s := range rv.Steps {
		if near(s.Location, ring) {
			k = i
		}
	}
	if k < 0 || k+1 >= len(rv.Steps) {
		t.Fatalf("routev1: no step at the ring %v: %+v", ring, rv.Steps)
	}
	if s, next := rv.Steps[k], rv.Steps[k+1]; s.Street != "" || s.RoadType != "FederalHighway" || next.Street != "Carretera General 3" {
		t.Errorf("routev1 at the ring: %q %s, then %q; want \"\" FederalHighway, then \"Carretera General 3\"", s.Street, s.RoadType, next.Street)
	}
	found := false
	for _, st := range o.Routes[0].Legs[0].Steps {
		if near(st.Maneuver.Location, ring) {
			found = true
			if st.Maneuver.Type != "roundabout turn" || st.Name != "Carretera General 3" {
				t.Errorf("OSRM at the ring: %s %q, want roundabout turn \"Carretera General 3\"", st.Maneuver.Type, st.Name)
			}
		}
	}
	if !found {
		t.Errorf("OSRM: no step at the ring %v", ring)
	}
}
