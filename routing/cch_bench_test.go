package routing

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/geosvc/geosvc/internal/binfmt"
	"github.com/geosvc/geosvc/routing/cch"
)

// BenchmarkCCHBuild times the CCH topology (nested-dissection order and
// chordal supergraph) of each extract's edge-based graph on two cores.
func BenchmarkCCHBuild(b *testing.B) {
	for _, name := range []string{"andorra", "porto_portugal", "delaware"} {
		b.Run(name, func(b *testing.B) {
			benchCCHBuild(b, testGraph(b, name))
		})
	}
}

// BenchmarkCCHCustomize times the customization of the fastest metric,
// basic only and basic + perfect, on one and two goroutines.
func BenchmarkCCHCustomize(b *testing.B) {
	for _, name := range []string{"andorra", "porto_portugal", "delaware"} {
		for _, perfect := range []bool{false, true} {
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/perfect=%v/workers=%d", name, perfect, workers), func(b *testing.B) {
					g := testGraph(b, name)
					top := testTopology(b, g)
					w := fastestCCH(g).weights(g)
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if _, err := top.Customize(context.Background(), w, cch.Options{Workers: workers, Perfect: perfect}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkCCHRoute times point-to-point queries with their path (input
// arcs) over 1000 seeded random pairs and reports the median, like
// BenchmarkRoute.
func BenchmarkCCHRoute(b *testing.B) {
	for _, perfect := range []bool{false, true} {
		b.Run(fmt.Sprintf("delaware/fastest/perfect=%v", perfect), func(b *testing.B) {
			g := testGraph(b, "delaware")
			top := testTopology(b, g)
			cm := fastestCCH(g)
			m, err := top.Customize(context.Background(), cm.weights(g), cch.Options{Workers: 2, Perfect: perfect})
			if err != nil {
				b.Fatal(err)
			}
			src := roadPoints(g, 1000, 21, 15)
			dst := roadPoints(g, 1000, 22, 15)
			q := m.NewQuery()
			times := make([]time.Duration, len(src))
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				for i := range src {
					t0 := time.Now()
					w, meet := q.ShortestPath(cm.endpoints(g, src[i], true), cm.endpoints(g, dst[i], false))
					if !w.IsInf() {
						q.PathArcs(meet)
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

// BenchmarkCCHTable times a table with a fresh metric: customization of
// the fastest metric, the targets' buckets and the rows, on two
// goroutines, and reports the phases.
func BenchmarkCCHTable(b *testing.B) {
	cases := []struct {
		extract    string
		rows, cols int
		perfect    bool
	}{
		{"andorra", 1000, 1000, false},
		{"porto_portugal", 1000, 1000, false},
		{"porto_portugal", 1000, 1000, true},
		{"delaware", 100, 100, false},
		{"delaware", 1000, 1000, false},
		{"delaware", 1000, 1000, true},
	}
	for _, tc := range cases {
		b.Run(fmt.Sprintf("%s/%dx%d/perfect=%v", tc.extract, tc.rows, tc.cols, tc.perfect), func(b *testing.B) {
			g := testGraph(b, tc.extract)
			top := testTopology(b, g)
			cm := fastestCCH(g)
			w := cm.weights(g)
			src := roadPoints(g, tc.rows, 31, 15)
			dst := roadPoints(g, tc.cols, 32, 15)
			srcEps := make([][]cch.Endpoint, len(src))
			for i, s := range src {
				srcEps[i] = cm.endpoints(g, s, true)
			}
			dstEps := make([][]cch.Endpoint, len(dst))
			for j, d := range dst {
				dstEps[j] = cm.endpoints(g, d, false)
			}
			out := make([]cch.Weight, len(src)*len(dst))
			var custom, buckets, rows time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				m, err := top.Customize(context.Background(), w, cch.Options{Workers: 2, Perfect: tc.perfect})
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				tg := m.NewTargets(dstEps, 2)
				t2 := time.Now()
				if err := m.Table(context.Background(), srcEps, tg, 2, out); err != nil {
					b.Fatal(err)
				}
				custom += t1.Sub(t0)
				buckets += t2.Sub(t1)
				rows += time.Since(t2)
			}
			b.ReportMetric(custom.Seconds()*1000/float64(b.N), "customize-ms")
			b.ReportMetric(buckets.Seconds()*1000/float64(b.N), "buckets-ms")
			b.ReportMetric(rows.Seconds()*1000/float64(b.N), "rows-ms")
		})
	}
}

// BenchmarkCCHLoad times loading the bundle's graph (routing.Load) plus
// reading the CCH topology from its own binfmt file, as routing.graph
// would hold it.
func BenchmarkCCHLoad(b *testing.B) {
	g := testGraph(b, "delaware")
	top := testTopology(b, g)
	dir := b.TempDir()
	if err := g.Save(dir); err != nil {
		b.Fatal(err)
	}
	cchPath := filepath.Join(dir, "cch.bin")
	w := binfmt.NewWriter()
	top.Write(w, "cch.")
	if err := w.WriteFile(cchPath, fileMagic, formatVersion); err != nil {
		b.Fatal(err)
	}
	var topology time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Load(dir); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		f, err := binfmt.Open(cchPath, fileMagic, formatVersion)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := cch.ReadTopology(f, "cch."); err != nil {
			b.Fatal(err)
		}
		topology += time.Since(t0)
	}
	b.ReportMetric(topology.Seconds()*1000/float64(b.N), "topology-ms")
	if st, err := os.Stat(cchPath); err == nil {
		b.ReportMetric(float64(st.Size())/1e6, "topology-MB")
	}
}
