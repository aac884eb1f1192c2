package api

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/queue"
)

// BenchmarkTDMFetch1000 fetches a finished 1000 x 1000 job with both
// matrices through the whole server (authentication included), plain and
// gzip, from the embedded Redis (or REDIS_URL).
func BenchmarkTDMFetch1000(b *testing.B) {
	f := newTDMFixture(b, queue.DefaultChunkRows)
	const n = 1000
	rec := f.post("order", f.key, orderJSON(nil, addresses(n), addresses(n)))
	if rec.Code != http.StatusOK {
		b.Fatalf("order: %d %s", rec.Code, rec.Body)
	}
	id := rec.Body.String()[len(`{"uuid":"`) : len(`{"uuid":"`)+36]
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	for c := range queue.ChunkCount(n, queue.DefaultChunkRows) {
		r := queue.ChunkResult{OriginSnaps: make([]float32, queue.DefaultChunkRows), DestinationSnaps: make([]float32, n)}
		for range queue.DefaultChunkRows * n {
			r.Durations = append(r.Durations, int32(rng.IntN(7200)))
			r.Distances = append(r.Distances, int32(rng.IntN(150000)))
		}
		if _, _, err := f.q.PutChunk(ctx, id, c, r); err != nil {
			b.Fatal(err)
		}
	}
	for _, enc := range []string{"identity", "gzip"} {
		b.Run(enc, func(b *testing.B) {
			var size int
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/tdmv1/fetch", strings.NewReader(`{"uuid":"`+id+`"}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set(headerAPIKey, f.key)
				req.Header.Set("Accept-Encoding", enc)
				w := &countingWriter{h: http.Header{}}
				f.srv.ServeHTTP(w, req)
				if w.code != http.StatusOK {
					b.Fatalf("fetch: %d", w.code)
				}
				size = w.n
			}
			b.ReportMetric(float64(size), "body-bytes")
		})
	}
}

// countingWriter is a ResponseWriter that only counts the body.
type countingWriter struct {
	h    http.Header
	code int
	n    int
}

func (w *countingWriter) Header() http.Header { return w.h }
func (w *countingWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}
func (w *countingWriter) Write(p []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	w.n += len(p)
	return len(p), nil
}

var _ io.Writer = (*countingWriter)(nil)
