// Package shareddata locates the real data files that tests, benchmarks
// and generators read from shared/data beside the repository (OSM
// extracts, COVID-19 case series), so that none of them is copied into
// the project. $GEOSVC_SHARED_DATA overrides the location.
package shareddata

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/geosvc/geosvc/internal/testenv"
)

// EnvVar names the environment variable that, when set, is the shared
// data directory (the directory holding osm/ and covid/).
const EnvVar = "GEOSVC_SHARED_DATA"

// Dir returns the shared data directory: $GEOSVC_SHARED_DATA when set,
// else shared/data beside the repository. It does not check that it
// exists.
func Dir() string {
	if d := os.Getenv(EnvVar); d != "" {
		return d
	}
	return filepath.Join(repoDir(), "..", "shared", "data")
}

// Path returns the path of rel (slash-separated, e.g.
// "covid/jhu/UID_ISO_FIPS_LookUp_Table.csv") inside Dir.
func Path(rel string) string {
	return filepath.Join(Dir(), filepath.FromSlash(rel))
}

// Require returns Path(rel) when that file or directory exists. When it
// does not, the test or benchmark is skipped, or fails under CI=true
// (internal/testenv).
func Require(tb testing.TB, rel string) string {
	tb.Helper()
	p := Path(rel)
	if _, err := os.Stat(p); err != nil {
		testenv.Skip(tb, "shared data %s is not on this machine (set $%s to the directory holding osm/ and covid/): %v", rel, EnvVar, err)
	}
	return p
}

// repoDir is the repository's top directory, from this file's path.
func repoDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	// This file is repo/internal/shareddata/shareddata.go.
	return filepath.Join(filepath.Dir(file), "..", "..")
}
