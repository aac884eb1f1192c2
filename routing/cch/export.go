package cch

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// Hierarchy is a contraction hierarchy derived from the topology for one
// metric (HierarchyOf), numbered as package ch numbers its nodes:
// internal id n-1-rank, so 0 is the top of the order. Arc lists are in
// CSR form, like ch's.
type Hierarchy struct {
	// Order maps a caller's node id to its internal id.
	Order []uint32
	// UpFirst[v]..UpFirst[v+1] index the arcs v->UpHead[i] to higher
	// nodes (lower ids), of weight UpWeight[i] and middle UpMid[i] (the
	// lower node the arc's path passes, -1 for an input arc).
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
	// Loop[v] is the cheapest cycle v->...->v through lower nodes
	// (math.MaxInt64 when none), LoopMid[v] its middle (-1 for an input
	// self-loop).
	Loop    []int64
	LoopMid []int32
}

// packedArc is one CCH arc's packed weights and middle nodes during a
// hierarchy derivation: Up from its tail to its head, Down back.
type packedArc struct {
	up, down       int64
	upMid, downMid int32
}

// noPath is the packed weight of no path.
const noPath int64 = math.MaxInt64

// maxPacked bounds a packed input weight: the sum of the weights of a
// path of any length the hierarchy can hold stays below noPath.
const maxPacked int64 = 1 << 58

// HierarchyOf derives the contraction hierarchy of one metric from the
// topology, without witness searches (Dibbelt, Strasser, Wagner,
// "Customizable Contraction Hierarchies", JEA 2016, section 5): a basic
// customization that records, for every arc direction, the lower node of
// the triangle its weight came from; a perfect customization that removes
// every arc direction a path through a higher node beats; the arcs left
// are a contraction hierarchy in the nested-dissection order with exact
// weights, and each unpacks through its middle node into arcs that are
// left too. weights are the input arcs' packed weights (package routing
// packs time and distance as ms<<32 + dm; any monotone packing works), at
// most 2^58 each, math.MaxInt64 for an unusable arc. It needs 24 bytes a
// CCH arc besides the result, on up to workers goroutines, and returns
// ctx's error soon after ctx is done.
func (t *Topology) HierarchyOf(ctx context.Context, weights []int64, workers int) (*Hierarchy, error) {
	if len(weights) != len(t.input) {
		return nil, fmt.Errorf("%w: %d arc weights for %d input arcs", errInput, len(weights), len(t.input))
	}
	w := make([]packedArc, len(t.upHead))
	loop := make([]int64, t.n)
	loopMid := make([]int32, t.n)
	for a := range w {
		w[a] = packedArc{noPath, noPath, -1, -1}
	}
	for x := range loop {
		loop[x], loopMid[x] = noPath, -1
	}
	for i, v := range t.input {
		c := weights[i]
		if c < 0 || c > maxPacked {
			continue
		}
		switch {
		case v&selfLoop != 0:
			if x := v &^ selfLoop; c < loop[x] {
				loop[x] = c
			}
		case v&1 == 0:
			if p := &w[v>>1].up; c < *p {
				*p = c
			}
		default:
			if p := &w[v>>1].down; c < *p {
				*p = c
			}
		}
	}
	d := &deriver{t: t, w: w, loop: loop, loopMid: loopMid, self: slices.Clone(loop)}
	sched := t.schedule(max(workers, 1))
	if err := t.run(ctx, sched, true, d.lowerTriangles); err != nil {
		return nil, err
	}
	// Perfect customization: removed[a] marks the directions a path over a
	// higher node lowered (1 up, 2 down).
	d.removed = make([]uint8, len(w))
	if err := t.run(ctx, sched, false, d.upperTriangles); err != nil {
		return nil, err
	}
	return d.export(), nil
}

// deriver holds one hierarchy derivation's arcs and loops.
type deriver struct {
	t       *Topology
	w       []packedArc
	loop    []int64
	loopMid []int32
	removed []uint8
	// self is the cheapest input self-loop of each rank.
	self []int64
}

// lowerTriangles is the basic customization of node x: every arc x->y
// and y->x is lowered through every lower node z adjacent to both (whose
// arcs are final), remembering z, and x's loop through every lower
// neighbour.
func (d *deriver) lowerTriangles(s *scratch, x uint32) {
	t := d.t
	w := d.w
	lo, hi := t.upFirst[x], t.upFirst[x+1]
	for a := lo; a < hi; a++ {
		s.mark[t.upHead[a]] = int32(a)
	}
	for i := t.downFirst[x]; i < t.downFirst[x+1]; i++ {
		z, a := t.downTail[i], t.downArc[i]
		wa := w[a] // up: z->x, down: x->z
		if wa.up == noPath && wa.down == noPath {
			continue
		}
		if wa.up != noPath && wa.down != noPath && wa.up+wa.down < d.loop[x] {
			d.loop[x], d.loopMid[x] = wa.up+wa.down, int32(z)
		}
		for b := a + 1; b < t.upFirst[z+1]; b++ {
			wb := &w[b]                         // up: z->y, down: y->z
			wc := &w[mark(s.mark, t.upHead[b])] // up: x->y, down: y->x
			if wa.down != noPath && wb.up != noPath {
				if c := wa.down + wb.up; c < wc.up {
					wc.up, wc.upMid = c, int32(z)
				}
			}
			if wa.up != noPath && wb.down != noPath {
				if c := wb.down + wa.up; c < wc.down {
					wc.down, wc.downMid = c, int32(z)
				}
			}
		}
	}
	for a := lo; a < hi; a++ {
		s.mark[t.upHead[a]] = -1
	}
}

// mark returns the arc marked for y.
func mark(m []int32, y uint32) uint32 { return uint32(m[y]) }

// upperTriangles is the perfect customization of node x, run from the
// top down: every arc between x and an upper neighbour u is lowered
// through every other upper neighbour v (the arc u-v is exact already);
// the directions that got lower are marked removed, as a shortest path
// over a higher node replaces them. The weights stay the basic ones: a
// removed direction leaves the hierarchy, a kept one was exact already.
func (d *deriver) upperTriangles(s *scratch, x uint32) {
	t := d.t
	w := d.w
	lo, hi := t.upFirst[x], t.upFirst[x+1]
	s.pbuf = append(s.pbuf[:0], w[lo:hi]...) // lowered copies
	for a := lo; a < hi; a++ {
		s.mark[t.upHead[a]] = int32(a)
	}
	out := s.pbuf
	for a := lo; a < hi; a++ {
		u := t.upHead[a]
		wa := w[a] // up: x->u, down: u->x
		for b := t.upFirst[u]; b < t.upFirst[u+1]; b++ {
			c := s.mark[t.upHead[b]]
			if c < 0 {
				continue
			}
			wb := w[b] // up: u->v, down: v->u (exact: u is above x)
			wc := w[c] // up: x->v, down: v->x
			oc := &out[uint32(c)-lo]
			oa := &out[a-lo]
			lower(&oc.up, wa.up, wb.up)
			lower(&oc.down, wb.down, wa.down)
			lower(&oa.up, wc.up, wb.down)
			lower(&oa.down, wb.up, wc.down)
		}
	}
	for a := lo; a < hi; a++ {
		s.mark[t.upHead[a]] = -1
		var r uint8
		if out[a-lo].up < w[a].up {
			r |= 1
		}
		if out[a-lo].down < w[a].down {
			r |= 2
		}
		d.removed[a] = r
	}
	// The lowered weights are exact: later nodes (lower ranks) read them.
	for a := lo; a < hi; a++ {
		w[a].up, w[a].down = out[a-lo].up, out[a-lo].down
	}
}

// lower lowers *p to a+b when that is less.
func lower(p *int64, a, b int64) {
	if a != noPath && b != noPath && a+b < *p {
		*p = a + b
	}
}

// export returns the kept arc directions as a hierarchy, and the loops
// recomputed over kept arcs only (a loop's arcs must unpack through the
// hierarchy).
func (d *deriver) export() *Hierarchy {
	t := d.t
	n := t.n
	id := func(rank uint32) uint32 { return uint32(n-1) - rank }
	midID := func(mid int32) int32 {
		if mid < 0 {
			return -1
		}
		return int32(id(uint32(mid)))
	}
	kept := func(a uint32, dir uint8) bool { return d.removed[a]&dir == 0 }
	h := &Hierarchy{Order: make([]uint32, n), Loop: make([]int64, n), LoopMid: make([]int32, n),
		UpFirst: make([]uint32, n+1), DownFirst: make([]uint32, n+1)}
	for v, r := range t.rank {
		h.Order[v] = id(r)
	}
	up, down := 0, 0
	for a := range d.w {
		if kept(uint32(a), 1) && d.w[a].up != noPath {
			up++
		}
		if kept(uint32(a), 2) && d.w[a].down != noPath {
			down++
		}
	}
	h.UpHead, h.UpWeight, h.UpMid = make([]uint32, 0, up), make([]int64, 0, up), make([]int32, 0, up)
	h.DownTail, h.DownWeight, h.DownMid = make([]uint32, 0, down), make([]int64, 0, down), make([]int32, 0, down)
	for v := 0; v < n; v++ {
		x := uint32(n - 1 - v)
		h.UpFirst[v] = uint32(len(h.UpHead))
		h.DownFirst[v] = uint32(len(h.DownTail))
		for a := t.upFirst[x]; a < t.upFirst[x+1]; a++ {
			y, wa := id(t.upHead[a]), &d.w[a]
			if kept(a, 1) && wa.up != noPath {
				h.UpHead = append(h.UpHead, y)
				h.UpWeight = append(h.UpWeight, wa.up)
				h.UpMid = append(h.UpMid, midID(wa.upMid))
			}
			if kept(a, 2) && wa.down != noPath {
				h.DownTail = append(h.DownTail, y)
				h.DownWeight = append(h.DownWeight, wa.down)
				h.DownMid = append(h.DownMid, midID(wa.downMid))
			}
		}
		// The loop over kept arcs only, so that it unpacks through the
		// hierarchy: an input self-loop (middle -1), or down to a lower z
		// and back up. A shortest cycle uses kept arcs only; any other is
		// beaten by a search meeting above x.
		h.Loop[v], h.LoopMid[v] = d.self[x], -1
		if d.loopMid[x] >= 0 {
			for i := t.downFirst[x]; i < t.downFirst[x+1]; i++ {
				a := t.downArc[i]
				wa := d.w[a] // up: z->x, down: x->z
				if kept(a, 1) && kept(a, 2) && wa.up != noPath && wa.down != noPath && wa.up+wa.down < h.Loop[v] {
					h.Loop[v], h.LoopMid[v] = wa.up+wa.down, int32(id(t.downTail[i]))
				}
			}
		}
	}
	h.UpFirst[n] = uint32(len(h.UpHead))
	h.DownFirst[n] = uint32(len(h.DownTail))
	return h
}
