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

// routeLangGet asks routev1 on srv with the Accept-Language header
// (none when "") and returns the code, the answer and its
// Content-Language.
func routeLangGet(t *testing.T, srv *Server, key, q, accept string) (int, routeAnswer, string, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/routev1/route?"+q, nil)
	req.Header.Set(headerAPIKey, key)
	if accept != "" {
		req.Header.Set("Accept-Language", accept)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	var a routeAnswer
	if rec.Code == 200 {
		if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
	}
	return rec.Code, a, rec.Header().Get("Content-Language"), rec.Body.String()
}

// streetsOf are the steps' streets without repeats in a row.
func streetsOf(steps []routeStep) []string {
	var out []string
	for _, s := range steps {
		if len(out) == 0 || out[len(out)-1] != s.Street {
			out = append(out, s.Street)
		}
	}
	return out
}

// TestRouteV1Lang: routev1 names the steps' streets in lang (else
// Accept-Language) where the data has them, on routing/testdata's
// street_names.osm (its comment lists each way's name:xx: Market Street
// name:de Marktstraße, name:de-CH Marktgasse, name:fr Rue du Marché;
// Church Lane name:fr Rue de l'Église; the ref-only DE 9 keeps DE-9);
// lang states the language used, absent for the default names; an
// empty lang= is as if absent; a malformed lang is a 400 naming it.
func TestRouteV1Lang(t *testing.T) {
	srv, key := newRouteServer(t, "street_names.osm", true)
	const ae = "from=10.000,0.000&to=10.004,0.000"
	def := []string{"Market Street", "Church Lane", "Market Street", "DE-9"}
	for _, tc := range []struct {
		name, q, accept string
		streets         []string
		lang            string
	}{
		{"none", ae, "", def, ""},
		{"de", ae + "&lang=de", "", []string{"Marktstraße", "Church Lane", "Marktstraße", "DE-9"}, "de"},
		{"de-AT falls back to de", ae + "&lang=de-AT", "", []string{"Marktstraße", "Church Lane", "Marktstraße", "DE-9"}, "de"},
		{"de-CH", ae + "&lang=de-CH", "", []string{"Marktgasse", "Church Lane", "Marktgasse", "DE-9"}, "de-CH"},
		{"de-ch canonical", ae + "&lang=de-ch", "", []string{"Marktgasse", "Church Lane", "Marktgasse", "DE-9"}, "de-CH"},
		{"de,fr", ae + "&lang=de,fr", "", []string{"Marktstraße", "Rue de l'Église", "Marktstraße", "DE-9"}, "de"},
		{"a language the data lacks", ae + "&lang=ja", "", def, ""},
		{"Accept-Language", ae, "fr-CA, de;q=0.5", []string{"Rue du Marché", "Rue de l'Église", "Rue du Marché", "DE-9"}, "fr"},
		{"Accept-Language by q", ae, "fr;q=0.2, de", []string{"Marktstraße", "Rue de l'Église", "Marktstraße", "DE-9"}, "de"},
		{"lang over Accept-Language", ae + "&lang=de", "fr", []string{"Marktstraße", "Church Lane", "Marktstraße", "DE-9"}, "de"},
		{"a malformed Accept-Language is ignored", ae, "de;q=x,,", def, ""},
		// An empty lang= is as if absent: Accept-Language, then the default names.
		{"empty lang, Accept-Language", ae + "&lang=", "fr", []string{"Rue du Marché", "Rue de l'Église", "Rue du Marché", "DE-9"}, "fr"},
		{"empty lang, no Accept-Language", ae + "&lang=", "", def, ""},
		{"blank lang", ae + "&lang=%20", "", def, ""},
		{"alternatives", ae + "&lang=fr&alternatives=1", "", []string{"Rue du Marché", "Rue de l'Église", "Rue du Marché", "DE-9"}, "fr"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, a, cl, body := routeLangGet(t, srv, key, tc.q, tc.accept)
			if code != 200 {
				t.Fatalf("%d %s", code, body)
			}
			if got := streetsOf(a.Steps); !slices.Equal(got, tc.streets) || a.Lang != tc.lang || cl != tc.lang {
				t.Errorf("streets %q, lang %q, Content-Language %q; want %q, %q", got, a.Lang, cl, tc.streets, tc.lang)
			}
			if strings.Contains(body, `"lang"`) != (tc.lang != "") {
				t.Errorf("lang member: %s", body)
			}
		})
	}
	for _, bad := range []string{"de_DE!", "fr0", "e", ",", "de,"} {
		code, _, _, body := routeLangGet(t, srv, key, ae+"&lang="+bad, "")
		if code != 400 || !strings.Contains(body, "lang must be BCP 47") {
			t.Errorf("lang=%q: %d %s", bad, code, body)
		}
	}
}

// TestRouteV1LangAndorra: on Andorra's extract a route along CS-310
// (ways 320968557 and 32845063, "Carretera Sant Cristofol", name:es
// "carretera San Cristóbal", read with osmium on the paulmach/osm
// module's andorra-latest.osm.bz2) is described in Spanish; in German,
// which the data lacks, by its name.
func TestRouteV1LangAndorra(t *testing.T) {
	srv, key := newRouteServerGraph(t, routingtest.Extract(t, "andorra"))
	const q = "from=1.5229086,42.5314597&to=1.5197239,42.5338707"
	for _, tc := range []struct {
		lang, street, used string
	}{
		{"es", "carretera San Cristóbal", "es"},
		{"es-AD", "carretera San Cristóbal", "es"},
		{"de", "Carretera Sant Cristofol", ""},
	} {
		code, a, _, body := routeLangGet(t, srv, key, q+"&lang="+tc.lang, "")
		if code != 200 {
			t.Fatalf("%d %s", code, body)
		}
		if got := streetsOf(a.Steps); !slices.Contains(got, tc.street) || a.Lang != tc.used {
			t.Errorf("lang=%s: streets %q (lang %q), want %q among them (lang %q)", tc.lang, got, a.Lang, tc.street, tc.used)
		}
	}
}
