package geosvc_test

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// jsDir is the TypeScript SDK, tested here against this package's server.
const jsDir = "../js"

// TestTypeScriptSDK runs the TypeScript SDK's tests (node's test runner,
// sdk/js/test) against the package's geosvc server: `npm ci` when
// node_modules is missing or older than package-lock.json, then npm test's
// two halves (tsc, while the server loads; node --test) with
// GEOSVC_TEST_URL and GEOSVC_TEST_KEY. No
// node or npm on the PATH: skipped, or failed under CI=true.
func TestTypeScriptSDK(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		need(t, "node is not installed (Node 18 or later runs the TypeScript SDK's tests)")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		need(t, "npm is not installed (it installs the TypeScript SDK's pinned dependencies)")
	}
	if out, err := exec.Command(node, "-e", "process.exit(Number(process.versions.node.split('.')[0]) >= 18 ? 0 : 1)").CombinedOutput(); err != nil {
		need(t, "node is older than 18: %v %s", err, out)
	}
	t.Parallel()
	// Install and compile while the server loads its bundle.
	if stale(filepath.Join(jsDir, "node_modules", ".package-lock.json"), filepath.Join(jsDir, "package-lock.json")) {
		npmRun(t, npm, "ci", "--no-audit", "--no-fund")
	}
	npmRun(t, npm, "run", "build:test")
	base := testServer(t)
	npmRun(t, npm, "run", "test:run", "GEOSVC_TEST_URL="+base, "GEOSVC_TEST_KEY="+demoKey)
	t.Run("browser", func(t *testing.T) { browserChecks(t, base) })
}

// browserChecks loads sdk/js/test/browser/index.html (compiled by npm
// test) in headless Chromium from an origin of its own, and reads the
// results the page's checks write into #results.
func browserChecks(t *testing.T, api string) {
	var chrome string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			chrome = p
			break
		}
	}
	if chrome == "" {
		need(t, "no chromium on the PATH (Debian: apt-get install chromium): the TypeScript SDK's browser checks need it")
	}
	pages := httptest.NewServer(http.FileServer(http.Dir(jsDir)))
	defer pages.Close()
	u := pages.URL + "/test/browser/index.html?" + url.Values{"api": {api}, "key": {demoKey}}.Encode()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chrome, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+t.TempDir(), "--virtual-time-budget=60000", "--dump-dom", u)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s --dump-dom: %v", chrome, err)
	}
	m := regexp.MustCompile(`(?s)<pre id="results">(.*?)</pre>`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no #results in the page:\n%s", tail(out, 2000))
	}
	var results [][]any
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &results); err != nil {
		t.Fatalf("#results %q: %v", m[1], err)
	}
	if len(results) != 6 {
		t.Errorf("%d results, want the page's 6 checks: %v", len(results), results)
	}
	for _, r := range results {
		if len(r) != 3 || r[1] != true {
			t.Errorf("in Chromium: %v", r)
		} else {
			t.Logf("in Chromium: %v", r)
		}
	}
}

// stale reports whether file is missing or older than source.
func stale(file, source string) bool {
	fi, err := os.Stat(file)
	if err != nil {
		return true
	}
	si, err := os.Stat(source)
	return err != nil || fi.ModTime().Before(si.ModTime())
}

// npmRun runs npm with a subcommand in jsDir; args of the form K=V are
// added to its environment, the others passed on.
func npmRun(t *testing.T, npm, sub string, args ...string) {
	t.Helper()
	cmd := exec.Command(npm, sub)
	cmd.Dir = jsDir
	cmd.Env = os.Environ()
	for _, a := range args {
		if i := strings.IndexByte(a, '='); i > 0 && a[0] != '-' {
			cmd.Env = append(cmd.Env, a)
		} else {
			cmd.Args = append(cmd.Args, a)
		}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm %s: %v\n%s", sub, err, out)
	}
	t.Logf("npm %s:\n%s", sub, tail(out, 2000))
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
