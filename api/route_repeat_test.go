package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// TestRouteV1RepeatedParam: a routev1 parameter given twice is a 400
// naming it, also when the first value is good (the second would be
// silently dropped), as zip4v1 and the OSRM API refuse repeats; a
// parameter routev1 does not take may repeat (it is ignored).
func TestRouteV1RepeatedParam(t *testing.T) {
	srv, key, _, _ := timedRouteServer(t)
	const base = "/routev1/route?from=10.0001,0&to=10.0099,0"
	for _, c := range []struct {
		q, want string
	}{
		{"&lang=es&lang=de_DE!", "lang is given 2 times; give it once"},
		{"&departure_time=now&departure_time=bad", "departure_time is given 2 times; give it once"},
		{"&routing=fastest&routing=fastest", "routing is given 2 times; give it once"},
		{"&from=10.0001,0", "from is given 2 times; give it once"},
		{"&avoid=toll&avoid=ferry&avoid=toll", "avoid is given 3 times; give it once"},
		{"&radiuses=50;&radiuses=50;", "radiuses is given 2 times; give it once"},
	} {
		req := httptest.NewRequest(http.MethodGet, base+c.q, nil)
		req.Header.Set(headerAPIKey, key)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		var body struct{ Message string }
		if rec.Code != 400 || json.Unmarshal(rec.Body.Bytes(), &body) != nil || body.Message != c.want {
			t.Errorf("%s: %d %s, want 400 %q", c.q, rec.Code, rec.Body, c.want)
		}
	}
	req := httptest.NewRequest(http.MethodGet, base+"&unknown=1&unknown=2", nil)
	req.Header.Set(headerAPIKey, key)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Errorf("an unknown parameter twice: %d %s, want 200", rec.Code, rec.Body)
	}
}

// TestRouteParamsMatchOpenAPI: routeParams, the parameters a repeat of
// refuses, are the /routev1/route parameters api/openapi.yaml lists.
func TestRouteParamsMatchOpenAPI(t *testing.T) {
	doc := loadOpenAPI(t)
	op := oaObj(oaObj(oaObj(doc["paths"])["/routev1/route"])["get"])
	var names []string
	for _, p := range oaList(op["parameters"]) {
		names = append(names, doc.deref(oaObj(p))["name"].(string))
	}
	if !slices.Equal(names, routeParams) {
		t.Errorf("openapi's routev1 parameters %v, routeParams %v", names, routeParams)
	}
}
