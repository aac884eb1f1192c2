package api

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
)

// BenchmarkMetricsMiddleware times a request through the server's
// middleware (request id, access log, recovery, guard) to a trivial public
// route, with and without the Prometheus metrics: the difference is the
// metrics' cost per request (target: <= 2 us).
func BenchmarkMetricsMiddleware(b *testing.B) {
	for _, tc := range []struct {
		name    string
		metrics *Metrics
	}{
		{"without", nil},
		{"with", NewMetrics(prometheus.NewRegistry())},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s := New(Options{Logger: slog.New(slog.DiscardHandler), Metrics: tc.metrics})
			s.Public(http.MethodGet, "/bench", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) })
			req := httptest.NewRequest(http.MethodGet, "/bench", nil)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				if rec.Code != http.StatusNoContent {
					b.Fatal(rec.Code)
				}
			}
		})
	}
}
