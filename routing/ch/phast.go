package ch

import bits64 "math/bits"

// Selection is the part of a hierarchy that one-to-many sweeps towards a
// fixed set of targets need (RPHAST, Delling et al. 2011): every node a
// backward upward search from a target can reach, in descending rank
// order. Built once per target set, it makes each source row a short
// linear sweep. A Selection is read-only and safe for concurrent use.
type Selection struct {
	h *Hierarchy
	// nodes are the internal ids of the selected nodes, ascending (so by
	// descending rank). Every downward arc into a selected node comes from
	// a selected node.
	nodes []uint32
	// targets[j] are the internal ids of target j's endpoints, with their
	// labels in inits[j].
	targets [][]uint32
	inits   [][]int64
	// orig keeps the targets' endpoints for the rare fallback.
	orig [][]Endpoint
}

// Select builds the selection for the targets (each a set of endpoints).
func (h *Hierarchy) Select(targets [][]Endpoint) *Selection {
	mark := make([]uint64, (h.N+63)/64)
	stack := make([]uint32, 0, 256)
	s := &Selection{h: h, orig: targets, targets: make([][]uint32, len(targets)), inits: make([][]int64, len(targets))}
	for j, eps := range targets {
		for _, e := range eps {
			v := h.Order[e.Node]
			s.targets[j] = append(s.targets[j], v)
			s.inits[j] = append(s.inits[j], e.Init)
			if mark[v/64]&(1<<(v%64)) == 0 {
				mark[v/64] |= 1 << (v % 64)
				stack = append(stack, v)
			}
		}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, u := range h.DownTail[h.DownFirst[v]:h.DownFirst[v+1]] {
				if mark[u/64]&(1<<(u%64)) == 0 {
					mark[u/64] |= 1 << (u % 64)
					stack = append(stack, u)
				}
			}
		}
	}
	n := 0
	for _, bits := range mark {
		n += bits64.OnesCount64(bits)
	}
	s.nodes = make([]uint32, 0, n)
	for w, bits := range mark {
		for bits != 0 {
			s.nodes = append(s.nodes, uint32(w)*64+uint32(bits64.TrailingZeros64(bits)))
			bits &= bits - 1
		}
	}
	return s
}

// RowSweep fills row with the least weight from the sources to each
// target of the selection: an upward search from the sources, then one
// sweep over the selection. Cells whose source and target share a node
// with the target behind (where a sweep cannot tell the way round) are
// answered by ShortestPath.
func (q *Query) RowSweep(sources []Endpoint, s *Selection, row []int64) {
	fw := q.startRow(sources, row)
	if fw == nil {
		return
	}
	h := q.h
	for fw.heap.len() > 0 {
		v, d := fw.heap.pop()
		for i := h.UpFirst[v]; i < h.UpFirst[v+1]; i++ {
			fw.relax(h.UpHead[i], d+h.UpWeight[i], v, int32(i))
		}
	}
	if q.all == nil {
		q.all = make([]int64, h.N)
	}
	// Labels of the selected nodes only; every arc read below comes from
	// a selected node, written earlier in this sweep.
	all := q.all
	lab, epoch := fw.lab, fw.epoch
	first, tail, weight := h.DownFirst, h.DownTail, h.DownWeight
	for _, v := range s.nodes {
		d := Inf
		if lab[v].stamp == epoch {
			d = lab[v].d
		}
		for i := first[v]; i < first[v+1]; i++ {
			if du := all[tail[i]]; du != Inf {
				if c := du + weight[i]; c < d {
					d = c
				}
			}
		}
		all[v] = d
	}
	for j, vs := range s.targets {
		for e, v := range vs {
			d := all[v]
			if d == Inf {
				continue
			}
			c := d + s.inits[j][e]
			if c < 0 {
				row[j], _ = q.ShortestPath(sources, s.orig[j])
				break
			}
			if c < row[j] {
				row[j] = c
			}
		}
	}
}

// OneToAll fills all (indexed by the caller's node ids, of length N) with
// the least weight between the endpoints and every node, Inf where there
// is none: PHAST (Delling, Goldberg, Nowatzyk, Werneck 2011), an upward
// search from the endpoints, then one sweep over every node by descending
// rank that pulls each label down its downward arcs. Forward (reverse
// false), the endpoints are sources and all[n] is the weight from them to
// the end of node n; reverse, they are targets (their labels as a
// target's) and all[n] is the weight from the end of node n to them.
func (q *Query) OneToAll(eps []Endpoint, reverse bool, all []int64) {
	h := q.h
	if q.all == nil {
		q.all = make([]int64, h.N)
	}
	s := q.fw
	if reverse {
		s = q.bw
	}
	s.start(h, eps, false)
	for s.heap.len() > 0 {
		v, d := s.heap.pop()
		if reverse {
			for i := h.DownFirst[v]; i < h.DownFirst[v+1]; i++ {
				s.relax(h.DownTail[i], d+h.DownWeight[i], v, int32(i))
			}
			continue
		}
		for i := h.UpFirst[v]; i < h.UpFirst[v+1]; i++ {
			s.relax(h.UpHead[i], d+h.UpWeight[i], v, int32(i))
		}
	}
	sweep, lab, epoch := q.all, s.lab, s.epoch
	if reverse {
		// v's label pulls from its upward arcs' heads, ranked higher,
		// swept earlier: the weight from v over the arc, then onwards.
		first, head, weight := h.UpFirst, h.UpHead, h.UpWeight
		for v := 0; v < h.N; v++ {
			d := Inf
			if lab[v].stamp == epoch {
				d = lab[v].d
			}
			for i := first[v]; i < first[v+1]; i++ {
				if du := sweep[head[i]]; du != Inf {
					if c := du + weight[i]; c < d {
						d = c
					}
				}
			}
			sweep[v] = d
		}
	} else {
		first, tail, weight := h.DownFirst, h.DownTail, h.DownWeight
		for v := 0; v < h.N; v++ {
			d := Inf
			if lab[v].stamp == epoch {
				d = lab[v].d
			}
			for i := first[v]; i < first[v+1]; i++ {
				if du := sweep[tail[i]]; du != Inf {
					if c := du + weight[i]; c < d {
						d = c
					}
				}
			}
			sweep[v] = d
		}
	}
	for v, n := range h.orig {
		all[n] = sweep[v]
	}
}
