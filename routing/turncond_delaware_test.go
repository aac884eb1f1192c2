package routing

import (
	"testing"
	"time"

	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/speeds"
)

// TestConditionalTurnsDelaware: Delaware has no conditional turn
// restriction, so the test makes its 500-odd plain ones conditional and
// judges the engine against plain Dijkstras (dijkstraTable, on the
// uncontracted graph) over graphs built with the restrictions plain or
// without them: every via-node and via-way restriction made
// "in force Monday to Friday 07:00-09:00" answers at Tuesday 07:00 as
// the plain restrictions do and at 10:00 as no restriction does (and
// RouteAt leaving at 07:00 as the plain ones, for trips that end before
// 09:00, and leaving at 10:00 as none); made "plain, lifted at weekends" it answers without a time
// and on Tuesday as the plain ones, on Saturday as none (tables and
// RouteAt).
//
// One difference is by design: the plain graph turns round where every
// other turn is forbidden (a U-turn is added only where nothing else
// is), the conditional graphs do not (their turns exist), so a cell may
// be longer on them; such cells are counted and must be few.
func TestConditionalTurnsDelaware(t *testing.T) {
	if testing.Short() {
		t.Skip("real extracts are slow; -short skips them")
	}
	path := extractPath(t, "delaware")
	prof := carProfile(t)
	build := func(edit func(net *osmroad.Network)) *Graph {
		net, err := osmroad.Read(path, prof)
		if err != nil {
			t.Fatal(err)
		}
		edit(net)
		g, _, err := Build(net, prof)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	weekdays, err := speeds.ParseWeekSpans("Mo-Fr 07:00-09:00")
	if err != nil {
		t.Fatal(err)
	}
	weekend, _ := speeds.ParseWeekSpans("Sa,Su")
	setAll := func(c *osmroad.TurnCond) func(net *osmroad.Network) {
		return func(net *osmroad.Network) {
			for i := range net.Restrictions {
				net.Restrictions[i].Cond = c
			}
			for i := range net.WayRestrictions {
				net.WayRestrictions[i].Cond = c
			}
		}
	}
	gPlain := build(func(*osmroad.Network) {})
	gNone := build(func(net *osmroad.Network) { net.Restrictions, net.WayRestrictions = nil, nil })
	gA := build(setAll(&osmroad.TurnCond{Closed: weekdays}))
	gB := build(setAll(&osmroad.TurnCond{Closed: speeds.ComplementSpans(weekend), NoTime: true}))
	if gA.ConditionalTurns() < 500 || gB.ConditionalTurns() != gA.ConditionalTurns() {
		t.Fatalf("conditional turns: %d and %d, want the same 500 or more", gA.ConditionalTurns(), gB.ConditionalTurns())
	}
	t.Logf("conditional turns %d; copies plain %d, conditional %d", gA.ConditionalTurns(), gPlain.Meta().Copies, gA.Meta().Copies)

	pts := roadPoints(gPlain, 25, 23, 0)
	inputs := make([]Snap, len(pts))
	copy(inputs, pts)
	snaps := func(g *Graph) []Snap {
		var out []Snap
		for _, s := range inputs {
			out = append(out, g.Snap(Fastest, s.Input, 0))
		}
		return out
	}
	plain := gPlain.dijkstraTable(Fastest, snaps(gPlain), snaps(gPlain))
	none := gNone.dijkstraTable(Fastest, snaps(gNone), snaps(gNone))
	// The restrictions must matter to some cells, or the test would
	// tell nothing.
	differ := 0
	for k := range plain.Durations {
		if plain.Durations[k] != none.Durations[k] {
			differ++
		}
	}
	t.Logf("%d of %d cells differ with and without the restrictions", differ, len(plain.Durations))
	if differ == 0 {
		t.Fatal("no cell differs with and without the restrictions: choose other points")
	}
	tue7, tue10, sat10 := 24+7, 24+10, 5*24+10
	longer := 0
	for _, c := range []struct {
		name string
		g    *Graph
		hour int // -1: no time
		want Table
		// uTurns: the plain graph's U-turns may make want shorter.
		uTurns bool
	}{
		{"weekday, no time", gA, -1, none, false},
		{"weekday, Tuesday 07:00", gA, tue7, plain, true},
		{"weekday, Tuesday 10:00", gA, tue10, none, false},
		{"lifted, no time", gB, -1, plain, true},
		{"lifted, Tuesday 07:00", gB, tue7, plain, true},
		{"lifted, Saturday 10:00", gB, sat10, none, false},
	} {
		m := Fastest
		if c.hour >= 0 {
			m, _ = c.g.AtHour(Fastest, c.hour)
		}
		ss := snaps(c.g)
		got := matrixOf(t, c.g, m, ss, ss)
		equal := 0
		for k := range got.Durations {
			d, w := got.Durations[k], c.want.Durations[k]
			switch {
			case d == w && got.Distances[k] == c.want.Distances[k]:
				equal++
			case c.uTurns && d > w:
				longer++
			default:
				t.Errorf("%s (%s): cell %d: %d s %d m, want %d s %d m", c.name, m, k, d, got.Distances[k], w, c.want.Distances[k])
			}
		}
		t.Logf("%s (%s): %d of %d cells equal", c.name, m, equal, len(got.Durations))
	}
	if longer > len(inputs) {
		t.Errorf("%d cells longer than the plain graph's (its U-turns), want at most %d", longer, len(inputs))
	}
	// RouteAt leaving Tuesday 1 December 2026 07:00: trips the plain
	// graph ends within 100 minutes make every turn before 09:00.
	dep := time.Date(2026, 12, 1, 7, 0, 0, 0, time.UTC)
	sa, sb := snaps(gA), snaps(gB)
	checked, restricted := 0, 0
	for k := range plain.Durations {
		i, j := k/len(sa), k%len(sa)
		differs := plain.Durations[k] != none.Durations[k]
		// Every pair the restrictions change, and every seventh other.
		if i == j || plain.Durations[k] == NoRoute || plain.Durations[k] > 100*60 || !differs && k%7 != 0 {
			continue
		}
		r, _, err := gA.RouteAt(bg, Fastest, sa[i], sa[j], dep)
		if err != nil {
			t.Fatalf("RouteAt %d -> %d: %v", i, j, err)
		}
		checked++
		if differs {
			restricted++
			// Leaving at 10:00 every turn is open: no restriction.
			r10, _, err := gA.RouteAt(bg, Fastest, sa[i], sa[j], dep.Add(3*time.Hour))
			if err != nil || int32(r10.DurationS) != none.Durations[k] {
				t.Errorf("RouteAt %d -> %d at 10:00: %v %v, want %d s", i, j, r10, err, none.Durations[k])
			}
			// Lifted at weekends: on Saturday 5 December as none, on
			// Tuesday as the plain ones (its A* potential opens every
			// conditional turn).
			rSat, _, err := gB.RouteAt(bg, Fastest, sb[i], sb[j], dep.Add(4*24*time.Hour+3*time.Hour))
			if err != nil || int32(rSat.DurationS) != none.Durations[k] {
				t.Errorf("lifted: RouteAt %d -> %d on Saturday: %v %v, want %d s", i, j, rSat, err, none.Durations[k])
			}
			rTue, _, err := gB.RouteAt(bg, Fastest, sb[i], sb[j], dep)
			if err != nil || int32(rTue.DurationS) < plain.Durations[k] {
				t.Errorf("lifted: RouteAt %d -> %d on Tuesday: %v %v, want %d s", i, j, rTue, err, plain.Durations[k])
			}
		}
		if d := int32(r.DurationS); d < plain.Durations[k] {
			t.Errorf("RouteAt %d -> %d: %d s, the plain restrictions' %d s", i, j, d, plain.Durations[k])
		} else if d != plain.Durations[k] {
			t.Logf("RouteAt %d -> %d: %d s, the plain restrictions' %d s (a U-turn of the plain graph?)", i, j, d, plain.Durations[k])
		}
	}
	t.Logf("RouteAt: %d pairs checked, %d of them changed by the restrictions", checked, restricted)
	if checked < 30 || restricted < 10 {
		t.Errorf("RouteAt: %d pairs checked, %d changed by the restrictions; want 30 and 10 or more", checked, restricted)
	}
}
