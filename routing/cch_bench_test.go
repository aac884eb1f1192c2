package routing

import (
	"testing"
	"time"

	"github.com/geosvc/geosvc/routing/cch"
)

// BenchmarkCCHBuild times the CCH topology (nested-dissection order and
// chordal supergraph) of each extract's edge-based graph on two cores.
func BenchmarkCCHBuild(b *testing.B) {
	for _, name := range []string{"andorra", "porto_portugal", "delaware"} {
		b.Run(name, func(b *testing.B) {
			g := testGraph(b, name)
			tails, heads, coords := g.cchInput()
			b.ResetTimer()
			var top *cch.Topology
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				var err error
				top, err = cch.Build(len(g.base.nodeEdge), tails, heads, coords, 2)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(time.Since(t0).Seconds(), "build-s")
			}
			b.ReportMetric(float64(len(g.base.nodeEdge)), "nodes")
			b.ReportMetric(float64(top.Arcs()), "arcs")
			b.ReportMetric(float64(top.Levels()), "levels")
		})
	}
}
