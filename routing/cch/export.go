package cch

import (
	"errors"
	"math"
)

// Hierarchy is a perfectly customized metric as a contraction hierarchy
// in the topology's order, numbered as package ch numbers its nodes:
// internal id n-1-rank, so 0 is the top of the order. Weights are packed
// into one int64, W<<32 + S, whose order is the lexicographic order of
// the pairs while W < 2^31 and S < 2^32 (package routing packs its
// hierarchies' time and distance so).
// Every arc direction perfect customization kept is there, with the
// middle node of the lower triangle its weight came from (-1 for an input
// arc), so that a path unpacks into input arcs through arcs of the
// hierarchy; the loops likewise. Arc lists are in CSR form, like ch's.
type Hierarchy struct {
	// Order maps a caller's node id to its internal id.
	Order []uint32
	// UpFirst[v]..UpFirst[v+1] index the arcs v->UpHead[i] to higher
	// nodes (lower ids), of weight UpWeight[i] and middle UpMid[i].
	UpFirst  []uint32
	UpHead   []uint32
	UpWeight []int64
	UpMid    []int32
	// DownFirst[v]..DownFirst[v+1] index the arcs DownTail[i]->v from
	// higher nodes.
	DownFirst  []uint32
	DownTail   []uint32
	DownWeight []int64
	DownMid    []int32
	// Loop[v] is the cheapest cycle v->...->v through lower nodes (Inf's W
	// when none), LoopMid[v] its middle (-1 for an input self-loop).
	Loop    []int64
	LoopMid []int32
}

// errNotPerfect is returned by Hierarchy for a metric customized without
// Options.Perfect.
var errNotPerfect = errors.New("cch: a hierarchy needs a perfect customization")

// Hierarchy returns the metric as a contraction hierarchy: the arc
// directions perfect customization kept, with their W weights and the
// middle node each unpacks through. It needs Options.Perfect.
func (m *Metric) Hierarchy() (*Hierarchy, error) {
	if !m.perfect {
		return nil, errNotPerfect
	}
	t := m.t
	n := t.n
	arcs := len(t.upHead)
	// The middle of every kept arc direction: the lower triangle that
	// gives its weight, or -1 for an input arc that does.
	upMid := make([]int32, arcs)
	downMid := make([]int32, arcs)
	const unset = math.MinInt32
	for a := range upMid {
		upMid[a], downMid[a] = unset, unset
		if m.w[a].Up.W == infW {
			upMid[a] = -2
		}
		if m.w[a].Down.W == infW {
			downMid[a] = -2
		}
	}
	for i, v := range t.input {
		if v&selfLoop != 0 {
			continue
		}
		a, down := v>>1, v&1 != 0
		w := m.input[i]
		switch {
		case !down && upMid[a] == unset && w == m.w[a].Up:
			upMid[a] = -1
		case down && downMid[a] == unset && w == m.w[a].Down:
			downMid[a] = -1
		}
	}
	mark := make([]int32, n)
	for i := range mark {
		mark[i] = -1
	}
	for x := uint32(0); x < uint32(n); x++ {
		lo, hi := t.upFirst[x], t.upFirst[x+1]
		for a := lo; a < hi; a++ {
			mark[t.upHead[a]] = int32(a)
		}
		// Every triangle z < x < y: Down(z,x) + Up(z,y) is x->y, Down(z,y)
		// + Up(z,x) is y->x.
		for i := t.downFirst[x]; i < t.downFirst[x+1]; i++ {
			z, za := t.downTail[i], t.downArc[i]
			wzx := m.w[za]
			for b := za + 1; b < t.upFirst[z+1]; b++ {
				c := mark[t.upHead[b]]
				if c < 0 {
					continue
				}
				wzy := m.w[b]
				if upMid[c] == unset && wzx.Down.W != infW && wzy.Up.W != infW && wzx.Down.Add(wzy.Up) == m.w[c].Up {
					upMid[c] = int32(z)
				}
				if downMid[c] == unset && wzy.Down.W != infW && wzx.Up.W != infW && wzy.Down.Add(wzx.Up) == m.w[c].Down {
					downMid[c] = int32(z)
				}
			}
		}
		for a := lo; a < hi; a++ {
			mark[t.upHead[a]] = -1
		}
	}
	for a := range upMid {
		if upMid[a] == unset || downMid[a] == unset {
			return nil, errors.New("cch: a kept arc has neither an input arc nor a lower triangle of its weight")
		}
		for _, w := range [2]Weight{m.w[a].Up, m.w[a].Down} {
			if w.W != infW && (w.W >= 1<<31 || w.S >= 1<<32) {
				return nil, errors.New("cch: an arc weight too large to pack into W<<32 + S")
			}
		}
	}
	id := func(rank uint32) uint32 { return uint32(n-1) - rank }
	midID := func(mid int32) int32 {
		if mid < 0 {
			return -1
		}
		return int32(id(uint32(mid)))
	}
	h := &Hierarchy{Order: make([]uint32, n), Loop: make([]int64, n), LoopMid: make([]int32, n)}
	for v, r := range t.rank {
		h.Order[v] = id(r)
	}
	// Up arcs of rank x are its CCH arcs' Up directions; down arcs into x
	// their Down directions. Internal ids run down the ranks.
	h.UpFirst = make([]uint32, n+1)
	h.DownFirst = make([]uint32, n+1)
	for v := 0; v < n; v++ {
		x := uint32(n - 1 - v)
		h.UpFirst[v] = uint32(len(h.UpHead))
		h.DownFirst[v] = uint32(len(h.DownTail))
		for a := t.upFirst[x]; a < t.upFirst[x+1]; a++ {
			y := id(t.upHead[a])
			if upMid[a] != -2 {
				h.UpHead = append(h.UpHead, y)
				h.UpWeight = append(h.UpWeight, packed(m.w[a].Up))
				h.UpMid = append(h.UpMid, midID(upMid[a]))
			}
			if downMid[a] != -2 {
				h.DownTail = append(h.DownTail, y)
				h.DownWeight = append(h.DownWeight, packed(m.w[a].Down))
				h.DownMid = append(h.DownMid, midID(downMid[a]))
			}
		}
		// The loop of x (its middle: loopMids).
		h.Loop[v], h.LoopMid[v] = packed(m.loop[x]), -1
	}
	h.UpFirst[n] = uint32(len(h.UpHead))
	h.DownFirst[n] = uint32(len(h.DownTail))
	m.loopMids(h, id)
	return h, nil
}

// loopMids sets the middle of every loop of h: -1 where an input
// self-loop gives its weight, else the lower neighbour z whose arcs down
// and back up give it.
func (m *Metric) loopMids(h *Hierarchy, id func(uint32) uint32) {
	t := m.t
	self := make([]bool, t.n)
	for i, v := range t.input {
		if v&selfLoop != 0 {
			if x := v &^ selfLoop; m.input[i] == m.loop[x] {
				self[x] = true
			}
		}
	}
	for x := 0; x < t.n; x++ {
		v := id(uint32(x))
		if m.loop[x].W == infW || self[x] {
			continue
		}
		for i := t.downFirst[x]; i < t.downFirst[x+1]; i++ {
			wa := m.w[t.downArc[i]] // Up: z->x, Down: x->z
			if wa.Up.W != infW && wa.Down.W != infW && wa.Down.Add(wa.Up) == m.loop[x] {
				h.LoopMid[v] = int32(id(t.downTail[i]))
				break
			}
		}
	}
}

// packed is w as W<<32 + S, math.MaxInt64 for no path.
func packed(w Weight) int64 {
	if w.W == infW {
		return math.MaxInt64
	}
	return w.W<<32 + w.S
}
