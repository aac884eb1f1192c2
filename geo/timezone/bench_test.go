package timezone

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/paulmach/orb"
)

// seededPoints returns n points drawn uniformly (fixed seed) from b.
func seededPoints(n int, b orb.Bound) []orb.Point {
	r := rand.New(rand.NewPCG(1, 2))
	ps := make([]orb.Point, n)
	for i := range ps {
		ps[i] = orb.Point{
			b.Min[0] + r.Float64()*(b.Max[0]-b.Min[0]),
			b.Min[1] + r.Float64()*(b.Max[1]-b.Min[1]),
		}
	}
	return ps
}

var (
	delawareBound = orb.Bound{Min: orb.Point{-75.79, 38.45}, Max: orb.Point{-75.05, 39.84}}
	worldBound    = orb.Bound{Min: orb.Point{-180, -60}, Max: orb.Point{180, 75}}
)

// BenchmarkFinderZone: tzf's zone of a point (10,000 seeded points).
func BenchmarkFinderZone(b *testing.B) {
	for _, bc := range []struct {
		name string
		box  orb.Bound
	}{{"Delaware", delawareBound}, {"world", worldBound}} {
		b.Run(bc.name, func(b *testing.B) {
			f := testFinder(b)
			ps := seededPoints(10000, bc.box)
			i := 0
			for b.Loop() {
				f.Zone(ps[i%len(ps)])
				i++
			}
		})
	}
}

// BenchmarkIndexLookup: a whole lookup (zone, cached zone data of the
// year, the area), with the test areas.
func BenchmarkIndexLookup(b *testing.B) {
	for _, bc := range []struct {
		name string
		box  orb.Bound
	}{{"Delaware", delawareBound}, {"world", worldBound}} {
		b.Run(bc.name, func(b *testing.B) {
			ix, err := NewIndex(Options{Finder: testFinder(b), Areas: testAreas, Clock: func() time.Time { return fixedNow }})
			if err != nil {
				b.Fatal(err)
			}
			ps := seededPoints(10000, bc.box)
			for _, p := range ps { // warm the per-zone cache
				if _, err := ix.Lookup(p); err != nil {
					b.Fatal(err)
				}
			}
			i := 0
			b.ResetTimer()
			for b.Loop() {
				if _, err := ix.Lookup(ps[i%len(ps)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkComputeZone: a zone's data for a year, uncached (what the cache
// saves per request).
func BenchmarkComputeZone(b *testing.B) {
	for b.Loop() {
		if _, err := ComputeZone("America/New_York", fixedNow); err != nil {
			b.Fatal(err)
		}
	}
}
