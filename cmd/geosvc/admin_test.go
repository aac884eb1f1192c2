package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/redis/go-redis/v9"

	"github.com/geosvc/geosvc/api"
	"github.com/geosvc/geosvc/cmd/geosvc/internal/config"
)

// scrape reads the admin listener's /metrics with Prometheus's own text
// parser.
func scrape(t *testing.T, admin string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(admin + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("/metrics: %d", resp.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	return fams
}

// metricValue returns the value of the family's series whose labels
// include want (a counter's, a gauge's or a histogram's sample count), -1
// when there is none.
func metricValue(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	f, ok := fams[name]
	if !ok {
		return -1
	}
	total := -1.0
next:
	for _, m := range f.Metric {
		for k, v := range want {
			found := false
			for _, l := range m.Label {
				if l.GetName() == k && l.GetValue() == v {
					found = true
				}
			}
			if !found {
				continue next
			}
		}
		v := 0.0
		switch {
		case m.Counter != nil:
			v = m.Counter.GetValue()
		case m.Gauge != nil:
			v = m.Gauge.GetValue()
		case m.Histogram != nil:
			v = float64(m.Histogram.GetSampleCount())
		}
		if total < 0 {
			total = 0
		}
		total += v
	}
	return total
}

// TestAdminListener: /metrics, /admin/queues and /debug/pprof/ answer on
// the admin listener and not on the public port; the metrics parse with
// Prometheus's parser, carry the bundle, Go and process collectors, and
// move with traffic (requests by route template and status, a refused
// key, matrix cells, a job finished).
func TestAdminListener(t *testing.T) {
	const key = "gs_admin_test_key_0123456789abcdefghij"
	urls := inProcessServers(t, roundaboutBundle(t), key)
	if urls.admin == "" {
		t.Fatal("no admin listener")
	}
	before := scrape(t, urls.admin)
	for _, name := range []string{"geosvc_bundle_info", "geosvc_bundle_load_seconds", "go_goroutines", "process_resident_memory_bytes"} {
		if metricValue(before, name, nil) < 0 {
			t.Errorf("no %s in /metrics", name)
		}
	}
	if v := metricValue(before, "geosvc_bundle_info", map[string]string{"name": "roundabout"}); v != 1 {
		t.Errorf("geosvc_bundle_info{name=roundabout} = %v", v)
	}

	// Traffic: a lookup, a matrix job to its end, a refused key.
	var res struct {
		UUID   string `json:"uuid"`
		Status string `json:"status"`
	}
	apiCall(t, "GET", urls.api+"/timezonesv1/xy2tzdata?x=10.002&y=0.001", key, nil, nil)
	apiCall(t, "POST", urls.api+"/tdmv1/order", key, map[string]any{"origin_addresses": []string{"10.002,0.000", "10.000,0.002"}, "destination_addresses": []string{"10.004,0.002"}}, &res)
	for res.Status != "Finished" {
		apiCall(t, "POST", urls.api+"/tdmv1/fetch", key, map[string]string{"uuid": res.UUID}, &res)
	}
	apiCall(t, "GET", urls.api+"/timezonesv1/xy2tzdata?x=1&y=1", strings.Repeat("x", 40), nil, nil)

	after := scrape(t, urls.admin)
	for _, tc := range []struct {
		name   string
		labels map[string]string
		delta  float64
	}{
		{"geosvc_http_requests_total", map[string]string{"route": "/timezonesv1/xy2tzdata", "status": "200"}, 1},
		{"geosvc_http_requests_total", map[string]string{"route": "/tdmv1/order", "method": "POST", "status": "200"}, 1},
		{"geosvc_http_requests_total", map[string]string{"route": "/timezonesv1/xy2tzdata", "status": "403"}, 1},
		{"geosvc_http_request_duration_seconds", map[string]string{"route": "/tdmv1/order"}, 1},
		{"geosvc_auth_refusals_total", map[string]string{"reason": "unknown"}, 1},
		{"geosvc_tdm_cells_total", nil, 2},
		{"geosvc_tdm_jobs_ended_total", map[string]string{"state": "Finished"}, 1},
	} {
		b, a := max(metricValue(before, tc.name, tc.labels), 0), metricValue(after, tc.name, tc.labels)
		if a-b < tc.delta {
			t.Errorf("%s%v moved %v -> %v, want +%v", tc.name, tc.labels, b, a, tc.delta)
		}
	}
	// No raw path or key id as a label.
	for _, m := range after["geosvc_http_requests_total"].Metric {
		for _, l := range m.Label {
			if l.GetName() == "route" && strings.Contains(l.GetValue(), "10.002") {
				t.Errorf("a raw path as a label: %s", l.GetValue())
			}
		}
	}
	// The queue dashboard and the profiler, on the admin listener only.
	for _, tc := range []struct {
		base, path string
		want       int
	}{
		{urls.admin, "/admin/queues/", 200},
		{urls.admin, "/debug/pprof/", 200},
		{urls.api, "/metrics", 403},
		{urls.api, "/admin/queues/", 403},
		{urls.api, "/debug/pprof/", 403},
	} {
		resp, err := http.Get(tc.base + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s%s: %d, want %d", tc.base, tc.path, resp.StatusCode, tc.want)
		}
	}
	if st, _ := apiCall(t, "GET", urls.api+"/metrics", key, nil, nil); st != http.StatusNotFound {
		t.Errorf("/metrics on the public port with a key: %d, want 404", st)
	}
}

// TestAdminPortInUse: an admin address already taken is a start-up error
// that names the setting.
func TestAdminPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	t.Setenv("REDIS_URL", "")
	err = serve(context.Background(), serveRole, []string{"--data", roundaboutBundle(t), "--addr", "127.0.0.1:0", "--admin-addr", ln.Addr().String()}, nil)
	if err == nil || !strings.Contains(err.Error(), "admin.addr") || !strings.Contains(err.Error(), "address already in use") {
		t.Errorf("serve with the admin port taken: %v", err)
	}
}

// TestAdminDefaultAddrFallsBack: two listeners on the default admin
// address in one process (an api and a worker started side by side with
// the defaults) both come up: the second (or both, when another program
// holds 127.0.0.1:9090) on a free port of the same host, with a warning
// that names it; an address given explicitly that is taken stays an
// error that names the setting.
func TestAdminDefaultAddrFallsBack(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	def := config.Admin{Addr: config.DefaultAdminAddr, Fallback: true}
	var urls []string
	for range 2 {
		a, err := api.ListenAdmin(api.AdminOptions{Addr: def.Addr, Fallback: def.Fallback, Metrics: api.NewProcessMetrics(nil), Logger: log})
		if err != nil {
			t.Fatalf("listenAdmin on the default address: %v", err)
		}
		a.Serve(log)
		t.Cleanup(func() { a.Shutdown(context.Background()) })
		urls = append(urls, a.URL())
		u, _ := url.Parse(a.URL())
		host := u.Hostname()
		if host != "127.0.0.1" {
			t.Errorf("admin listener at %s, want the default's host 127.0.0.1", a.URL())
		}
	}
	if urls[0] == urls[1] {
		t.Fatalf("both admin listeners at %s", urls[0])
	}
	second := strings.TrimPrefix(urls[1], "http://")
	if second == config.DefaultAdminAddr {
		t.Errorf("the second listener has the default address")
	}
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "addr="+second) {
		t.Errorf("no warning naming %s:\n%s", second, logs.String())
	}
	for _, u := range urls {
		if resp, err := http.Get(u + "/metrics"); err != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("%s/metrics: %v %v", u, resp, err)
		} else {
			resp.Body.Close()
		}
	}

	taken := strings.TrimPrefix(urls[0], "http://")
	for _, explicit := range []config.Admin{{Addr: taken}, {Addr: config.DefaultAdminAddr}} {
		if explicit.Addr == config.DefaultAdminAddr && second == config.DefaultAdminAddr {
			continue
		}
		_, err := api.ListenAdmin(api.AdminOptions{Addr: explicit.Addr, Fallback: explicit.Fallback, Metrics: api.NewProcessMetrics(nil), Logger: log})
		if err == nil || !strings.Contains(err.Error(), "admin.addr") || !strings.Contains(err.Error(), "address already in use") {
			t.Errorf("listenAdmin(%+v) with the address taken: %v, want an error naming admin.addr", explicit, err)
		}
	}
}

// TestWorkerBesideAPIOnDefaults: `geosvc worker` with the default
// configuration while another process holds the default admin address
// (`geosvc api` on the same machine) keeps running: it registers with
// the queue, warns of the admin port it took instead, and stops cleanly.
func TestWorkerBesideAPIOnDefaults(t *testing.T) {
	data := roundaboutBundle(t)
	// Hold the default address, as an api process would (when another
	// program already holds it, that does as well).
	if ln, err := net.Listen("tcp", config.DefaultAdminAddr); err == nil {
		defer ln.Close()
	}
	mr := miniredis.RunT(t)
	for _, k := range []string{"GEOSVC_ADMIN_ADDR", config.ConfigEnv} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("REDIS_URL", "redis://"+mr.Addr())
	t.Chdir(t.TempDir()) // no local configs/geosvc.yaml: the embedded one
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var err error
	_, errOut := capture(t, func() {
		done := make(chan error, 1)
		go func() { done <- serve(ctx, workerRole, []string{"--data", data}, nil) }()
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if ok, _ := redis.NewClient(&redis.Options{Addr: mr.Addr()}).Exists(context.Background(), "asynq:servers").Result(); ok == 1 {
				break
			}
			select {
			case err = <-done:
				return
			default:
			}
			if time.Now().After(deadline) {
				err = errors.New("the worker did not register with the queue within 60 s")
				cancel()
				<-done
				return
			}
		}
		cancel()
		err = <-done
	})
	if err != nil {
		t.Fatalf("worker: %v\n%s", err, errOut)
	}
	if !strings.Contains(errOut, "default address is in use") || !strings.Contains(errOut, `msg="admin listening"`) {
		t.Errorf("no fallback warning and admin URLs in the worker's log:\n%s", errOut)
	}
}
