package cch

// cutter computes minimum vertex cuts between a source set and a sink set
// of one connected part (a local undirected graph in CSR form) with
// Dinic's algorithm on the node-split graph: each node v is an in-node
// 2v and an out-node 2v+1 joined by an arc of capacity one, and every
// edge {u, v} gives the arcs u_out->v_in and v_out->u_in of unbounded
// capacity. The sources are contracted into the super source (never cut),
// so a search starts at the sources that have a neighbour outside the
// set; every sink's out-node drains into the super sink (a sink may be
// cut: a source may neighbour a sink).
// Unit vertex capacities bound the flow on every arc by one, so flows are
// flags.
type cutter struct {
	first, head []uint32 // local CSR, both directions of every edge
	rev         []uint32 // rev[e] is the slot of the reverse of edge slot e

	vflow    []bool  // flow through v_in->v_out
	eflow    []bool  // flow on the arc u_out->head[e] (e in u's slots)
	source   []bool  // node is a source
	sink     []bool  // node is a sink
	level    []int32 // BFS level of split node x, -1 unreached, -2 dead end
	iter     []uint32
	queue    []uint32
	boundary []uint32 // sources with a neighbour that is not a source
}

// reset sizes the scratch for a part of n nodes and m edge slots.
func (c *cutter) reset(n, m int) {
	c.vflow = resize(c.vflow, n)
	c.source = resize(c.source, n)
	c.sink = resize(c.sink, n)
	c.eflow = resize(c.eflow, m)
	c.level = resize(c.level, 2*n)
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
	for c.bfs(sources) {
		for _, s := range c.boundary {
			for c.dfs(2*s + 1) {
				flow++
			}
		}
		if flow > limit {
			return flow
		}
	}
	// c.level now marks what the super source reaches in the residual
	// graph (the last BFS did not reach the sink).
	for v := 0; v < n; v++ {
		in, out := c.level[2*v] >= 0, c.level[2*v+1] >= 0
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

// bfs computes the levels of the residual graph from the super source and
// reports whether the super sink is reachable. It completes the levels up
// to the sink's, and marks everything reachable when the sink is not.
func (c *cutter) bfs(sources []uint32) bool {
	for i := range c.level {
		c.level[i] = -1
	}
	for _, s := range sources {
		c.level[2*s], c.level[2*s+1] = 0, 0
	}
	q := c.queue[:0]
	for _, s := range c.boundary {
		q = append(q, 2*s+1)
	}
	found := int32(-1)
	for h := 0; h < len(q); h++ {
		x := q[h]
		lx := c.level[x]
		if found >= 0 && lx >= found {
			break
		}
		v := x / 2
		next := lx + 1
		if x%2 == 0 {
			if !c.vflow[v] && c.level[x+1] < 0 {
				c.level[x+1] = next
				q = append(q, x+1)
			}
			for e := c.first[v]; e < c.first[v+1]; e++ {
				if y := 2*c.head[e] + 1; c.eflow[c.rev[e]] && c.level[y] < 0 {
					c.level[y] = next
					q = append(q, y)
				}
			}
		} else {
			if c.sink[v] {
				found = lx
				continue
			}
			if c.vflow[v] && c.level[x-1] < 0 {
				c.level[x-1] = next
				q = append(q, x-1)
			}
			for e := c.first[v]; e < c.first[v+1]; e++ {
				if y := 2 * c.head[e]; c.level[y] < 0 {
					c.level[y] = next
					q = append(q, y)
				}
			}
		}
	}
	c.queue = q
	if found < 0 {
		return false
	}
	clear(c.iter)
	return true
}

// dfs looks for an augmenting path from split node x along the level
// graph and pushes one unit along it.
func (c *cutter) dfs(x uint32) bool {
	v := x / 2
	if x%2 == 1 && c.sink[v] {
		return true
	}
	deg := c.first[v+1] - c.first[v]
	lx := c.level[x]
	for ; c.iter[x] <= deg; c.iter[x]++ {
		i := c.iter[x]
		if x%2 == 0 {
			if i == 0 {
				if !c.vflow[v] && c.level[x+1] == lx+1 && c.dfs(x+1) {
					c.vflow[v] = true
					return true
				}
				continue
			}
			e := c.first[v] + i - 1
			if y := 2*c.head[e] + 1; c.eflow[c.rev[e]] && c.level[y] == lx+1 && c.dfs(y) {
				c.eflow[c.rev[e]] = false
				return true
			}
		} else {
			if i == 0 {
				if c.vflow[v] && c.level[x-1] == lx+1 && c.dfs(x-1) {
					c.vflow[v] = false
					return true
				}
				continue
			}
			e := c.first[v] + i - 1
			if y := 2 * c.head[e]; !c.eflow[e] && c.level[y] == lx+1 && c.dfs(y) {
				c.eflow[e] = true
				return true
			}
		}
	}
	c.level[x] = -2 // dead end for the rest of this phase
	return false
}
