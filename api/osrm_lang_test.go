package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/routing/routingtest"
)

// TestOSRMLanguage: the OSRM API's language names the steps, the leg
// summary and the waypoints in that language where the data has it, on
// routing/testdata's street_names.osm (Market Street name:de
// Marktstraße, name:fr Rue du Marché; Church Lane name:fr Rue de
// l'Église; DE 9 a ref), for route and trip; Accept-Language is
// not read (OSRM's clients do not expect it to change names); a
// malformed language is InvalidQuery naming it (match names its legs
// by the same code as route and trip).
func TestOSRMLanguage(t *testing.T) {
	s := newOSRMServer(t, routingtest.Graph(t, "street_names.osm"), OSRMLimits{MaxTableSize: 10, MaxViarouteSize: 10, MaxTripSize: 10, MaxNearestSize: 10, MaxAlternatives: 1, MaxMatchingSize: 10})
	get := func(path, accept string) (int, string, string) {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set(headerAPIKey, s.key)
		if accept != "" {
			req.Header.Set("Accept-Language", accept)
		}
		rec := httptest.NewRecorder()
		s.srv.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String(), rec.Header().Get("Content-Language")
	}
	const ae = "10.000,0.000;10.004,0.000"
	type answer struct {
		Code   string
		Routes []osrmRouteJSON `json:"routes"`
		Trips  []osrmRouteJSON `json:"trips"`
		Match  []osrmRouteJSON `json:"matchings"`
		Points []osrmWaypoint  `json:"waypoints"`
	}
	def := []string{"Market Street", "Church Lane", "Market Street", "DE-9", "DE-9"}
	for _, tc := range []struct {
		name, path, accept string
		names              []string
		summary, first     string
		lang               string
	}{
		{"route", "/osrm/route/v1/driving/" + ae + "?steps=true", "", def, "Market Street, Church Lane", "Market Street", ""},
		{"route de", "/osrm/route/v1/driving/" + ae + "?steps=true&language=de", "", []string{"Marktstraße", "Church Lane", "Marktstraße", "DE-9", "DE-9"}, "Marktstraße, Church Lane", "Marktstraße", "de"},
		{"route fr-CA", "/osrm/route/v1/driving/" + ae + "?steps=true&language=fr-CA", "", []string{"Rue du Marché", "Rue de l'Église", "Rue du Marché", "DE-9", "DE-9"}, "Rue du Marché, Rue de l'Église", "Rue du Marché", "fr"},
		{"route ja (none in the data)", "/osrm/route/v1/driving/" + ae + "?steps=true&language=ja", "", def, "Market Street, Church Lane", "Market Street", ""},
		{"Accept-Language is not read", "/osrm/route/v1/driving/" + ae + "?steps=true", "de", def, "Market Street, Church Lane", "Market Street", ""},
		{"trip de", "/osrm/trip/v1/driving/" + ae + "?steps=true&roundtrip=false&source=first&destination=last&language=de", "", []string{"Marktstraße", "Church Lane", "Marktstraße", "DE-9", "DE-9"}, "Marktstraße, Church Lane", "Marktstraße", "de"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body, cl := get(tc.path, tc.accept)
			if code != 200 {
				t.Fatalf("%d %s", code, body)
			}
			var a answer
			if err := json.Unmarshal([]byte(body), &a); err != nil {
				t.Fatal(err)
			}
			rs := append(a.Routes, a.Trips...)
			if len(rs) == 0 || len(rs[0].Legs) != 1 {
				t.Fatalf("answer %s", body)
			}
			var names []string
			for _, st := range rs[0].Legs[0].Steps {
				names = append(names, st.Name)
			}
			if !slices.Equal(names, tc.names) || rs[0].Legs[0].Summary != tc.summary || a.Points[0].Name != tc.first || cl != tc.lang {
				t.Errorf("names %q, summary %q, first waypoint %q, Content-Language %q; want %q, %q, %q, %q",
					names, rs[0].Legs[0].Summary, a.Points[0].Name, cl, tc.names, tc.summary, tc.first, tc.lang)
			}
		})
	}
	for _, tc := range []struct{ path, want string }{
		{"/osrm/route/v1/driving/" + ae + "?language=de_DE!", "language: \"de_DE!\" is not BCP 47"},
		{"/osrm/route/v1/driving/" + ae + "?language=", "language: \"\" is not BCP 47"},
		{"/osrm/table/v1/driving/" + ae + "?language=de", "\"language\" is not an option of the table service"},
	} {
		code, body, _ := get(tc.path, "")
		if code != 400 || !strings.Contains(body, `"InvalidQuery"`) || !strings.Contains(body, strings.ReplaceAll(tc.want, `"`, `\"`)) {
			t.Errorf("%s: %d %s", tc.path, code, body)
		}
	}
}
