package zip4

import (
	"math/rand/v2"
	"testing"

	"github.com/paulmach/orb"
)

// benchPoints returns n seeded points: every other one a feature's
// representative point (a hit), the others uniform in the layer's extent
// (mostly misses in fields and water).
func benchPoints(l *Layer, features []Feature, n int) []orb.Point {
	r := rand.New(rand.NewPCG(4, 9))
	g := l.Meta().Grid
	pts := make([]orb.Point, n)
	for i := range pts {
		if i%2 == 0 {
			pts[i] = features[r.IntN(len(features))].Rep
		} else {
			pts[i] = orb.Point{g.MinLon + r.Float64()*float64(g.NX)*g.Cell, g.MinLat + r.Float64()*float64(g.NY)*g.Cell}
		}
	}
	return pts
}

// BenchmarkAt is one point lookup in the Delaware layer (grid cell, bbox
// filter, point in polygon) loaded from zip4.bin.
func BenchmarkAt(b *testing.B) {
	_, features, _, built := delawareLayer(b)
	dir := b.TempDir()
	if err := built.WriteFile(dir); err != nil {
		b.Fatal(err)
	}
	l, err := Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	pts := benchPoints(l, features, 10000)
	ids := make([]int, 0, 8)
	hits := 0
	b.ResetTimer()
	i := 0
	for b.Loop() {
		ids = l.At(ids[:0], pts[i%len(pts)])
		hits += len(ids)
		i++
	}
	b.ReportMetric(float64(hits)/float64(i), "hits/op")
}

// BenchmarkByZip9 is one code lookup.
func BenchmarkByZip9(b *testing.B) {
	_, features, _, l := delawareLayer(b)
	i := 0
	for b.Loop() {
		if len(l.ByZip9(features[(i*7919)%len(features)].Zip9)) != 1 {
			b.Fatal("code not found")
		}
		i++
	}
}

// BenchmarkLoad reads zip4.bin of Delaware.
func BenchmarkLoad(b *testing.B) {
	_, _, _, built := delawareLayer(b)
	dir := b.TempDir()
	if err := built.WriteFile(dir); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Load(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDerive derives the Delaware layer from the streets read (the
// polygon construction, +4 numbering; no county lookups).
func BenchmarkDerive(b *testing.B) {
	src, _, _, _ := delawareLayer(b)
	for b.Loop() {
		Derive(src.Roads, Options{})
	}
}
