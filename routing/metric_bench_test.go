package routing

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/cch"
)

// newSpeeds returns a speeds spec no earlier iteration used: Motorway
// and LocalRoadCity speeds that change with i.
func newSpeeds(base Objective, i int) Metric {
	s := Metric{Objective: base}
	s.Speeds[1] = 60 + float64(i%150)       // Motorway
	s.Speeds[9] = 20 + float64(i/150%100)/7 // LocalRoadCity
	return s
}

// inputs returns the input points of snaps.
func inputs(snaps []Snap) []orb.Point {
	out := make([]orb.Point, len(snaps))
	for i, s := range snaps {
		out[i] = s.Input
	}
	return out
}

// BenchmarkMetricCustomize times a metric never seen before on two
// goroutines: compiling the spec into arc weights, then customizing.
func BenchmarkMetricCustomize(b *testing.B) {
	for _, name := range []string{"andorra", "porto_portugal", "delaware"} {
		for _, base := range []Objective{ObjectiveFastest, ObjectiveEfficient, ObjectiveSafest} {
			b.Run(fmt.Sprintf("%s/%s+speeds", name, base), func(b *testing.B) {
				g := testGraph(b, name)
				tab := defaultMetricTables()
				var compile, custom time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					t0 := time.Now()
					cm := g.compileMetric(newSpeeds(base, i), tab)
					t1 := time.Now()
					if _, err := g.cch.Customize(context.Background(), cm.weights, cch.Options{Workers: 2}); err != nil {
						b.Fatal(err)
					}
					compile += t1.Sub(t0)
					custom += time.Since(t1)
				}
				b.ReportMetric(compile.Seconds()*1000/float64(b.N), "compile-ms")
				b.ReportMetric(custom.Seconds()*1000/float64(b.N), "customize-ms")
			})
		}
	}
}

// BenchmarkMetricRoute times point-to-point routes with their path on a
// customized metric over 1000 seeded pairs and reports the median.
func BenchmarkMetricRoute(b *testing.B) {
	g := testGraph(b, "delaware")
	cm, err := g.customMetric(context.Background(), newSpeeds(ObjectiveFastest, 7))
	if err != nil {
		b.Fatal(err)
	}
	src := roadPoints(g, 1000, 21, 15)
	dst := roadPoints(g, 1000, 22, 15)
	times := make([]time.Duration, len(src))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range src {
			t0 := time.Now()
			_, _ = cm.route(src[k], dst[k])
			times[k] = time.Since(t0)
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkMetricMatrix times a 1000 x 1000 Delaware matrix as a worker
// computes it, on two goroutines: snapping, the destination side
// (customization included on a miss) and the rows. "new" uses speeds no
// earlier iteration used (a customization every time), "cached" the same
// speeds again, "fastest" the default contraction hierarchy.
func BenchmarkMetricMatrix(b *testing.B) {
	for _, kind := range []string{"new", "cached", "fastest", "safest-new"} {
		b.Run("delaware/1000x1000/"+kind, func(b *testing.B) {
			g := testGraph(b, "delaware")
			src := roadPoints(g, 1000, 31, 15)
			dst := roadPoints(g, 1000, 32, 15)
			srcPts, dstPts := inputs(src), inputs(dst)
			ctx := context.Background()
			if kind == "cached" {
				if _, err := g.customMetric(ctx, newSpeeds(ObjectiveFastest, -1)); err != nil {
					b.Fatal(err)
				}
			}
			var side, rows time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				spec := Metric{}
				switch kind {
				case "new":
					spec = newSpeeds(ObjectiveFastest, 1000+i)
				case "safest-new":
					spec = newSpeeds(ObjectiveSafest, 2000+i)
				case "cached":
					spec = newSpeeds(ObjectiveFastest, -1)
				}
				t0 := time.Now()
				s := g.SnapAll(spec, srcPts, 0)
				d := g.SnapAll(spec, dstPts, 0)
				t, err := g.NewTargets(ctx, spec, d, 2)
				if err != nil {
					b.Fatal(err)
				}
				t.Build()
				t1 := time.Now()
				g.tableParallel(s, t, 2)
				side += t1.Sub(t0)
				rows += time.Since(t1)
			}
			b.ReportMetric(side.Seconds()*1000/float64(b.N), "snap+targets-ms")
			b.ReportMetric(rows.Seconds()*1000/float64(b.N), "rows-ms")
		})
	}
}

// BenchmarkCancelLatency reports how long a customization and a 1000 x
// 1000 table (one goroutine) take to return after their context is
// cancelled mid-way on Delaware.
func BenchmarkCancelLatency(b *testing.B) {
	g := testGraph(b, "delaware")
	src := roadPoints(g, 1000, 31, 15)
	dst := roadPoints(g, 1000, 32, 15)
	cm, err := g.customMetric(context.Background(), newSpeeds(ObjectiveFastest, -2))
	if err != nil {
		b.Fatal(err)
	}
	t := cm.newTargets(dst, 2)
	var custom, table time.Duration
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		w := g.compileMetric(newSpeeds(ObjectiveFastest, 3000+i), defaultMetricTables()).weights
		done := make(chan time.Time)
		go func() {
			_, err := g.cch.Customize(ctx, w, cch.Options{Workers: 2})
			if err == nil {
				b.Error("customization finished before its cancellation")
			}
			done <- time.Now()
		}()
		time.Sleep(10 * time.Millisecond)
		t0 := time.Now()
		cancel()
		custom += (<-done).Sub(t0)

		ctx, cancel = context.WithCancel(context.Background())
		go func() {
			if _, err := g.Table(ctx, src, t); err == nil {
				b.Error("table finished before its cancellation")
			}
			done <- time.Now()
		}()
		time.Sleep(50 * time.Millisecond)
		t0 = time.Now()
		cancel()
		table += (<-done).Sub(t0)
	}
	b.ReportMetric(custom.Seconds()*1000/float64(b.N), "customize-cancel-ms")
	b.ReportMetric(table.Seconds()*1000/float64(b.N), "table-cancel-ms")
}
