package cch

import (
	"context"
	"math/rand"
	"testing"

	"github.com/geosvc/geosvc/routing/ch"
)

// TestHierarchyAnswersAsDijkstra: the contraction hierarchy derived from
// the topology (HierarchyOf, weights packed W<<32 + S) answers every query
// as a Dijkstra on the input graph does, and its paths unpack into walks
// of the input graph of that weight.
func TestHierarchyAnswersAsDijkstra(t *testing.T) {
	for _, tc := range []struct {
		name  string
		seed  int64
		side  int
		loops bool
	}{
		{"grid 25", 11, 25, false},
		{"grid 30 self loops", 12, 30, true},
		{"grid 8 self loops", 13, 8, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(tc.seed))
			g := randomGraph(rng, tc.side, tc.loops)
			top := build(t, g, 2)
			packed := make([]int64, len(g.weight))
			for i, w := range g.weight {
				packed[i] = w.W<<32 + w.S
				if w.IsInf() {
					packed[i] = noPath
				}
			}
			x, err := top.HierarchyOf(context.Background(), packed, 2)
			if err != nil {
				t.Fatal(err)
			}
			h := &ch.Hierarchy{
				UpFirst: x.UpFirst, UpHead: x.UpHead, UpWeight: x.UpWeight, UpMid: x.UpMid,
				DownFirst: x.DownFirst, DownTail: x.DownTail, DownWeight: x.DownWeight, DownMid: x.DownMid,
				Loop: x.Loop, LoopMid: x.LoopMid,
			}
			if err := h.SetOrder(x.Order); err != nil {
				t.Fatal(err)
			}
			if err := h.Validate(); err != nil {
				t.Fatal(err)
			}
			pack := func(eps []Endpoint) []ch.Endpoint {
				out := make([]ch.Endpoint, len(eps))
				for i, e := range eps {
					out[i] = ch.Endpoint{Node: e.Node, Init: e.Init.W<<32 + e.Init.S}
				}
				return out
			}
			q := h.NewQuery()
			found := 0
			for i := 0; i < 400; i++ {
				near := -1
				if i%4 == 0 { // same node as the source: the loops
					near = rng.Intn(g.n)
				}
				src := g.endpoints(rng, true, near)
				dst := g.endpoints(rng, false, near)
				want := g.oracle(src, dst)
				got, meet := q.ShortestPath(pack(src), pack(dst))
				if want.IsInf() {
					if got != ch.Inf {
						t.Fatalf("pair %d: hierarchy %d, dijkstra none", i, got)
					}
					continue
				}
				if got != want.W<<32+want.S {
					t.Fatalf("pair %d: hierarchy %d = (%d, %d), dijkstra %v", i, got, got>>32, got&(1<<32-1), want)
				}
				found++
				nodes := q.Path(meet)
				w := Inf
				for _, s := range src {
					if s.Node == nodes[0] && s.Init.Less(w) {
						w = s.Init
					}
				}
				for k := 1; k < len(nodes); k++ {
					// The cheapest input arc between consecutive nodes.
					best := Inf
					for _, a := range g.out[nodes[k-1]] {
						if g.heads[a] == nodes[k] && g.weight[a].Less(best) {
							best = g.weight[a]
						}
					}
					if best.IsInf() || w.IsInf() {
						t.Fatalf("pair %d: path %v steps %d->%d on no arc", i, nodes, nodes[k-1], nodes[k])
					}
					w = w.Add(best)
				}
				end := Inf
				for _, d := range dst {
					if c := w.Add(d.Init); d.Node == nodes[len(nodes)-1] && !c.negative() && c.Less(end) {
						end = c
					}
				}
				if end != want {
					t.Fatalf("pair %d: path %v weighs %v, want %v", i, nodes, end, want)
				}
			}
			if found < 100 {
				t.Fatalf("only %d of 400 pairs have a path", found)
			}
		})
	}
}
