package mapdata

import (
	"math"
	"runtime"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/maptile"

	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

// tileMPP is the scale of a 256-pixel web-mercator tile of zoom z at
// latitude lat, metres per pixel.
func tileMPP(z maptile.Zoom, lat float64) float64 {
	return 2 * math.Pi * 6378137 * math.Cos(lat*math.Pi/180) / 256 / math.Exp2(float64(z))
}

// BenchmarkTileQuery is what a renderer asks for one tile: the areas,
// lines and places of a z14 tile over Dover (and z12 over Wilmington, z16
// in Dover's centre), geometry converted to orb types.
func BenchmarkTileQuery(b *testing.B) {
	l, _ := buildExtract(b, "delaware")
	for _, tc := range []struct {
		name string
		p    orb.Point
		z    maptile.Zoom
	}{
		{"z14-dover", orb.Point{-75.5244, 39.1582}, 14},
		{"z12-wilmington", orb.Point{-75.5466, 39.7459}, 12},
		{"z16-dover", orb.Point{-75.5244, 39.1582}, 16},
		{"z9-delaware", orb.Point{-75.5244, 39.1582}, 9},
	} {
		t := maptile.At(tc.p, tc.z)
		bound := t.Bound()
		mpp := tileMPP(tc.z, tc.p[1])
		b.Run(tc.name, func(b *testing.B) {
			var feats, pts int
			for b.Loop() {
				as := l.Areas(bound, mpp)
				ls := l.Lines(bound, mpp)
				ps := l.Places(bound)
				feats = len(as) + len(ls) + len(ps)
				pts = 0
				for _, a := range as {
					pts += polyPoints(a.Polygon)
				}
				for _, ln := range ls {
					pts += len(ln.Line)
				}
			}
			b.ReportMetric(float64(feats), "features")
			b.ReportMetric(float64(pts), "points")
		})
	}
}

// BenchmarkBuildDelaware is the map layer's build from the Delaware
// extract (both passes over the file, assembly, bands, index, the file's
// bytes); run it with -benchtime=1x.
func BenchmarkBuildDelaware(b *testing.B) {
	path := extracts.Require(b, "delaware")
	var size int64
	var heap uint64
	for b.Loop() {
		_, rep, err := Build(BuildOptions{OSMPath: path})
		if err != nil {
			b.Fatal(err)
		}
		size = rep.Size
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap = ms.HeapInuse
	}
	b.ReportMetric(float64(size)/(1<<20), "file-MB")
	b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
}

// BenchmarkLoadDelaware is reading the layer's file.
func BenchmarkLoadDelaware(b *testing.B) {
	l, _ := buildExtract(b, "delaware")
	path := b.TempDir() + "/" + FileName
	if err := l.WriteFile(path); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ReadFile(path); err != nil {
			b.Fatal(err)
		}
	}
}
