package zip4

import (
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/world"
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
	// Faces in Maryland, Pennsylvania and New Jersey, which the extract
	// has no FIPS-tagged county for, get the world base layer's county.
	if no := meta.Report.NoFIPS; no > 0 {
		t.Errorf("%d of %d features without county", no, l.Len())
	}
	// A feature's county lies in the state the world base layer puts its
	// representative point in (geo/world's own index, not the boundary
	// layer), but along a state line, where the extract's county outline
	// and the base layer's (about 400 m precise) disagree by a little; and
	// the faces of all four states are there.
	wx, err := world.Lookup()
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]int{}
	mismatch := 0
	for i := 0; i < l.Len(); i++ {
		f := l.Feature(i)
		if len(f.FIPS) != 5 {
			continue
		}
		states[f.FIPS[:2]]++
		if st, ok := wx.StateAt(f.Rep); ok && st.ID != f.FIPS[:2] {
			if c, ok := wx.CountyAt(f.Rep); !ok || c.ID != f.FIPS {
				mismatch++
			}
		}
	}
	if mismatch > l.Len()/100 {
		t.Errorf("%d of %d features have a county of another state than the base layer's there", mismatch, l.Len())
	}
	t.Logf("%d of %d features' counties disagree with the base layer's state (border precision)", mismatch, l.Len())
	for _, st := range []string{"10", "24", "34", "42"} {
		if states[st] == 0 {
			t.Errorf("no feature in state %s: %v", st, states)
		}
	}
}
