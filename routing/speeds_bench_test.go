package routing

import (
	"context"
	"fmt"
	"testing"

	"github.com/geosvc/geosvc/routing/speeds"
)

// BenchmarkSpeedUpdateDelaware: a new speed file of 10,000 segment rows
// (every hour) on Delaware, from its bytes to a route answered on it:
// parse, map onto the graph, make it current, customize the bucket's
// metric and route one pair (what the next order after POST
// /admin/speeds waits for). Each iteration is a new version (a speed
// changes), so nothing is cached.
func BenchmarkSpeedUpdateDelaware(b *testing.B) {
	speedUpdates(b, testGraph(b, "delaware"))
}

// BenchmarkSpeedUpdateBundle is BenchmarkSpeedUpdateDelaware on the car
// graph of the bundle in $GEOSVC_BENCH_DATA (skipped without it), e.g.
// the 4 x 4 tiling of scripts/bench-scale.sh.
func BenchmarkSpeedUpdateBundle(b *testing.B) {
	speedUpdates(b, benchBundleGraph(b))
}

// speedUpdates is the loop of the speed update benchmarks.
func speedUpdates(b *testing.B, g *Graph) {
	b.Cleanup(func() { g.SetSpeeds(nil) })
	csv := []byte(randomSpeedCSV(g, 10000, 5))
	pts := roadPoints(g, 2, 9, 0)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		body := append(append([]byte(nil), csv...), fmt.Sprintf("# update %d\n", i)...)
		d, err := speeds.ParseCSV(body)
		if err != nil {
			b.Fatal(err)
		}
		p := g.MapSpeeds(d)
		g.SetSpeeds(p)
		m, _ := g.AtHour(Fastest, 8)
		if _, err := g.Route(context.Background(), m, pts[0], pts[1]); err != nil {
			b.Fatal(err)
		}
	}
}
