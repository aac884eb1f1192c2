package routing

import (
	"sync"
	"testing"

	"github.com/geosvc/geosvc/routing/cch"
)

// The CCH of routing/cch against the Dijkstra oracle on the edge-based
// graph: fastest, shortest and random metrics, point-to-point (with the
// path) and tables.

// cchInput returns the turn arcs of the edge-based graph as CCH input
// arcs (arc i is the turn at index i of g.base) and every node's
// coordinate: the midpoint of its road segment.
func (g *Graph) cchInput() (tails, heads []uint32, coords [][2]float64) {
	b := &g.base
	n := len(b.nodeEdge)
	tails = make([]uint32, len(b.turnHead))
	heads = b.turnHead
	for v := 0; v < n; v++ {
		for i := b.turnFirst[v]; i < b.turnFirst[v+1]; i++ {
			tails[i] = uint32(v)
		}
	}
	coords = make([][2]float64, n)
	for v, id := range b.nodeEdge {
		e := id / 2
		p := cutLine(g.edgeShape(e), g.edgeLen[e], 0.5, 0.5)[0]
		coords[v] = [2]float64{p[0], p[1]}
	}
	return tails, heads, coords
}

var (
	cchMu   sync.Mutex
	cchTops = map[*Graph]*cch.Topology{}
)

// testTopology builds (once per test binary) the CCH topology of g.
func testTopology(t testing.TB, g *Graph) *cch.Topology {
	t.Helper()
	cchMu.Lock()
	defer cchMu.Unlock()
	if top, ok := cchTops[g]; ok {
		return top
	}
	tails, heads, coords := g.cchInput()
	top, err := cch.Build(len(g.base.nodeEdge), tails, heads, coords, 2)
	if err != nil {
		t.Fatal(err)
	}
	cchTops[g] = top
	return top
}
