package routing

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/geosvc/geosvc/routing/osmroad"
)

// The benchmarks behind BENCHMARKS.md. Run them with
//
//	go test -run '^$' -bench . -benchtime 10x ./routing/
//
// Points are seeded random road points (within 15 m of a road), snapped
// beforehand unless the benchmark says otherwise.

func BenchmarkBuild(b *testing.B) {
	for _, name := range []string{"delaware", "andorra", "porto_portugal"} {
		b.Run(name, func(b *testing.B) {
			path := extractPath(b, name)
			prof := carProfile(b)
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				net, err := osmroad.Read(path, prof)
				if err != nil {
					b.Fatal(err)
				}
				read := time.Since(t0)
				_, rep, err := Build(net, prof)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(read.Seconds(), "import-s")
				b.ReportMetric(rep.TotalTime.Seconds(), "graph-s")
				b.ReportMetric(float64(rep.Nodes), "nodes")
			}
		})
	}
}

func BenchmarkLoad(b *testing.B) {
	g := testGraph(b, "delaware")
	dir := b.TempDir()
	if err := g.Save(dir); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Load(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoute times point-to-point routes with their full path over
// 1000 seeded random pairs and reports the median.
func BenchmarkRoute(b *testing.B) {
	for _, m := range []Metric{Fastest, Shortest} {
		b.Run("delaware/"+m.String(), func(b *testing.B) {
			g := testGraph(b, "delaware")
			src := roadPoints(g, 1000, 21, 15)
			dst := roadPoints(g, 1000, 22, 15)
			times := make([]time.Duration, len(src))
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				for i := range src {
					t0 := time.Now()
					if _, err := g.Route(bg, m, src[i], dst[i]); err != nil {
						b.Fatal(err)
					}
					times[i] = time.Since(t0)
				}
			}
			sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
			b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

// BenchmarkTable times square tables including the destination buckets,
// on one goroutine and on two.
func BenchmarkTable(b *testing.B) {
	cases := []struct {
		extract    string
		rows, cols int
		workers    int
	}{
		{"delaware", 100, 100, 1},
		{"delaware", 100, 100, 2},
		{"delaware", 250, 250, 1},
		{"delaware", 500, 500, 1},
		{"delaware", 1000, 1000, 1},
		{"delaware", 1000, 1000, 2},
		{"delaware", 2000, 2000, 1},
		{"delaware", 2000, 2000, 2},
		{"delaware", 1, 1000, 1},
		{"porto_portugal", 1000, 1000, 1},
		{"porto_portugal", 1000, 1000, 2},
	}
	for _, tc := range cases {
		b.Run(fmt.Sprintf("%s/%dx%d/cores=%d", tc.extract, tc.rows, tc.cols, tc.workers), func(b *testing.B) {
			g := testGraph(b, tc.extract)
			src := roadPoints(g, tc.rows, 31, 15)
			dst := roadPoints(g, tc.cols, 32, 15)
			b.ResetTimer()
			var t *Targets
			for i := 0; i < b.N; i++ {
				var err error
				if t, err = g.NewTargets(bg, Fastest, dst, tc.workers); err != nil {
					b.Fatal(err)
				}
				g.tableParallel(src, t, tc.workers)
			}
			reportSearchSpace(b, t, tc.cols)
		})
	}
}

// BenchmarkTablePhases reports the bucket build and the
// row phase separately for the 1000 x 1000 Delaware table.
func BenchmarkTablePhases(b *testing.B) {
	g := testGraph(b, "delaware")
	src := roadPoints(g, 1000, 31, 15)
	dst := roadPoints(g, 1000, 32, 15)
	var buckets, rows time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		t := targetsOf(b, g, Fastest, dst)
		t.Build()
		buckets += time.Since(t0)
		t0 = time.Now()
		if _, err := g.Table(context.Background(), src, t); err != nil {
			b.Fatal(err)
		}
		rows += time.Since(t0)
	}
	b.ReportMetric(buckets.Seconds()*1000/float64(b.N), "buckets-ms")
	b.ReportMetric(rows.Seconds()*1000/float64(b.N), "rows-ms")
}

func BenchmarkSnap1000(b *testing.B) {
	g := testGraph(b, "delaware")
	pts := roadPoints(g, 1000, 41, 50)
	in := make([]Snap, len(pts))
	copy(in, pts)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range in {
			g.Snap(Fastest, s.Input, 0)
		}
	}
}

// reportSearchSpace reports the targets' mean backward search space (the
// bucket entries per target: the hierarchy's order decides it, and the
// rows' work grows with it), a figure no load on the machine changes.
func reportSearchSpace(b *testing.B, t *Targets, cols int) {
	if bk := t.chBuckets(); bk != nil && cols > 0 {
		b.ReportMetric(float64(bk.Entries())/float64(cols), "entries/target")
	}
}
