package cch

import (
	"context"
	"fmt"
	"sync"
)

// arcWeight is one CCH arc's weights: Up from its tail (lower rank) to its
// head, Down from its head to its tail.
type arcWeight struct {
	Up, Down Weight
}

// Metric is a Topology customized for one set of arc weights. It is
// read-only and safe for concurrent queries, each with its own Query.
type Metric struct {
	t     *Topology
	w     []arcWeight
	loop  []Weight // per rank: cheapest cycle through lower nodes
	input []Weight // the caller's arc weights, for path unpacking
	// perfect says whether arcs not needed by queries were removed (set
	// to Inf) after perfect customization.
	perfect bool
	removed []uint8 // during perfect customization: 1 up, 2 down lowered
}

// Options tune a customization.
type Options struct {
	// Workers is the number of goroutines (default 1).
	Workers int
	// Perfect runs the perfect customization after the basic one and
	// removes every arc direction whose weight it lowered: such an arc
	// is never needed by a query, and the remaining arcs are exact
	// shortest-path weights.
	Perfect bool
}

// Customize computes the metric of the given input arc weights
// (arcWeights[i] for input arc i; a W of MaxW or more, or Inf, makes the
// arc unusable; W and S must be >= 0). The metric keeps a reference to
// arcWeights for path unpacking: do not modify it afterwards. It returns
// ctx's error soon after ctx is done.
func (t *Topology) Customize(ctx context.Context, arcWeights []Weight, opt Options) (*Metric, error) {
	if len(arcWeights) != len(t.input) {
		return nil, fmt.Errorf("%w: %d arc weights for %d input arcs", errInput, len(arcWeights), len(t.input))
	}
	workers := max(opt.Workers, 1)
	m := &Metric{t: t, w: make([]arcWeight, len(t.upHead)), loop: make([]Weight, t.n), input: arcWeights, perfect: opt.Perfect}
	for i := range m.w {
		m.w[i] = arcWeight{Inf, Inf}
	}
	for i := range m.loop {
		m.loop[i] = Inf
	}
	for i, v := range t.input {
		w := arcWeights[i]
		if w.W >= maxW || w.W < 0 || w.S < 0 {
			continue
		}
		switch {
		case v&selfLoop != 0:
			if x := v &^ selfLoop; w.Less(m.loop[x]) {
				m.loop[x] = w
			}
		case v&1 == 0:
			if p := &m.w[v>>1].Up; w.Less(*p) {
				*p = w
			}
		default:
			if p := &m.w[v>>1].Down; w.Less(*p) {
				*p = w
			}
		}
	}
	sched := t.schedule(workers)
	err := t.run(ctx, sched, true, m.lowerTriangles)
	if err == nil && opt.Perfect {
		m.removed = make([]uint8, len(m.w))
		err = t.run(ctx, sched, false, m.upperTriangles)
		m.removeLowered()
		m.keptLoops()
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// removeLowered sets the arc directions marked by upperTriangles to Inf.
func (m *Metric) removeLowered() {
	for a, r := range m.removed {
		if r&1 != 0 {
			m.w[a].Up = Inf
		}
		if r&2 != 0 {
			m.w[a].Down = Inf
		}
	}
	m.removed = nil
}

// scratch is one worker's marks: mark[y] is the arc x->y of the node x
// being customized, -1 else; buf (pbuf for packed weights) keeps x's arc
// weights before perfect customization.
type scratch struct {
	mark []int32
	buf  []arcWeight
	pbuf []packedArc
}

// run calls work for every node: bottom-up (ascending ranks: the
// subtrees of the schedule in parallel, then the top nodes) or top-down
// (the reverse).
func (t *Topology) run(ctx context.Context, sched *schedule, up bool, work func(s *scratch, x uint32)) error {
	scr := make([]*scratch, len(sched.parts))
	for i := range scr {
		scr[i] = &scratch{mark: make([]int32, t.n)}
		for j := range scr[i].mark {
			scr[i].mark[j] = -1
		}
	}
	// sweep runs work over nodes in the direction of the pass, checking
	// ctx every few thousand nodes.
	sweep := func(s *scratch, nodes []uint32) {
		for i := range nodes {
			if i%4096 == 0 && ctx.Err() != nil {
				return
			}
			if up {
				work(s, nodes[i])
			} else {
				work(s, nodes[len(nodes)-1-i])
			}
		}
	}
	parallel := func() {
		var wg sync.WaitGroup
		for w, part := range sched.parts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sweep(scr[w], part)
			}()
		}
		wg.Wait()
	}
	if up {
		parallel()
		if ctx.Err() == nil {
			sweep(scr[0], sched.top)
		}
	} else {
		sweep(scr[0], sched.top)
		if ctx.Err() == nil {
			parallel()
		}
	}
	return ctx.Err()
}

// lowerTriangles is the basic customization of node x: every arc x->y
// and y->x is lowered through every lower node z adjacent to both (the
// arcs of z are final), and x's loop through every lower neighbour.
func (m *Metric) lowerTriangles(s *scratch, x uint32) {
	t := m.t
	lo, hi := t.upFirst[x], t.upFirst[x+1]
	for a := lo; a < hi; a++ {
		s.mark[t.upHead[a]] = int32(a)
	}
	m.loop[x] = m.lowerRange(s.mark, t.downFirst[x], t.downFirst[x+1], m.w, 0, m.loop[x])
	for a := lo; a < hi; a++ {
		s.mark[t.upHead[a]] = -1
	}
}

// lowerRange lowers the arcs of a node x (marked in mark: mark[y] is the
// arc x->y) through the lower neighbours of the down entries i0..i1, in
// out[arc - base], and returns loop lowered by their cycles.
func (m *Metric) lowerRange(mark []int32, i0, i1 uint32, out []arcWeight, base uint32, loop Weight) Weight {
	t := m.t
	w := m.w
	for i := i0; i < i1; i++ {
		z, a := t.downTail[i], t.downArc[i]
		wa := w[a] // Up: z->x, Down: x->z
		if wa.Up.W == infW && wa.Down.W == infW {
			continue
		}
		if wa.Up.W != infW && wa.Down.W != infW {
			if c := wa.Up.Add(wa.Down); c.Less(loop) {
				loop = c
			}
		}
		end := t.upFirst[z+1]
		for b := a + 1; b < end; b++ {
			wb := &w[b]                                // Up: z->y, Down: y->z
			wc := &out[uint32(mark[t.upHead[b]])-base] // Up: x->y, Down: y->x
			if wa.Down.W != infW && wb.Up.W != infW {
				cw, cs := wa.Down.W+wb.Up.W, wa.Down.S+wb.Up.S
				if cw < wc.Up.W || (cw == wc.Up.W && cs < wc.Up.S) {
					wc.Up = Weight{cw, cs}
				}
			}
			if wa.Up.W != infW && wb.Down.W != infW {
				cw, cs := wb.Down.W+wa.Up.W, wb.Down.S+wa.Up.S
				if cw < wc.Down.W || (cw == wc.Down.W && cs < wc.Down.S) {
					wc.Down = Weight{cw, cs}
				}
			}
		}
	}
	return loop
}

// upperTriangles is the perfect customization of node x, run from the
// top of the order down: every arc between x and an upper neighbour u is
// lowered through every other upper neighbour v (the arc u-v is exact
// already), which makes x's arcs exact; then every arc direction the
// step lowered is removed, since a shortest path through a higher node
// replaces it.
func (m *Metric) upperTriangles(s *scratch, x uint32) {
	t := m.t
	lo, hi := t.upFirst[x], t.upFirst[x+1]
	s.buf = append(s.buf[:0], m.w[lo:hi]...) // basic weights
	for a := lo; a < hi; a++ {
		s.mark[t.upHead[a]] = int32(a)
	}
	m.upperRange(s.mark, lo, hi, s.buf, m.w[lo:hi], lo)
	for a := lo; a < hi; a++ {
		s.mark[t.upHead[a]] = -1
		var r uint8
		if m.w[a].Up.Less(s.buf[a-lo].Up) {
			r |= 1
		}
		if m.w[a].Down.Less(s.buf[a-lo].Down) {
			r |= 2
		}
		m.removed[a] = r
	}
}

// upperRange lowers, in out[arc - base], the arcs between x (marked in
// mark) and its upper neighbours through the upper triangles of the arcs
// a0..a1 of x, reading x's arcs from basic.
func (m *Metric) upperRange(mark []int32, a0, a1 uint32, basic, out []arcWeight, base uint32) {
	t := m.t
	for a := a0; a < a1; a++ {
		u := t.upHead[a]
		wa := basic[a-base] // Up: x->u, Down: u->x
		oa := &out[a-base]
		for b := t.upFirst[u]; b < t.upFirst[u+1]; b++ {
			c := mark[t.upHead[b]]
			if c < 0 {
				continue
			}
			wb := m.w[b]                // Up: u->v, Down: v->u (exact)
			wc := basic[uint32(c)-base] // Up: x->v, Down: v->x
			oc := &out[uint32(c)-base]
			relax(&oc.Up, wa.Up, wb.Up)
			relax(&oc.Down, wb.Down, wa.Down)
			relax(&oa.Up, wc.Up, wb.Down)
			relax(&oa.Down, wb.Up, wc.Down)
		}
	}
}

// keptLoops recomputes the loops from the arcs that perfect customization
// kept, so that a loop always unpacks into kept arcs: a cycle through
// lower nodes that is a shortest cycle uses kept arcs only, and any other
// is beaten by a search meeting above the node.
func (m *Metric) keptLoops() {
	t := m.t
	for x := range m.loop {
		m.loop[x] = Inf
	}
	for i, v := range t.input {
		if w := m.input[i]; v&selfLoop != 0 && w.W < maxW && w.W >= 0 && w.S >= 0 {
			if x := v &^ selfLoop; w.Less(m.loop[x]) {
				m.loop[x] = w
			}
		}
	}
	for x := 0; x < t.n; x++ {
		for i := t.downFirst[x]; i < t.downFirst[x+1]; i++ {
			wa := m.w[t.downArc[i]]
			relax(&m.loop[x], wa.Down, wa.Up)
		}
	}
}

// relax lowers *p to a+b when that is less.
func relax(p *Weight, a, b Weight) {
	if a.W == infW || b.W == infW {
		return
	}
	if c := a.Add(b); c.Less(*p) {
		*p = c
	}
}

// Bytes returns the memory the metric holds (not counting the input
// weights it refers to), for the accounting of a cache of metrics.
func (m *Metric) Bytes() int64 {
	return int64(len(m.w))*32 + int64(len(m.loop))*16 + 64
}
