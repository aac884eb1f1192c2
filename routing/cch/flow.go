package cch

// Minimum vertex cuts between a source set and a sink set of one connected
// part (a local undirected graph in CSR form), with Ford-Fulkerson in
// rounds of depth-first searches on the node-split graph: each node v is
// an in-node 2v and an out-node 2v+1 joined by an arc of capacity one, and
// every edge {u, v} gives the arcs u_out->v_in and v_out->u_in of
// unbounded capacity. The sources are contracted into the super source
// (never cut), so a search starts at the sources that have a neighbour
// outside the set; every sink's out-node drains into the super sink (a
// sink may be cut: a source may neighbour a sink). Unit vertex capacities
// bound the flow on every arc by one, so flows are flags.
//
// A round costs a sweep of the part, so the number of rounds decides the
// cost. Searches try a node's arcs towards the sinks first (by the
// projection key of Inertial Flow): paths run straight across the part
// and leave room for the next ones, so a round finds most of a cut's
// paths, where searches in slot order snaked through the part and found
// about one each (a 2.7 M-node part of the 4 x 4 tiling: 6 rounds for a
// cut of 24 against 19; Dinic's shortest paths took 29, one per phase, as
// the paths across a road network differ in length). A node's arcs are
// sorted when a search first reaches it: most of a part's nodes are
// sources or sinks no search enters.
//
// Boykov-Kolmogorov's search trees, kept from one path to the next
// instead of a sweep per round, were tried and dropped: on road networks
// every path saturates the vertex arcs of its whole length, whose
// subtrees are freed and regrown (4 x 4: 94 CPU s against 51).
//
// The cuts of one part (one per projection direction) race: the cut with
// the least flow so far runs the next round, and a cut whose flow exceeds
// the smallest finished cut (shared by the goroutines of the part) gives
// up. The residual reach of a maximum flow is the same whatever paths
// found it, so the separators, and the order, are those of running every
// direction to the end.

// cutter is the scratch a goroutine's rounds share: the local graph and
// the marks of the current search.
type cutter struct {
	first, head []uint32     // local CSR, both directions of every edge
	rev         []uint32     // rev[e] is the slot of the reverse of edge slot e
	xy          [][2]float32 // local node coordinates (planar)

	visit []uint32 // round in which split node x was reached
	epoch uint32
	iter  []uint32 // the arc of split node x being explored
	stack []uint32
}

// flowState is one source/sink pair's flow on the local graph.
type flowState struct {
	vflow    []bool   // flow through v_in->v_out
	eflow    []bool   // flow on the arc u_out->head[e] (e in u's slots)
	role     []uint8  // roleSource, roleSink or 0
	boundary []uint32 // sources with a neighbour that is not a source
	// first[v]+arc[first[v]+i] is the edge slot of v's i-th arc in the
	// order the searches try them, towards the sinks first (a byte a
	// slot: a node of more than maxSorted arcs keeps slot order).
	arc    []uint8
	sorted []bool // v's order is set in arc
	keyed  bool   // the order is by projection on dir, else slot order
	dir    [2]float32
	flow   int
	done   bool // the flow is maximum
}

const (
	roleSource = 1
	roleSink   = 2
)

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// prepare sizes the shared scratch for a part of n nodes.
func (c *cutter) prepare(n int) {
	if len(c.visit) < 2*n {
		c.visit = make([]uint32, 2*n)
		c.epoch = 0
	}
	c.iter = resize(c.iter, 2*n)
}

// start resets st for the sources and sinks (local ids; disjoint; sources
// are never cut) on c's local graph; a search tries a node's arcs by
// descending projection of their heads on dir (nil: in slot order).
func (c *cutter) start(st *flowState, sources, sinks []uint32, dir *[2]float64) {
	n := len(c.first) - 1
	st.vflow = resize(st.vflow, n)
	st.eflow = resize(st.eflow, len(c.head))
	st.role = resize(st.role, n)
	st.sorted = resize(st.sorted, n)
	clear(st.vflow)
	clear(st.eflow)
	clear(st.role)
	clear(st.sorted)
	st.flow, st.done = 0, false
	st.arc = resize(st.arc, len(c.head))
	st.keyed = dir != nil
	if dir != nil {
		st.dir = [2]float32{float32(dir[0]), float32(dir[1])}
	}
	for _, s := range sources {
		st.role[s] = roleSource
	}
	for _, t := range sinks {
		st.role[t] = roleSink
	}
	st.boundary = st.boundary[:0]
	for _, s := range sources {
		for e := c.first[s]; e < c.first[s+1]; e++ {
			if st.role[c.head[e]] != roleSource {
				st.boundary = append(st.boundary, s)
				break
			}
		}
	}
}

// order sets v's search order in st.arc the first time a search of st
// reaches v: its arcs by descending projection of their heads on st.dir
// (towards the sinks first), or in slot order. Most nodes of a part are
// never reached (sources, most sinks), so they are never sorted.
func (c *cutter) order(st *flowState, v uint32) {
	if st.sorted[v] {
		return
	}
	st.sorted[v] = true
	lo, hi := c.first[v], c.first[v+1]
	if hi-lo > maxSorted {
		return
	}
	arcs := st.arc[lo:hi]
	for i := range arcs {
		arcs[i] = uint8(i)
	}
	if !st.keyed {
		return
	}
	// Insertion sort: a node has a few arcs.
	var hk [maxSorted]float32 // the keys of v's heads, by arc
	for i, h := range c.head[lo:hi] {
		p := c.xy[h]
		hk[i] = p[0]*st.dir[0] + p[1]*st.dir[1]
	}
	for i := 1; i < len(arcs); i++ {
		a := arcs[i]
		k := hk[a]
		j := i
		for ; j > 0 && hk[arcs[j-1]] < k; j-- {
			arcs[j] = arcs[j-1]
		}
		arcs[j] = a
	}
}

// minCut computes a minimum vertex cut between sources and sinks (local
// ids; disjoint; sources are never cut). It returns the cut size and sets
// side[v] = 0 for nodes on the source side, 1 for separator nodes and 2
// for the sink side. When the flow exceeds limit it gives up and returns
// a size above limit, with side unset.
func (c *cutter) minCut(st *flowState, sources, sinks []uint32, side []uint8, limit int) int {
	c.prepare(len(c.first) - 1)
	c.start(st, sources, sinks, nil)
	for !st.done {
		c.round(st, side)
		if st.flow > limit {
			return st.flow
		}
	}
	return st.flow
}

// round runs one round on st: depth-first searches from the boundary
// sources that share their visited marks, each augmenting along the path
// it finds, added to st.flow. A round that finds no path proves the flow
// maximum: it sets st.done and writes the sides of the minimum cut, from
// its marks (the residual reach of the sources), into side.
func (c *cutter) round(st *flowState, side []uint8) {
	c.epoch++
	if c.epoch == 0 {
		clear(c.visit)
		c.epoch = 1
	}
	for _, s := range st.boundary {
		c.visit[2*s], c.visit[2*s+1] = c.epoch, c.epoch
	}
	found := 0
	for _, s := range st.boundary {
		c.iter[2*s+1] = 0
		c.order(st, s)
		for c.augment(st, 2*s+1) {
			found++
		}
	}
	st.flow += found
	if found == 0 {
		c.sides(st, side)
		st.done = true
	}
}

// sides writes the sides of the minimum cut from the residual reach of
// the last round: 0 source side, 1 separator, 2 sink side.
func (c *cutter) sides(st *flowState, side []uint8) {
	n := len(c.first) - 1
	for v := 0; v < n; v++ {
		in, out := c.visit[2*v] == c.epoch, c.visit[2*v+1] == c.epoch
		switch {
		case out || st.role[v] == roleSource:
			side[v] = 0
		case in:
			side[v] = 1
		default:
			side[v] = 2
		}
	}
}

// augment searches depth-first from split node start (visited) for a
// residual path to the sink through nodes not visited in this round, and
// pushes one unit along it. iter[x] is the arc of x being explored.
func (c *cutter) augment(st *flowState, start uint32) bool {
	s := append(c.stack[:0], start)
	defer func() { c.stack = s[:0] }()
	for len(s) > 0 {
		x := s[len(s)-1]
		v := x / 2
		if x%2 == 1 && st.role[v] == roleSink {
			// Push along the stack.
			for k := 0; k+1 < len(s); k++ {
				c.push(st, s[k], c.iter[s[k]])
			}
			return true
		}
		deg := c.first[v+1] - c.first[v]
		advanced := false
		for ; c.iter[x] <= deg; c.iter[x]++ {
			y, ok := c.residual(st, x, c.iter[x])
			if ok && c.visit[y] != c.epoch && st.role[y/2] != roleSource {
				c.visit[y] = c.epoch
				c.iter[y] = 0
				c.order(st, y/2)
				s = append(s, y)
				advanced = true
				break
			}
		}
		if !advanced {
			s = s[:len(s)-1]
			if len(s) > 0 {
				c.iter[s[len(s)-1]]++
			}
		}
	}
	return false
}

// maxSorted is the most arcs of a node whose search order is kept (a
// byte an arc).
const maxSorted = 256

// slot returns the edge slot of v's i-th arc in st's search order.
func (c *cutter) slot(st *flowState, v, i uint32) uint32 {
	lo := c.first[v]
	if c.first[v+1]-lo > maxSorted {
		return lo + i
	}
	return lo + uint32(st.arc[lo+i])
}

// residual returns the head of arc i of split node x (0: the vertex arc,
// else the edge slots) when it has residual capacity.
func (c *cutter) residual(st *flowState, x, i uint32) (uint32, bool) {
	v := x / 2
	if x%2 == 0 {
		if i == 0 {
			return x + 1, !st.vflow[v]
		}
		e := c.slot(st, v, i-1)
		return 2*c.head[e] + 1, st.eflow[c.rev[e]]
	}
	if i == 0 {
		return x - 1, st.vflow[v]
	}
	// Unbounded capacity: always residual. (A second unit on an arc
	// that carries one could not leave its head, whose vertex arc
	// carries that unit: the search dead-ends there.)
	return 2 * c.head[c.slot(st, v, i-1)], true
}

// push sends one unit along arc i of split node x.
func (c *cutter) push(st *flowState, x, i uint32) {
	v := x / 2
	if x%2 == 0 {
		if i == 0 {
			st.vflow[v] = true
		} else {
			st.eflow[c.rev[c.slot(st, v, i-1)]] = false
		}
		return
	}
	if i == 0 {
		st.vflow[v] = false
	} else {
		st.eflow[c.slot(st, v, i-1)] = true
	}
}
