package api

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
	"github.com/geosvc/geosvc/internal/redistest"
	"github.com/geosvc/geosvc/keys"
)

func TestVaryAcceptLanguage(t *testing.T) {
	for _, c := range []struct {
		had  []string
		want string
	}{
		{nil, "Accept-Language"},
		{[]string{"Origin"}, "Origin, Accept-Language"},
		{[]string{"Origin, accept-language"}, "Origin, accept-language"},
		{[]string{"Accept-Encoding", "Accept-Language"}, "Accept-Encoding, Accept-Language"},
	} {
		h := http.Header{}
		for _, v := range c.had {
			h.Add("Vary", v)
		}
		varyAcceptLanguage(h)
		if got := strings.Join(h.Values("Vary"), ", "); got != c.want {
			t.Errorf("Vary %q: %q, want %q", c.had, got, c.want)
		}
	}
}

// TestLangVary: every REST answer that Accept-Language can change (no
// lang parameter: routev1, adminv1's xy2admininfo and xy2hierarchy,
// timezonesv1, the geocoder's geocode, reverse geocode and autocomplete)
// says Vary: Accept-Language, beside CORS's Vary: Origin; with lang the
// header does not count and Vary names Origin only (adminv1's
// xy2admininfo adds Accept-Encoding: its answers are gzipped).
func TestLangVary(t *testing.T) {
	bl, err := bndDelaware()
	extracts.Need(t, err)
	tinyGeocodeOnce.Do(func() {
		tinyGeocode, tinyGeocodeErr = geocode.Build(filepath.Join("..", "geo", "geocode", "testdata", "tiny.osm"), geocode.BuildOptions{})
	})
	if tinyGeocodeErr != nil {
		t.Fatal(tinyGeocodeErr)
	}
	cur := bundle.NewCurrent(&bundle.Bundle{Graph: fixtureGraph(t, "alternatives.osm"), TimeZones: tzIndex(t), Boundaries: bl, Geocoder: tinyGeocode})
	rd := redistest.New(t)
	store := keys.NewStore(rd.Client, keys.Options{Prefix: rd.Prefix})
	_, key, err := store.Create(context.Background(), keys.CreateOptions{Owner: "vary test"})
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Redis: rd.Client, Gate: keys.NewGate(store, keys.GateOptions{}),
		CORSOrigins: []string{"https://app.example"}})
	RegisterRoute(srv.Protected(), RouteOptions{Bundle: cur})
	RegisterAdmin(srv.Protected(), BoundaryOptions{Bundle: cur, Now: func() time.Time { return bndNow }})
	RegisterTimezones(srv.Protected(), TimezonesOptions{Bundle: cur})
	RegisterGeocoder(srv.Protected(), GeocoderOptions{Bundle: cur})
	for _, path := range []string{
		"/routev1/route?from=10.0001,0&to=10.0099,0",
		"/adminv1/xy2admininfo?x=-75.5244&y=39.1582&type=admin1",
		"/adminv1/xy2hierarchy?x=-75.5244&y=39.1582",
		"/timezonesv1/xy2tzdata?x=-75.5244&y=39.1582",
		"/geocoderv1/geocoder?address=testville",
		"/geocoderv1/rev-geocoder?x=-75.4998&y=39.00019",
		"/geocoderv1/autocomplete?text=testv",
	} {
		for _, c := range []struct {
			q, want string
		}{{"", "Origin, Accept-Language"}, {"&lang=de", "Origin"}} {
			req := httptest.NewRequest(http.MethodGet, path+c.q, nil)
			req.Header.Set(headerAPIKey, key)
			req.Header.Set("Origin", "https://app.example")
			req.Header.Set("Accept-Language", "de")
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if rec.Code != 200 {
				t.Errorf("%s%s: %d %.200s", path, c.q, rec.Code, rec.Body)
			}
			want := c.want
			if strings.Contains(path, "xy2admininfo") {
				want += ", Accept-Encoding"
			}
			if got := strings.Join(rec.Header().Values("Vary"), ", "); got != want {
				t.Errorf("%s%s: Vary %q, want %q", path, c.q, got, want)
			}
		}
	}
}
