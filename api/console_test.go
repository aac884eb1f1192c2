package api

import (
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
