package api

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/api/console"
)

// TestServeConsole: the console's page, assets and icon answer without a
// key, with their types, an ETag (304 on If-None-Match) and, for the
// page, a same-origin Content-Security-Policy.
func TestServeConsole(t *testing.T) {
	f := newFixture(t, nil)
	if err := f.srv.ServeConsole(console.Files()); err != nil {
		t.Fatal(err)
	}
	h := f.srv
	tests := []struct {
		method, path string
		wantType     string
		wantBody     string // a substring
		wantCSP      bool
	}{
		{"GET", "/", "text/html", "<title>geosvc console</title>", true},
		{"HEAD", "/", "text/html", "", true},
		{"GET", "/console/console.js", "javascript", "window.geosvcConsole", false},
		{"GET", "/console/options.js", "javascript", "window.geosvcOptions", false},
		{"GET", "/console/vendor/leaflet/leaflet.js", "javascript", "Leaflet", false},
		{"GET", "/console/favicon.svg", "image/svg+xml", "<svg", false},
		{"GET", "/favicon.ico", "image/svg+xml", "<svg", false},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d, want 200: %.200s", rec.Code, rec.Body)
			}
			if ct := rec.Header().Get("Content-Type"); !strings.Contains(ct, tc.wantType) {
				t.Errorf("Content-Type %q, want %q", ct, tc.wantType)
			}
			if !strings.Contains(rec.Body.String(), tc.wantBody) {
				t.Errorf("body lacks %q", tc.wantBody)
			}
			if tc.method == "HEAD" && rec.Body.Len() != 0 {
				t.Errorf("HEAD answered a %d-byte body", rec.Body.Len())
			}
			if csp := rec.Header().Get("Content-Security-Policy"); (csp != "") != tc.wantCSP || (tc.wantCSP && !strings.Contains(csp, "default-src 'self'")) {
				t.Errorf("Content-Security-Policy %q (want one: %v)", csp, tc.wantCSP)
			}
			etag := rec.Header().Get("ETag")
			if etag == "" {
				t.Fatal("no ETag")
			}
			req := httptest.NewRequest(tc.method, tc.path, nil)
			req.Header.Set("If-None-Match", etag)
			rec = httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusNotModified {
				t.Errorf("If-None-Match %s: status %d, want 304", etag, rec.Code)
			}
		})
	}
}

// TestConsoleOptions: the page loads options.js before console.js and
// carries the controls of the options of routes and matrices under the
// parameter names the server takes: profile, the truck's vehicle fields
// (data-field), and avoid_polygons with its 2000-position limit.
func TestConsoleOptions(t *testing.T) {
	files := console.Files()
	read := func(name string) string {
		b, err := fs.ReadFile(files, name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	page, opts, js := read("index.html"), read("options.js"), read("console.js")
	if o, c := strings.Index(page, `src="/console/options.js"`), strings.Index(page, `src="/console/console.js"`); o < 0 || c < 0 || o > c {
		t.Errorf("index.html loads options.js at %d and console.js at %d: want both, options.js first", o, c)
	}
	for _, want := range []string{
		`<select id="profile"`, `value="avoid"`, `id="avoid-finish"`, `id="avoid-clear"`,
		`data-field="height_m"`, `data-field="width_m"`, `data-field="length_m"`, `data-field="weight_t"`,
		`data-field="axle_load_t"`, `data-field="hazmat" type="checkbox"`, `data-field="max_speed_kmh"`,
		// The server's limits as the inputs' ranges.
		`data-field="height_m" type="number" value="4" min="1" max="6"`,
		`data-field="weight_t" type="number" value="40" min="1" max="100"`,
		`data-field="max_speed_kmh" type="number" value="90" min="5" max="130"`,
		`<input id="departure" type="datetime-local"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	for _, want := range []string{"p.profile = profile", "p.vehicle = v", "p.avoid_polygons = JSON.stringify(g)",
		"f.profile = profile", "f.vehicle = o.vehicle()", "f.avoid_polygons = g", "MAX_POSITIONS = 2000",
		"type: 'MultiPolygon'", "info.profiles", "p.departure_time = dep", "f.departure_time = dep"} {
		if !strings.Contains(opts, want) {
			t.Errorf("options.js lacks %q", want)
		}
	}
	for _, want := range []string{"state.options.routeParams()", "state.options.orderFields()", "state.options.offer(info)"} {
		if !strings.Contains(js, want) {
			t.Errorf("console.js lacks %q", want)
		}
	}
}
