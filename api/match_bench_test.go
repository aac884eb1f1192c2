package api

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"net/http"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// BenchmarkMatchV1 posts a 1,000-point trace to POST /matchv1/match on
// Delaware, through the whole server (key gate, body parsing, matching,
// the JSON answer): routev1's route from -75.75,39.68 to -75.55,39.74,
// 1,000 points evenly spaced along its geometry, timed evenly over its
// duration, each moved by seeded Gaussian noise of 10 m.
func BenchmarkMatchV1(b *testing.B) {
	g := routingtest.Extract(b, "delaware")
	ctx := context.Background()
	r, err := g.Route(ctx, routing.Fastest, g.Snap(routing.Fastest, orb.Point{-75.75, 39.68}, 0), g.Snap(routing.Fastest, orb.Point{-75.55, 39.74}, 0))
	if err != nil {
		b.Fatal(err)
	}
	pts := alongLine(r.Geometry, 1000)
	rng := rand.New(rand.NewSource(1))
	var sb strings.Builder
	sb.WriteString(`{"points": [`)
	for i, p := range pts {
		if i > 0 {
			sb.WriteString(", ")
		}
		lon := p[0] + rng.NormFloat64()*10/(111_320*math.Cos(p[1]*math.Pi/180))
		lat := p[1] + rng.NormFloat64()*10/111_320
		t := 1777622400 + float64(r.DurationS)*float64(i)/float64(len(pts)-1)
		fmt.Fprintf(&sb, `{"lon": %.6f, "lat": %.6f, "time": %.3f, "accuracy_m": 10}`, lon, lat, t)
	}
	sb.WriteString(`]}`)
	body := sb.String()
	srv, key := newMatchServer(b, "roundabout.osm", true)
	cur := &bundle.Current{}
	cur.Store(&bundle.Bundle{Graph: g})
	srv = New(srv.opts)
	RegisterMatch(srv.Protected(), MatchOptions{Bundle: cur})
	b.Logf("route %d m; body %d bytes", r.DistanceM, len(body))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		code, ans := postMatch(srv, key, body)
		if code != http.StatusOK {
			b.Fatalf("%d %.300s", code, ans)
		}
	}
}

// alongLine returns n points evenly spaced along line by length.
func alongLine(line orb.LineString, n int) []orb.Point {
	cum := make([]float64, len(line))
	for i := 1; i < len(line); i++ {
		cum[i] = cum[i-1] + geo.HaversineM(line[i-1], line[i])
	}
	out := make([]orb.Point, 0, n)
	k := 0
	for j := 0; j < n; j++ {
		d := cum[len(cum)-1] * float64(j) / float64(n-1)
		for k+2 < len(line) && cum[k+1] < d {
			k++
		}
		f := 0.0
		if seg := cum[k+1] - cum[k]; seg > 0 {
			f = min(1, max(0, (d-cum[k])/seg))
		}
		out = append(out, orb.Point{line[k][0] + f*(line[k+1][0]-line[k][0]), line[k][1] + f*(line[k+1][1]-line[k][1])})
	}
	return out
}
