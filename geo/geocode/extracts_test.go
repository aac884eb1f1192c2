package geocode

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

// extractPath returns the path of a test extract shipped in the
// github.com/paulmach/osm module (delaware or andorra), skipping the test
// when it is absent (failing under CI=true).
func extractPath(t testing.TB, name string) string {
	t.Helper()
	return extracts.Require(t, name)
}

var (
	builtMu sync.Mutex
	built   = map[string]*builtIndex{}
)

type builtIndex struct {
	once sync.Once
	ix   *Index
	err  error
}

// testIndex builds (once per test binary) the index of a test extract.
func testIndex(t testing.TB, name string) *Index {
	t.Helper()
	path := extractPath(t, name)
	builtMu.Lock()
	b := built[name]
	if b == nil {
		b = &builtIndex{}
		built[name] = b
	}
	builtMu.Unlock()
	b.once.Do(func() { b.ix, b.err = buildBundle(path) })
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.ix
}

const (
	delaware = "delaware"
	andorra  = "andorra"
)

// buildBundle builds an extract's index as `geosvc build` does: the
// boundary layer first (its polygons give the context), then the index,
// saved to geocode.bin and loaded back.
func buildBundle(path string) (*Index, error) {
	dir, err := os.MkdirTemp("", "geocode-bundle-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if _, err := boundary.Build(boundary.BuildOptions{OSMPath: path, Out: dir}); err != nil {
		return nil, fmt.Errorf("boundary layer: %w", err)
	}
	bl, err := boundary.Load(dir)
	if err != nil {
		return nil, err
	}
	ix, err := Build(path, BuildOptions{Admins: BoundaryAdmins(bl)})
	if err != nil {
		return nil, err
	}
	if err := ix.Save(dir); err != nil {
		return nil, err
	}
	return Load(dir)
}
