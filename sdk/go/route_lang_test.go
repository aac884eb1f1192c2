package geosvc_test

import (
	"context"
	"reflect"
	"testing"

	geosvc "github.com/geosvc/geosvc/sdk/go"
	"github.com/geosvc/geosvc/sdk/go/openapi"
)

// TestRouteLang: RouteOptions.Lang reaches routev1's lang: the answer
// equals the REST answer with lang=de. Delaware's car ways carry no
// name:xx (checked with osmium on the extract: only name:source,
// name:forward, name:backward, name:lanes), so the streets keep their
// names and the answer has no lang: the fallback to name.
func TestRouteLang(t *testing.T) {
	t.Parallel()
	c := newClient(t, demoKey)
	r, err := c.RouteWith(context.Background(), dover, wilmington, geosvc.RouteOptions{Lang: "de"})
	if err != nil {
		t.Fatal(err)
	}
	var want, plain openapi.Route
	if st := rest(t, "GET", "/routev1/route?from=-75.5244,39.1582&to=-75.5466,39.7447&lang=de", demoKey, nil, &want); st != 200 {
		t.Fatalf("REST route: %d", st)
	}
	if st := rest(t, "GET", "/routev1/route?from=-75.5244,39.1582&to=-75.5466,39.7447", demoKey, nil, &plain); st != 200 {
		t.Fatalf("REST route: %d", st)
	}
	if !reflect.DeepEqual(*r, want) || !reflect.DeepEqual(want, plain) || r.Lang != nil {
		t.Errorf("SDK route with Lang de: lang %v, %d steps; REST with lang=de %d steps, without %d", r.Lang, len(r.Steps), len(want.Steps), len(plain.Steps))
	}
	if _, err := c.RouteWith(context.Background(), dover, wilmington, geosvc.RouteOptions{Lang: "de_DE"}); err == nil {
		t.Error("Lang de_DE: no error, want a 400")
	}
}
