package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing"
)

// delawareBound is the extent of the default data set, used to draw random
// points when the graph cannot tell its own.
var delawareBound = orb.Bound{Min: orb.Point{-75.79, 38.45}, Max: orb.Point{-75.05, 39.84}}

// graphBound returns the graph's extent when it can tell it, else fallback.
func graphBound(g *routing.Graph, fallback orb.Bound) orb.Bound {
	if b, ok := any(g).(interface{ Bounds() orb.Bound }); ok {
		return b.Bounds()
	}
	return fallback
}

// parseBound reads "minlon,minlat,maxlon,maxlat".
func parseBound(s string) (orb.Bound, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return orb.Bound{}, fmt.Errorf("bbox %q: want minlon,minlat,maxlon,maxlat", s)
	}
	var v [4]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return orb.Bound{}, fmt.Errorf("bbox %q: %w", s, err)
		}
		v[i] = f
	}
	if v[0] >= v[2] || v[1] >= v[3] {
		return orb.Bound{}, fmt.Errorf("bbox %q: min must be below max", s)
	}
	return orb.Bound{Min: orb.Point{v[0], v[1]}, Max: orb.Point{v[2], v[3]}}, nil
}

// snapper is the routing call roadPoints needs.
type snapper interface {
	SnapAll(m routing.Metric, pts []orb.Point, radiusM float64) []routing.Snap
}

// roadPoints draws n points uniformly in b, snaps them with a 100 m radius
// and keeps the snapped positions, until it has n road points. The same
// seed gives the same points on the same graph.
func roadPoints(g snapper, b orb.Bound, n int, seed uint64) ([]orb.Point, error) {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	out := make([]orb.Point, 0, n)
	for tries := 0; len(out) < n; tries++ {
		if tries > 200 {
			return nil, fmt.Errorf("found only %d road points in %v: is the bounding box that of the data (--bbox)?", len(out), b)
		}
		batch := make([]orb.Point, 4*n)
		for i := range batch {
			batch[i] = orb.Point{
				b.Min[0] + rng.Float64()*(b.Max[0]-b.Min[0]),
				b.Min[1] + rng.Float64()*(b.Max[1]-b.Min[1]),
			}
		}
		for _, s := range g.SnapAll(routing.Fastest, batch, 100) {
			if s.OK && len(out) < n {
				out = append(out, s.Point)
			}
		}
	}
	return out, nil
}

// lonLat formats p as an order address, 6 decimals (about 0.1 m).
func lonLat(p orb.Point) string {
	return strconv.FormatFloat(p[0], 'f', 6, 64) + "," + strconv.FormatFloat(p[1], 'f', 6, 64)
}

// writePoints writes the origins, then the destinations, one "lon,lat"
// line each, to path (--points-out).
func writePoints(path string, origins, destinations []string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--points-out: %w", err)
	}
	w := bufio.NewWriter(f)
	for _, list := range [][]string{origins, destinations} {
		for _, p := range list {
			w.WriteString(p)
			w.WriteByte('\n')
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("--points-out: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--points-out: %w", err)
	}
	return nil
}
