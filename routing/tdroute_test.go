package routing

import (
	"container/heap"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/paulmach/orb"
)

// monday is Monday 30 November 2026, 00:00 UTC: hour of the week 0 on a
// UTC clock.
var monday = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// streetsOf lists a route's road names, each run of the same name once.
func streetsOf(r *Route) string {
	var s []string
	for _, seg := range r.Segments {
		if len(s) == 0 || s[len(s)-1] != seg.Name {
			s = append(s, seg.Name)
		}
	}
	return strings.Join(s, ", ")
}

// TestRouteAtFixture works the exact answer out by hand on
// alternatives.osm: Main Street's C1 -> C2 (OSM nodes 3 -> 4, 222.390 m,
// residential at 25 km/h: 32.02 s) is at 5 km/h in hour 8 (Monday
// 08:00-08:59, UTC here). The Bypass Lane C1-D-C2 is 9.8 m longer and
// takes two turns, never slowed. A car reaching C1 at 08:59:50 drives
// the first 10 s at 5 km/h (13.889 m) and the other 208.501 m at
// 25 km/h (30.024 s): 40.02 s, 8.00 s more than free flow; reaching it
// at 07:59:50 it drives 69.444 m in 10 s, then 152.946 m at 5 km/h
// (110.12 s): the bypass wins. Time-bucketed routing instead reads the
// departure's hour for the whole trip.
func TestRouteAtFixture(t *testing.T) {
	g := fixtureGraph(t, "alternatives.osm")
	g.SetSpeeds(g.MapSpeeds(mustSpeeds(t, "slow.csv", "3,4,5,,8\n")))
	from, to := g.Snap(Fastest, orb.Point{10.0001, 0}, 0), g.Snap(Fastest, orb.Point{10.0099, 0}, 0)
	free, err := g.Route(bg, Fastest, from, to)
	if err != nil {
		t.Fatal(err)
	}
	slow, _ := g.AtHour(Fastest, 8)
	bypass, err := g.Route(bg, slow, from, to)
	if err != nil {
		t.Fatal(err)
	}
	if streetsOf(free) != "Lead Road, Main Street, Exit Road" || !strings.Contains(streetsOf(bypass), "Bypass Lane") {
		t.Fatalf("free flow %s, hour 8 %s", streetsOf(free), streetsOf(bypass))
	}
	// Time from the departure to entering C1 -> C2: the segments before
	// it and its turn.
	var toC1 float64
	for _, s := range free.Segments {
		if s.Name == "Main Street" && math.Abs(s.Geometry[0][0]-10.003) < 1e-6 {
			toC1 += s.TurnCostS
			break
		}
		toC1 += s.DurationS
	}
	freeS := 222.390 / (25 / 3.6)
	straddleMain := float64(free.DurationS) + 10 + (222.390-10*5/3.6)/(25/3.6) - freeS
	for _, c := range []struct {
		name    string
		enterC1 time.Duration // after Monday 00:00
		streets string
		wantS   float64
	}{
		{"well before the slow hour", 6 * time.Hour, streetsOf(free), float64(free.DurationS)},
		{"into the slow hour on C1-C2: bypass", 7*time.Hour + 59*time.Minute + 50*time.Second, streetsOf(bypass), float64(bypass.DurationS)},
		{"inside the slow hour", 8*time.Hour + 30*time.Minute, streetsOf(bypass), float64(bypass.DurationS)},
		{"out of the slow hour on C1-C2", 8*time.Hour + 59*time.Minute + 50*time.Second, pick(straddleMain < float64(bypass.DurationS), streetsOf(free), streetsOf(bypass)), math.Min(straddleMain, float64(bypass.DurationS))},
		{"after it", 9*time.Hour + 10*time.Second, streetsOf(free), float64(free.DurationS)},
	} {
		t.Run(c.name, func(t *testing.T) {
			dep := monday.Add(c.enterC1 - time.Duration(toC1*float64(time.Second)))
			r, v, err := g.RouteAt(bg, Fastest, from, to, dep)
			if err != nil {
				t.Fatal(err)
			}
			if v != g.Speeds().Version() || streetsOf(r) != c.streets || math.Abs(float64(r.DurationS)-c.wantS) > 1 {
				t.Errorf("leaving %s: %s, %d s (version %q); want %s, %.1f s", dep.Format(time.TimeOnly), streetsOf(r), r.DurationS, v, c.streets, c.wantS)
			}
			t.Logf("leaving %s: %s, %d s (free flow %d s, bypass %d s)", dep.Format(time.TimeOnly), streetsOf(r), r.DurationS, free.DurationS, bypass.DurationS)
			var sum float64
			for _, s := range r.Segments {
				sum += s.DurationS
			}
			if math.Abs(sum-float64(r.DurationS)) > 1 {
				t.Errorf("segments add up to %.1f s, route %d s", sum, r.DurationS)
			}
		})
	}
	// Metrics that are not travel times are refused.
	if _, _, err := g.RouteAt(bg, Shortest, from, to, monday); !errors.Is(err, ErrNotTimeDependent) {
		t.Errorf("shortest: %v", err)
	}
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// TestRouteAtMatchesOracle: on Delaware with rushHourRules, leaving on
// Monday at 07:30 and 07:50, RouteAt's arrival equals that of a
// time-dependent Dijkstra written here on the flow-speed model (hour h's
// node times from the bucket's metric), for 8 x 8 random points.
func TestRouteAtMatchesOracle(t *testing.T) {
	g := testGraph(t, "delaware")
	t.Cleanup(func() { g.SetSpeeds(nil) })
	g.SetSpeeds(g.MapSpeeds(mustSpeeds(t, "rush.yaml", rushHourRules)))
	hourMS := map[int][]uint32{}
	for h := 6; h <= 12; h++ {
		m, _ := g.AtHour(Fastest, h)
		hourMS[h] = bucketNodeMS(t, g, m)
	}
	pts := roadPoints(g, 16, 29, 0)
	for _, depMin := range []int{7*60 + 30, 7*60 + 50} {
		dep := monday.Add(time.Duration(depMin) * time.Minute)
		drive := flowDrive(hourMS, int64(depMin)*60000)
		crossing := 0
		for i := 0; i < 8; i++ {
			want := oracleTD(g, pts[i], pts[8:16], drive)
			for j, to := range pts[8:16] {
				r, _, err := g.RouteAt(bg, Fastest, pts[i], to, dep)
				if want[j] == math.MaxInt64 {
					if !errors.Is(err, ErrNoRoute) {
						t.Errorf("%d -> %d: %v, the oracle finds no route", i, j, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%d -> %d: %v", i, j, err)
				}
				if got, w := r.DurationS, int((want[j]+500)/1000); got < w-1 || got > w+1 {
					t.Errorf("leaving %s, %d -> %d: %d s, oracle %d s", dep.Format(time.TimeOnly), i, j, got, w)
				}
				if depMin*60000+int(want[j]) > 8*3600000 {
					crossing++
				}
			}
		}
		if depMin == 7*60+50 && crossing == 0 {
			t.Errorf("no trip crosses 08:00")
		}
		t.Logf("leaving %02d:%02d: %d of 64 trips cross 08:00", depMin/60, depMin%60, crossing)
	}
}

// flowDrive returns the oracle's road time: a node entered at ms after a
// departure at t0 ms after Monday 00:00 is driven at the hour's speed
// (hourMS[h], h from 6 to 12), the hour's remainder at the next hour's.
func flowDrive(hourMS map[int][]uint32, t0 int64) func(v uint32, enter int64, q float64) int64 {
	return func(v uint32, enter int64, q float64) int64 {
		t := float64(t0 + enter)
		for q > 1e-12 {
			h := min(max(int(t/3600000), 6), 12)
			ms := float64(hourMS[h][v])
			if ms == 0 {
				break
			}
			left := float64(h+1)*3600000 - t
			if h == 12 || q*ms <= left {
				t += q * ms
				break
			}
			q -= left / ms
			t += left
		}
		return int64(math.Round(t)) - t0
	}
}

// oracleTD is a time-dependent Dijkstra from s to each of dst (arrival
// ms, MaxInt64 where none), with the road time of drive.
func oracleTD(g *Graph, s Snap, dst []Snap, drive func(v uint32, enter int64, q float64) int64) []int64 {
	b := &g.base
	arr := make([]int64, len(b.nodeEdge))
	for i := range arr {
		arr[i] = math.MaxInt64
	}
	h := &oracleHeap{}
	var ph [2]phantom
	src := append([]phantom(nil), g.phantoms(chFastest, s, ph[:0])...)
	for _, p := range src {
		if a := drive(p.node, 0, 1-p.frac); a < arr[p.node] {
			arr[p.node] = a
			heap.Push(h, oracleItem{p.node, a})
		}
	}
	for h.Len() > 0 {
		it := heap.Pop(h).(oracleItem)
		if it.d > arr[it.node] {
			continue
		}
		for i := b.turnFirst[it.node]; i < b.turnFirst[it.node+1]; i++ {
			v := b.turnHead[i]
			if a := drive(v, it.d+int64(b.turnMS[i]), 1); a < arr[v] {
				arr[v] = a
				heap.Push(h, oracleItem{v, a})
			}
		}
	}
	out := make([]int64, len(dst))
	for j, d := range dst {
		out[j] = math.MaxInt64
		for _, tp := range g.withCopies(g.phantoms(chFastest, d, ph[:0])) {
			for _, sp := range src {
				if sp.node == tp.node && tp.frac >= sp.frac {
					out[j] = min(out[j], drive(sp.node, 0, tp.frac-sp.frac))
				}
			}
			g.forEachArcInto(tp.node, func(y, turn uint32) {
				if arr[y] != math.MaxInt64 {
					out[j] = min(out[j], drive(tp.node, arr[y]+int64(turn), tp.frac))
				}
			})
		}
	}
	return out
}

// TestRouteAtFIFO: leaving later never arrives earlier, on Delaware with
// a random speed profile (each main road class at a random 30-150 % of
// its speed in each of Monday's hours 6 to 10), for 8 random pairs and
// departures every 10 minutes from 06:30 to 10:30.
func TestRouteAtFIFO(t *testing.T) {
	g := testGraph(t, "delaware")
	t.Cleanup(func() { g.SetSpeeds(nil) })
	rng := rand.New(rand.NewSource(23))
	var rules strings.Builder
	rules.WriteString("rules:\n")
	for _, cls := range []string{"motorway", "trunk", "primary", "secondary", "tertiary", "residential"} {
		for h := 6; h <= 10; h++ {
			fmt.Fprintf(&rules, "  - name: %s-%d\n    classes: [%s]\n    factor: %.2f\n    days: mon\n    hours: \"%d\"\n", cls, h, cls, 0.3+1.2*rng.Float64(), h)
		}
	}
	g.SetSpeeds(g.MapSpeeds(mustSpeeds(t, "random.yaml", rules.String())))
	pts := roadPoints(g, 16, 31, 0)
	for i := 0; i < 8; i++ {
		from, to := pts[i], pts[8+i]
		last := time.Time{}
		for dep := monday.Add(6*time.Hour + 30*time.Minute); !dep.After(monday.Add(10*time.Hour + 30*time.Minute)); dep = dep.Add(10 * time.Minute) {
			r, _, err := g.RouteAt(bg, Fastest, from, to, dep)
			if errors.Is(err, ErrNoRoute) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			arr := dep.Add(time.Duration(r.DurationS) * time.Second)
			if arr.Before(last.Add(-time.Second)) {
				t.Errorf("pair %d: leaving %s arrives %s, before the earlier departure's %s", i, dep.Format(time.TimeOnly), arr.Format(time.TimeOnly), last.Format(time.TimeOnly))
			}
			last = arr
		}
	}
}

// TestTDClockDST: the clock of a search on the nights the clocks change
// in America/New_York (2026): on 8 March 02:00 EST becomes 03:00 EDT
// (Sunday's hour 2 does not happen), on 1 November 02:00 EDT becomes
// 01:00 EST (hour 1 happens twice).
func TestTDClockDST(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no tz database:", err)
	}
	sunday := 6 * 24
	for _, c := range []struct {
		name  string
		dep   time.Time
		start []int64 // minutes
		hour  []int
	}{
		{"spring forward", time.Date(2026, 3, 8, 1, 30, 0, 0, ny), []int64{0, 30, 90}, []int{sunday + 1, sunday + 3, sunday + 4}},
		{"fall back", time.Date(2026, 11, 1, 0, 30, 0, 0, ny), []int64{0, 30, 90, 150}, []int{sunday, sunday + 1, sunday + 1, sunday + 2}},
		{"Monday 08:00", time.Date(2026, 11, 30, 8, 0, 0, 0, ny), []int64{0, 60}, []int{8, 9}},
		{"Sunday night to Monday", time.Date(2026, 11, 29, 23, 15, 0, 0, ny), []int64{0, 45}, []int{167, 0}},
	} {
		k := newTDClock(c.dep, len(c.start))
		for i := range c.start {
			if k.start[i] != c.start[i]*60000 || k.hour[i] != c.hour[i] {
				t.Errorf("%s: interval %d starts %d min, hour %d; want %d min, hour %d", c.name, i, k.start[i]/60000, k.hour[i], c.start[i], c.hour[i])
			}
		}
	}
}

// BenchmarkRouteAtDelaware: time-dependent routes on Delaware with
// rushHourRules, leaving on Monday at 07:45, 20 random pairs per op
// (the buckets' metrics customized before the timer); the same pairs
// time-bucketed (Graph.Route on the 07:00 bucket) for comparison.
func BenchmarkRouteAtDelaware(b *testing.B) {
	g := testGraph(b, "delaware")
	b.Cleanup(func() { g.SetSpeeds(nil) })
	g.SetSpeeds(g.MapSpeeds(mustSpeeds(b, "rush.yaml", rushHourRules)))
	pts := roadPoints(g, 40, 37, 0)
	dep := monday.Add(7*time.Hour + 45*time.Minute)
	m7, _ := g.AtHour(Fastest, 7)
	for i := 0; i < 20; i++ { // customize the buckets in reach
		if _, _, err := g.RouteAt(bg, Fastest, pts[i], pts[20+i], dep); err != nil && !errors.Is(err, ErrNoRoute) {
			b.Fatal(err)
		}
	}
	b.Run("time-dependent", func(b *testing.B) {
		cpu0 := processCPU()
		for b.Loop() {
			for i := 0; i < 20; i++ {
				if _, _, err := g.RouteAt(bg, Fastest, pts[i], pts[20+i], dep); err != nil && !errors.Is(err, ErrNoRoute) {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/20, "ms/route")
		b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/1000/float64(b.N)/20, "cpu-ms/route")
	})
	b.Run("time-bucketed", func(b *testing.B) {
		for b.Loop() {
			for i := 0; i < 20; i++ {
				if _, err := g.Route(bg, m7, pts[i], pts[20+i]); err != nil && !errors.Is(err, ErrNoRoute) {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/20, "ms/route")
	})
}

// processCPU is the process's user and system time so far: a benchmark's
// figure that a loaded machine inflates far less than the wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
