package routing

import (
	"context"
	"errors"
	"math"
)

// RouteVia routes through snaps in order and returns the route of each
// leg (snaps[i] to snaps[i+1]). With straight, a route goes on through
// every inner point in the direction it came (OSRM's
// continue_straight=true: no turning round at a via point; it may still
// turn where the network lets it, at a dead end say): each inner point
// is passed in one direction of its road, chosen so that the legs
// together cost least (a dynamic programme over the two directions of
// each inner point, the legs' durations, or distances for the shortest
// objective). Without straight each leg is the best route on its own.
// It returns ErrNoRoute when some leg has none.
func (g *Graph) RouteVia(ctx context.Context, m Metric, snaps []Snap, straight bool) ([]*Route, error) {
	if len(snaps) < 2 {
		return nil, nil
	}
	if !straight || len(snaps) == 2 {
		out := make([]*Route, 0, len(snaps)-1)
		for i := 0; i+1 < len(snaps); i++ {
			r, err := g.Route(ctx, m, snaps[i], snaps[i+1])
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	}
	// dirs[i] are the ways point i may be passed: the point itself for
	// the ends, else one per open direction of its road, the other
	// barred.
	n := len(snaps)
	dirs := make([][]Snap, n)
	for i, s := range snaps {
		if i == 0 || i == n-1 {
			dirs[i] = []Snap{s}
			continue
		}
		for dir := uint32(0); dir < 2; dir++ {
			if !s.OK || g.edgeNode[directedID(s.Edge, dir)] < 0 || s.Barred&(1<<dir) != 0 {
				continue
			}
			d := s
			d.Barred |= 1 << (1 - dir)
			dirs[i] = append(dirs[i], d)
		}
		if len(dirs[i]) == 0 {
			return nil, ErrNoRoute
		}
	}
	// A leg's cost, unrounded (the sum of its segments'), so that two
	// ways within a second of each other are told apart.
	cost := func(r *Route) float64 {
		c := 0.0
		for _, sg := range r.Segments {
			if m.Objective == ObjectiveShortest {
				c += sg.DistanceM
			} else {
				c += sg.DurationS
			}
		}
		return c
	}
	// best[a] is the least cost of reaching point i passed as dirs[i][a],
	// legs[a] the routes of it.
	best := []float64{0}
	legs := [][]*Route{nil}
	for i := 0; i+1 < n; i++ {
		nb := make([]float64, len(dirs[i+1]))
		nl := make([][]*Route, len(dirs[i+1]))
		for b, to := range dirs[i+1] {
			nb[b] = math.Inf(1)
			for a, from := range dirs[i] {
				if math.IsInf(best[a], 1) {
					continue
				}
				r, err := g.Route(ctx, m, from, to)
				if errors.Is(err, ErrNoRoute) {
					continue
				}
				if err != nil {
					return nil, err
				}
				if c := best[a] + cost(r); c < nb[b] {
					nb[b] = c
					nl[b] = append(append(make([]*Route, 0, i+1), legs[a]...), r)
				}
			}
		}
		best, legs = nb, nl
	}
	if math.IsInf(best[0], 1) {
		return nil, ErrNoRoute
	}
	return legs[0], nil
}
