package api

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/routing/speeds"
)

// TestAdminSpeeds: POST /admin/speeds applies a speed file and answers
// its version and report; a bad file is a 400 naming line and field and
// changes nothing; GET, /v1/info's description and the Prometheus
// metrics report the version applied.
func TestAdminSpeeds(t *testing.T) {
	g, _ := timedGraph(t)
	cur := bundle.NewCurrent(&bundle.Bundle{Graph: g})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	pm := NewProcessMetrics(nil)
	pm.WatchSpeedMetrics(cur)
	a, err := ListenAdmin(AdminOptions{Addr: "127.0.0.1:0", Metrics: pm, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	a.ServeSpeeds(cur, log)
	a.Serve(log)
	t.Cleanup(func() { a.Shutdown(t.Context()) })
	post := func(body, ctype string) (int, map[string]any) {
		res, err := http.Post(a.URL()+"/admin/speeds", ctype, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m map[string]any
		json.NewDecoder(res.Body).Decode(&m)
		return res.StatusCode, m
	}
	csv := "3,4,5,,8\n999,1000,30\n"
	want, _ := speeds.ParseCSV([]byte(csv))
	code, m := post(csv, "text/csv")
	rep, _ := m["report"].(map[string]any)
	if code != 200 || m["version"] != want.Version || rep["matched"] != 1.0 || rep["unknown"] != 1.0 {
		t.Fatalf("POST: %d %v", code, m)
	}
	code, m = post("3,4,5\n3,4,0,,8\n", "text/csv")
	if code != 400 || m["message"] != "line 2: speed_kmh: 0 km/h is out of range (want > 0 and <= 250; a closed road is not a speed)" {
		t.Errorf("bad POST: %d %v", code, m)
	}
	if v := cur.Load().Speeds().Version; v != want.Version {
		t.Errorf("after a bad POST the version is %s, want %s", v, want.Version)
	}
	yml := "rules: [{classes: [residential], factor: 0.5, hours: '7-9'}]"
	wantY, _ := speeds.ParseYAML([]byte(yml))
	if code, m = post(yml, "application/yaml"); code != 200 || m["version"] != wantY.Version {
		t.Errorf("YAML POST: %d %v", code, m)
	}
	res, err := http.Get(a.URL() + "/admin/speeds")
	if err != nil {
		t.Fatal(err)
	}
	var got speedsAnswer
	json.NewDecoder(res.Body).Decode(&got)
	res.Body.Close()
	if got.Version != wantY.Version || got.Report == nil || got.Report.Rules != 1 {
		t.Errorf("GET: %+v", got)
	}
	if info := describe(cur.Load()); info.Speeds == nil || info.Speeds.Version != wantY.Version || info.Speeds.Rules != 1 {
		t.Errorf("/v1/info speeds: %+v", info.Speeds)
	}
	res, err = http.Get(a.URL() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(b), `geosvc_speeds_info{version="`+wantY.Version+`"} 1`) || !strings.Contains(string(b), "geosvc_speeds_age_seconds ") {
		t.Errorf("metrics lack the speed data:\n%s", b)
	}
}

// TestWatchSpeeds: the watched file is applied at start, again when it
// changes; a bad version is left out and the data stays; a bad file at
// start is an error.
func TestWatchSpeeds(t *testing.T) {
	g, _ := timedGraph(t)
	cur := bundle.NewCurrent(&bundle.Bundle{Graph: g})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	path := filepath.Join(t.TempDir(), "speeds.csv")
	write := func(s string) string {
		if err := os.WriteFile(path+".new", []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(path+".new", path); err != nil {
			t.Fatal(err)
		}
		d, _ := speeds.ParseCSV([]byte(s))
		if d == nil {
			return ""
		}
		return d.Version
	}
	if err := WatchSpeeds(cur, path, 5*time.Millisecond, nil, log); err == nil {
		t.Error("a missing file at start is not an error")
	}
	write("3,4,x\n")
	if err := WatchSpeeds(cur, path, 5*time.Millisecond, nil, log); err == nil || !strings.Contains(err.Error(), "line 1: speed_kmh") {
		t.Errorf("a bad file at start: %v", err)
	}
	v1 := write("3,4,5,,8\n")
	stop := make(chan struct{})
	defer close(stop)
	if err := WatchSpeeds(cur, path, 5*time.Millisecond, stop, log); err != nil {
		t.Fatal(err)
	}
	if got := cur.Load().Speeds().Version; got != v1 {
		t.Fatalf("at start: %s, want %s", got, v1)
	}
	waitVersion := func(want string) {
		t.Helper()
		for range 2000 {
			if cur.Load().Speeds().Version == want {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Fatalf("version %s, want %s", cur.Load().Speeds().Version, want)
	}
	v2 := write("3,4,50,,8\n4,3,60\n")
	waitVersion(v2)
	write("3,4,0\n")
	v3 := write("3,4,70,,8\n")
	waitVersion(v3)
}
