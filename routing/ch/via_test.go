package ch

import (
	"math/rand"
	"testing"
)

// TestViaSearch: on random grids, ViaSearch's best is Dijkstra's, its
// candidates come by increasing weight within the limit, and each
// candidate's path runs from a source through it to a target and weighs
// what the candidate says.
func TestViaSearch(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	g := randomGraph(rng, 25, true)
	h := Contract(g.n, g.arcs, Options{})
	q := h.NewQuery()
	limit := func(best int64) int64 {
		if best == Inf {
			return Inf
		}
		return best + best/4
	}
	var vias []Via
	candidates := 0
	for i := 0; i < 200; i++ {
		src := g.endpoints(rng, true, -1)
		dst := g.endpoints(rng, false, -1)
		want := g.oracle(src, dst)
		var best int64
		best, _, vias = q.ViaSearch(src, dst, limit, vias[:0])
		if best != want {
			t.Fatalf("pair %d: best %d, dijkstra %d", i, best, want)
		}
		for k, v := range vias {
			if v.weight < best || v.weight > limit(best) || (k > 0 && v.weight < vias[k-1].weight) {
				t.Fatalf("pair %d: candidate %d weighs %d (best %d, previous %d)", i, k, v.weight, best, vias[max(k-1, 0)].weight)
			}
			path, at := q.ViaPath(nil, v)
			if path[at] != v.Node {
				t.Fatalf("pair %d: candidate %d at index %d is node %d, not %d", i, k, at, path[at], v.Node)
			}
			if pw := g.pathWeight(t, path, src, dst); pw != v.weight {
				t.Fatalf("pair %d: candidate %d's path weighs %d, the candidate %d", i, k, pw, v.weight)
			}
			candidates++
		}
	}
	if candidates < 400 {
		t.Errorf("only %d candidates in 200 queries", candidates)
	}
}
