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

	"github.com/geosvc/geosvc/internal/shareddata"
	"github.com/geosvc/geosvc/internal/testenv"
)

// ErrMissing is wrapped by the errors of Path when an extract is not on
// this machine (as opposed to an extract that is there but fails to load).
var ErrMissing = errors.New("extract not on this machine")

// ModuleFiles are the extracts inside the paulmach/osm module, by name.
var ModuleFiles = map[string]string{
	"delaware": "delaware-latest.osm.pbf",
	"andorra":  "andorra-latest.osm.bz2",
}

// osmModule is the module that ships the Delaware and Andorra extracts.
const osmModule = "github.com/paulmach/osm"

// moduleDir is the directory of the paulmach/osm module, "" when it is not
// in the module cache. It asks `go list -m` first, then looks in the module
// cache for the version go.mod requires (a test run from a directory where
// go list fails still finds it).
var moduleDir = sync.OnceValue(func() string {
	if out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", osmModule).Output(); err == nil {
		if d := strings.TrimSpace(string(out)); d != "" {
			return d
		}
	}
	cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return ""
	}
	v := requiredVersion()
	if v == "" {
		return ""
	}
	d := filepath.Join(strings.TrimSpace(string(cache)), osmModule+"@"+v)
	if _, err := os.Stat(d); err != nil {
		return ""
	}
	return d
})

// requiredVersion returns the version of osmModule that the repository's
// go.mod requires, "" when it cannot be read.
func requiredVersion() string {
	b, err := os.ReadFile(filepath.Join(repoDir(), "go.mod"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == osmModule {
			return f[1]
		}
		if len(f) >= 3 && f[0] == "require" && f[1] == osmModule {
			return f[2]
		}
	}
	return ""
}

// repoDir is the repository's top directory, from this file's path.
func repoDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	// This file is repo/geo/osmfile/extracts/extracts.go.
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// SharedDir returns shared/data/osm beside the repository (or
// $GEOSVC_SHARED_DATA/osm when set; see internal/shareddata).
func SharedDir() string {
	return shareddata.Path("osm")
}

// Path returns the path of the named extract: "delaware" and "andorra"
// from the paulmach/osm module, any other name as shared/data/osm/NAME.osm.pbf.
func Path(name string) (string, error) {
	var p string
	if f, ok := ModuleFiles[name]; ok {
		dir := moduleDir()
		if dir == "" {
			return "", fmt.Errorf("extracts: %w: cannot locate the %s module (go mod download %s)", ErrMissing, osmModule, osmModule)
		}
		p = filepath.Join(dir, "testdata", f)
	} else {
		p = filepath.Join(SharedDir(), name+".osm.pbf")
	}
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("extracts: %s: %w: %w", name, ErrMissing, err)
	}
	return p, nil
}

// Need ends a test whose extract could not be had: a missing extract
// (ErrMissing) skips it, or fails it under CI=true; any other error fails
// it. A nil err does nothing.
func Need(tb testing.TB, err error) {
	tb.Helper()
	if err == nil {
		return
	}
	if errors.Is(err, ErrMissing) {
		testenv.Skip(tb, "%v", err)
		return
	}
	tb.Fatal(err)
}

// Require returns the path of the named extract. When it is not on this
// machine the test or benchmark is skipped, or, under CI=true, fails
// (internal/testenv).
func Require(tb testing.TB, name string) string {
	tb.Helper()
	p, err := Path(name)
	Need(tb, err)
	return p
}
