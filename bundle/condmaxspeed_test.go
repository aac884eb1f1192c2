package bundle

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/speeds"
)

// TestBuildWithCondMaxspeeds: the build keeps routing/testdata's
// conditional_maxspeed.osm's maxspeed:conditional as a layer, Open
// applies it as caps, and time-dependent routes follow it (by hand:
// School Street's 1000.755 m at 20 km/h on weekdays 07:00-08:59, Market
// Street B -> C at 30 km/h on weekends); a live speed update keeps the
// caps. The fixture lies in Gabon (Africa/Libreville, UTC+1): the
// times below are given in that offset.
func TestBuildWithCondMaxspeeds(t *testing.T) {
	dir := t.TempDir()
	var rep strings.Builder
	out := filepath.Join(dir, "bundle")
	m, err := Build(context.Background(), Options{OSMPath: filepath.Join("..", "routing", "testdata", "conditional_maxspeed.osm"), Out: out, Report: &rep})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"conditional maxspeeds  2 ways (applied by the hour with departure times), 1 parts that are not times skipped", "conditional maxspeeds: 68 segment rows by the hour"} {
		if !strings.Contains(rep.String(), want) {
			t.Errorf("build report lacks %q:\n%s", want, rep.String())
		}
	}
	if !strings.Contains(strings.Join(m.LayerNames(), ","), LayerCondMaxspeeds) {
		t.Errorf("layers %v", m.LayerNames())
	}
	b, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if info := b.Speeds(); info == nil || info.Report.CondMaxspeeds != 68 || info.Report.Matched != 68 {
		t.Fatalf("speeds %+v", info)
	}
	g := b.Graph
	a, bb, c := orb.Point{10.000, 0}, orb.Point{10.009, 0}, orb.Point{10.018, 0}
	const legM = 9 * 111.195
	gabon := time.FixedZone("WAT", 3600)
	at := func(s string) time.Time {
		tt, err := time.ParseInLocation("2006-01-02 15:04:05", s, gabon)
		if err != nil {
			t.Fatal(err)
		}
		return tt
	}
	route := func(from, to orb.Point, dep time.Time) float64 {
		t.Helper()
		r, _, err := g.RouteAt(context.Background(), routing.Fastest, g.Snap(routing.Fastest, from, 0), g.Snap(routing.Fastest, to, 0), dep)
		if err != nil {
			t.Fatal(err)
		}
		return float64(r.DurationS)
	}
	free := route(a, bb, at("2026-11-30 12:00:00")) // Monday noon
	if free > legM/(40/3.6) || free < legM/(60/3.6) {
		t.Fatalf("School Street at noon: %.0f s, not about 50 km/h", free)
	}
	for _, c := range []struct {
		name     string
		from, to orb.Point
		dep      string
		want     float64
	}{
		{"School Street, Monday 08:00", a, bb, "2026-11-30 08:00:00", legM / (20 / 3.6)},
		{"School Street, Monday 08:59: a minute at 20 km/h", a, bb, "2026-11-30 08:59:00", 60 + (1-60/(legM/(20/3.6)))*free},
		{"School Street, Saturday 08:00", a, bb, "2026-12-05 08:00:00", free},
		{"School Street back, Monday 08:00", bb, a, "2026-11-30 08:00:00", legM / (20 / 3.6)},
		{"Market Street B -> C, Saturday", bb, c, "2026-12-05 12:00:00", legM / (30 / 3.6)},
		{"Market Street C -> B, Saturday", c, bb, "2026-12-05 12:00:00", free},
		{"Market Street B -> C, Monday", bb, c, "2026-11-30 12:00:00", free},
	} {
		if got := route(c.from, c.to, at(c.dep)); math.Abs(got-c.want) > 1.5 {
			t.Errorf("%s: %.0f s, want %.1f", c.name, got, c.want)
		}
	}
	// A live update: the operator's rows (School Street at 40 km/h at
	// every hour) and the caps below them.
	cur := NewCurrent(b)
	live, _ := speeds.ParseCSV([]byte("1,2,40\n"))
	cur.SetSpeeds(live)
	if got, want := route(a, bb, at("2026-11-30 12:00:00")), legM/(40/3.6); math.Abs(got-want) > 1.5 {
		t.Errorf("live data at noon: %.0f s, want %.1f", got, want)
	}
	if got, want := route(a, bb, at("2026-11-30 08:00:00")), legM/(20/3.6); math.Abs(got-want) > 1.5 {
		t.Errorf("live data at 08:00, under the cap: %.0f s, want %.1f", got, want)
	}
}
