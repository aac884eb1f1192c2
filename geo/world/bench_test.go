package world

import (
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkLookup: the feature of each kind containing a point, over
// 10,000 seeded random land points (Index.LandPoints); "all" asks the country,
// the state and the county of each point. One op is one point; p50-ns
// and p99-ns are percentiles of single lookups timed with the clock, whose
// own cost (clock-ns, a pair of clock reads) is included in them.
func BenchmarkLookup(b *testing.B) {
	ix := testIndex(b)
	pts := ix.LandPoints(10000, 1)
	kinds := map[string][]Kind{"all": {Country, State, County}, "country": {Country}, "state": {State}, "county": {County}}
	for _, name := range []string{"all", "country", "state", "county"} {
		ks := kinds[name]
		b.Run(name, func(b *testing.B) {
			times := make([]time.Duration, 0, 1<<20)
			var clock time.Duration
			i := 0
			for b.Loop() {
				p := pts[i%len(pts)]
				i++
				t0 := time.Now()
				for _, k := range ks {
					ix.At(k, p)
				}
				t1 := time.Now()
				if len(times) < cap(times) {
					times = append(times, t1.Sub(t0))
				}
				clock += time.Since(t1)
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2]), "p50-ns")
			b.ReportMetric(float64(times[len(times)*99/100]), "p99-ns")
			b.ReportMetric(float64(clock)/float64(i), "clock-ns")
		})
	}
}

// BenchmarkLoad: decoding the embedded file (what Features does on its
// first call) and building the point index (what Lookup adds). live-MiB
// is the heap one decoded layer and its index hold; peakRSS-MiB is the
// process's peak RSS (Linux), the layer's figure when the benchmark runs
// alone with -benchtime 1x (one load in the test binary).
func BenchmarkLoad(b *testing.B) {
	var decodeT, indexT time.Duration
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var l *layer
	var ix *Index
	for b.Loop() {
		t0 := time.Now()
		var err error
		if l, err = decode(worldBin); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		ix = newIndex(l.features)
		decodeT += t1.Sub(t0)
		indexT += time.Since(t1)
	}
	b.ReportMetric(float64(decodeT.Microseconds())/1000/float64(b.N), "decode-ms")
	b.ReportMetric(float64(indexT.Microseconds())/1000/float64(b.N), "index-ms")
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(ix)
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20), "live-MiB")
	if hwm, ok := peakRSS(); ok {
		b.ReportMetric(hwm/(1<<20), "peakRSS-MiB")
	}
	b.ReportMetric(float64(len(worldBin))/(1<<20), "file-MiB")
}

// peakRSS returns VmHWM from /proc/self/status, in bytes.
func peakRSS() (float64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}
