package geocode

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/paulmach/orb"
)

// reportPercentiles adds p50 and p99 latency metrics from per-op
// durations.
func reportPercentiles(b *testing.B, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	b.ReportMetric(float64(d[len(d)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(d[min(len(d)-1, len(d)*99/100)].Nanoseconds()), "p99-ns")
}

func BenchmarkForwardDelaware(b *testing.B) {
	ix := testIndex(b, delaware)
	qs := ix.SampleQueries(10000, 10000)
	var d []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		ix.Forward(Query{Text: qs[i%len(qs)]})
		d = append(d, time.Since(start))
		i++
	}
	reportPercentiles(b, d)
}

func BenchmarkReverseDelaware(b *testing.B) {
	ix := testIndex(b, delaware)
	r := rand.New(rand.NewPCG(3, 4))
	var pts []orb.Point
	for i := range ix.feats {
		if f := &ix.feats[i]; f.kind == KindStreet && f.nparts > 0 {
			p := ix.part(f.part0)
			a := p[r.IntN(len(p))]
			ang := r.Float64() * 2 * math.Pi
			pts = append(pts, orb.Point{a[0] + 2e-4*math.Cos(ang), a[1] + 2e-4*math.Sin(ang)})
		}
	}
	benchReverse(b, ix, pts)
}

// BenchmarkReverseDelawareAddresses reverse-geocodes points 10 m from
// Delaware's address points, where buildings and address nodes compete.
func BenchmarkReverseDelawareAddresses(b *testing.B) {
	ix := testIndex(b, delaware)
	r := rand.New(rand.NewPCG(5, 6))
	var pts []orb.Point
	for i := range ix.feats {
		if f := &ix.feats[i]; f.kind == KindAddress {
			ang := r.Float64() * 2 * math.Pi
			pts = append(pts, orb.Point{f.pt[0] + 1.17e-4*math.Cos(ang), f.pt[1] + 0.9e-4*math.Sin(ang)})
		}
	}
	benchReverse(b, ix, pts)
}

// benchReverse reverse-geocodes pts in turn, reporting p50 and p99.
func benchReverse(b *testing.B, ix *Index, pts []orb.Point) {
	var d []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		ix.Reverse(pts[i%len(pts)], ReverseOptions{})
		d = append(d, time.Since(start))
		i++
	}
	reportPercentiles(b, d)
}

func BenchmarkBuildDelaware(b *testing.B) {
	path := extractPath(b, delaware)
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		ix, err := Build(path, BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-min(before.HeapAlloc, after.HeapAlloc))/(1<<20), "index-MB")
		runtime.KeepAlive(ix)
	}
}

// BenchmarkAutocompleteDelaware completes what a search box sends while
// a query of SampleQueries is typed: each query cut after a random
// number of its characters (at least 2), half of them with a focus at a
// random place node of the extract.
func BenchmarkAutocompleteDelaware(b *testing.B) {
	ix := testIndex(b, delaware)
	r := rand.New(rand.NewPCG(7, 8))
	var qs []Query
	for _, s := range ix.SampleQueries(10000, 10000) {
		rs := []rune(s)
		if len(rs) < 2 {
			continue
		}
		q := Query{Text: string(rs[:2+r.IntN(len(rs)-1)]), Limit: 10}
		if r.IntN(2) == 0 {
			p := ix.feats[ix.placeFeat[r.IntN(len(ix.placeFeat))]].pt
			q.Focus = &p
		}
		qs = append(qs, q)
	}
	// Besides the wall-clock percentiles, the CPU time of each query on
	// its thread (cpu-p50-ns, cpu-p99-ns): on a shared machine the wall
	// clock also counts the waits for a core.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var d, cpu []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		c0, ok0 := threadCPU()
		ix.Autocomplete(qs[i%len(qs)])
		c1, ok1 := threadCPU()
		d = append(d, time.Since(start))
		if ok0 && ok1 {
			cpu = append(cpu, c1-c0)
		}
		i++
	}
	reportPercentiles(b, d)
	if len(cpu) > 0 {
		sort.Slice(cpu, func(i, j int) bool { return cpu[i] < cpu[j] })
		b.ReportMetric(float64(cpu[len(cpu)/2].Nanoseconds()), "cpu-p50-ns")
		b.ReportMetric(float64(cpu[min(len(cpu)-1, len(cpu)*99/100)].Nanoseconds()), "cpu-p99-ns")
	}
}
