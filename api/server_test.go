package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	"github.com/redis/go-redis/v9"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/internal/redistest"
	"github.com/geosvc/geosvc/keys"
)

// fixture is a server with test routes and keys of every kind.
type fixture struct {
	srv        *Server
	store      *keys.Store
	redis      *redistest.Redis
	cur        bundle.Current // the server's bundle
	key        string         // active, all interfaces
	keyID      string
	revoked    string // revoked
	restricted string // active, only "soap"
	now        time.Time
	mu         sync.Mutex
	logs       *bytes.Buffer
}

func (f *fixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fixture) advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
}

// newFixture builds a server; tweak may change the options first.
func newFixture(t *testing.T, tweak func(*Options)) *fixture {
	t.Helper()
	ctx := context.Background()
	f := &fixture{redis: redistest.New(t), now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC), logs: &bytes.Buffer{}}
	f.store = keys.NewStore(f.redis.Client, keys.Options{Prefix: f.redis.Prefix, Now: f.clock})
	k, plain, err := f.store.Create(ctx, keys.CreateOptions{Owner: "test"})
	if err != nil {
		t.Fatal(err)
	}
	f.key, f.keyID = plain, k.ID
	rk, rplain, err := f.store.Create(ctx, keys.CreateOptions{Owner: "gone"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.Revoke(ctx, rk.ID); err != nil {
		t.Fatal(err)
	}
	f.revoked = rplain
	_, f.restricted, err = f.store.Create(ctx, keys.CreateOptions{Owner: "other", Interfaces: []string{keys.SOAP}})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{
		Logger:      slog.New(slog.NewJSONHandler(&syncWriter{w: f.logs}, nil)),
		Redis:       f.redis.Client,
		Gate:        keys.NewGate(f.store, keys.GateOptions{}),
		Bundle:      &f.cur,
		BodyLimit:   64,
		CORSOrigins: []string{"https://app.example"},
		Version:     "test",
		Now:         f.clock,
	}
	if tweak != nil {
		tweak(&opts)
	}
	f.srv = New(opts)
	g := f.srv.Protected()
	g.GET("/testv1/item/:id", func(c echo.Context) error {
		return c.JSON(http.StatusOK, map[string]string{"id": c.Param("id"), "key_id": keyIDOf(c)})
	})
	g.POST("/testv1/echo", func(c echo.Context) error {
		var v map[string]any
		if err := json.NewDecoder(c.Request().Body).Decode(&v); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, v)
	})
	g.GET("/testv1/panic", func(c echo.Context) error { panic("boom") })
	return f
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// do sends one request; key "" sends no key header.
func (f *fixture) do(method, path, key, body string, hdr map[string]string) *httptest.ResponseRecorder {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, r)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set(headerAPIKey, key)
	}
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, req)
	return rec
}

// concretePath fills a route pattern's parameters.
func concretePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if strings.HasPrefix(s, ":") || s == "*" {
			parts[i] = "x"
		}
	}
	return strings.Join(parts, "/")
}

func TestEveryProtectedRouteForbidsBadKeys(t *testing.T) {
	f := newFixture(t, nil)
	creds := []struct{ name, key string }{
		{"no key", ""},
		{"short key", "short-key"},
		{"long key", strings.Repeat("k", 129)},
		{"wrong key", strings.Repeat("w", 43)},
		{"revoked key", f.revoked},
		{"key for another interface", f.restricted},
	}
	routes := f.srv.Echo().Routes()
	checked := 0
	for _, rt := range routes {
		if f.srv.IsPublic(rt.Path) {
			continue
		}
		method := rt.Method
		if method == echo.RouteNotFound {
			method = http.MethodGet
		}
		checked++
		for _, cr := range creds {
			t.Run(rt.Method+" "+rt.Path+" "+cr.name, func(t *testing.T) {
				rec := f.do(method, concretePath(rt.Path), cr.key, `{"a":1}`, nil)
				if rec.Code != http.StatusForbidden {
					t.Errorf("status %d, want 403", rec.Code)
				}
				if got := strings.TrimSpace(rec.Body.String()); got != `{"message":"Forbidden"}` {
					t.Errorf("body %q, want {\"message\":\"Forbidden\"}", got)
				}
			})
		}
	}
	if checked < 3 {
		t.Fatalf("walked %d protected routes, want at least the 3 test routes", checked)
	}
	// Unknown paths need a key too.
	if rec := f.do(http.MethodGet, "/nope", "", "", nil); rec.Code != http.StatusForbidden {
		t.Errorf("unknown path without key: %d, want 403", rec.Code)
	}
	// The right key passes.
	rec := f.do(http.MethodGet, "/testv1/item/7", f.key, "", nil)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"key_id":"`+f.keyID+`"`) {
		t.Errorf("good key: %d %s", rec.Code, rec.Body)
	}
}

func TestPublicEndpoints(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		path   string
		status int
		body   string
	}{
		{"/healthz", 200, `{"status":"ok"}`},
		{"/readyz", 503, `{"message":"not ready: data bundle not loaded"}`},
	}
	for _, tt := range tests {
		rec := f.do(http.MethodGet, tt.path, "", "", nil)
		if rec.Code != tt.status || strings.TrimSpace(rec.Body.String()) != tt.body {
			t.Errorf("GET %s = %d %s, want %d %s", tt.path, rec.Code, rec.Body, tt.status, tt.body)
		}
	}
	ts := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	f.cur.Store(&bundle.Bundle{Manifest: bundle.Manifest{Source: bundle.Source{File: "delaware-latest.osm.pbf"}, BundleVersion: "1",
		OSMTimestamp: ts, Nodes: 10, Edges: 20, Layers: []bundle.Layer{{Name: "routing"}}}})
	if rec := f.do(http.MethodGet, "/readyz", "", "", nil); rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != `{"status":"ready"}` {
		t.Errorf("readyz with bundle = %d %s", rec.Code, rec.Body)
	}
	rec := f.do(http.MethodGet, "/v1/info", "", "", nil)
	var info infoBody
	if err := json.Unmarshal(rec.Body.Bytes(), &info); err != nil || rec.Code != 200 {
		t.Fatalf("info = %d %s %v", rec.Code, rec.Body, err)
	}
	// The world base layer answers outside every bundle: its sources are
	// always credited.
	if !strings.HasPrefix(info.Attribution, "(c) OpenStreetMap contributors, ODbL; Natural Earth") || info.Data == nil || info.Data.Name != "delaware-latest" ||
		!info.Data.OSMTimestamp.Equal(ts) || info.Data.Nodes != 10 || info.Data.Version != "1" ||
		len(info.Interfaces) != 1 || info.Interfaces[0] != "testv1" {
		t.Errorf("info = %+v", info)
	}
	// An interface on a public route that checks its own key (SOAP).
	f.srv.AddInterface("soap")
	f.srv.AddInterface("soap")
	if got := f.srv.Interfaces(); len(got) != 2 || got[0] != "soap" || got[1] != "testv1" {
		t.Errorf("interfaces with soap = %v", got)
	}

	// A server whose Redis is gone: not ready, still healthy.
	dead := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1})
	defer dead.Close()
	down := New(Options{Logger: slog.New(slog.DiscardHandler), Redis: dead, Bundle: bundle.NewCurrent(&bundle.Bundle{})})
	for _, tt := range []struct {
		path   string
		status int
		want   string
	}{{"/readyz", 503, `{"message":"not ready: Redis unreachable`}, {"/healthz", 200, `{"status":"ok"}`}} {
		rec := httptest.NewRecorder()
		down.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tt.path, nil))
		if rec.Code != tt.status || !strings.HasPrefix(rec.Body.String(), tt.want) {
			t.Errorf("GET %s without Redis = %d %s, want %d %s", tt.path, rec.Code, rec.Body, tt.status, tt.want)
		}
	}
}

func TestErrorBodies(t *testing.T) {
	f := newFixture(t, nil)
	big := `{"a":"` + strings.Repeat("x", 100) + `"}`
	tests := []struct {
		name    string
		method  string
		path    string
		body    string
		hdr     map[string]string
		status  int
		message string
	}{
		{"unknown route", "GET", "/testv1/nope", "", nil, 404, "Not Found"},
		{"unknown interface", "GET", "/zzz", "", nil, 404, "Not Found"},
		{"wrong method", "GET", "/testv1/echo", "", nil, 405, "Method Not Allowed"},
		{"body over limit", "POST", "/testv1/echo", big, nil, 413, "request body larger than 64 bytes"},
		{"chunked body over limit", "POST", "/testv1/echo", big, map[string]string{"Content-Length": ""}, 413, "request body larger than 64 bytes"},
		{"text/plain POST", "POST", "/testv1/echo", `{"a":1}`, map[string]string{"Content-Type": "text/plain"}, 415, "content type text/plain is not supported: send application/json"},
		{"POST without content type", "POST", "/testv1/echo", `{"a":1}`, map[string]string{"Content-Type": ""}, 415, "content type none is not supported: send application/json"},
		{"panic", "GET", "/testv1/panic", "", nil, 500, "Internal Server Error"},
		{"POST to a GET route, no content type", "POST", "/testv1/panic", `x`, map[string]string{"Content-Type": ""}, 405, "Method Not Allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
			if tt.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			req.Header.Set(headerAPIKey, f.key)
			for k, v := range tt.hdr {
				if k == "Content-Length" {
					req.ContentLength = -1
					continue
				}
				if v == "" {
					req.Header.Del(k)
				} else {
					req.Header.Set(k, v)
				}
			}
			rec := httptest.NewRecorder()
			f.srv.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Errorf("status %d, want %d (%s)", rec.Code, tt.status, rec.Body)
			}
			var m map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil || len(m) != 1 || m["message"] != tt.message {
				t.Errorf("body %s, want {\"message\":%q}", rec.Body, tt.message)
			}
		})
	}
	// GETs ignore the content type; a JSON POST within the limit passes.
	if rec := f.do("GET", "/testv1/item/1", f.key, "", map[string]string{"Content-Type": "text/plain"}); rec.Code != 200 {
		t.Errorf("GET with text/plain = %d %s", rec.Code, rec.Body)
	}
	if rec := f.do("POST", "/testv1/echo", f.key, `{"a":1}`, map[string]string{"Content-Type": "application/json; charset=utf-8"}); rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != `{"a":1}` {
		t.Errorf("JSON POST = %d %s", rec.Code, rec.Body)
	}
	// The panic's detail stays in the log.
	if !strings.Contains(f.logs.String(), "boom") {
		t.Errorf("panic not logged")
	}
}

func TestCORS(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		name       string
		origin     string
		wantOrigin string
	}{
		{"allowed origin", "https://app.example", "https://app.example"},
		{"other origin", "https://evil.example", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := f.do(http.MethodOptions, "/testv1/echo", "", "", map[string]string{
				"Origin":                         tt.origin,
				"Access-Control-Request-Method":  "POST",
				"Access-Control-Request-Headers": "x-api-key,content-type",
			})
			if rec.Code != http.StatusNoContent {
				t.Fatalf("preflight = %d %s, want 204", rec.Code, rec.Body)
			}
			h := rec.Header()
			if got := h.Get("Access-Control-Allow-Origin"); got != tt.wantOrigin {
				t.Errorf("Allow-Origin = %q, want %q", got, tt.wantOrigin)
			}
			if tt.wantOrigin != "" && !strings.Contains(strings.ToLower(h.Get("Access-Control-Allow-Headers")), "x-api-key") {
				t.Errorf("Allow-Headers = %q, want x-api-key in it", h.Get("Access-Control-Allow-Headers"))
			}
		})
	}
	// A simple CORS request still needs its key, and gets CORS headers on
	// the 403 so the browser can read it.
	rec := f.do(http.MethodGet, "/testv1/item/1", "", "", map[string]string{"Origin": "https://app.example"})
	if rec.Code != 403 || rec.Header().Get("Access-Control-Allow-Origin") != "https://app.example" {
		t.Errorf("CORS GET without key = %d, ACAO %q", rec.Code, rec.Header().Get("Access-Control-Allow-Origin"))
	}
	// The headers a browser client reads (the SDKs: timezonesv1's zone,
	// Retry-After of a 429) are exposed to the page.
	exposed := strings.ToLower(rec.Header().Get("Access-Control-Expose-Headers"))
	for _, h := range []string{"x-time-zone", "retry-after", "x-request-id", "etag"} {
		if !strings.Contains(exposed, h) {
			t.Errorf("Expose-Headers %q lacks %s", exposed, h)
		}
	}
}

func TestRateLimit(t *testing.T) {
	f := newFixture(t, func(o *Options) {
		o.Gate = keys.NewGate(o.Gate.Store(), keys.GateOptions{RateLimit: keys.RateLimit{Rate: 0.5, Burst: 2}})
	})
	_, other, err := f.store.Create(context.Background(), keys.CreateOptions{Owner: "other"})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		advance    time.Duration
		key        string
		status     int
		retryAfter string
	}{
		{0, f.key, 200, ""},
		{0, f.key, 200, ""},
		{0, f.key, 429, "2"}, // one token takes 2 s at 0.5/s
		{0, other, 200, ""},  // buckets are per key
		{time.Second, f.key, 429, "1"},
		{time.Second, f.key, 200, ""},
		{0, f.key, 429, "2"},
		{time.Minute, f.key, 200, ""}, // refilled up to the burst
		{0, f.key, 200, ""},
		{0, f.key, 429, "2"},
	}
	for i, st := range steps {
		f.advance(st.advance)
		rec := f.do(http.MethodGet, "/testv1/item/1", st.key, "", nil)
		if rec.Code != st.status || rec.Header().Get("Retry-After") != st.retryAfter {
			t.Errorf("step %d: %d Retry-After %q, want %d %q", i, rec.Code, rec.Header().Get("Retry-After"), st.status, st.retryAfter)
		}
		if rec.Code == 429 && strings.TrimSpace(rec.Body.String()) != `{"message":"rate limit exceeded: retry later"}` {
			t.Errorf("step %d: 429 body %s", i, rec.Body)
		}
	}
}

func TestRequestID(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		name, sent string
		echoed     bool
	}{
		{"client id echoed", "abc-123", true},
		{"none sent", "", false},
		{"too long", strings.Repeat("a", 129), false},
		{"with space", "a b", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := f.do(http.MethodGet, "/healthz", "", "", map[string]string{headerRequestID: tt.sent})
			got := rec.Header().Get(headerRequestID)
			if tt.echoed && got != tt.sent {
				t.Errorf("X-Request-Id = %q, want %q", got, tt.sent)
			}
			if !tt.echoed {
				if _, err := uuid.Parse(got); err != nil {
					t.Errorf("X-Request-Id = %q, want a generated UUID", got)
				}
			}
		})
	}
}

func TestUsageAndAccessLog(t *testing.T) {
	f := newFixture(t, nil)
	for _, p := range []string{"/testv1/item/1", "/testv1/item/2", "/testv1/nope"} {
		f.do(http.MethodGet, p, f.key, "", map[string]string{headerRequestID: "rid-" + p[len(p)-1:]})
	}
	u, err := f.store.Usage(context.Background(), f.keyID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if u[0].Day != "2026-05-01" || u[0].Counts["testv1"] != 2 || len(u[0].Counts) != 1 {
		t.Errorf("usage = %+v, want 2 successful testv1 requests on 2026-05-01", u)
	}
	logs := f.logs.String()
	if strings.Contains(logs, f.key) {
		t.Errorf("the API key appears in the log")
	}
	var line map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs), "\n") {
		if strings.Contains(l, `"rid-1"`) {
			if err := json.Unmarshal([]byte(l), &line); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := map[string]any{"msg": "http", "method": "GET", "path": "/testv1/item/1", "route": "/testv1/item/:id",
		"status": float64(200), "request_id": "rid-1", "key_id": f.keyID}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("access log %s = %v, want %v (line %v)", k, line[k], v, line)
		}
	}
	if _, ok := line["latency"]; !ok {
		t.Errorf("access log has no latency: %v", line)
	}
}

// TestNotReadyIsNoError: /readyz's 503 while the bundle loads is logged at
// WARN, by the access log and the error handler, never at ERROR; a panic's
// 500 is an ERROR.
func TestNotReadyIsNoError(t *testing.T) {
	f := newFixture(t, nil)
	f.do(http.MethodGet, "/readyz", "", "", map[string]string{headerRequestID: "rid-ready"})
	f.do(http.MethodGet, "/testv1/panic", f.key, "", map[string]string{headerRequestID: "rid-panic"})
	levels := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(f.logs.String()), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) != nil {
			continue
		}
		if id, _ := m["request_id"].(string); id != "" {
			levels[id] = append(levels[id], fmt.Sprint(m["level"]))
		}
	}
	for _, lv := range levels["rid-ready"] {
		if lv == "ERROR" {
			t.Errorf("/readyz 503 logged at ERROR: %v", levels["rid-ready"])
		}
	}
	if len(levels["rid-ready"]) == 0 || !slices.Contains(levels["rid-panic"], "ERROR") {
		t.Errorf("log levels %v", levels)
	}
}

// TestTwoKeyHeadersAreForbidden: a request with two x-api-key headers is
// refused with the spec's Forbidden body, whichever of them is valid.
func TestTwoKeyHeadersAreForbidden(t *testing.T) {
	f := newFixture(t, nil)
	for _, pair := range [][2]string{{f.key, f.key}, {f.key, strings.Repeat("w", 43)}, {strings.Repeat("w", 43), f.key}} {
		req := httptest.NewRequest(http.MethodGet, "/testv1/item/1", nil)
		req.Header.Add(headerAPIKey, pair[0])
		req.Header.Add(headerAPIKey, pair[1])
		rec := httptest.NewRecorder()
		f.srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusForbidden || strings.TrimSpace(rec.Body.String()) != `{"message":"Forbidden"}` {
			t.Errorf("two keys %q: %d %s", pair, rec.Code, rec.Body)
		}
	}
	if rec := f.do(http.MethodGet, "/testv1/item/1", f.key, "", nil); rec.Code != http.StatusOK {
		t.Errorf("one key: %d", rec.Code)
	}
}
