package routing

import "context"

// Tour ends: what BestTour keeps fixed (OSRM's trip source, destination
// and roundtrip).
const (
	// TourFirst starts at the first stop (else any stop may start an
	// open path).
	TourFirst = 1 << iota
	// TourLast ends at the last stop (else any stop may end it).
	TourLast
	// TourRound returns to the start after the last stop visited.
	TourRound
)

// BestTour returns the order in which to visit the snapped stops on
// metric m with the ends given by ends (TourFirst, TourLast, TourRound),
// the legs' costs as BestOrder counts them: with TourRound a closed tour
// from stops[0] (through stops[n-1] last when TourLast) back to it; else
// an open path, from stops[0] when TourFirst and to stops[n-1] when
// TourLast, any stop where an end is free (both free is refused: use
// TourFirst). The order lists indexes of stops, the start not repeated
// at the end of a round tour. Exact up to 12 stops, like BestOrder
// otherwise.
func (g *Graph) BestTour(ctx context.Context, m Metric, stops []Snap, ends int) ([]int, error) {
	n := len(stops)
	if n <= 1 {
		return identity(n), nil
	}
	cost, err := g.legCosts(ctx, m, stops)
	if err != nil {
		return nil, err
	}
	return bestTour(n, func(a, b int) int64 { return cost[a*n+b] }, ends), nil
}

// bestTour is BestTour on a cost function (< 0: no route), by a dummy
// stop of cost 0 at a free end, or the start repeated at the end of a
// round tour.
func bestTour(n int, cost func(a, b int) int64, ends int) []int {
	switch {
	case ends&TourRound != 0 && ends&TourLast != 0:
		return bestOrder(n, cost) // then back from n-1 to 0
	case ends&TourRound != 0:
		// Stop n is stops[0] again, the end of the tour.
		o := bestOrder(n+1, func(a, b int) int64 { return cost(a%n, b%n) })
		return o[:n]
	case ends&TourFirst != 0 && ends&TourLast == 0:
		// Stop n is a dummy end, free to reach from anywhere.
		o := bestOrder(n+1, func(a, b int) int64 {
			switch {
			case b == n:
				return 0
			case a == n:
				return -1
			}
			return cost(a, b)
		})
		return o[:n]
	case ends&TourFirst == 0 && ends&TourLast != 0:
		// Stop 0 is a dummy start, stops shift by one.
		o := bestOrder(n+1, func(a, b int) int64 {
			switch {
			case a == 0:
				return 0
			case b == 0:
				return -1
			}
			return cost(a-1, b-1)
		})
		out := make([]int, n)
		for i := range out {
			out[i] = o[i+1] - 1
		}
		return out
	}
	return bestOrder(n, cost)
}
