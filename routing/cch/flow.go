package cch

// cutter computes minimum vertex cuts between a source set and a sink set
// of one connected part (a local undirected graph in CSR form) with
// Ford-Fulkerson in rounds of depth-first searches on the node-split
// graph: each node v is an in-node 2v and an out-node 2v+1 joined by an
// arc of capacity one, and every edge {u, v} gives the arcs u_out->v_in and v_out->u_in of unbounded
// capacity. The sources are contracted into the super source (never cut),
// so a search starts at the sources that have a neighbour outside the
// set; every sink's out-node drains into the super sink (a sink may be
// cut: a source may neighbour a sink).
// Unit vertex capacities bound the flow on every arc by one, so flows are
// flags.
type cutter struct {
	first, head []uint32 // local CSR, both directions of every edge
	rev         []uint32 // rev[e] is the slot of the reverse of edge slot e

	vflow    []bool   // flow through v_in->v_out
	eflow    []bool   // flow on the arc u_out->head[e] (e in u's slots)
	source   []bool   // node is a source
	sink     []bool   // node is a sink
	visit    []uint32 // round in which split node x was visited
	epoch    uint32
	iter     []uint32
	stack    []uint32
	boundary []uint32 // sources with a neighbour that is not a source
}

// reset sizes the scratch for a part of n nodes and m edge slots.
func (c *cutter) reset(n, m int) {
	c.vflow = resize(c.vflow, n)
	c.source = resize(c.source, n)
	c.sink = resize(c.sink, n)
	c.eflow = resize(c.eflow, m)
	if len(c.visit) < 2*n {
		c.visit = make([]uint32, 2*n)
		c.epoch = 0
	}
	c.iter = resize(c.iter, 2*n)
	clear(c.vflow)
	clear(c.source)
	clear(c.sink)
	clear(c.eflow)
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// minCut computes a minimum vertex cut between sources and sinks (local
// ids; disjoint; sources are never cut). It returns the cut size and sets
// side[v] = 0 for nodes on the source side, 1 for separator nodes and 2
// for the sink side. When the flow exceeds limit it gives up and returns
// a size above limit, with side unset.
func (c *cutter) minCut(sources, sinks []uint32, side []uint8, limit int) int {
	n := len(c.first) - 1
	c.reset(n, len(c.head))
	for _, s := range sources {
		c.source[s] = true
	}
	for _, t := range sinks {
		c.sink[t] = true
	}
	c.boundary = c.boundary[:0]
	for _, s := range sources {
		for e := c.first[s]; e < c.first[s+1]; e++ {
			if !c.source[c.head[e]] {
				c.boundary = append(c.boundary, s)
				break
			}
		}
	}
	flow := 0
	for {
		// A round: depth-first searches from the boundary sources that
		// share their visited marks, each augmenting along the path it
		// finds. A round that finds no path proves the flow maximum,
		// and its marks are then the residual reach of the source.
		c.epoch++
		if c.epoch == 0 {
			clear(c.visit)
			c.epoch = 1
		}
		for _, s := range sources {
			c.visit[2*s], c.visit[2*s+1] = c.epoch, c.epoch
		}
		found := 0
		for _, s := range c.boundary {
			c.iter[2*s+1] = 0
			for c.augment(2*s + 1) {
				found++
			}
		}
		flow += found
		if flow > limit {
			return flow
		}
		if found == 0 {
			break
		}
	}
	for v := 0; v < n; v++ {
		in, out := c.visit[2*v] == c.epoch, c.visit[2*v+1] == c.epoch
		switch {
		case out:
			side[v] = 0
		case in:
			side[v] = 1
		default:
			side[v] = 2
		}
	}
	return flow
}

// augment searches depth-first from split node start (visited) for a
// residual path to the sink through nodes not visited in this round, and
// pushes one unit along it. iter[x] is the arc of x being explored.
func (c *cutter) augment(start uint32) bool {
	st := append(c.stack[:0], start)
	defer func() { c.stack = st[:0] }()
	for len(st) > 0 {
		x := st[len(st)-1]
		v := x / 2
		if x%2 == 1 && c.sink[v] {
			// Push along the stack.
			for k := 0; k+1 < len(st); k++ {
				c.push(st[k], c.iter[st[k]])
			}
			return true
		}
		deg := c.first[v+1] - c.first[v]
		advanced := false
		for ; c.iter[x] <= deg; c.iter[x]++ {
			y, ok := c.residual(x, c.iter[x])
			if ok && c.visit[y] != c.epoch {
				c.visit[y] = c.epoch
				c.iter[y] = 0
				st = append(st, y)
				advanced = true
				break
			}
		}
		if !advanced {
			st = st[:len(st)-1]
			if len(st) > 0 {
				c.iter[st[len(st)-1]]++
			}
		}
	}
	return false
}

// residual returns the head of arc i of split node x (0: the vertex arc,
// else the edge slots) when it has residual capacity.
func (c *cutter) residual(x, i uint32) (uint32, bool) {
	v := x / 2
	if x%2 == 0 {
		if i == 0 {
			return x + 1, !c.vflow[v]
		}
		e := c.first[v] + i - 1
		return 2*c.head[e] + 1, c.eflow[c.rev[e]]
	}
	if i == 0 {
		return x - 1, c.vflow[v]
	}
	// Unbounded capacity: always residual. (A second unit on an arc
	// that carries one could not leave its head, whose vertex arc
	// carries that unit: the search dead-ends there.)
	return 2 * c.head[c.first[v]+i-1], true
}

// push sends one unit along arc i of split node x.
func (c *cutter) push(x, i uint32) {
	v := x / 2
	if x%2 == 0 {
		if i == 0 {
			c.vflow[v] = true
		} else {
			c.eflow[c.rev[c.first[v]+i-1]] = false
		}
		return
	}
	if i == 0 {
		c.vflow[v] = false
	} else {
		c.eflow[c.first[v]+i-1] = true
	}
}
