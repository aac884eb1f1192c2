package routing

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/geosvc/geosvc/routing/cch"
)

// BenchmarkAlternatives times alternative queries (k = 3: the best route
// and up to two alternatives, with their full paths) over 500 seeded
// random pairs and reports the median, the 99th percentile and how many
// pairs got a second and a third route; on the hierarchies (ch/) and on
// a perfectly customized CCH metric (cch/), and on a customized metric of
// the graph with its Routes built (custom/).
func BenchmarkAlternatives(b *testing.B) {
	for _, name := range []string{"delaware", "porto_portugal"} {
		for _, eng := range []string{"ch/fastest", "ch/shortest", "cch/fastest", "custom/speeds"} {
			b.Run(name+"/"+eng, func(b *testing.B) {
				g := testGraph(b, name)
				src := roadPoints(g, 500, 41, 15)
				dst := roadPoints(g, 500, 42, 15)
				var run func(from, to Snap) ([]altRoute, error)
				switch eng {
				case "ch/fastest":
					run = func(from, to Snap) ([]altRoute, error) { return g.alternatives(chFastest, from, to, 3) }
				case "ch/shortest":
					run = func(from, to Snap) ([]altRoute, error) { return g.alternatives(chShortest, from, to, 3) }
				case "custom/speeds":
					// The graph's own customized metric, with its Routes
					// (geometry and steps' segments included).
					spec, err := NewMetric("fastest", map[string]float64{"Motorway": 80, "LocalRoadCity": 20}, nil)
					if err != nil {
						b.Fatal(err)
					}
					cm, err := g.metrics.get(context.Background(), spec)
					if err != nil {
						b.Fatal(err)
					}
					run = func(from, to Snap) ([]altRoute, error) {
						rs, err := cm.alternatives(from, to, 3)
						return make([]altRoute, len(rs)), err
					}
				default:
					top := testTopology(b, g)
					cm := fastestCCH(g)
					w := cm.weights(g)
					mt, err := top.Customize(context.Background(), w, cch.Options{Workers: 2, Perfect: true})
					if err != nil {
						b.Fatal(err)
					}
					q, tq := mt.NewQuery(), mt.NewQuery()
					run = func(from, to Snap) ([]altRoute, error) {
						return g.cchAlternatives(q, tq, cm.nodeW, w, cm.endpoints(g, from, true), cm.endpoints(g, to, false), 3)
					}
				}
				times := make([]time.Duration, len(src))
				var found [3]int
				b.ResetTimer()
				for n := 0; n < b.N; n++ {
					found = [3]int{}
					for i := range src {
						t0 := time.Now()
						rs, _ := run(src[i], dst[i])
						times[i] = time.Since(t0)
						for k := range rs {
							found[k]++
						}
					}
				}
				sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
				b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
				b.ReportMetric(float64(found[1])/float64(len(src)), "2nd-share")
				b.ReportMetric(float64(found[2])/float64(len(src)), "3rd-share")
			})
		}
	}
}
