package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/routing"
)

func TestParseProfile(t *testing.T) {
	for _, tc := range []struct {
		in, want, reason string
	}{
		{"", "car", ""},
		{"car", "car", ""},
		{" Bicycle ", "bicycle", ""},
		{"foot", "foot", ""},
		{"Truck", "truck", ""},
		{"bike", "", `unknown profile "bike": want car, truck, bicycle or foot`},
	} {
		got, reason := parseProfile(tc.in)
		if reason != tc.reason || (reason == "" && got.String() != tc.want) {
			t.Errorf("parseProfile(%q) = %q, %q; want %q, %q", tc.in, got, reason, tc.want, tc.reason)
		}
	}
	// A truck is a metric on the car's graph.
	if p, _ := parseProfile("truck"); p.graph != bundle.ProfileCar || p.vehicle != routing.ProfileTruck {
		t.Errorf("parseProfile(truck) = %+v, want the car graph with the truck vehicle", p)
	}
	carOnly := &bundle.Bundle{}
	withFoot := &bundle.Bundle{Manifest: bundle.Manifest{Profiles: []string{"foot"}}}
	for _, tc := range []struct {
		b       *bundle.Bundle
		profile string
		want    string
	}{
		{carOnly, "car", ""},
		{carOnly, "bicycle", `"bicycle" is not in this bundle: build it with geosvc build --profiles car,bicycle`},
		{withFoot, "foot", ""},
		{withFoot, "bicycle", `"bicycle" is not in this bundle: build it with geosvc build --profiles car,bicycle,foot`},
	} {
		if got := profileMissing(tc.b, tc.profile); got != tc.want {
			t.Errorf("profileMissing(%v, %q) = %q, want %q", tc.b.Profiles(), tc.profile, got, tc.want)
		}
	}
}

// TestTDMOrderProfile: an order's profile is checked against the bundle
// (a 400 naming the build flag when it lacks it), and recorded in the
// job for the workers (none for the car).
func TestTDMOrderProfile(t *testing.T) {
	cur := &bundle.Current{}
	cur.Store(&bundle.Bundle{ID: "abc", Manifest: bundle.Manifest{Profiles: []string{"foot"}}})
	f := newTDMFixtureWith(t, 2, TDMOptions{Bundle: cur})
	body := func(profile string) string {
		return `{"origin_addresses":["-75.55,39.74"],"destination_addresses":["-75.54,39.73"],"profile":` + profile + `}`
	}
	for _, tc := range []struct {
		profile, reason string
	}{
		{`"bicycle"`, `"bicycle" is not in this bundle: build it with geosvc build --profiles car,bicycle,foot`},
		{`"bike"`, `unknown profile "bike": want car, truck, bicycle or foot`},
		{`3`, `must be a string: car, truck, bicycle or foot`},
	} {
		rec := f.post("order", f.key, body(tc.profile))
		var v validationError
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil || rec.Code != http.StatusBadRequest || len(v.Errors) != 1 ||
			v.Errors[0].Field != "profile" || !strings.Contains(v.Errors[0].Reason, tc.reason) {
			t.Errorf("profile %s: %d %s, want a 400 on profile: %s", tc.profile, rec.Code, rec.Body, tc.reason)
		}
	}
	for _, tc := range []struct {
		profile, want string
	}{{`"foot"`, "foot"}, {`"car"`, ""}, {`null`, ""}, {`"truck"`, ""}} {
		id := f.order(t, body(tc.profile))
		spec, err := f.q.Spec(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if spec.Profile != tc.want {
			t.Errorf("order with profile %s: job profile %q, want %q", tc.profile, spec.Profile, tc.want)
		}
	}
}

// TestRouteV1Profile: routev1's profile= on a car-only bundle.
func TestRouteV1Profile(t *testing.T) {
	srv, key := newRouteServer(t, "roundabout.osm", true)
	for _, tc := range []struct {
		q    string
		code int
		msg  string
	}{
		{"profile=car", 200, ""},
		{"profile=", 200, ""},
		{"profile=bicycle", 400, `profile: "bicycle" is not in this bundle: build it with geosvc build --profiles car,bicycle`},
		{"profile=foot", 400, `profile: "foot" is not in this bundle: build it with geosvc build --profiles car,foot`},
		{"profile=hovercraft", 400, `profile: unknown profile "hovercraft": want car, truck, bicycle or foot`},
		{"profile=truck", 200, ""},
		{"profile=foot&vehicle=height_m:4", 400, `vehicle is only for profile=truck`},
	} {
		req := httptest.NewRequest(http.MethodGet, "/routev1/route?from=10.002,0.000&to=10.004,0.002&"+tc.q, nil)
		req.Header.Set(headerAPIKey, key)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		var m struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &m)
		if rec.Code != tc.code || m.Message != tc.msg {
			t.Errorf("%s: %d %q, want %d %q", tc.q, rec.Code, m.Message, tc.code, tc.msg)
		}
	}
}
