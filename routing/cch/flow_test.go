package cch

import (
	"math"
	"math/bits"
	"math/rand"
	"sync/atomic"
	"testing"
)

// bruteMinCut returns the size of the smallest set of non-source nodes
// whose removal leaves no path from a source to a sink (a removed sink
// counts as cut), by trying every subset: the independent oracle of
// cutter.minCut on small graphs.
func bruteMinCut(n int, first, head []uint32, sources, sinks []uint32) int {
	isSource := make([]bool, n)
	for _, s := range sources {
		isSource[s] = true
	}
	best := math.MaxInt
	for mask := 0; mask < 1<<n; mask++ {
		size := bits.OnesCount(uint(mask))
		if size >= best {
			continue
		}
		ok := true
		for v := 0; v < n; v++ {
			if mask&(1<<v) != 0 && isSource[v] {
				ok = false
			}
		}
		if !ok {
			continue
		}
		seen := make([]bool, n)
		q := append([]uint32(nil), sources...)
		for _, s := range sources {
			seen[s] = true
		}
		for h := 0; h < len(q); h++ {
			v := q[h]
			for e := first[v]; e < first[v+1]; e++ {
				u := head[e]
				if !seen[u] && mask&(1<<u) == 0 {
					seen[u] = true
					q = append(q, u)
				}
			}
		}
		for _, t := range sinks {
			if seen[t] {
				ok = false
			}
		}
		if ok {
			best = size
		}
	}
	return best
}

// randomUndirected returns a connected random undirected graph of n nodes in
// CSR form (a random spanning tree plus extra edges).
func randomUndirected(rng *rand.Rand, n, extra int) (first, head []uint32) {
	var tails, heads []uint32
	for v := 1; v < n; v++ {
		tails = append(tails, uint32(rng.Intn(v)))
		heads = append(heads, uint32(v))
	}
	for i := 0; i < extra; i++ {
		tails = append(tails, uint32(rng.Intn(n)))
		heads = append(heads, uint32(rng.Intn(n)))
	}
	return undirected(n, tails, heads)
}

// TestMinCutMatchesBruteForce checks the size of Dinic's minimum vertex
// cut against every subset on random small graphs, and that the sides it
// reports separate: sources on side 0, no edge between sides 0 and 2, as
// many separator nodes as the flow.
func TestMinCutMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 400; trial++ {
		n := 4 + rng.Intn(9)
		first, head := randomUndirected(rng, n, rng.Intn(2*n))
		perm := rng.Perm(n)
		ns := 1 + rng.Intn(n/3)
		nt := 1 + rng.Intn(n/3)
		var sources, sinks []uint32
		for _, v := range perm[:ns] {
			sources = append(sources, uint32(v))
		}
		for _, v := range perm[ns : ns+nt] {
			sinks = append(sinks, uint32(v))
		}
		var c cutter
		c.first, c.head = first, head
		c.rev = reverseSlots(first, head, nil)
		var st flowState
		side := make([]uint8, n)
		got := c.minCut(&st, sources, sinks, side, math.MaxInt)
		want := bruteMinCut(n, first, head, sources, sinks)
		if got != want {
			t.Fatalf("trial %d: cut %d, brute force %d (n %d, sources %v, sinks %v)", trial, got, want, n, sources, sinks)
		}
		seps := 0
		for v := 0; v < n; v++ {
			if side[v] == 1 {
				seps++
			}
			for e := first[v]; e < first[v+1]; e++ {
				if side[v] == 0 && side[head[e]] == 2 {
					t.Fatalf("trial %d: edge %d-%d joins the two sides", trial, v, head[e])
				}
			}
		}
		for _, s := range sources {
			if side[s] != 0 {
				t.Fatalf("trial %d: source %d on side %d", trial, s, side[s])
			}
		}
		for _, s := range sinks {
			if side[s] == 0 {
				t.Fatalf("trial %d: sink %d on the source side", trial, s)
			}
		}
		if seps != got {
			t.Fatalf("trial %d: %d separator nodes for a cut of %d", trial, seps, got)
		}
		// A limit below the cut gives up with a size above it.
		if got > 0 {
			if size := c.minCut(&st, sources, sinks, side, got-1); size <= got-1 {
				t.Fatalf("trial %d: limit %d answered %d", trial, got-1, size)
			}
		}
	}
}

// TestRaceFindsSmallestDirection checks that racing the four Inertial
// Flow directions keeps the smallest of their separate minimum cuts, on
// random geometric graphs.
func TestRaceFindsSmallestDirection(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for trial := 0; trial < 30; trial++ {
		n := 200 + rng.Intn(800)
		coords := make([][2]float64, n)
		for i := range coords {
			coords[i] = [2]float64{rng.Float64(), rng.Float64()}
		}
		// Join each node to a few of its nearest predecessors in x order
		// of a coarse grid: a planar-ish road-like graph.
		var tails, heads []uint32
		for v := 1; v < n; v++ {
			for k := 0; k < 2; k++ {
				bestU, bestD := -1, math.Inf(1)
				for try := 0; try < 20; try++ {
					u := rng.Intn(v)
					dx, dy := coords[u][0]-coords[v][0], coords[u][1]-coords[v][1]
					if d := dx*dx + dy*dy; d < bestD {
						bestU, bestD = u, d
					}
				}
				tails = append(tails, uint32(bestU))
				heads = append(heads, uint32(v))
			}
		}
		first, head := undirected(n, tails, heads)
		part := make([]uint32, n)
		for i := range part {
			part[i] = uint32(i)
		}
		d := &dissector{first: first, head: head, xy: coords}
		ws := &workspace{local: make([]int32, n)}
		for i := range ws.local {
			ws.local[i] = -1
		}
		d.induce(ws, part)
		rev := reverseSlots(ws.first, ws.head, nil)
		xy := make([][2]float32, n)
		for i, c := range coords {
			xy[i] = [2]float32{float32(c[0]), float32(c[1])}
		}
		g := localGraph{ws.first, ws.head, rev, xy}
		want := math.MaxInt
		for di := range inertialDirections {
			var bound atomic.Int64
			bound.Store(math.MaxInt64)
			size, _ := d.tryDirections(ws, g, part, []int{di}, &bound)
			want = min(want, size)
		}
		var bound atomic.Int64
		bound.Store(math.MaxInt64)
		got, _ := d.tryDirections(ws, g, part, []int{0, 1, 2, 3}, &bound)
		if got != want {
			t.Fatalf("trial %d: race %d, smallest direction %d", trial, got, want)
		}
	}
}

// TestMinCutHighDegree: a node of more arcs than the search order keeps
// (maxSorted) is searched in slot order. Two stars of 300 leaves whose
// hubs are joined through two middle nodes, one star's leaves the
// sources and the other's the sinks: the minimum cut is one hub, the
// sources' (the cut nearest the sources), in slot order and towards
// the east.
func TestMinCutHighDegree(t *testing.T) {
	const leaves = 300
	// Nodes: hub A 0, hub B 1, middles 2 and 3, A's leaves 4.., B's
	// leaves 4+leaves...
	var tails, heads []uint32
	for i := 0; i < leaves; i++ {
		tails = append(tails, 0, 1)
		heads = append(heads, uint32(4+i), uint32(4+leaves+i))
	}
	tails = append(tails, 0, 0, 2, 3)
	heads = append(heads, 2, 3, 1, 1)
	n := 4 + 2*leaves
	first, head := undirected(n, tails, heads)
	// Node i lies at (i, 0): a search towards the east tries the arcs
	// to higher ids first.
	xy := make([][2]float32, n)
	for i := range xy {
		xy[i] = [2]float32{float32(i), 0}
	}
	var sources, sinks []uint32
	for i := 0; i < leaves; i++ {
		sources = append(sources, uint32(4+i))
		sinks = append(sinks, uint32(4+leaves+i))
	}
	var c cutter
	c.first, c.head, c.xy = first, head, xy
	c.rev = reverseSlots(first, head, nil)
	c.prepare(n)
	for _, k := range []*[2]float64{nil, {1, 0}} {
		var st flowState
		c.start(&st, sources, sinks, k)
		side := make([]uint8, n)
		for !st.done {
			c.round(&st, side)
		}
		if st.flow != 1 {
			t.Errorf("key %v: cut %d, want 1 (a hub)", k != nil, st.flow)
		}
		if side[0] != 1 {
			t.Errorf("key %v: hub A on side %d, want the separator (the source side's nearest cut)", k != nil, side[0])
		}
	}
}
