package geosvc

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	future := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	tests := []struct {
		header   string
		min, max time.Duration
		ok       bool
	}{
		{"", 0, 0, false},
		{"1", time.Second, time.Second, true},
		{" 43200 ", 12 * time.Hour, 12 * time.Hour, true},
		{"0", 0, 0, true},
		{"-3", 0, 0, false},
		{"soon", 0, 0, false},
		{future, 85 * time.Second, 91 * time.Second, true},
		{"Mon, 02 Jan 2006 15:04:05 GMT", 0, 0, true}, // past: no wait
	}
	for _, tt := range tests {
		d, ok := retryAfter(http.Header{"Retry-After": {tt.header}})
		if ok != tt.ok || d < tt.min || d > tt.max {
			t.Errorf("Retry-After %q: %v %v, want %v..%v %v", tt.header, d, ok, tt.min, tt.max, tt.ok)
		}
	}
}

func FuzzRetryAfter(f *testing.F) {
	for _, s := range []string{"1", "43200", "Mon, 02 Jan 2006 15:04:05 GMT", "-1", "1e3", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, ok := retryAfter(http.Header{"Retry-After": {s}}); d < 0 || (!ok && d != 0) {
			t.Errorf("%q: %v %v", s, d, ok)
		}
	})
}

// TestRetryDoer checks the retries against a local handler: which answers
// are retried, how often, with the POST body sent again, and the waits.
func TestRetryDoer(t *testing.T) {
	tests := []struct {
		name      string
		statuses  []int // answers in turn; the last repeats
		header    string
		max       int
		maxWait   time.Duration
		wantCalls int
		wantFinal int
	}{
		{"429 then 200", []int{429, 200}, "0", 4, time.Second, 2, 200},
		{"503 backoff then 200", []int{503, 503, 200}, "", 4, time.Second, 3, 200},
		{"gives up after max", []int{429}, "0", 2, time.Second, 3, 429},
		{"Retry-After beyond the longest wait", []int{429, 200}, "43200", 4, time.Second, 1, 429},
		{"no retries", []int{429, 200}, "0", 0, time.Second, 1, 429},
		{"400 not retried", []int{400, 200}, "0", 4, time.Second, 1, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := int(calls.Add(1)) - 1
				if b, _ := io.ReadAll(r.Body); string(b) != `{"uuid":"x"}` {
					t.Errorf("call %d: body %q", n, b)
				}
				st := tt.statuses[min(n, len(tt.statuses)-1)]
				if st != 200 && tt.header != "" {
					w.Header().Set("Retry-After", tt.header)
				}
				w.WriteHeader(st)
			}))
			defer srv.Close()
			d := &retryDoer{hc: srv.Client(), max: tt.max, backoff: time.Millisecond, maxWait: tt.maxWait}
			req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(`{"uuid":"x"}`))
			resp, err := d.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.wantFinal || int(calls.Load()) != tt.wantCalls {
				t.Errorf("final %d after %d calls, want %d after %d", resp.StatusCode, calls.Load(), tt.wantFinal, tt.wantCalls)
			}
		})
	}
}

func TestPointString(t *testing.T) {
	tests := []struct {
		p    Point
		want string
	}{
		{Point{-75.5244, 39.1582}, "-75.5244,39.1582"},
		{Point{0, 0}, "0,0"},
		{Point{1.0000001, -0.1}, "1.0000001,-0.1"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%#v: %q, want %q", tt.p, got, tt.want)
		}
	}
	b := boundsLatFirst(&[]float64{39.1, -75.6, 39.2, -75.4})
	if *b != (Bounds{MinLon: -75.6, MinLat: 39.1, MaxLon: -75.4, MaxLat: 39.2}) {
		t.Errorf("lat-first bbox read as %+v", b)
	}
}
