package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
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
