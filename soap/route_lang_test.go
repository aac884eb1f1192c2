package soap

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/routing/routingtest"
)

// postLang posts a SOAP 1.1 body with an Accept-Language header (none
// when "") and returns the RoutePlannerSimple result's streets (without
// repeats in a row), the answer's Content-Language and its Vary.
func postLang(t *testing.T, f *fixture, body, accept string) ([]string, string, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/soap", strings.NewReader(envelope11(body)))
	req.Header.Set("Content-Type", "text/xml")
	if accept != "" {
		req.Header.Set("Accept-Language", accept)
	}
	rec := httptest.NewRecorder()
	f.svc.ServeHTTP(rec, req)
	var env struct {
		R routeResult `xml:"Body>RoutePlannerSimpleResponse>RoutePlannerSimpleResult"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.R.Description == nil {
		t.Fatalf("%v: HTTP %d %s", err, rec.Code, rec.Body)
	}
	var streets []string
	for _, it := range env.R.Description.Items {
		if len(streets) == 0 || streets[len(streets)-1] != it.Street {
			streets = append(streets, it.Street)
		}
	}
	return streets, rec.Header().Get("Content-Language"), strings.Join(rec.Header().Values("Vary"), ", ")
}

// TestRoutePlannerStreetLanguage: the route description names its
// streets in the RouteLanguage (German: name:de, French: name:fr, ...)
// where the data has them, else by name; with Language XML, in the
// HTTP request's Accept-Language; the Content-Language header says the
// language used, and an answer in XML, which the header chose, has Vary:
// Accept-Language (the others do not vary with it). On routing/testdata's street_names.osm (its comment
// lists the name:xx of each way: Market Street name:de Marktstraße,
// name:de-CH Marktgasse, name:fr Rue du Marché; Church Lane name:fr Rue
// de l'Église; the ref-only DE 9 keeps DE-9).
func TestRoutePlannerStreetLanguage(t *testing.T) {
	f := newFixture(t, false)
	f.setGraph(routingtest.Graph(t, "street_names.osm"))
	ae := map[string]string{"DepartureX": "10.000", "DepartureY": "0.000", "ArrivalX": "10.004", "ArrivalY": "0.000"}
	def := []string{"Market Street", "Church Lane", "Market Street", "DE-9"}
	for _, tc := range []struct {
		name, lang, accept string
		streets            []string
		used               string
	}{
		{"English (no name:en in the data)", "English", "", def, ""},
		{"German", "German", "", []string{"Marktstraße", "Church Lane", "Marktstraße", "DE-9"}, "de"},
		{"French", "French", "", []string{"Rue du Marché", "Rue de l'Église", "Rue du Marché", "DE-9"}, "fr"},
		{"Italian (none in the data)", "Italian", "", def, ""},
		{"German over Accept-Language", "German", "fr", []string{"Marktstraße", "Church Lane", "Marktstraße", "DE-9"}, "de"},
		{"XML without Accept-Language", "XML", "", def, ""},
		{"XML with Accept-Language", "XML", "de-CH, fr;q=0.8", []string{"Marktgasse", "Rue de l'Église", "Marktgasse", "DE-9"}, "de-CH"},
		{"XML with a malformed Accept-Language", "XML", "de;q=x,,", def, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			streets, cl, vary := postLang(t, f, routeRequest(f.key, merge(ae, map[string]string{"Language": tc.lang})), tc.accept)
			if !slices.Equal(streets, tc.streets) || cl != tc.used {
				t.Errorf("streets %q, Content-Language %q; want %q, %q", streets, cl, tc.streets, tc.used)
			}
			if wantVary := map[bool]string{true: "Accept-Language", false: ""}[tc.lang == "XML"]; vary != wantVary {
				t.Errorf("Vary %q, want %q", vary, wantVary)
			}
		})
	}
}

// zeepSpanish calls RoutePlannerSimple through python3-zeep in Spanish,
// and in XML with an Accept-Language header, and prints the streets.
const zeepSpanish = `
import json, sys, zeep
wsdl, key = sys.argv[1], sys.argv[2]
c = zeep.Client(wsdl)
def streets(lang):
    r = c.service.RoutePlannerSimple(DepartureX="1.5229086", DepartureY="42.5314597", ArrivalX="1.5197239", ArrivalY="42.5338707",
        Encoding="EPGS4326", Language=lang, WantMetric=True, WantRouteDetails=True, WantDataSet=False, WantDescription=False,
        WantSpeedInfo=False, WantLocations=False, WantRouteData=False, SubscriptionKey=key)
    return [i.Street for i in r.Description.RouteDescriptionItem]
out = {"Spanish": streets("Spanish"), "German": streets("German")}
c.transport.session.headers["Accept-Language"] = "es-AD, ca;q=0.5"
out["XML"] = streets("XML")
print(json.dumps(out))
`

// TestZeepStreetLanguage: through python3-zeep on Andorra's extract, a
// route along CS-310 (ways 320968557 and 32845063, "Carretera Sant
// Cristofol", name:es "carretera San Cristóbal", read with osmium on the
// paulmach/osm module's andorra-latest.osm.bz2) is described with its
// Spanish name in Spanish and in XML with Accept-Language es-AD, and
// with its name in German (no name:de in the data).
func TestZeepStreetLanguage(t *testing.T) {
	out := runZeep(t, routingtest.Extract(t, "andorra"), zeepSpanish)
	var got map[string][]string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for lang, want := range map[string]string{"Spanish": "carretera San Cristóbal", "XML": "carretera San Cristóbal", "German": "Carretera Sant Cristofol"} {
		if !slices.Contains(got[lang], want) || slices.Contains(got[lang], map[bool]string{true: "Carretera Sant Cristofol", false: "carretera San Cristóbal"}[lang != "German"]) {
			t.Errorf("%s: streets %q, want %q and not the other name", lang, got[lang], want)
		}
	}
}
