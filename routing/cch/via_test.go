package cch

import (
	"context"
	"math/rand"
	"testing"
)

// nodesWeight is the weight of a walk given by its nodes (the least arc
// between consecutive nodes) with the endpoint labels, Inf when it is no
// walk from a source to a target.
func (g *testGraph) nodesWeight(nodes []uint32, src, dst []Endpoint) Weight {
	w := Inf
	for _, s := range src {
		if s.Node == nodes[0] && s.Init.Less(w) {
			w = s.Init
		}
	}
	if w.IsInf() {
		return Inf
	}
	for i := 1; i < len(nodes); i++ {
		step := Inf
		for _, a := range g.out[nodes[i-1]] {
			if g.heads[a] == nodes[i] && g.weight[a].Less(step) {
				step = g.weight[a]
			}
		}
		if step.IsInf() {
			return Inf
		}
		w = w.Add(step)
	}
	best := Inf
	for _, e := range dst {
		if c := w.Add(e.Init); e.Node == nodes[len(nodes)-1] && !c.negative() && c.Less(best) {
			best = c
		}
	}
	return best
}

// TestViaSearch: on random grids, ViaSearch's best is Dijkstra's, its
// candidates come by increasing weight within the limit, and each
// candidate's path runs from a source through it to a target and weighs
// what the candidate says; basic and perfect customization.
func TestViaSearch(t *testing.T) {
	for _, perfect := range []bool{false, true} {
		rng := rand.New(rand.NewSource(12))
		g := randomGraph(rng, 25, true)
		m, err := build(t, g, 1).Customize(context.Background(), g.weight, Options{Perfect: perfect})
		if err != nil {
			t.Fatal(err)
		}
		q := m.NewQuery()
		limit := func(best Weight) Weight {
			if best.IsInf() {
				return Inf
			}
			return Weight{best.W + best.W/4, 1 << 62}
		}
		var vias []Via
		candidates := 0
		for i := 0; i < 200; i++ {
			src := g.endpoints(rng, true, -1)
			dst := g.endpoints(rng, false, -1)
			want := g.oracle(src, dst)
			var best Weight
			best, _, vias = q.ViaSearch(src, dst, limit, vias[:0])
			if best != want {
				t.Fatalf("perfect=%v pair %d: best %v, dijkstra %v", perfect, i, best, want)
			}
			for k, v := range vias {
				if v.weight.Less(best) || limit(best).Less(v.weight) || (k > 0 && v.weight.Less(vias[k-1].weight)) {
					t.Fatalf("perfect=%v pair %d: candidate %d weighs %v (best %v)", perfect, i, k, v.weight, best)
				}
				path, at := q.ViaPath(nil, v)
				if path[at] != v.Node {
					t.Fatalf("perfect=%v pair %d: candidate %d at index %d is node %d, not %d", perfect, i, k, at, path[at], v.Node)
				}
				if pw := g.nodesWeight(path, src, dst); pw != v.weight {
					t.Fatalf("perfect=%v pair %d: candidate %d's path weighs %v, the candidate %v", perfect, i, k, pw, v.weight)
				}
				candidates++
			}
		}
		if candidates < 400 {
			t.Errorf("perfect=%v: only %d candidates in 200 queries", perfect, candidates)
		}
	}
}
