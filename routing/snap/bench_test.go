package snap

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// BenchmarkNearest1000 snaps 1000 seeded random points within 200 m of
// Delaware roads (radius 1000 m), single goroutine; one op is 1000 points.
func BenchmarkNearest1000(b *testing.B) {
	_, ix := delawareIx(b)
	pts := nearRoadPoints(ix, 1000, 200, 42)
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pts {
			ix.Nearest(p, 1000, nil)
		}
	}
}

// BenchmarkNearestCellSize compares grid cell sizes on the same queries.
func BenchmarkNearestCellSize(b *testing.B) {
	net := delaware(b)
	for _, cell := range []float64{60, 100, 125, 175, 250} {
		ix, err := build(net.shape, net.starts, net.ends, cell)
		if err != nil {
			b.Fatal(err)
		}
		pts := nearRoadPoints(ix, 1000, 200, 42)
		b.Run(fmt.Sprintf("cell=%.0fm", cell), func(b *testing.B) {
			for b.Loop() {
				for _, p := range pts {
					ix.Nearest(p, 1000, nil)
				}
			}
			b.ReportMetric(float64(ix.sizeBytes())/1e6, "indexMB")
		})
	}
}

// BenchmarkWithin1000 runs within (radius 250 m, at most 10 hits) for 1000
// points near Delaware roads.
func BenchmarkWithin1000(b *testing.B) {
	_, ix := delawareIx(b)
	pts := nearRoadPoints(ix, 1000, 200, 42)
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pts {
			ix.within(p, 250, nil, 10)
		}
	}
}

// BenchmarkBuild measures building the Delaware index.
func BenchmarkBuild(b *testing.B) {
	net := delaware(b)
	b.ReportAllocs()
	var ix *Index
	for b.Loop() {
		var err error
		if ix, err = Build(net.shape, net.starts, net.ends); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(ix.sizeBytes())/1e6, "indexMB")
}

// BenchmarkLoad measures opening a file holding the Delaware index
// (binfmt.Open: one read and the checksum) and Load (validation only).
func BenchmarkLoad(b *testing.B) {
	_, ix := delawareIx(b)
	path := filepath.Join(b.TempDir(), "snap.bin")
	w := binfmt.NewWriter()
	ix.AppendTo(w, "snap.")
	if err := w.WriteFile(path, testMagic, 1); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		f, err := binfmt.Open(path, testMagic, 1)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Load(f, "snap."); err != nil {
			b.Fatal(err)
		}
	}
}
