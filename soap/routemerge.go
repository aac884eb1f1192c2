package soap

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/routing"
)

// maxMergeDistanceM bounds Mergedistance (metres).
const maxMergeDistanceM = 100_000

// plannerStops reads the stops of a RoutePlanner request: its Locations
// and, when useDbSet, the locations of the key's location set appended
// after them in set order, or, when tsp, placed before the request's last
// location so that the request's first and last stay first and last while
// the tour orders the others.
func (s *Service) plannerStops(ctx context.Context, items []*locationInput, useDbSet, tsp bool) ([]stop, error) {
	var set []*locationInput
	if useDbSet {
		var err error
		if set, err = s.keySetLocations(ctx); err != nil {
			return nil, err
		}
	}
	n := len(items) + len(set)
	if n < 2 || n > maxRouteStops {
		if useDbSet {
			return nil, senderFault("Locations and the location set hold %d locations: give 2 to %d", n, maxRouteStops)
		}
		return nil, senderFault("Locations holds %d locations: give 2 to %d", n, maxRouteStops)
	}
	stops := make([]stop, 0, n)
	for i, li := range items {
		st, err := s.stopOf(i, li)
		if err != nil {
			return nil, err
		}
		stops = append(stops, st)
	}
	setStops := make([]stop, 0, len(set))
	for j, li := range set {
		st, err := s.stopNamed(fmt.Sprintf("location %d of the location set", j+1), li)
		if err != nil {
			return nil, err
		}
		setStops = append(setStops, st)
	}
	if tsp && len(stops) >= 2 {
		last := stops[len(stops)-1]
		return append(append(stops[:len(stops)-1], setStops...), last), nil
	}
	return append(stops, setStops...), nil
}

// mergeStops plans the route through stops (in their order, or in the
// best order when tsp) on metric m and inserts the merge locations lying
// within maxM metres, in a straight line, of that route: each, in the
// order given, between the two consecutive stops where it adds the least
// drive time on m's routes (never before the first stop or after the
// last). Merge locations farther from the route, or without a road m
// uses within the snapping radius, are left out. It returns the stops in
// the order to drive.
func (s *Service) mergeStops(ctx context.Context, stops []stop, merges []*locationInput, maxM int, m routing.Metric, tsp bool) ([]stop, error) {
	if maxM < 1 || maxM > maxMergeDistanceM {
		return nil, senderFault("Mergedistance %d: give 1 to %d metres with MergeLocations", maxM, maxMergeDistanceM)
	}
	if len(stops)+len(merges) > maxRouteStops {
		return nil, senderFault("Locations and MergeLocations hold %d locations: give at most %d", len(stops)+len(merges), maxRouteStops)
	}
	g, err := s.graph()
	if err != nil {
		return nil, err
	}
	snaps := make([]routing.Snap, len(stops))
	for i, st := range stops {
		if snaps[i] = g.Snap(m, st.at, routing.DefaultSnapRadiusM); !snaps[i].OK {
			return nil, senderFault("the %s has no road within %d m", st.name, routing.DefaultSnapRadiusM)
		}
	}
	if tsp {
		order, err := g.BestOrder(ctx, m, snaps)
		if err != nil {
			return nil, err
		}
		ordered, orderedSnaps := make([]stop, len(order)), make([]routing.Snap, len(order))
		for k, i := range order {
			ordered[k], orderedSnaps[k] = stops[i], snaps[i]
		}
		stops, snaps = ordered, orderedSnaps
	}
	var legs []orb.LineString
	for k := 1; k < len(stops); k++ {
		r, err := g.Route(ctx, m, snaps[k-1], snaps[k])
		if errors.Is(err, routing.ErrNoRoute) {
			return nil, senderFault("no route from the %s to the %s", stops[k-1].name, stops[k].name)
		}
		if err != nil {
			return nil, err
		}
		legs = append(legs, r.Geometry)
	}
	// The merge locations near the route.
	all := append([]stop(nil), stops...)
	allSnaps := append([]routing.Snap(nil), snaps...)
	for j, li := range merges {
		st, err := s.stopNamed(fmt.Sprintf("merge location %d", j+1), li)
		if err != nil {
			return nil, err
		}
		if distanceToLines(st.at, legs) > float64(maxM) {
			continue
		}
		sn := g.Snap(m, st.at, routing.DefaultSnapRadiusM)
		if !sn.OK {
			continue
		}
		all, allSnaps = append(all, st), append(allSnaps, sn)
	}
	if len(all) == len(stops) {
		return stops, nil
	}
	t, err := g.Matrix(ctx, m, allSnaps, allSnaps)
	if err != nil {
		return nil, err
	}
	cost := func(a, b int) (int64, bool) {
		d, _ := t.At(a, b)
		return int64(d), d != routing.NoRoute
	}
	seq := make([]int, len(stops))
	for i := range seq {
		seq[i] = i
	}
	for c := len(stops); c < len(all); c++ {
		best, at := int64(math.MaxInt64), -1
		for k := 0; k+1 < len(seq); k++ {
			ac, ok1 := cost(seq[k], c)
			cb, ok2 := cost(c, seq[k+1])
			ab, ok3 := cost(seq[k], seq[k+1])
			if !ok1 || !ok2 || !ok3 {
				continue
			}
			if added := ac + cb - ab; added < best {
				best, at = added, k+1
			}
		}
		if at < 0 {
			continue // no road to or from it: left out
		}
		seq = append(seq[:at], append([]int{c}, seq[at:]...)...)
	}
	out := make([]stop, len(seq))
	for k, i := range seq {
		out[k] = all[i]
	}
	return out, nil
}

// distanceToLines returns the least straight-line distance in metres from
// p to the lines (on a plane tangent at p's latitude, accurate for the
// distances a merge is meant for).
func distanceToLines(p orb.Point, lines []orb.LineString) float64 {
	lp := geo.NewLocalProjection(p[1])
	px, py := lp.XY(p)
	best := math.Inf(1)
	for _, ls := range lines {
		for i := range ls {
			ax, ay := lp.XY(ls[i])
			bx, by := ax, ay
			if i+1 < len(ls) {
				bx, by = lp.XY(ls[i+1])
			}
			best = math.Min(best, segmentDistance(px, py, ax, ay, bx, by))
		}
	}
	return best
}

// segmentDistance is the distance from (px, py) to the segment a-b.
func segmentDistance(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	f := 0.0
	if l2 := dx*dx + dy*dy; l2 > 0 {
		f = math.Max(0, math.Min(1, ((px-ax)*dx+(py-ay)*dy)/l2))
	}
	return math.Hypot(px-ax-f*dx, py-ay-f*dy)
}
