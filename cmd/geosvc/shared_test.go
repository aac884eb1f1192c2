package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/geosvc/geosvc/cmd/geosvc/internal/bundle"
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

// The binary and the Delaware bundle, each made at most once per run.
var (
	binOnce    sync.Once
	binPath    string
	binErr     error
	bundleOnce sync.Once
	bundlePath string
	bundleErr  error
)

// testBinary returns this command built once for the package's tests.
func testBinary(t *testing.T) string {
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
// binary's bundle version: on a developer's machine the one `make run`
// leaves in data/delaware-latest (or an older ./data) when it is of this
// version, else (and always under CI=true) one built once into sharedDir. The error
// says why there is none (the extract is not on this machine, or the
// build failed).
func delawareBundle(t *testing.T) (string, error) {
	t.Helper()
	bin := testBinary(t)
	bundleOnce.Do(func() {
		for _, dir := range []string{"../../data/delaware-latest", "../../data"} {
			if testenv.Required() {
				break
			}
			if m, err := bundle.Read(dir); err == nil && m.BundleVersion == bundleVersion() &&
				strings.Contains(strings.ToLower(m.Source.File), "delaware") {
				bundlePath = dir
				return
			}
		}
		osmFile, err := extracts.Path("delaware")
		if err != nil {
			bundleErr = err
			return
		}
		data := filepath.Join(sharedDir, "delaware")
		if out, err := exec.Command(bin, "build", "--osm", osmFile, "--out", data).CombinedOutput(); err != nil {
			bundleErr = fmt.Errorf("geosvc build: %v\n%s", err, out)
			return
		}
		bundlePath = data
	})
	return bundlePath, bundleErr
}
