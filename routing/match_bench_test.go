package routing

import (
	"context"
	"math/rand"
	"testing"
)

// BenchmarkMatch1000 matches a trace of 1,000 fixes on Delaware: a route
// of about 25 to 40 km resampled every 2 s (so that 1,000 fixes cover it)
// with 10 m of Gaussian noise.
func BenchmarkMatch1000(b *testing.B) {
	g := testGraph(b, "delaware")
	r := testRoutes(b, g, Fastest, 1, 21, 25000, 40000)[0]
	dt := float64(r.DurationS) / 999
	pts, _ := traceOf(r, dt, 10, rand.New(rand.NewSource(1)))
	if len(pts) < 1000 {
		b.Fatalf("%d fixes", len(pts))
	}
	pts = pts[:1000]
	b.Logf("route %d m, %d s, a fix every %.1f s", r.DistanceM, r.DurationS, dt)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := g.Match(context.Background(), Fastest, pts, MatchOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			b.Logf("%d matchings, agreement %.3f", len(res.Matchings), agreement(r, res.Matchings[0]))
		}
	}
}
