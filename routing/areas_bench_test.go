package routing

import (
	"fmt"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/cch"
)

// delawareTowns are the centres of ten Delaware towns: Wilmington,
// Newark, Dover, Middletown, Smyrna, Milford, Georgetown, Seaford, Lewes
// and Rehoboth Beach (scripts/delaware-avoid10.geojson draws the same
// hexagons round them for geosvc bench --avoid-polygons).
var delawareTowns = []orb.Point{
	{-75.5466, 39.7391}, {-75.7497, 39.6837}, {-75.5244, 39.1582}, {-75.7163, 39.4496}, {-75.6041, 39.2998},
	{-75.4277, 38.9126}, {-75.3855, 38.6901}, {-75.6108, 38.6412}, {-75.1394, 38.7746}, {-75.0760, 38.7209},
}

// avoidTowns returns hexagons of r degrees round the ten towns, moved
// east by shift degrees (a metric never customized before).
func avoidTowns(r, shift float64) orb.MultiPolygon {
	mp := orb.MultiPolygon{}
	for _, c := range delawareTowns {
		mp = append(mp, orb.Polygon{hexagon(orb.Point{c[0] + shift, c[1]}, r)})
	}
	return mp
}

// BenchmarkMetricAreas times a new metric with ten avoided areas on
// Delaware (hexagons of about 2.2 km and 11 km across round ten towns)
// against the same metric without them: closing the areas' edges (the
// snapping grid, then the segment tests), compiling the weights and
// customizing the CCH, on two goroutines.
func BenchmarkMetricAreas(b *testing.B) {
	g := testGraph(b, "delaware")
	tab := defaultMetricTables()
	for _, r := range []float64{0, 0.01, 0.05} {
		b.Run(fmt.Sprintf("r=%g", r), func(b *testing.B) {
			var closing, compile, custom time.Duration
			closed := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				spec := newSpeeds(ObjectiveFastest, i)
				if r > 0 {
					spec.Areas = areasOfGeometry(b, avoidTowns(r, float64(i)*1e-6))
				}
				t0 := time.Now()
				cm := g.compileMetric(spec, tab)
				t1 := time.Now()
				if _, err := g.cch.Customize(bg, cm.weights, cch.Options{Workers: customizeWorkers}); err != nil {
					b.Fatal(err)
				}
				closing += cm.areas.took
				compile += t1.Sub(t0)
				custom += time.Since(t1)
				closed = len(cm.areas.edges)
			}
			b.ReportMetric(float64(closed), "edges-closed")
			b.ReportMetric(closing.Seconds()*1000/float64(b.N), "close-ms")
			b.ReportMetric(compile.Seconds()*1000/float64(b.N), "compile-ms")
			b.ReportMetric(custom.Seconds()*1000/float64(b.N), "customize-ms")
		})
	}
}
