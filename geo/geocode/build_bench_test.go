package geocode

import (
	"os"
	"testing"
	"time"
)

// BenchmarkBuildFile builds the geocoding index of the OSM extract that
// $GEOSVC_BENCH_OSM names (with the world base layer for the areas, not a
// boundary layer): the geocoder stage of a country-scale build without
// the rest of it, for its growth with the network (docs/scale.md).
//
//	GEOSVC_BENCH_OSM=/tmp/geosvc-scale/delaware-4x4.osm.pbf go test -run '^$' -bench BuildFile -benchtime 1x -cpuprofile cpu.out ./geo/geocode/
func BenchmarkBuildFile(b *testing.B) {
	path := os.Getenv("GEOSVC_BENCH_OSM")
	if path == "" {
		b.Skip("GEOSVC_BENCH_OSM names no extract")
	}
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		ix, err := Build(path, BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(t0).Seconds(), "build-s")
		b.ReportMetric(float64(len(ix.feats)), "features")
	}
}
