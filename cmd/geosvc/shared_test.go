package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
	"github.com/geosvc/geosvc/internal/testenv"
)

// sharedDir outlives every test of the package: the geosvc binary and the
// Delaware bundle built once for all of them live there. TestMain removes
// it.
var sharedDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "geosvc-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sharedDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// The binary and the extracts' bundles, each made at most once per run.
var (
	binOnce sync.Once
	binPath string
	binErr  error

	bundlesMu sync.Mutex
	bundles   = map[string]*sharedBundle{}
)

// sharedBundle is one extract's bundle, built once.
type sharedBundle struct {
	once sync.Once
	path string
	err  error
}

// testBinary returns this command built once for the package's tests.
func testBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		binPath = filepath.Join(sharedDir, "geosvc")
		// The go command puts its own GOROOT/bin first on the PATH of the
		// tests it runs, so "go" is the toolchain that runs the test.
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// delawareBundle returns a data bundle of the Delaware extract of this
// binary's bundle version (extractBundle). The error says why there is
// none (the extract is not on this machine, or the build failed).
func delawareBundle(t *testing.T) (string, error) {
	t.Helper()
	return extractBundle(t, "delaware")
}

// extractBundle returns a data bundle of the named extract (extracts.Path)
// built once per test run into sharedDir; on a developer's machine (not
// under CI=true) the Delaware bundle `make run` leaves in
// data/delaware-latest (or an older ./data) is reused when it is of this
// binary's bundle version.
func extractBundle(t testing.TB, name string) (string, error) {
	t.Helper()
	bin := testBinary(t)
	bundlesMu.Lock()
	b := bundles[name]
	if b == nil {
		b = &sharedBundle{}
		bundles[name] = b
	}
	bundlesMu.Unlock()
	b.once.Do(func() {
		for _, dir := range []string{"../../data/delaware-latest", "../../data"} {
			if name != "delaware" || testenv.Required() {
				break
			}
			if m, err := bundle.Read(dir); err == nil && m.BundleVersion == bundle.Version() &&
				strings.Contains(strings.ToLower(m.Source.File), "delaware") {
				b.path = dir
				return
			}
		}
		osmFile, err := extracts.Path(name)
		if err != nil {
			b.err = err
			return
		}
		data := filepath.Join(sharedDir, name)
		if out, err := exec.Command(bin, "build", "--osm", osmFile, "--out", data).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("geosvc build %s: %v\n%s", name, err, out)
			return
		}
		b.path = data
	})
	return b.path, b.err
}
