package routing

import "github.com/geosvc/geosvc/routing/osmroad"

// Via-way turn restrictions, applied as OSRM applies them: by duplicating
// the edge-based nodes of the via path. The restrictions' paths (the from
// edge, then the via edges) form a trie whose root states are the
// original from nodes and whose deeper states are copies of their edges'
// nodes: the turn from a from node onto the first via edge leads to that
// edge's copy, the copy's turn along the path to the next copy, and the
// last copy has no turn onto a forbidden to edge (no_*), or turns onto
// the to edges only (only_*). Every other turn of a copy is its
// original's, leading to the original next node, or, where that next
// edge continues another restriction's path (an Aho-Corasick failure
// link: the longest suffix of the driven path that starts one), to that
// restriction's copy; a copy also obeys the restrictions ending at such
// a suffix. So a route keeps every restriction it has entered, however
// they overlap.
//
// A copy stands for its original everywhere outside the search: its
// Graph.base.nodeEdge is the original's directed edge (geometry, names,
// times), snapping never starts on it (Graph.edgeNode maps edges to the
// originals), and a destination is reached on the original or on any of
// its copies (Graph.withCopies).

// wayState is a state of the restrictions' trie: having driven the edges
// of seq (directed ids), the search stands on node (the copy of the last
// edge, or the original at depth 1).
type wayState struct {
	seq      []uint32
	node     uint32
	children map[uint32]int32
	fail     int32 // the state of seq's longest proper suffix, -1 if none
	forbid   map[uint32]bool
	only     []map[uint32]bool // one allowed set per only_* ending here
	// condForbid and condOnly are the conditional restrictions ending
	// here: their turns stay, closed at their times (turncond.go).
	condForbid map[uint32][]*osmroad.TurnCond
	condOnly   []condWayOnly
}

// condWayOnly is a conditional only_* via-way restriction: the turns
// onto other edges than tos are closed when cond says.
type condWayOnly struct {
	tos  map[uint32]bool
	cond *osmroad.TurnCond
}

// wayStats counts what expandWayRestrictions did.
type wayStats struct {
	applied, vacuous, copies int
}

// hasArc reports whether a turn a->b exists.
func hasArc(arcs *baseArcs, a, b uint32) bool {
	for _, t := range arcs.of(a) {
		if t.head == b {
			return true
		}
	}
	return false
}

// dirID is the directed id of a directed edge.
func dirID(d osmroad.DirEdge) uint32 {
	if d.Reverse {
		return directedID(d.Edge, 1)
	}
	return directedID(d.Edge, 0)
}

// expandWayRestrictions applies the via-way restrictions rs to the base
// graph over directed ids (2 x edges of them): it appends the copies as
// ids from len(usable) on, with their turns, redirects the from nodes'
// turns, and returns the extended usability and, per copy, the directed
// id it copies. A restriction whose path a car cannot drive (a turn along
// it is forbidden or missing) changes nothing and counts as vacuous. A
// conditional one makes its copies as a plain one does and keeps the
// turns it forbids, with their condition in ct.
func expandWayRestrictions(arcs *baseArcs, usable []bool, rs []osmroad.WayRestriction, ct *condTable) (ext []bool, copyOf []uint32, st wayStats) {
	ext = usable
	if len(rs) == 0 {
		return ext, nil, st
	}
	base := uint32(len(usable))
	var states []wayState
	roots := map[uint32]int32{}
	newState := func(seq []uint32, node uint32) int32 {
		states = append(states, wayState{seq: seq, node: node, fail: -1})
		return int32(len(states) - 1)
	}
	for _, r := range rs {
		seq := make([]uint32, len(r.Path))
		ok := true
		for k, d := range r.Path {
			seq[k] = dirID(d)
			if !usable[seq[k]] || k > 0 && !hasArc(arcs, seq[k-1], seq[k]) {
				ok = false
			}
		}
		if !ok {
			st.vacuous++
			continue
		}
		st.applied++
		s, found := roots[seq[0]]
		if !found {
			s = newState(seq[:1], seq[0])
			roots[seq[0]] = s
		}
		for k := 1; k < len(seq); k++ {
			c, found := states[s].children[seq[k]]
			if !found {
				c = newState(seq[:k+1], base+uint32(len(copyOf)))
				copyOf = append(copyOf, seq[k])
				if states[s].children == nil {
					states[s].children = map[uint32]int32{}
				}
				states[s].children[seq[k]] = c
			}
			s = c
		}
		tos := make(map[uint32]bool, len(r.To))
		for _, d := range r.To {
			tos[dirID(d)] = true
		}
		if r.Cond != nil {
			if r.Only {
				states[s].condOnly = append(states[s].condOnly, condWayOnly{tos: tos, cond: r.Cond})
				continue
			}
			if states[s].condForbid == nil {
				states[s].condForbid = map[uint32][]*osmroad.TurnCond{}
			}
			for t := range tos {
				states[s].condForbid[t] = append(states[s].condForbid[t], r.Cond)
			}
			continue
		}
		if r.Only {
			states[s].only = append(states[s].only, tos)
			continue
		}
		if states[s].forbid == nil {
			states[s].forbid = map[uint32]bool{}
		}
		for t := range tos {
			states[s].forbid[t] = true
		}
	}
	// Failure links: the longest proper suffix of a state's path that is
	// a state too (a root: an original from node).
	lookup := func(seq []uint32) int32 {
		s, ok := roots[seq[0]]
		for k := 1; ok && k < len(seq); k++ {
			s, ok = states[s].children[seq[k]]
		}
		if !ok {
			return -1
		}
		return s
	}
	for i := range states {
		seq := states[i].seq
		for j := 1; j < len(seq); j++ {
			if f := lookup(seq[j:]); f >= 0 {
				states[i].fail = f
				break
			}
		}
	}
	// next is the node a turn from state s onto directed id h leads to.
	next := func(s int32, h uint32) uint32 {
		for x := s; x >= 0; x = states[x].fail {
			if c, ok := states[x].children[h]; ok {
				return states[c].node
			}
		}
		return h
	}
	allowed := func(s int32, h uint32) bool {
		for x := s; x >= 0; x = states[x].fail {
			if states[x].forbid[h] {
				return false
			}
			for _, only := range states[x].only {
				if !only[h] {
					return false
				}
			}
		}
		return true
	}
	// conds are the conditions closing the turn from state s onto h.
	conds := func(s int32, h uint32) []*osmroad.TurnCond {
		var out []*osmroad.TurnCond
		for x := s; x >= 0; x = states[x].fail {
			out = append(out, states[x].condForbid[h]...)
			for _, o := range states[x].condOnly {
				if !o.tos[h] {
					out = append(out, o.cond)
				}
			}
		}
		return out
	}
	st.copies = len(copyOf)
	ext = make([]bool, int(base)+len(copyOf))
	copy(ext, usable)
	for i := int(base); i < len(ext); i++ {
		ext[i] = true
	}
	arcs.first = append(arcs.first, make([]uint32, len(copyOf))...)
	arcs.count = append(arcs.count, make([]uint16, len(copyOf))...)
	// The copies' turns: their originals', restricted and redirected.
	for i := range states {
		s := &states[i]
		if len(s.seq) == 1 {
			continue
		}
		orig := s.seq[len(s.seq)-1]
		first := uint32(len(arcs.turns))
		for _, t := range arcs.of(orig) {
			if !allowed(int32(i), t.head) {
				continue
			}
			t.cond = ct.merge(t.cond, conds(int32(i), t.head)...)
			t.head = next(int32(i), t.head)
			arcs.turns = append(arcs.turns, t)
		}
		arcs.first[s.node] = first
		arcs.count[s.node] = uint16(uint32(len(arcs.turns)) - first)
	}
	// The roots' turns onto a via path lead to its copy.
	for _, r := range roots {
		s := &states[r]
		turns := arcs.turns[arcs.first[s.node] : arcs.first[s.node]+uint32(arcs.count[s.node])]
		for k := range turns {
			if c, ok := s.children[turns[k].head]; ok {
				turns[k].head = states[c].node
			}
		}
	}
	return ext, copyOf, st
}

// initCopies indexes the copies (the last Meta.Copies nodes) by their
// originals.
func (g *Graph) initCopies() {
	n := len(g.base.nodeEdge)
	if g.meta.Copies == 0 || g.meta.Copies > n {
		return
	}
	g.copies = make(map[uint32][]uint32, g.meta.Copies)
	for c := n - g.meta.Copies; c < n; c++ {
		o := uint32(g.edgeNode[g.base.nodeEdge[c]])
		g.copies[o] = append(g.copies[o], uint32(c))
	}
}

// origNode returns the original node a copy stands for (n itself for an
// original).
func (g *Graph) origNode(n uint32) uint32 {
	if int(n) < len(g.base.nodeEdge)-g.meta.Copies {
		return n
	}
	return uint32(g.edgeNode[g.base.nodeEdge[n]])
}

// withCopies appends to the phantoms ps of a destination the same
// phantoms on every copy of their nodes: a route that drives into a
// restriction's via path reaches a point on it on a copy.
func (g *Graph) withCopies(ps []phantom) []phantom {
	if len(g.copies) == 0 {
		return ps
	}
	for _, p := range ps[:len(ps):len(ps)] {
		for _, c := range g.copies[p.node] {
			ps = append(ps, phantom{node: c, frac: p.frac, partial: p.partial})
		}
	}
	return ps
}

// originalSizes returns the size of each of k components counting the
// nodes of comp (the originals') only.
func originalSizes(comp []int32, k int) []int {
	sizes := make([]int, k)
	for _, c := range comp {
		if c >= 0 {
			sizes[c]++
		}
	}
	return sizes
}
