package routing

import (
	"context"
	"math"

	"github.com/geosvc/geosvc/routing/cch"
)

// maxExactTour is the most stops bestOrder orders exactly (Held-Karp,
// O(2^n n^2)); more are ordered by nearest neighbour and 2-opt.
const maxExactTour = 13

// unreachable is the cost of a leg without a route: dearer than any tour
// of real legs, so that a tour avoids it when it can.
const unreachable = math.MaxInt64 / 1024

// BestOrder returns the order in which to visit the snapped stops on
// metric m so that the sum of the legs' costs is least, starting at
// stops[0] and ending at the last stop (the travelling salesman's open
// path with both ends fixed): the indexes of stops in the order to drive.
// A leg's cost is what m minimises, from the table of m's routes between
// the stops: its duration in seconds for the fastest objective, its
// distance in metres for the shortest, its fuel or its risk for the
// efficient and safest ones. A leg without a route costs more than any
// tour of real legs. Up to 13 stops the order is optimal; beyond, it is a
// nearest-neighbour tour improved by 2-opt until no exchange of two legs
// shortens it. Three stops or fewer keep their order. It returns ctx's
// error if ctx ends first.
func (g *Graph) BestOrder(ctx context.Context, m Metric, stops []Snap) ([]int, error) {
	n := len(stops)
	if n <= 3 {
		return identity(n), nil
	}
	cost, err := g.legCosts(ctx, m, stops)
	if err != nil {
		return nil, err
	}
	return bestOrder(n, func(a, b int) int64 { return cost[a*n+b] }), nil
}

// legCosts returns the square table of BestOrder's leg costs between the
// stops, row-major, -1 where there is no route.
func (g *Graph) legCosts(ctx context.Context, m Metric, stops []Snap) ([]int64, error) {
	t, err := g.NewTargets(ctx, m, stops, 1)
	if err != nil {
		return nil, err
	}
	cost := make([]int64, len(stops)*len(stops))
	if o := m.Objective; o == ObjectiveEfficient || o == ObjectiveSafest {
		// The table holds seconds and metres; the metric's own weight is
		// in its CCH rows.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t.custom.weightRows(stops, t, cost)
		return cost, nil
	}
	tab, err := g.Table(ctx, stops, t)
	if err != nil {
		return nil, err
	}
	for k := range cost {
		switch {
		case tab.Durations[k] == NoRoute:
			cost[k] = -1
		case m.Objective == ObjectiveShortest:
			cost[k] = int64(tab.Distances[k])
		default:
			cost[k] = int64(tab.Durations[k])
		}
	}
	return cost, nil
}

// weightRows writes the metric's own weight (the W lane) from every
// source to every target of t into out, row-major, -1 where there is no
// route.
func (cm *customMetric) weightRows(src []Snap, t *Targets, out []int64) {
	q := cm.pool.Get().(*cch.Query)
	defer cm.pool.Put(q)
	row := make([]cch.Weight, t.n)
	var eps []cch.Endpoint
	for i, s := range src {
		eps = cm.endpoints(s, true, eps)
		q.Row(eps, t.ctg, row)
		for j, w := range row {
			out[i*t.n+j] = -1
			if !w.IsInf() {
				out[i*t.n+j] = w.W
			}
		}
	}
}

// identity returns 0, 1, ..., n-1.
func identity(n int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	return order
}

// bestOrder returns the order in which to visit n stops so that the sum
// of cost(a, b) over consecutive stops is least, starting at stop 0 and
// ending at stop n-1; cost < 0 means no route. See BestOrder.
func bestOrder(n int, cost func(a, b int) int64) []int {
	c := func(a, b int) int64 {
		if v := cost(a, b); v >= 0 {
			return v
		}
		return unreachable
	}
	if n <= 3 {
		return identity(n)
	}
	if n <= maxExactTour {
		return heldKarp(n, c)
	}
	return twoOpt(nearestNeighbour(n, c), c)
}

// heldKarp orders the inner stops 1..n-2 exactly: best[set][last] is the
// cheapest path from 0 through the set ending at last.
func heldKarp(n int, c func(a, b int) int64) []int {
	inner := n - 2
	full := 1 << inner
	best := make([]int64, full*inner)
	from := make([]int8, full*inner)
	for i := range best {
		best[i] = math.MaxInt64
	}
	for j := 0; j < inner; j++ {
		best[(1<<j)*inner+j] = c(0, j+1)
		from[(1<<j)*inner+j] = -1
	}
	for set := 1; set < full; set++ {
		for last := 0; last < inner; last++ {
			cur := best[set*inner+last]
			if set&(1<<last) == 0 || cur == math.MaxInt64 {
				continue
			}
			for next := 0; next < inner; next++ {
				if set&(1<<next) != 0 {
					continue
				}
				ns := set | 1<<next
				if v := cur + c(last+1, next+1); v < best[ns*inner+next] {
					best[ns*inner+next] = v
					from[ns*inner+next] = int8(last)
				}
			}
		}
	}
	set, last, bestV := full-1, -1, int64(math.MaxInt64)
	for j := 0; j < inner; j++ {
		if v := best[set*inner+j] + c(j+1, n-1); v < bestV {
			last, bestV = j, v
		}
	}
	order := make([]int, n)
	order[n-1] = n - 1
	for k := n - 2; k >= 1; k-- {
		order[k] = last + 1
		prev := int(from[set*inner+last])
		set &^= 1 << last
		last = prev
	}
	return order
}

// nearestNeighbour starts at 0, goes to the nearest unvisited inner stop
// each time, and ends at n-1.
func nearestNeighbour(n int, c func(a, b int) int64) []int {
	order := []int{0}
	seen := make([]bool, n)
	seen[0], seen[n-1] = true, true
	for len(order) < n-1 {
		cur, next, bestV := order[len(order)-1], -1, int64(math.MaxInt64)
		for j := 1; j < n-1; j++ {
			if !seen[j] && c(cur, j) < bestV {
				next, bestV = j, c(cur, j)
			}
		}
		seen[next] = true
		order = append(order, next)
	}
	return append(order, n-1)
}

// twoOpt reverses stretches of the inner tour while that shortens it
// (costs may be asymmetric, so the reversed stretch is priced in full).
func twoOpt(order []int, c func(a, b int) int64) []int {
	length := func(o []int) int64 {
		var s int64
		for k := 1; k < len(o); k++ {
			s += c(o[k-1], o[k])
		}
		return s
	}
	bestL := length(order)
	for improved := true; improved; {
		improved = false
		for i := 1; i < len(order)-2; i++ {
			for j := i + 1; j < len(order)-1; j++ {
				cand := append([]int(nil), order...)
				for a, b := i, j; a < b; a, b = a+1, b-1 {
					cand[a], cand[b] = cand[b], cand[a]
				}
				if l := length(cand); l < bestL {
					order, bestL, improved = cand, l, true
				}
			}
		}
	}
	return order
}
