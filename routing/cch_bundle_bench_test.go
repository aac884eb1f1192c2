package routing

import (
	"syscall"
	"testing"
	"time"

	"github.com/geosvc/geosvc/routing/cch"
)

// BenchmarkCCHBuildBundle times the CCH topology (nested-dissection order
// and chordal supergraph) of the car graph of a bundle built beforehand,
// on two cores: the nested-dissection stage of a country-scale build
// without the rest of it (docs/scale.md).
//
//	GEOSVC_BENCH_DATA=/tmp/geosvc-scale/delaware-4x4 go test -run '^$' -bench CCHBuildBundle -benchtime 1x ./routing/
func BenchmarkCCHBuildBundle(b *testing.B) {
	benchCCHBuild(b, benchBundleGraph(b))
}

// benchCCHBuild times cch.Build of g's edge-based graph on two cores,
// wall and CPU, and reports its size.
func benchCCHBuild(b *testing.B, g *Graph) {
	tails, coords := g.cchInput()
	heads := g.base.turnHead
	b.ResetTimer()
	var top *cch.Topology
	for i := 0; i < b.N; i++ {
		t0, c0 := time.Now(), cpuSeconds()
		var err error
		top, err = cch.Build(len(g.base.nodeEdge), tails, heads, coords, 2)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(t0).Seconds(), "build-s")
		b.ReportMetric(cpuSeconds()-c0, "cpu-s")
	}
	b.ReportMetric(float64(len(g.base.nodeEdge)), "nodes")
	b.ReportMetric(float64(top.Arcs()), "arcs")
	b.ReportMetric(float64(top.Levels()), "levels")
}

// cpuSeconds is the user and system CPU time of the process so far: a
// figure of work that holds on a loaded machine, where wall time does not.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
