package main

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

// mapBenchServer starts geosvc serve in process on the Delaware bundle and
// returns its base URL once it is ready.
func mapBenchServer(b *testing.B, key string) string {
	b.Helper()
	dir, err := extractBundle(b, "delaware")
	if err != nil {
		extracts.Need(b, err)
		b.Fatal(err)
	}
	b.Setenv("REDIS_URL", "")
	b.Setenv("GEOSVC_DEMO_KEY", key)
	ctx, cancel := context.WithCancel(context.Background())
	listening := make(chan serverURLs, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, serveRole, []string{"--data", dir, "--addr", "127.0.0.1:0", "--admin-addr", "", "--log-level", "error"}, listening)
	}()
	b.Cleanup(func() {
		cancel()
		<-done
	})
	var urls serverURLs
	select {
	case urls = <-listening:
	case err := <-done:
		b.Fatalf("serve: %v", err)
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(urls.api + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return urls.api
			}
		}
	}
	b.Fatal("not ready within 60 s")
	return ""
}

// BenchmarkMapSimpleNewark: an 800 x 600 PNG MapSimple of Newark, 12 km
// wide, every road (LevelOfDetail 0), labels and legend, through SOAP
// over HTTP.
func BenchmarkMapSimpleNewark(b *testing.B) {
	const key = "gs_maps_bench_key_0123456789abcdefghij"
	base := mapBenchServer(b, key)
	newark := orb.Point{-75.7497, 39.6837}
	soapMap(b, base, key, "Png", newark, 12000, 800, 600) // the first map builds the road index
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		soapMap(b, base, key, "Png", newark, 12000, 800, 600)
	}
}

// BenchmarkTileDover: tile z14/4754/6252 (Dover) rendered from the
// Delaware bundle, without the tile cache.
func BenchmarkTileDover(b *testing.B) {
	src := delawareSources(b)
	st := cartography.Default()
	if _, err := cartography.Tile(src, 14, 4754, 6252, st); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := cartography.Tile(src, 14, 4754, 6252, st); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTileDoverCached: the same tile through GET /tilesv1 over HTTP,
// answered from the tile cache after the first request.
func BenchmarkTileDoverCached(b *testing.B) {
	const key = "gs_tiles_bench_key_0123456789abcdefghi"
	base := mapBenchServer(b, key)
	get := func() {
		req, _ := http.NewRequest(http.MethodGet, base+"/tilesv1/14/4754/6252.png", nil)
		req.Header.Set("x-api-key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("tile: %d", resp.StatusCode)
		}
	}
	get()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		get()
	}
}
