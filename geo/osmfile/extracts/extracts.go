// Package extracts finds the real OSM extracts that tests and benchmarks
// read: Delaware and Andorra, shipped in the testdata of the
// github.com/paulmach/osm module, and the larger ones in shared/data/osm
// beside the repository. It copies nothing into the project.
package extracts

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// ModuleFiles are the extracts inside the paulmach/osm module, by name.
var ModuleFiles = map[string]string{
	"delaware": "delaware-latest.osm.pbf",
	"andorra":  "andorra-latest.osm.bz2",
}

// moduleDir is the directory of the paulmach/osm module, "" when go cannot
// tell (no toolchain, no module cache).
var moduleDir = sync.OnceValue(func() string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/paulmach/osm").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// SharedDir returns shared/data/osm beside the repository (or
// $GEOSVC_SHARED_DATA/osm when set).
func SharedDir() string {
	if d := os.Getenv("GEOSVC_SHARED_DATA"); d != "" {
		return filepath.Join(d, "osm")
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	// This file is repo/geo/osmfile/extracts/extracts.go.
	repo := filepath.Join(filepath.Dir(file), "..", "..", "..")
	return filepath.Join(repo, "..", "shared", "data", "osm")
}

// Path returns the path of the named extract: "delaware" and "andorra"
// from the paulmach/osm module, any other name as shared/data/osm/NAME.osm.pbf.
func Path(name string) (string, error) {
	var p string
	if f, ok := ModuleFiles[name]; ok {
		dir := moduleDir()
		if dir == "" {
			return "", errors.New("extracts: cannot locate the github.com/paulmach/osm module (go mod download github.com/paulmach/osm)")
		}
		p = filepath.Join(dir, "testdata", f)
	} else {
		p = filepath.Join(SharedDir(), name+".osm.pbf")
	}
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("extracts: %s: %w", name, err)
	}
	return p, nil
}

// Require returns the path of the named extract, skipping the test or
// benchmark when it is not on this machine.
func Require(tb testing.TB, name string) string {
	tb.Helper()
	p, err := Path(name)
	if err != nil {
		tb.Skipf("extract %s not available: %v", name, err)
	}
	return p
}
