package routing

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/speeds"
)

// condTurnsGraph builds the graph of testdata/conditional_turns.osm.
func condTurnsGraph(t testing.TB) (*Graph, *BuildReport) {
	t.Helper()
	prof := carProfile(t)
	net, err := osmroad.Read(filepath.Join("testdata", "conditional_turns.osm"), prof)
	if err != nil {
		t.Fatal(err)
	}
	g, rep, err := Build(net, prof)
	if err != nil {
		t.Fatal(err)
	}
	return g, rep
}

// libreville is Africa/Libreville's clock, UTC+1 all year (the
// fixture's islands lie in Gabon).
var libreville = time.FixedZone("WAT", 3600)

// at reads a local time of the fixture ("2026-12-01 07:30:00").
func at(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := time.ParseInLocation("2006-01-02 15:04:05", s, libreville)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestConditionalTurnRoutes routes over conditional_turns.osm, whose
// comment works the routes out by hand: without a time (the hierarchies,
// a custom metric, a table), time-bucketed at the departure's hour
// (Graph.AtHour: a route and a table cell) and time-dependent (RouteAt:
// the turn checked at the minute the car makes it). 1 December 2026 is
// a Tuesday, 4 December a Friday, 5 and 6 December a weekend.
func TestConditionalTurnRoutes(t *testing.T) {
	g, rep := condTurnsGraph(t)
	imp := rep.Import
	if imp.RestrictionsTimed != 3 || imp.RestrictionsApplied != 3 || imp.RestrictionsConditional != 1 || imp.CondRestrictionSkipped["weather (wet, snow, ...)"] != 1 || len(imp.CondRestrictionSkipped) != 1 {
		t.Errorf("import: %d applied, %d by time, %d conditional ignored, skipped %v; want 3, 3, 1, 1 weather", imp.RestrictionsApplied, imp.RestrictionsTimed, imp.RestrictionsConditional, imp.CondRestrictionSkipped)
	}
	if s := imp.String(); !strings.Contains(s, "conditional turn restrictions  3 applied by time (with departure times); conditions that are not times skipped: 1 weather (wet, snow, ...)") {
		t.Errorf("report:\n%s", s)
	}
	// Island A's left turn, island C's left turn, island B's right turn
	// out of its via copy.
	if rep.ConditionalTurns != 3 || g.ConditionalTurns() != 3 || g.Meta().Copies != 1 {
		t.Errorf("%d conditional turns (graph %d), %d copies; want 3 and 1", rep.ConditionalTurns, g.ConditionalTurns(), g.Meta().Copies)
	}
	if s := rep.String(); !strings.Contains(s, "\nconditional turn restrictions: 3 turns closed at some times (by time with departure times)\ncomponents: ") {
		t.Errorf("build report:\n%s", s)
	}
	nodes := fixtureNodes(t, filepath.Join("testdata", "conditional_turns.osm"))
	custom := Metric{Objective: ObjectiveFastest, Avoid: AvoidFerry}
	for _, c := range []struct {
		name      string
		from, to  int64
		departure string // local; "" for none
		bucket    int    // metres time-bucketed (or without a time)
		exact     int    // metres time-dependent
	}{
		{"A no time", 2, 6, "", 334, 334},
		{"A Tue 07:30", 2, 6, "2026-12-01 07:30:00", 491, 491},
		{"A Tue 09:01", 2, 6, "2026-12-01 09:01:00", 334, 334},
		{"A Sat 08:00", 2, 6, "2026-12-05 08:00:00", 334, 334},
		// The car turns at X 16 s after leaving: at 09:00:06 (open)...
		{"A Tue 08:59:50", 2, 6, "2026-12-01 08:59:50", 491, 334},
		// ... at 08:59:56 (closed) ...
		{"A Tue 08:59:40", 2, 6, "2026-12-01 08:59:40", 491, 491},
		// ... at 07:00:06 (closed; the bucket of 06:00 is open).
		{"A Tue 06:59:50", 2, 6, "2026-12-01 06:59:50", 334, 491},
		{"A W2 -> S", 6, 2, "2026-12-01 07:30:00", 334, 334},
		{"B no time", 105, 106, "", 334, 334},
		{"B Tue 07:30", 105, 106, "2026-12-01 07:30:00", 778, 778},
		{"B Tue 09:01", 105, 106, "2026-12-01 09:01:00", 334, 334},
		{"B Sat 08:00", 105, 106, "2026-12-05 08:00:00", 334, 334},
		// The right turn at Y about 34 s after leaving: 09:00:04 ...
		{"B Tue 08:59:30", 105, 106, "2026-12-01 08:59:30", 778, 334},
		// ... 08:59:54.
		{"B Tue 08:59:20", 105, 106, "2026-12-01 08:59:20", 778, 778},
		{"B W -> T Tue 07:30", 101, 106, "2026-12-01 07:30:00", 556, 556},
		{"C no time", 22, 26, "", 491, 491},
		{"C Tue 07:30", 22, 26, "2026-12-01 07:30:00", 491, 491},
		{"C Sat 10:00", 22, 26, "2026-12-05 10:00:00", 334, 334},
		{"C Sun 23:00", 22, 26, "2026-12-06 23:00:00", 334, 334},
		// The turn at Saturday 00:00:06 ...
		{"C Fri 23:59:50", 22, 26, "2026-12-04 23:59:50", 491, 334},
		// ... at Monday 00:00:06.
		{"C Sun 23:59:50", 22, 26, "2026-12-06 23:59:50", 334, 491},
	} {
		from, to := g.Snap(Fastest, nodes[c.from], 0), g.Snap(Fastest, nodes[c.to], 0)
		specs := []Metric{Fastest, Shortest, custom}
		var dep time.Time
		if c.departure != "" {
			dep = at(t, c.departure)
			for i, m := range specs {
				specs[i], _ = g.AtHour(m, hourOfWeek(dep))
			}
		}
		for _, m := range specs {
			r, err := g.Route(bg, m, from, to)
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, m, err)
			}
			if r.DistanceM != c.bucket {
				t.Errorf("%s %s: %d m, want %d", c.name, m, r.DistanceM, c.bucket)
			}
			cell := matrixOf(t, g, m, []Snap{from}, []Snap{to})
			if d, dist := cell.At(0, 0); int(d) != r.DurationS || int(dist) != r.DistanceM {
				t.Errorf("%s %s: table %d s %d m, route %d s %d m", c.name, m, d, dist, r.DurationS, r.DistanceM)
			}
		}
		if c.departure == "" {
			continue
		}
		r, version, err := g.RouteAt(bg, Fastest, from, to, dep)
		if err != nil {
			t.Fatalf("%s RouteAt: %v", c.name, err)
		}
		if r.DistanceM != c.exact || version != "" {
			t.Errorf("%s RouteAt: %d m (version %q), want %d", c.name, r.DistanceM, version, c.exact)
		}
	}
}

// TestConditionalTurnMetricKeys: the hours closing the same turns share
// one metric, whose key names the first of them; hours closing those
// closed without a time need none (the hierarchies serve them); keys
// read back.
func TestConditionalTurnMetricKeys(t *testing.T) {
	g, _ := condTurnsGraph(t)
	for _, c := range []struct {
		hour int
		key  string
	}{
		{0, "fastest"},              // Monday 00:00: island C's plain restriction only
		{7, "fastest;turns=7"},      // Monday 07:00: A and B closed too
		{8, "fastest;turns=7"},      // Monday 08:00: the same turns
		{9, "fastest"},              // Monday 09:00
		{24 + 7, "fastest;turns=7"}, // Tuesday 07:00
		{5 * 24, "fastest;turns=120"},
		{6*24 + 23, "fastest;turns=120"}, // Sunday 23:00: C open, as on Saturday
	} {
		m, _ := g.AtHour(Fastest, c.hour)
		if m.String() != c.key {
			t.Errorf("hour %d: %q, want %q", c.hour, m.String(), c.key)
		}
		back, err := ParseMetric(m.String())
		if err != nil || back != m {
			t.Errorf("hour %d: %q reads back as %+v, %v", c.hour, m.String(), back, err)
		}
		if _, plain := m.hierarchy(); plain != (m.Turns == 0) {
			t.Errorf("hour %d: plain %v", c.hour, plain)
		}
	}
	if open, err := ParseMetric("fastest;turns=open"); err != nil || open.Turns != turnsOpen || open.String() != "fastest;turns=open" || len(g.closedTurns(open.Turns)) != 0 {
		t.Errorf("turns=open: %+v %v", open, err)
	}
	for _, bad := range []string{"fastest;turns=168", "fastest;turns=-1", "fastest;turns=x"} {
		if _, err := ParseMetric(bad); err == nil || !strings.Contains(err.Error(), "turns") {
			t.Errorf("%q: %v, want a turns error", bad, err)
		}
	}
}

// TestConditionalTurnsSaved: a graph written and read back keeps its
// conditional turns and answers the same.
func TestConditionalTurnsSaved(t *testing.T) {
	g, _ := condTurnsGraph(t)
	dir := t.TempDir()
	if err := g.Save(dir); err != nil {
		t.Fatal(err)
	}
	lg, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if lg.ConditionalTurns() != 3 {
		t.Fatalf("%d conditional turns read back, want 3", lg.ConditionalTurns())
	}
	nodes := fixtureNodes(t, filepath.Join("testdata", "conditional_turns.osm"))
	from, to := lg.Snap(Fastest, nodes[22], 0), lg.Snap(Fastest, nodes[26], 0)
	sat, _ := lg.AtHour(Fastest, 5*24+10)
	for _, c := range []struct {
		m     Metric
		wantM int
	}{{Fastest, 491}, {sat, 334}} {
		r, err := lg.Route(bg, c.m, from, to)
		if err != nil || r.DistanceM != c.wantM {
			t.Errorf("%s: %v %v, want %d m", c.m, r, err, c.wantM)
		}
	}
}

// TestNoConditionalTurns: a graph without conditional restrictions has
// no condition table and its metrics at any hour are the plain ones.
func TestNoConditionalTurns(t *testing.T) {
	prof := carProfile(t)
	net, err := osmroad.Read(filepath.Join("testdata", "no_left_turn.osm"), prof)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := Build(net, prof)
	if err != nil {
		t.Fatal(err)
	}
	if g.tc != nil || g.ConditionalTurns() != 0 {
		t.Fatalf("conditional turns on a graph without any: %+v", g.tc)
	}
	for h := 0; h < 168; h++ {
		if m, _ := g.AtHour(Fastest, h); m != Fastest {
			t.Fatalf("hour %d: %s", h, m)
		}
	}
}

// TestTDClockMinuteOfWeekDST: the local minute of the week a
// time-dependent search checks conditional turns at, on New York's
// nights the clocks change in 2026 (Sunday 8 March 02:00 EST becomes
// 03:00 EDT; Sunday 1 November 02:00 EDT becomes 01:00 EST) and at the
// week's end (Sunday is day 6: minute 8640 + minutes of the day).
func TestTDClockMinuteOfWeekDST(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no tz database:", err)
	}
	for _, c := range []struct {
		name string
		dep  time.Time
		ms   int64
		want int
	}{
		{"spring forward: 01:59:50 EST + 16 s is 03:00:06 EDT", time.Date(2026, 3, 8, 1, 59, 50, 0, ny), 16000, 8640 + 180},
		{"spring forward: 01:59:50 EST + 1 h is 03:59:50 EDT", time.Date(2026, 3, 8, 1, 59, 50, 0, ny), 3600000, 8640 + 239},
		{"fall back: 01:59:50 EDT + 16 s is 01:00:06 EST", time.Date(2026, 11, 1, 1, 59, 50, 0, time.FixedZone("EDT", -4*3600)).In(ny), 16000, 8640 + 60},
		{"fall back: 00:30 EDT + 2 h is 01:30 EST", time.Date(2026, 11, 1, 0, 30, 0, 0, ny), 2 * 3600000, 8640 + 90},
		{"Sunday 23:59:50 + 16 s is Monday 00:00:06", time.Date(2026, 11, 29, 23, 59, 50, 0, ny), 16000, 0},
		{"Tuesday 08:59:50 + 16 s", time.Date(2026, 12, 1, 8, 59, 50, 0, ny), 16000, 1440 + 540},
	} {
		k := newTDClock(c.dep, 8)
		if got := k.minuteOfWeek(c.ms); got != c.want {
			t.Errorf("%s: minute %d, want %d", c.name, got, c.want)
		}
	}
}

// TestCondTableMerge: a turn's conditions merge into their union (closed
// minutes and NoTime), and equal unions share one id.
func TestCondTableMerge(t *testing.T) {
	var ct condTable
	a := &osmroad.TurnCond{Closed: []speeds.WeekSpan{{From: 420, To: 540}}}
	b := &osmroad.TurnCond{Closed: []speeds.WeekSpan{{From: 500, To: 600}, {From: 7200, To: 10080}}, NoTime: true}
	if id := ct.merge(0); id != 0 {
		t.Errorf("no condition: id %d", id)
	}
	ida := ct.merge(0, a)
	if ida != 1 || ct.merge(0, a) != 1 {
		t.Errorf("a: ids %d, %d; want 1, 1", ida, ct.merge(0, a))
	}
	idab := ct.merge(ida, b)
	c := ct.conds[idab-1]
	if idab != 2 || !c.NoTime || len(c.Closed) != 2 || c.Closed[0] != [2]int{420, 600} || c.Closed[1] != [2]int{7200, 10080} {
		t.Errorf("a and b: id %d %+v; want 2 closed 420-600 and 7200-10080, no time", idab, c.Closed)
	}
	if ct.merge(0, b, a) != idab {
		t.Errorf("b and a: not a and b's id")
	}
}
