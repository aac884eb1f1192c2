package main

import (
	"io"
	"net/http"
	"testing"

	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/geo/render"
)

// BenchmarkTileDover2x: the @2x tile (512 px) of z14/4754/6252 (Dover)
// rendered from the Delaware bundle, without the tile cache, in PNG and
// in WebP (BenchmarkTileDover is the 256 px tile).
func BenchmarkTileDover2x(b *testing.B) {
	src := delawareSources(b)
	st := cartography.Default()
	for _, f := range []struct {
		name string
		f    render.Format
	}{{"png", render.PNG}, {"webp", render.WebP}} {
		b.Run(f.name, func(b *testing.B) {
			img, err := cartography.TileImage(src, 14, 4754, 6252, 2, st, f.f)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := cartography.TileImage(src, 14, 4754, 6252, 2, st, f.f); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(img)), "bytes")
		})
	}
}

// staticRouteQuery is a 1024 x 768 PNG static map fitted to the route
// from Dover to Wilmington (about 75 km) and its two markers.
const staticRouteQuery = "/mapsv1/static?size=1024x768&route=-75.5244,39.1582;-75.5466,39.7391&markers=label:A|-75.5244,39.1582&markers=label:B|-75.5466,39.7391"

// BenchmarkStaticMapRoute: staticRouteQuery over HTTP against geosvc
// serve on the Delaware bundle (route, draw and encode each time: static
// maps are not cached), at scale 1 and 2.
func BenchmarkStaticMapRoute(b *testing.B) {
	const key = "gs_static_bench_key_0123456789abcdefgh"
	base := mapBenchServer(b, key)
	for _, scale := range []string{"1", "2"} {
		b.Run("scale"+scale, func(b *testing.B) {
			get := func() int {
				req, _ := http.NewRequest(http.MethodGet, base+staticRouteQuery+"&scale="+scale, nil)
				req.Header.Set("x-api-key", key)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("static map: %d", resp.StatusCode)
				}
				return int(n)
			}
			n := get() // the first routes build the metric's caches
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				get()
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}
