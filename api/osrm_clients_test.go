package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/internal/redistest"
	"github.com/geosvc/geosvc/internal/testenv"
	"github.com/geosvc/geosvc/keys"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// osrmClientsDir holds OSRM's own JavaScript clients, pinned
// (osrmclients/package.json), and their checks.
const osrmClientsDir = "osrmclients"

// TestOSRMClients runs OSRM's own clients against a live server of the
// OSRM API on Delaware: osrm-text-instructions phrases every step of a
// route (node's test runner, osrmclients/instructions.test.js), and
// Leaflet Routing Machine in headless Chromium finds the route and shows
// its itinerary (osrmclients/lrm.html), the key in the path. Without
// node, npm or chromium the test is skipped, or fails under CI=true.
func TestOSRMClients(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Skip(t, "node is not installed: it runs osrm-text-instructions")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		testenv.Skip(t, "npm is not installed: it installs OSRM's clients")
	}
	g := routingtest.Extract(t, "delaware")
	if _, err := os.Stat(osrmClientsDir + "/node_modules/.package-lock.json"); err != nil {
		cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = osrmClientsDir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
	}
	rd := redistest.New(t)
	store := keys.NewStore(rd.Client, keys.Options{Prefix: rd.Prefix})
	_, key, err := store.Create(context.Background(), keys.CreateOptions{Owner: "osrm clients"})
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Redis: rd.Client,
		Gate: keys.NewGate(store, keys.GateOptions{}), CORSOrigins: []string{"*"}})
	cur := &bundle.Current{}
	cur.Store(&bundle.Bundle{Graph: g})
	RegisterOSRM(srv.Protected(), OSRMOptions{Bundle: cur})
	api := httptest.NewServer(srv)
	defer api.Close()
	base := api.URL + "/osrm/" + key
	const from, to = "-75.75,39.68", "-75.55,39.74"

	t.Run("osrm-text-instructions", func(t *testing.T) {
		cmd := exec.Command(node, "--test", "instructions.test.js")
		cmd.Dir = osrmClientsDir
		cmd.Env = append(os.Environ(), "GEOSVC_OSRM_URL="+base, "GEOSVC_OSRM_COORDS="+from+";"+to)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "# pass 1") {
			t.Fatalf("node --test: %v\n%s", err, out)
		}
		t.Logf("%s", out)
	})

	t.Run("leaflet-routing-machine", func(t *testing.T) {
		var chrome string
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				chrome = p
				break
			}
		}
		if chrome == "" {
			testenv.Skip(t, "no chromium on the PATH (Debian: apt-get install chromium): Leaflet Routing Machine runs in it")
		}
		pages := httptest.NewServer(http.FileServer(http.Dir(osrmClientsDir)))
		defer pages.Close()
		u := pages.URL + "/lrm.html?" + url.Values{"api": {base}, "from": {from}, "to": {to}}.Encode()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, chrome, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
			"--user-data-dir="+t.TempDir(), "--virtual-time-budget=30000", "--dump-dom", u)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s --dump-dom: %v", chrome, err)
		}
		m := regexp.MustCompile(`(?s)<pre id="results">(.*?)</pre>`).FindSubmatch(out)
		if m == nil {
			t.Fatalf("no #results in the page")
		}
		var res struct {
			OK           bool
			Error        string
			Routes       int
			Distance     float64
			Time         float64
			Instructions int
			Coordinates  int
			Rows         []string
		}
		if err := json.Unmarshal(m[1], &res); err != nil {
			t.Fatalf("results %q: %v", m[1], err)
		}
		// The route is routev1's: 22437 m, 1168 s (docs/routev1.md).
		if !res.OK || res.Routes < 1 || res.Distance < 22400 || res.Distance > 22500 || res.Time < 1160 || res.Time > 1180 ||
			res.Coordinates < 2 || res.Instructions < 3 || len(res.Rows) < res.Instructions {
			t.Fatalf("Leaflet Routing Machine: %+v", res)
		}
		itinerary := strings.Join(res.Rows, "\n")
		for _, want := range []string{"Head north on Academy Street", "East Delaware Avenue", "You have arrived"} {
			if !strings.Contains(itinerary, want) {
				t.Errorf("the itinerary lacks %q:\n%s", want, itinerary)
			}
		}
		t.Logf("itinerary:\n%s", itinerary)
	})
}
