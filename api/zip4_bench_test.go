package api

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
	"github.com/geosvc/geosvc/geo/zip4"
)

// zip4Delaware derives the ZIP+4 layer of the Delaware extract (no
// counties), skipping when the extract is not in the module cache.
func zip4Delaware(b *testing.B) *zip4.Layer {
	path := extracts.Require(b, "delaware")
	src, err := zip4.ReadOSM(path)
	if err != nil {
		b.Fatal(err)
	}
	features, rep := zip4.Derive(src.Roads, zip4.Options{})
	return zip4.NewLayer(features, zip4.Meta{Source: zip4.SourceDerived, Derived: true, Report: rep})
}

// BenchmarkZip4Handler is xy2zip without the server's middleware: query
// parsing, the lookup and the encoding of the answer, rotating through
// 10,000 seeded points, every other one a feature's representative point
// (a hit), the others uniform over Delaware (mostly empty answers).
func BenchmarkZip4Handler(b *testing.B) {
	l := zip4Delaware(b)
	e := echo.New()
	RegisterZip4(e.Group(""), Zip4Options{Bundle: bundle.NewCurrent(&bundle.Bundle{Zip4: l})})
	rng := rand.New(rand.NewPCG(1, 1))
	paths := make([]string, 10000)
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }
	for i := range paths {
		lon, lat := -75.79+rng.Float64()*0.74, 38.45+rng.Float64()*1.39
		if i%2 == 0 {
			p := l.Feature(rng.IntN(l.Len())).Rep
			lon, lat = p[0], p[1]
		}
		paths[i] = "/zip4v1/xy2zip?x=" + f(lat) + "&y=" + f(lon)
	}
	b.ResetTimer()
	var bytes int
	for i := 0; i < b.N; i++ {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, paths[i%len(paths)], nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d", paths[i%len(paths)], rec.Code)
		}
		bytes += rec.Body.Len()
	}
	b.ReportMetric(float64(bytes)/float64(b.N), "B/answer")
}
