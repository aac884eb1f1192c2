package zip4

import (
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/boundary"
)

// TestDelawareBuild builds the boundary layer and then the ZIP+4 layer the
// way `geosvc build` does, and checks the county FIPS codes: Delaware's
// three counties are Kent 10001, New Castle 10003 and Sussex 10005.
func TestDelawareBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two layers of Delaware")
	}
	path := delawarePath(t)
	dir := t.TempDir()
	if _, err := boundary.Build(boundary.BuildOptions{OSMPath: path, Out: dir}); err != nil {
		t.Fatal(err)
	}
	bl, err := boundary.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := Build(BuildOptions{OSMPath: path, Out: dir, Boundaries: bl})
	if err != nil {
		t.Fatal(err)
	}
	if meta.Source != SourceDerived || !meta.Derived || meta.Report == nil || meta.Input != "delaware-latest.osm.pbf" {
		t.Fatalf("meta %+v", meta)
	}
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		p    orb.Point
		fips string
	}{
		{"Dover, Kings Highway", orb.Point{-75.5244, 39.1582}, "10001"},
		{"Wilmington", orb.Point{-75.5484, 39.7447}, "10003"},
		{"Georgetown", orb.Point{-75.3855, 38.6905}, "10005"},
	} {
		ids := l.At(nil, tc.p)
		if len(ids) == 0 {
			t.Errorf("%s: no feature at %v", tc.name, tc.p)
			continue
		}
		if f := l.Feature(ids[0]); f.FIPS != tc.fips {
			t.Errorf("%s: %s has FIPS %q, want %s", tc.name, f.Zip9, f.FIPS, tc.fips)
		}
	}
	t.Logf("report: %s", meta.Report)
	if no := meta.Report.NoFIPS; no > l.Len()/20 {
		t.Errorf("%d of %d features without county", no, l.Len())
	}
}
