package bundle

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/routing/speeds"
)

// TestBuildWithSpeeds: --speeds stores the file in the bundle, Open and
// OpenRouting apply it; a bad file fails the build naming its line; a
// live update on a Current carries over to a bundle stored later.
func TestBuildWithSpeeds(t *testing.T) {
	dir := t.TempDir()
	osm := filepath.Join("..", "routing", "testdata", "alternatives.osm")
	file := filepath.Join(dir, "s.csv")
	csv := "3,4,5,,8\n999,1000,30\n"
	if err := os.WriteFile(file, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	var rep strings.Builder
	out := filepath.Join(dir, "bundle")
	m, err := Build(context.Background(), Options{OSMPath: osm, Out: out, Speeds: file, Report: &rep})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.String(), "2 rows, 1 matched, 1 unknown") {
		t.Errorf("build report lacks the speed counts:\n%s", rep.String())
	}
	want, _ := speeds.ParseCSV([]byte(csv))
	for _, open := range []func(string) (*Bundle, error){Open, OpenRouting} {
		b, err := open(out)
		if err != nil {
			t.Fatal(err)
		}
		info := b.Speeds()
		if info == nil || info.Version != want.Version || info.Report.Matched != 1 || info.Report.Unknown != 1 {
			t.Errorf("speeds %+v, want version %s", info, want.Version)
		}
	}
	if !strings.Contains(strings.Join(m.LayerNames(), ","), LayerSpeeds) {
		t.Errorf("layers %v", m.LayerNames())
	}

	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("3,4,5\n3,4,-1\n"), 0o644)
	_, err = Build(context.Background(), Options{OSMPath: osm, Out: filepath.Join(dir, "bad"), Speeds: bad})
	if err == nil || !strings.Contains(err.Error(), "line 2: speed_kmh") {
		t.Errorf("bad speeds: %v", err)
	}

	// Live data replaces the built-in data and follows a new bundle.
	b1, _ := Open(out)
	c := NewCurrent(b1)
	live, _ := speeds.ParseCSV([]byte("4,3,7,,100\n"))
	if r := c.SetSpeeds(live); r.Matched != 1 || c.Load().Speeds().Version != live.Version {
		t.Errorf("live update: %+v", r)
	}
	b2, _ := Open(out)
	if b2.Speeds().Version != want.Version {
		t.Fatalf("fresh bundle: %+v", b2.Speeds())
	}
	c.Store(b2)
	if v := c.Load().Speeds().Version; v != live.Version {
		t.Errorf("stored bundle has version %s, want the live %s", v, live.Version)
	}
}
