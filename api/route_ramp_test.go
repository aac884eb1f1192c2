package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/geosvc/geosvc/api/keys"
	"github.com/geosvc/geosvc/api/keys/redistest"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
)

// TestRouteV1Ramp: routing/testdata/ramp.osm, from the motorway by the
// exit ramp 3B (signed "US 13 South", "Dover;Smyrna") onto Main Street:
// the ramp's step says so.
func TestRouteV1Ramp(t *testing.T) {
	prof, err := profile.Load(filepath.Join("..", "configs", "car.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	net, err := osmroad.Read(filepath.Join("..", "routing", "testdata", "ramp.osm"), prof)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := routing.Build(net, prof)
	if err != nil {
		t.Fatal(err)
	}
	rd := redistest.New(t)
	store := keys.NewStore(rd.Client, keys.Options{Prefix: rd.Prefix})
	_, key, err := store.Create(context.Background(), keys.CreateOptions{Owner: "route test"})
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Redis: rd.Client, Keys: store})
	RegisterRoute(srv.Protected(), RouteOptions{Graph: func() *routing.Graph { return g }})
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
