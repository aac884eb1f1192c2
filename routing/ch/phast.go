package ch

import bits64 "math/bits"

// Selection is the part of a hierarchy that one-to-many sweeps towards a
// fixed set of targets need (RPHAST, Delling et al. 2011): every node a
// backward upward search from a target can reach, in descending rank
// order, with the downward arcs among them renumbered to local indexes.
// Built once per target set, it makes each source row a short linear
// sweep. A Selection is read-only and safe for concurrent use.
type Selection struct {
	h *Hierarchy
	// nodes[k] is the internal id of local node k, ascending (so by
	// descending rank).
	nodes  []uint32
	first  []uint32 // local node k's arcs: tail[first[k]:first[k+1]]
	tail   []uint32 // local index of the arc's tail
	weight []int64
	// targets[j][e] is the local index of target j's endpoint e.
	targets [][]uint32
	inits   [][]int64
	// orig keeps the targets' endpoints for the rare fallback.
	orig [][]Endpoint
}

// Select builds the selection for the targets (each a set of endpoints).
func (h *Hierarchy) Select(targets [][]Endpoint) *Selection {
	mark := make([]uint64, (h.N+63)/64)
	var stack []uint32
	visit := func(v uint32) {
		if mark[v/64]&(1<<(v%64)) == 0 {
			mark[v/64] |= 1 << (v % 64)
			stack = append(stack, v)
		}
	}
	for _, eps := range targets {
		for _, e := range eps {
			visit(h.Order[e.Node])
		}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for i := h.DownFirst[v]; i < h.DownFirst[v+1]; i++ {
				visit(h.DownTail[i])
			}
		}
	}
	// Local indexes follow the set bits in ascending order: a word's
	// prefix count plus the bits below.
	prefix := make([]uint32, len(mark)+1)
	for w, bits := range mark {
		prefix[w+1] = prefix[w] + uint32(bits64.OnesCount64(bits))
	}
	local := func(v uint32) uint32 {
		w := v / 64
		return prefix[w] + uint32(bits64.OnesCount64(mark[w]&(1<<(v%64)-1)))
	}
	n := int(prefix[len(mark)])
	s := &Selection{h: h, orig: targets, nodes: make([]uint32, 0, n), first: make([]uint32, n+1)}
	arcs := 0
	for w, bits := range mark {
		for bits != 0 {
			v := uint32(w)*64 + uint32(bits64.TrailingZeros64(bits))
			bits &= bits - 1
			s.nodes = append(s.nodes, v)
			arcs += int(h.DownFirst[v+1] - h.DownFirst[v])
		}
	}
	s.tail = make([]uint32, 0, arcs)
	s.weight = make([]int64, 0, arcs)
	for k, v := range s.nodes {
		s.first[k] = uint32(len(s.tail))
		for i := h.DownFirst[v]; i < h.DownFirst[v+1]; i++ {
			s.tail = append(s.tail, local(h.DownTail[i]))
			s.weight = append(s.weight, h.DownWeight[i])
		}
	}
	s.first[n] = uint32(len(s.tail))
	s.targets = make([][]uint32, len(targets))
	s.inits = make([][]int64, len(targets))
	for j, eps := range targets {
		for _, e := range eps {
			s.targets[j] = append(s.targets[j], local(h.Order[e.Node]))
			s.inits[j] = append(s.inits[j], e.Init)
		}
	}
	return s
}

// Nodes returns the number of nodes in the selection.
func (s *Selection) Nodes() int { return len(s.nodes) }

// Bytes returns the memory held by the selection.
func (s *Selection) Bytes() int64 {
	return int64(len(s.nodes))*8 + int64(len(s.tail))*12 + int64(len(s.targets))*40
}

// RowSweep fills row with the least weight from the sources to each
// target of the selection: an upward search from the sources, then one
// sweep over the selection. Cells whose source and target share a node
// with the target behind (where a sweep cannot tell the way round) are
// answered by ShortestPath.
func (q *Query) RowSweep(sources []Endpoint, s *Selection, row []int64) {
	clearRow(row)
	if len(sources) == 0 {
		return
	}
	h := q.h
	fw := q.fw
	fw.start(h, sources, false)
	for fw.heap.len() > 0 {
		v, d := fw.heap.pop()
		for i := h.UpFirst[v]; i < h.UpFirst[v+1]; i++ {
			fw.relax(h.UpHead[i], d+h.UpWeight[i], v, int32(i))
		}
	}
	if cap(q.all) < len(s.nodes) {
		q.all = make([]int64, len(s.nodes))
	}
	all := q.all[:len(s.nodes)]
	lab, epoch := fw.lab, fw.epoch
	for k, v := range s.nodes {
		d := Inf
		if lab[v].stamp == epoch {
			d = lab[v].d
		}
		for i := s.first[k]; i < s.first[k+1]; i++ {
			if du := all[s.tail[i]]; du != Inf {
				if c := du + s.weight[i]; c < d {
					d = c
				}
			}
		}
		all[k] = d
	}
	for j, locs := range s.targets {
		for e, k := range locs {
			d := all[k]
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
