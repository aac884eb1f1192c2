package cch

import (
	"cmp"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
)

// Topology is the metric-independent part of a CCH: the nested-dissection
// order, the chordal supergraph of contracting in that order (every node's
// upward neighbours form a clique), its elimination tree, and where every
// input arc lands. Inside, nodes are numbered by rank (0 is contracted
// first, the last node is the top of the order); arcs are numbered by tail
// rank and then head rank, each carrying an upward direction (tail to
// head) and a downward one. A Topology is read-only and safe for
// concurrent use.
type Topology struct {
	n    int
	rank []uint32 // rank[node] = internal id
	node []uint32 // node[rank] = caller's id

	// upFirst[x]..upFirst[x+1] are the arcs x->upHead[a], heads ascending.
	upFirst []uint32
	upHead  []uint32
	upTail  []uint32 // tail of arc a

	// downFirst[x]..downFirst[x+1] index the arcs downArc[i] from lower
	// tails downTail[i] into x, tails ascending.
	downFirst []uint32
	downTail  []uint32
	downArc   []uint32

	// parent[x] is x's elimination-tree parent (its lowest upward
	// neighbour), -1 at a root.
	parent []int32

	// height is the height of the elimination tree.
	height int
	// schedules caches the customization schedule per worker count.
	schedMu   sync.Mutex
	schedules map[int]*schedule

	// input[i] says where input arc i lands: arc<<1 | 1 when it runs
	// downwards (from the head of the CCH arc to its tail), arc<<1 when
	// it runs upwards, or selfLoop | rank for an arc from a node to
	// itself.
	input []uint32
	// inArcs are the input arcs that land on an arc direction (not the
	// self-loops), ordered by the direction d = arc<<1 | down they land
	// on, which inDir holds: the input arcs of d are a run of inArcs,
	// found by binary search in inDir (for path unpacking).
	inDir  []uint32
	inArcs []uint32
}

const selfLoop = 1 << 31

// errInput reports input arrays that do not describe a graph.
var errInput = errors.New("cch: bad input graph")

// Build computes the topology of the directed graph with n nodes and the
// arcs tails[i]->heads[i] (parallel arcs and self-loops allowed), whose
// nodes lie at coords (longitude, latitude; for a road graph, a point of
// each node's road), with up to workers goroutines.
func Build(n int, tails, heads []uint32, coords [][2]float64, workers int) (*Topology, error) {
	if len(tails) != len(heads) || len(coords) != n || n >= selfLoop || len(tails) >= selfLoop {
		return nil, fmt.Errorf("%w: %d nodes, %d tails, %d heads, %d coordinates", errInput, n, len(tails), len(heads), len(coords))
	}
	for i := range tails {
		if int(tails[i]) >= n || int(heads[i]) >= n {
			return nil, fmt.Errorf("%w: arc %d: %d->%d out of range", errInput, i, tails[i], heads[i])
		}
	}
	// The dissection runs on the nodes renumbered along a Hilbert curve,
	// so that a part's nodes lie in a few runs of the arrays its searches
	// read: on a country the order the graph comes in scatters them.
	byCurve, id := curveOrder(coords)
	first, head := undirectedBy(n, tails, heads, id)
	order := nestedDissection(first, head, planar(coords, byCurve), workers)
	for r, v := range order {
		order[r] = byCurve[v]
	}
	// The dissection's scratch (a few hundred bytes a node) is garbage
	// now: collect it before the topology's arrays are allocated, which
	// would otherwise grow the heap past it (12 x 12 tiling: 15.8 GB).
	runtime.GC()
	return fromOrder(n, tails, heads, order)
}

// undirected returns the simple undirected graph of the arcs (no
// self-loops, no parallel edges) in CSR form, lists ascending.
func undirected(n int, tails, heads []uint32) (first, head []uint32) {
	return undirectedBy(n, tails, heads, nil)
}

// undirectedBy is undirected with node v numbered id[v] (id nil: v).
func undirectedBy(n int, tails, heads, id []uint32) (first, head []uint32) {
	at := func(v uint32) uint32 {
		if id == nil {
			return v
		}
		return id[v]
	}
	first = make([]uint32, n+1)
	for i := range tails {
		if tails[i] != heads[i] {
			first[at(tails[i])+1]++
			first[at(heads[i])+1]++
		}
	}
	for v := 0; v < n; v++ {
		first[v+1] += first[v]
	}
	head = make([]uint32, first[n])
	fill := slices.Clone(first[:n])
	for i := range tails {
		u, v := at(tails[i]), at(heads[i])
		if u != v {
			head[fill[u]] = v
			fill[u]++
			head[fill[v]] = u
			fill[v]++
		}
	}
	// Sort and deduplicate every list, compacting in place.
	out := uint32(0)
	for v := 0; v < n; v++ {
		lst := head[first[v]:first[v+1]]
		slices.Sort(lst)
		first[v] = out
		for i, h := range lst {
			if i == 0 || h != lst[i-1] {
				head[out] = h
				out++
			}
		}
	}
	first[n] = out
	return first, head[:out:out]
}

// fromOrder builds the chordal supergraph of contracting the nodes in
// order (order[rank] = node), its elimination tree and the input arc map.
func fromOrder(n int, tails, heads []uint32, order []uint32) (*Topology, error) {
	t := &Topology{n: n, node: order, rank: make([]uint32, n)}
	for i := range t.rank {
		t.rank[i] = selfLoop
	}
	for r, v := range order {
		if int(v) >= n || t.rank[v] != selfLoop {
			return nil, fmt.Errorf("%w: the order is not a permutation", errInput)
		}
		t.rank[v] = uint32(r)
	}
	// Initial upward neighbours, then the elimination: a node's upward
	// neighbours but the lowest (its parent) become the parent's.
	up := make([][]uint32, n)
	for i := range tails {
		a, b := t.rank[tails[i]], t.rank[heads[i]]
		if a == b {
			continue
		}
		if a > b {
			a, b = b, a
		}
		up[a] = append(up[a], b)
	}
	t.upFirst = make([]uint32, n+1)
	t.parent = make([]int32, n)
	for x := 0; x < n; x++ {
		lst := up[x]
		slices.Sort(lst)
		lst = slices.Compact(lst)
		t.upFirst[x] = uint32(len(t.upHead))
		t.upHead = append(t.upHead, lst...)
		t.parent[x] = -1
		if len(lst) > 0 {
			p := lst[0]
			t.parent[x] = int32(p)
			up[p] = append(up[p], lst[1:]...)
		}
		up[x] = nil
	}
	t.upFirst[n] = uint32(len(t.upHead))
	if len(t.upHead) >= selfLoop/2 {
		return nil, fmt.Errorf("%w: %d arcs in the chordal supergraph", errInput, len(t.upHead))
	}
	t.derive()
	// Input arcs.
	t.input = make([]uint32, len(tails))
	for i := range tails {
		a, b := t.rank[tails[i]], t.rank[heads[i]]
		if a == b {
			t.input[i] = selfLoop | a
			continue
		}
		dir := uint32(0)
		if a > b {
			a, b, dir = b, a, 1
		}
		arc, ok := t.findArc(a, b)
		if !ok {
			return nil, fmt.Errorf("%w: arc %d has no CCH arc", errInput, i)
		}
		t.input[i] = arc<<1 | dir
	}
	t.deriveInput()
	return t, nil
}

// derive computes everything that follows from the upward arcs: arc
// tails, the downward index, the elimination tree and its levels.
func (t *Topology) derive() {
	n := t.n
	m := len(t.upHead)
	t.upTail = make([]uint32, m)
	t.downFirst = make([]uint32, n+1)
	t.parent = make([]int32, n)
	for x := 0; x < n; x++ {
		t.parent[x] = -1
		if t.upFirst[x] < t.upFirst[x+1] {
			t.parent[x] = int32(t.upHead[t.upFirst[x]])
		}
		for a := t.upFirst[x]; a < t.upFirst[x+1]; a++ {
			t.upTail[a] = uint32(x)
			t.downFirst[t.upHead[a]+1]++
		}
	}
	for x := 0; x < n; x++ {
		t.downFirst[x+1] += t.downFirst[x]
	}
	t.downTail = make([]uint32, m)
	t.downArc = make([]uint32, m)
	fill := slices.Clone(t.downFirst[:n])
	for a := 0; a < m; a++ {
		h := t.upHead[a]
		t.downTail[fill[h]] = t.upTail[a]
		t.downArc[fill[h]] = uint32(a)
		fill[h]++
	}
	// Height: a node is one above its highest child.
	height := make([]uint32, n)
	t.height = 0
	for x := 0; x < n; x++ {
		if p := t.parent[x]; p >= 0 {
			height[p] = max(height[p], height[x]+1)
		}
		t.height = max(t.height, int(height[x])+1)
	}
}

// deriveInput builds the index from arc directions to input arcs.
func (t *Topology) deriveInput() {
	t.inArcs = t.inArcs[:0]
	for i, v := range t.input {
		if v&selfLoop == 0 {
			t.inArcs = append(t.inArcs, uint32(i))
		}
	}
	slices.SortStableFunc(t.inArcs, func(a, b uint32) int { return cmp.Compare(t.input[a], t.input[b]) })
	t.inDir = make([]uint32, len(t.inArcs))
	for k, i := range t.inArcs {
		t.inDir[k] = t.input[i]
	}
}

// inputsOf returns the input arcs that land on arc direction d.
func (t *Topology) inputsOf(d uint32) []uint32 {
	lo, _ := slices.BinarySearch(t.inDir, d)
	hi := lo
	for hi < len(t.inDir) && t.inDir[hi] == d {
		hi++
	}
	return t.inArcs[lo:hi]
}

// findArc returns the arc lo->hi (lo < hi, ranks).
func (t *Topology) findArc(lo, hi uint32) (uint32, bool) {
	heads := t.upHead[t.upFirst[lo]:t.upFirst[lo+1]]
	i, ok := slices.BinarySearch(heads, hi)
	return t.upFirst[lo] + uint32(i), ok
}

// Nodes returns the number of nodes.
func (t *Topology) Nodes() int { return t.n }

// Arcs returns the number of arcs of the chordal supergraph (each with an
// upward and a downward direction).
func (t *Topology) Arcs() int { return len(t.upHead) }

// InputArcs returns the number of input arcs the topology was built for.
func (t *Topology) InputArcs() int { return len(t.input) }

// Levels returns the height of the elimination tree.
func (t *Topology) Levels() int { return t.height }

// bytes returns the memory the topology holds.
func (t *Topology) bytes() int64 {
	return 4 * int64(len(t.rank)+len(t.node)+len(t.upFirst)+len(t.upHead)+len(t.upTail)+len(t.downFirst)+
		len(t.downTail)+len(t.downArc)+len(t.parent)+len(t.input)+
		len(t.inDir)+len(t.inArcs))
}
