package zip4

import (
	"sync"
	"testing"

	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

// The Delaware extract of github.com/paulmach/osm's testdata, and the
// layer derived from it, shared by the tests of the package.
var delaware struct {
	once     sync.Once
	path     string
	src      *Source
	features []Feature
	report   *Report
	layer    *Layer
	err      error
}

// delawarePath returns the Delaware extract's path, skipping the test
// when the module is not in the module cache (failing under CI=true).
func delawarePath(t testing.TB) string {
	t.Helper()
	return extracts.Require(t, "delaware")
}

// delawareLayer derives the Delaware layer once (counties from
// testCounties, the county relations' FIPS codes over their bounding
// boxes' known partition of Delaware).
func delawareLayer(t testing.TB) (*Source, []Feature, *Report, *Layer) {
	t.Helper()
	path := delawarePath(t)
	delaware.once.Do(func() {
		delaware.path = path
		delaware.src, delaware.err = ReadOSM(path)
		if delaware.err != nil {
			return
		}
		delaware.features, delaware.report = Derive(delaware.src.Roads, Options{})
		delaware.layer = NewLayer(delaware.features, Meta{Source: SourceDerived, Derived: true, Report: delaware.report})
	})
	if delaware.err != nil {
		t.Fatal(delaware.err)
	}
	return delaware.src, delaware.features, delaware.report, delaware.layer
}
