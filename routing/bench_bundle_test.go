package routing

import (
	"os"
	"testing"
	"time"
)

// BenchmarkTableBundle times the 1000 x 1000 table, buckets and rows
// apart, on the routing graph of a bundle built beforehand: the country
// scale figures of docs/scale.md on a tiling (make bench-scale).
//
//	GEOSVC_BENCH_DATA=/tmp/geosvc-scale/delaware-4x4 go test -run '^$' -bench TableBundle ./routing/
func BenchmarkTableBundle(b *testing.B) {
	g := benchBundleGraph(b)
	for _, workers := range []int{1, 2} {
		b.Run(map[int]string{1: "cores=1", 2: "cores=2"}[workers], func(b *testing.B) {
			src := roadPoints(g, 1000, 31, 15)
			dst := roadPoints(g, 1000, 32, 15)
			var buckets, rows time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				t, err := g.NewTargets(bg, Fastest, dst, workers)
				if err != nil {
					b.Fatal(err)
				}
				buckets += time.Since(t0)
				t0 = time.Now()
				g.tableParallel(src, t, workers)
				rows += time.Since(t0)
			}
			if t, err := g.NewTargets(bg, Fastest, dst, workers); err == nil {
				reportSearchSpace(b, t, len(dst))
			}
			b.ReportMetric(buckets.Seconds()*1000/float64(b.N), "buckets-ms")
			b.ReportMetric(rows.Seconds()*1000/float64(b.N), "rows-ms")
		})
	}
}

// benchBundleGraph loads the car graph of the bundle directory
// $GEOSVC_BENCH_DATA names for a benchmark, which it skips without one.
func benchBundleGraph(b *testing.B) *Graph {
	dir := os.Getenv("GEOSVC_BENCH_DATA")
	if dir == "" {
		b.Skip("GEOSVC_BENCH_DATA names no bundle directory")
	}
	g, err := Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s: %d edge-based nodes", dir, g.meta.Nodes)
	return g
}
