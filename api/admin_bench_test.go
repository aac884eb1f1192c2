package api

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

// BenchmarkAdminHandler is xy2admininfo without the server's middleware
// (authentication and usage counting go to Redis): query parsing, the
// lookup and the encoding of the answer, rotating through 10,000 seeded
// Delaware points and the nine types.
func BenchmarkAdminHandler(b *testing.B) {
	l, err := bndDelaware()
	extracts.Need(b, err)
	e := echo.New()
	RegisterAdmin(e.Group(""), BoundaryOptions{Bundle: bundle.NewCurrent(&bundle.Bundle{Boundaries: l}), Now: time.Now})
	rng := rand.New(rand.NewPCG(1, 1))
	paths := make([]string, 10000)
	for i := range paths {
		x := -75.79 + rng.Float64()*0.74
		y := 38.45 + rng.Float64()*1.39
		paths[i] = "/adminv1/xy2admininfo?x=" + strconv.FormatFloat(x, 'f', 6, 64) + "&y=" + strconv.FormatFloat(y, 'f', 6, 64) + "&type=admin" + strconv.Itoa(i%9)
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
