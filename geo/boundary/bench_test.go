package boundary

import (
	"math/rand/v2"
	"testing"

	"github.com/paulmach/orb"
)

// delawarePoints returns n seeded points in Delaware's bounding box.
func delawarePoints(n int) []orb.Point {
	rng := rand.New(rand.NewPCG(7, 8))
	pts := make([]orb.Point, n)
	for i := range pts {
		pts[i] = orb.Point{-75.79 + rng.Float64()*0.74, 38.45 + rng.Float64()*1.39}
	}
	return pts
}

// BenchmarkAdminAt is one adminv1 lookup (admin8, falling back) in the
// Delaware layer.
func BenchmarkAdminAt(b *testing.B) {
	l, _ := realLayer(b, "delaware")
	pts := delawarePoints(10000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l.AdminAt(pts[i%len(pts)], i%9)
	}
}

// BenchmarkAdminHierarchy is the whole hierarchy of one point.
func BenchmarkAdminHierarchy(b *testing.B) {
	l, _ := realLayer(b, "delaware")
	pts := delawarePoints(10000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l.AdminHierarchy(pts[i%len(pts)])
	}
}
