package api

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

// covidBenchServer serves covidv1 without the server's middleware on the
// Delaware boundary and health layers.
func covidBenchServer(b *testing.B) *echo.Echo {
	bl, err := bndDelaware()
	extracts.Need(b, err)
	hl, err := covidDelaware()
	extracts.Need(b, err)
	e := echo.New()
	RegisterCovid(e.Group(""), CovidOptions{Bundle: bundle.NewCurrent(&bundle.Bundle{Covid: hl, Boundaries: bl})})
	return e
}

// benchCovid runs the requests in turn and reports the median and p99
// latency of one answer.
func benchCovid(b *testing.B, e *echo.Echo, paths []string) {
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, paths[i%len(paths)], nil))
		times = append(times, time.Since(t0))
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", paths[i%len(paths)], rec.Code, rec.Body)
		}
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds())/1000, "p50-us")
	b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds())/1000, "p99-us")
}

// seededPaths returns n requests at seeded points in the Delaware
// extract's box, built by format from the x and y.
func seededPaths(n int, format func(x, y string, i int) string) []string {
	rng := rand.New(rand.NewPCG(1, 1))
	paths := make([]string, n)
	for i := range paths {
		x := strconv.FormatFloat(-75.79+rng.Float64()*0.74, 'f', 6, 64)
		y := strconv.FormatFloat(38.45+rng.Float64()*1.39, 'f', 6, 64)
		paths[i] = format(x, y, i)
	}
	return paths
}

// BenchmarkCovidXY2Data is xy2data at 10,000 seeded Delaware points,
// levels 0, 1, 2 and 8 in turn (target: <= 20 us).
func BenchmarkCovidXY2Data(b *testing.B) {
	e := covidBenchServer(b)
	levels := []string{"0", "1", "2", "8"}
	benchCovid(b, e, seededPaths(10000, func(x, y string, i int) string {
		return "/covidv1/xy2data?x=" + x + "&y=" + y + "&admin=" + levels[i%len(levels)]
	}))
}

// BenchmarkCovidXY2Tile is xy2tile at 10,000 seeded Delaware points,
// zooms 14 to 20 in turn (target: <= 30 us).
func BenchmarkCovidXY2Tile(b *testing.B) {
	e := covidBenchServer(b)
	benchCovid(b, e, seededPaths(10000, func(x, y string, i int) string {
		return "/covidv1/xy2tile?x=" + x + "&y=" + y + "&zoom=" + strconv.Itoa(14+i%7)
	}))
}

// BenchmarkCovidCountry2DataUSCounties is country2data of every US
// county, 3,000+ records (target: <= 20 ms).
func BenchmarkCovidCountry2DataUSCounties(b *testing.B) {
	e := covidBenchServer(b)
	benchCovid(b, e, []string{"/covidv1/country2data?country=USA&admin=2"})
}
