package api

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"
)

// BenchmarkXY2TZData: one request through the whole server (key check and
// usage count on the embedded Redis included), rotating through 10,000
// seeded points in Delaware.
func BenchmarkXY2TZData(b *testing.B) {
	f := newTZFixture(b)
	r := rand.New(rand.NewPCG(3, 4))
	reqs := make([]*http.Request, 10000)
	for i := range reqs {
		p := orb.Point{-75.79 + r.Float64()*0.74, 38.45 + r.Float64()*1.39}
		reqs[i] = httptest.NewRequest(http.MethodGet, fmt.Sprintf("/timezonesv1/xy2tzdata?x=%.6f&y=%.6f", p[0], p[1]), nil)
		reqs[i].Header.Set(headerAPIKey, f.key)
	}
	i := 0
	for b.Loop() {
		rec := httptest.NewRecorder()
		f.srv.ServeHTTP(rec, reqs[i%len(reqs)])
		if rec.Code != http.StatusOK {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
		i++
	}
}

// BenchmarkTZEncode: encoding one answer (cached zone parts, area fields).
func BenchmarkTZEncode(b *testing.B) {
	f := newTZFixture(b)
	r, err := f.ix.Lookup(orb.Point{-75.5244, 39.1582})
	if err != nil {
		b.Fatal(err)
	}
	var enc tzEncoder
	buf := make([]byte, 0, 4096)
	for b.Loop() {
		if buf, err = enc.encode(buf[:0], r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTZHandler: the handler alone (query parsing, lookup, JSON),
// through a bare Echo without the server's middleware.
func BenchmarkTZHandler(b *testing.B) {
	f := newTZFixture(b)
	e := echo.New()
	RegisterTimezones(e.Group(""), TimezonesOptions{Bundle: &f.cur})
	r := rand.New(rand.NewPCG(3, 4))
	reqs := make([]*http.Request, 10000)
	for i := range reqs {
		reqs[i] = httptest.NewRequest(http.MethodGet, fmt.Sprintf("/timezonesv1/xy2tzdata?x=%.6f&y=%.6f",
			-75.79+r.Float64()*0.74, 38.45+r.Float64()*1.39), nil)
	}
	rec := httptest.NewRecorder()
	i := 0
	for b.Loop() {
		rec.Body.Reset()
		e.ServeHTTP(rec, reqs[i%len(reqs)])
		i++
	}
	if rec.Code != http.StatusOK {
		b.Fatal(rec.Code)
	}
}
