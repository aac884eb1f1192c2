package routing

import (
	"container/heap"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/ch"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/speeds"
)

// fixtureGraph builds a graph of its own from routing/testdata/NAME (the
// speed tests set speed profiles on it).
func fixtureGraph(t testing.TB, name string) *Graph {
	t.Helper()
	prof := carProfile(t)
	net, err := osmroad.Read(filepath.Join("testdata", name), prof)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := Build(net, prof)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mustSpeeds(t testing.TB, name, text string) *speeds.Data {
	t.Helper()
	d, err := speeds.Parse(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// bucketNodeMS returns every node's time in m's bucket: the graph's,
// with the bucket's directed edge times in place (the oracle's input).
func bucketNodeMS(t testing.TB, g *Graph, m Metric) []uint32 {
	t.Helper()
	ov, err := g.bucketOverrides(m)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]uint32(nil), g.base.nodeTime...)
	for v, d := range g.base.nodeEdge {
		if ov != nil && ov[d] > 0 {
			out[v] = ov[d]
		}
	}
	return out
}

// tdRow is the oracle of time-aware routing: a Dijkstra on the
// uncontracted edge-based graph where a node's time depends on when it
// is entered (ms after departure): msAt(v, t). With msAt independent of
// t it is a plain Dijkstra on those times. It returns the least arrival
// time (ms) at each destination, ch.Inf where none. A time-dependent
// Dijkstra is exact when entering later never arrives earlier (FIFO);
// piecewise-constant speeds by entry hour are not FIFO at the hour's
// edge, where it answers the earliest arrival without waiting.
func (g *Graph) tdRow(s Snap, dst []Snap, msAt func(v uint32, t int64) int64) []int64 {
	b := &g.base
	dist := make([]int64, len(b.nodeEdge))
	for i := range dist {
		dist[i] = ch.Inf
	}
	h := &oracleHeap{}
	var ph [2]phantom
	srcPh := append([]phantom(nil), g.phantoms(chFastest, s, ph[:0])...)
	for _, p := range srcPh {
		ms := msAt(p.node, 0)
		d := ms - int64(math.Round(float64(ms)*p.frac))
		if d < dist[p.node] {
			dist[p.node] = d
			heap.Push(h, oracleItem{p.node, d})
		}
	}
	for h.Len() > 0 {
		it := heap.Pop(h).(oracleItem)
		if it.d > dist[it.node] {
			continue
		}
		for i := b.turnFirst[it.node]; i < b.turnFirst[it.node+1]; i++ {
			v := b.turnHead[i]
			enter := it.d + int64(b.turnMS[i])
			if nd := enter + msAt(v, enter); nd < dist[v] {
				dist[v] = nd
				heap.Push(h, oracleItem{v, nd})
			}
		}
	}
	row := make([]int64, len(dst))
	for j, t := range dst {
		row[j] = ch.Inf
		for _, tp := range g.withCopies(g.phantoms(chFastest, t, ph[:0])) {
			for _, sp := range srcPh {
				if sp.node == tp.node && tp.frac >= sp.frac {
					ms := msAt(tp.node, 0)
					if c := int64(math.Round(float64(ms)*tp.frac)) - int64(math.Round(float64(ms)*sp.frac)); c < row[j] {
						row[j] = c
					}
				}
			}
			g.forEachArcInto(tp.node, func(y uint32, turn uint32) {
				if dist[y] == ch.Inf {
					return
				}
				enter := dist[y] + int64(turn)
				if c := enter + int64(math.Round(float64(msAt(tp.node, enter))*tp.frac)); c < row[j] {
					row[j] = c
				}
			})
		}
	}
	return row
}

// staticMS is msAt of fixed node times.
func staticMS(ms []uint32) func(v uint32, t int64) int64 {
	return func(v uint32, _ int64) int64 { return int64(ms[v]) }
}

func roadNames(r *Route) string {
	var names []string
	for _, s := range r.Segments {
		if len(names) == 0 || names[len(names)-1] != s.Name {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ", ")
}

// TestSpeedsFixture: on the hand-made network of alternatives.osm, Main
// Street's segment C1->C2 (nodes 3->4) at 5 km/h at hour 8 (Monday
// 08:00) sends S->T over the Bypass Lane then, and only then, and only
// eastwards; rows naming no road segment are counted, not fatal.
func TestSpeedsFixture(t *testing.T) {
	g := fixtureGraph(t, "alternatives.osm")
	d := mustSpeeds(t, "s.csv", "3,4,5,,8\n999,1000,30\n1,3,50\n2,1,10,,9\n")
	p := g.MapSpeeds(d)
	rep := p.Report()
	if rep.Segments != 4 || rep.Matched != 2 || rep.Unknown != 2 || rep.NotDrivable != 0 || rep.Buckets != 2 || rep.HoursChanged != 2 || rep.Edges != 2 {
		t.Fatalf("report %+v", rep)
	}
	if len(rep.Examples) != 2 || rep.Examples[0] != "line 2: 999->1000" || rep.Examples[1] != "line 3: 1->3" {
		t.Errorf("examples %q", rep.Examples)
	}
	g.SetSpeeds(p)
	pts := g.SnapAll(Fastest, []orb.Point{{10.0001, 0}, {10.0099, 0}}, 0)
	S, T := pts[0], pts[1]
	plain, err := g.Route(bg, Fastest, S, T)
	if err != nil {
		t.Fatal(err)
	}
	if got := roadNames(plain); got != "Lead Road, Main Street, Exit Road" {
		t.Fatalf("plain route: %s", got)
	}
	for _, c := range []struct {
		hour      int
		from, to  Snap
		bucket    bool
		wantRoads string
	}{
		{7, S, T, false, "Lead Road, Main Street, Exit Road"},
		{8, S, T, true, "Lead Road, Main Street, Bypass Lane, Main Street, Exit Road"},
		{8, T, S, true, "Exit Road, Main Street, Lead Road"},
		{9, S, T, true, "Lead Road, Main Street, Exit Road"},
		{8 + 24, S, T, false, "Lead Road, Main Street, Exit Road"},
	} {
		m, v := g.AtHour(Fastest, c.hour)
		if v != d.Version || m.Bucket.Version != d.Version || (m.Bucket.Hour >= 0) != c.bucket {
			t.Errorf("hour %d: metric %v version %q", c.hour, m, v)
		}
		r, err := g.Route(bg, m, c.from, c.to)
		if err != nil {
			t.Fatal(err)
		}
		if got := roadNames(r); got != c.wantRoads {
			t.Errorf("hour %d: route %s, want %s", c.hour, got, c.wantRoads)
		}
		want := g.tdRow(c.from, []Snap{c.to}, staticMS(bucketNodeMS(t, g, m)))[0]
		if diff := r.DurationS - int(math.Round(float64(want)/1000)); diff < -1 || diff > 1 {
			t.Errorf("hour %d: %d s, the oracle %d ms", c.hour, r.DurationS, want)
		}
		back, err := ParseMetric(m.String())
		if err != nil || back != m {
			t.Errorf("hour %d: key %q reads back as %v, %v", c.hour, m.String(), back, err)
		}
	}
	// At 5 km/h C1->C2's 222.39 m take 160.1 s: the bypass (232.18 m at
	// the residential 25 km/h, 33.4 s) is the best way round; at hour 9
	// only S->A westbound changed, which S->T does not drive.
	m8, _ := g.AtHour(Fastest, 8)
	r8, _ := g.Route(bg, m8, S, T)
	if r8.DurationS <= plain.DurationS || r8.DurationS > plain.DurationS+30 {
		t.Errorf("hour 8: %d s, plain %d s", r8.DurationS, plain.DurationS)
	}
}

// TestSpeedVersions: a metric of an older version still computes while
// held; one of a version no longer held is ErrSpeedVersion; cached
// metrics of dropped versions go.
func TestSpeedVersions(t *testing.T) {
	g := fixtureGraph(t, "alternatives.osm")
	pts := g.SnapAll(Fastest, []orb.Point{{10.0001, 0}, {10.0099, 0}}, 0)
	var first Metric
	for i := 0; i <= keepSpeedVersions; i++ {
		g.SetSpeeds(g.MapSpeeds(mustSpeeds(t, "s.csv", fmt.Sprintf("3,4,%d\n", 5+i))))
		m, _ := g.AtHour(Fastest, 0)
		if i == 0 {
			first = m
		}
		if _, err := g.Route(bg, m, pts[0], pts[1]); err != nil {
			t.Fatal(err)
		}
		if _, err := g.Route(bg, first, pts[0], pts[1]); (err != nil) != (i == keepSpeedVersions) {
			t.Errorf("after %d updates: first version's route: %v", i, err)
		}
		if i == keepSpeedVersions {
			_, err := g.Route(bg, first, pts[0], pts[1])
			if !errors.Is(err, ErrSpeedVersion) {
				t.Errorf("dropped version: %v", err)
			}
		}
	}
	// Each update customized the metric in use again on the new version
	// (in the background): one per held version is cached, and the
	// route of the current version finds it there.
	for range 2000 {
		if n, _, _ := g.MetricCacheStats(); n == keepSpeedVersions {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if n, _, _ := g.MetricCacheStats(); n != keepSpeedVersions {
		t.Errorf("%d cached metrics, want %d (one per held version)", n, keepSpeedVersions)
	}
	_, _, before := g.MetricCacheStats()
	g.SetSpeeds(g.MapSpeeds(mustSpeeds(t, "s.csv", "3,4,99\n")))
	m, _ := g.AtHour(Fastest, 0)
	var runs int64
	for range 2000 {
		if _, _, runs = g.MetricCacheStats(); runs == before+1 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := g.Route(bg, m, pts[0], pts[1]); err != nil {
		t.Fatal(err)
	}
	if _, _, after := g.MetricCacheStats(); runs != before+1 || after != runs {
		t.Errorf("customizations: %d after the update's warm-up, %d after the route; want %d both (the update warmed the metric)", runs, after, before+1)
	}
}

// TestSpeedRules: a YAML rule on a class, at a window, changes exactly
// the segments it matches.
func TestSpeedRules(t *testing.T) {
	g := fixtureGraph(t, "alternatives.osm")
	p := g.MapSpeeds(mustSpeeds(t, "r.yaml", `rules:
  - classes: [residential]
    factor: 0.5
    days: mon
    hours: "7-9"
  - classes: [motorway]
    kmh: 10
`))
	rep := p.Report()
	if rep.Buckets != 1 || rep.HoursChanged != 2 || rep.Edges != 2*len(g.edgeFrom) || len(rep.EmptyRules) != 1 {
		t.Fatalf("report %+v (edges %d)", rep, len(g.edgeFrom))
	}
	g.SetSpeeds(p)
	m, _ := g.AtHour(Fastest, 8)
	ms := bucketNodeMS(t, g, m)
	for v := range ms {
		if want := float64(g.base.nodeTime[v]) * 2; math.Abs(float64(ms[v])-want) > 2 {
			t.Errorf("node %d: %d ms, want twice %d", v, ms[v], g.base.nodeTime[v])
		}
	}
	if m, _ := g.AtHour(Fastest, 9); m.Bucket.Hour != -1 {
		t.Errorf("hour 9 has a bucket")
	}
}

// TestSpeedsMatchDijkstra: random segment speeds by the hour on
// Delaware; every cell of a custom metric's matrix at an hour is the
// Dijkstra oracle's on that hour's times.
func TestSpeedsMatchDijkstra(t *testing.T) {
	g := testGraph(t, "delaware")
	t.Cleanup(func() { g.SetSpeeds(nil) })
	csv := randomSpeedCSV(g, 20000, 7)
	p := g.MapSpeeds(mustSpeeds(t, "r.csv", csv))
	t.Logf("%s", p.Report())
	if p.Report().Matched != 20000 || p.Report().Unknown != 0 {
		t.Fatalf("report %+v", p.Report())
	}
	g.SetSpeeds(p)
	pts := roadPoints(g, 40, 3, 0)
	for _, h := range []int{0, 8, 17, 100} {
		for _, base := range []Metric{Fastest, {Objective: ObjectiveFastest, Avoid: AvoidToll}} {
			m, _ := g.AtHour(base, h)
			if m.Bucket.Hour < 0 {
				t.Fatalf("hour %d: no bucket", h)
			}
			tab := matrixOf(t, g, m, pts[:10], pts[10:])
			ms := bucketNodeMS(t, g, m)
			if base.Avoid != 0 {
				usable, _ := g.usableNodes(base)
				for v := range ms {
					if !usable[v] {
						ms[v] = math.MaxUint32 / 4
					}
				}
			}
			bad := 0
			for i := 0; i < 10; i++ {
				row := g.tdRow(pts[i], pts[10:], staticMS(ms))
				for j, w := range row {
					got, _ := tab.At(i, j)
					if w >= math.MaxUint32/4 {
						if got != NoRoute {
							bad++
						}
						continue
					}
					if diff := int(got) - int(math.Round(float64(w)/1000)); diff < -1 || diff > 1 {
						bad++
						if bad < 5 {
							t.Errorf("hour %d %v: cell %d,%d: %d s, oracle %d ms", h, base, i, j, got, w)
						}
					}
				}
			}
			if bad > 0 {
				t.Errorf("hour %d %v: %d cells differ", h, base, bad)
			}
		}
	}
}

// randomSpeedCSV writes n rows on random drivable road segments of g:
// half for every hour, half for a random hour of 0, 8, 17 and 100.
func randomSpeedCSV(g *Graph, n int, seed int64) string {
	rng := rand.New(rand.NewSource(seed))
	hours := []int{0, 8, 17, 100}
	var b strings.Builder
	type key struct {
		a, b int64
		h    int
	}
	seen := map[key]bool{}
	for rows := 0; rows < n; {
		e := uint32(rng.Intn(len(g.edgeFrom)))
		k := g.shapeFirst[e] + uint32(rng.Intn(int(g.shapeFirst[e+1]-g.shapeFirst[e]-1)))
		a, c := g.shapeNode[k], g.shapeNode[k+1]
		if g.edgeNode[directedID(e, 0)] < 0 {
			if g.edgeNode[directedID(e, 1)] < 0 {
				continue
			}
			a, c = c, a
		}
		h := -1
		if rng.Intn(2) == 0 {
			h = hours[rng.Intn(len(hours))]
		}
		if seen[key{a, c, h}] {
			continue
		}
		seen[key{a, c, h}] = true
		kmh := 3 + rng.Float64()*120
		if h < 0 {
			fmt.Fprintf(&b, "%d,%d,%.1f\n", a, c, kmh)
		} else {
			fmt.Fprintf(&b, "%d,%d,%.1f,,%d\n", a, c, kmh, h)
		}
		rows++
	}
	return b.String()
}
