package api

import (
	"context"
	"math/rand/v2"
	"net/http"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// BenchmarkOSRMDelaware times the OSRM API on Delaware through the whole
// server (key, parsing, snapping, routing, JSON): a 100 x 100 table (the
// default osrm.max_table_size) beside Graph.Matrix on the same snaps, and
// a route with steps between two of the points.
func BenchmarkOSRMDelaware(b *testing.B) {
	g := routingtest.Extract(b, "delaware")
	s := newOSRMServer(b, g, OSRMLimits{})
	rng := rand.New(rand.NewPCG(5, 6))
	var pts []orb.Point
	for len(pts) < 100 {
		p := orb.Point{-75.75 + rng.Float64()*0.3, 39.0 + rng.Float64()*0.7}
		if g.Snap(routing.Fastest, p, 1000).OK {
			pts = append(pts, p)
		}
	}
	table := "/osrm/table/v1/driving/" + coordsPath(pts) + "?annotations=duration,distance"
	if code, body := s.get(b, table); code != http.StatusOK {
		b.Fatalf("%d %.300s", code, body)
	}
	b.Run("table100x100", func(b *testing.B) {
		for b.Loop() {
			s.get(b, table)
		}
	})
	b.Run("Graph.Matrix100x100", func(b *testing.B) {
		snaps := g.SnapAll(routing.Fastest, pts, routing.MaxSnapRadiusM)
		for b.Loop() {
			if _, err := g.Matrix(context.Background(), routing.Fastest, snaps, snaps); err != nil {
				b.Fatal(err)
			}
		}
	})
	route := "/osrm/route/v1/driving/" + coordsPath(pts[:2]) + "?steps=true&overview=full"
	b.Run("route-steps", func(b *testing.B) {
		for b.Loop() {
			s.get(b, route)
		}
	})
}
