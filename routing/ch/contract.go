package ch

import (
	"runtime"
)

// The greedy contraction (node priorities by edge difference, lazy
// updates, witness searches bounded by settled nodes). Its order depends
// on the metric, so its searches are smaller than those of a hierarchy
// derived from a nested-dissection order (cch.Topology.HierarchyOf), but
// it costs more to build: package routing contracts small networks this
// way and derives the hierarchies of large ones from the CCH.

// Arc is an input arc of the graph to contract. Weights must be >= 0.
type Arc struct {
	From, To uint32
	Weight   int64
}

// Options tune the contraction.
type Options struct {
	// witnessSettleLimit bounds each witness search of a contraction by
	// settled nodes (default 400). Lower is faster to build and adds more
	// shortcuts.
	witnessSettleLimit int
	// simulationSettleLimit bounds the witness searches that estimate a
	// node's priority (default 40).
	simulationSettleLimit int
	// neighbourUpdates recomputes the priorities of a contracted node's
	// neighbours at once. Off by default: priorities are then refreshed
	// lazily when a node reaches the top of the queue. On the Delaware
	// edge-based graph neighbour updates cost 45 % more build time for 3 %
	// fewer shortcuts and no faster queries.
	neighbourUpdates bool
	// neighbourWeight weighs the number of contracted neighbours in the
	// priority. The default 0 leaves the spreading to the level term
	// (the depth of the contracted neighbours plus one), which on the
	// Delaware edge-based graph orders better: weights 0.5, 1 and 2 gave
	// 13 %, 29 % and 47 % more shortcuts and 1.9x to 3.1x slower
	// 1000 x 1000 tables.
	neighbourWeight float64
}

type dynArc struct {
	node uint32
	mid  int32
	hops uint32
	w    int64
}

type contractor struct {
	n               int
	out, in         [][]dynArc
	contracted      []bool
	level           []int32
	deleted         []int32 // contracted neighbours
	neighbourWeight float64
	loop            []int64
	loopMid         []int32
	limit           int
	simLimit        int
	lazyOnly        bool
	tStamp          []uint32 // witness targets of the current search

	// witness search state
	wDist  []int64
	wStamp []uint32
	wEpoch uint32
	wHeap  *minHeap

	shortcuts []pendingShortcut
	loops     []pendingShortcut
}

type pendingShortcut struct {
	from, to uint32
	w        int64
	hops     uint32
}

// Contract builds the hierarchy of a graph with n nodes.
func Contract(n int, arcs []Arc, opt Options) *Hierarchy {
	if opt.witnessSettleLimit <= 0 {
		opt.witnessSettleLimit = 400
	}
	if opt.simulationSettleLimit <= 0 {
		opt.simulationSettleLimit = 40
	}
	c := &contractor{
		n:               n,
		out:             make([][]dynArc, n),
		in:              make([][]dynArc, n),
		contracted:      make([]bool, n),
		level:           make([]int32, n),
		deleted:         make([]int32, n),
		neighbourWeight: opt.neighbourWeight,
		loop:            make([]int64, n),
		loopMid:         make([]int32, n),
		limit:           opt.witnessSettleLimit,
		simLimit:        opt.simulationSettleLimit,
		lazyOnly:        !opt.neighbourUpdates,
		wDist:           make([]int64, n),
		wStamp:          make([]uint32, n),
		tStamp:          make([]uint32, n),
		wHeap:           newMinHeap(n),
	}
	for i := range c.loop {
		c.loop[i] = Inf
		c.loopMid[i] = -1
	}
	outDeg := make([]int32, n)
	inDeg := make([]int32, n)
	for _, a := range arcs {
		if a.From != a.To {
			outDeg[a.From]++
			inDeg[a.To]++
		}
	}
	for v := 0; v < n; v++ {
		c.out[v] = make([]dynArc, 0, outDeg[v])
		c.in[v] = make([]dynArc, 0, inDeg[v])
	}
	for _, a := range arcs {
		if a.From == a.To {
			if a.Weight < c.loop[a.From] {
				c.loop[a.From] = a.Weight
				c.loopMid[a.From] = -1
			}
			continue
		}
		c.addArc(a.From, a.To, a.Weight, -1, 1)
	}
	return c.run()
}

// addArc inserts u->v or lowers the weight of an existing one.
func (c *contractor) addArc(u, v uint32, w int64, mid int32, hops uint32) {
	outs := c.out[u]
	for i := range outs {
		if outs[i].node == v {
			if w < outs[i].w {
				outs[i].w, outs[i].mid, outs[i].hops = w, mid, hops
				ins := c.in[v]
				for j := range ins {
					if ins[j].node == u {
						ins[j].w, ins[j].mid, ins[j].hops = w, mid, hops
						break
					}
				}
			}
			return
		}
	}
	c.out[u] = append(outs, dynArc{node: v, w: w, mid: mid, hops: hops})
	c.in[v] = append(c.in[v], dynArc{node: u, w: w, mid: mid, hops: hops})
}

func removeArc(list []dynArc, node uint32) []dynArc {
	for i := range list {
		if list[i].node == node {
			last := len(list) - 1
			list[i] = list[last]
			return list[:last]
		}
	}
	return list
}

// witness runs a Dijkstra from s over uncontracted nodes, skipping skip,
// until maxW is exceeded, every target (nodes whose tStamp is the current
// epoch) is settled, or limit nodes are. Distances are read with wd.
func (c *contractor) witness(s, skip uint32, maxW int64, targets, limit int) {
	h := c.wHeap
	h.clear()
	c.wStamp[s] = c.wEpoch
	c.wDist[s] = 0
	h.push(s, 0)
	settled := 0
	for h.len() > 0 {
		u, d := h.pop()
		if d > maxW {
			break
		}
		settled++
		if c.tStamp[u] == c.wEpoch {
			if targets--; targets == 0 {
				break
			}
		}
		if settled > limit {
			break
		}
		for _, a := range c.out[u] {
			if a.node == skip {
				continue
			}
			nd := d + a.w
			if c.wStamp[a.node] != c.wEpoch {
				c.wStamp[a.node] = c.wEpoch
				c.wDist[a.node] = nd
				h.push(a.node, nd)
			} else if nd < c.wDist[a.node] {
				c.wDist[a.node] = nd
				h.push(a.node, nd)
			}
		}
	}
}

// nextEpoch starts a new witness search generation.
func (c *contractor) nextEpoch() {
	c.wEpoch++
	if c.wEpoch == 0 {
		clear(c.wStamp)
		clear(c.tStamp)
		c.wEpoch = 1
	}
}

func (c *contractor) wd(v uint32) int64 {
	if c.wStamp[v] != c.wEpoch {
		return Inf
	}
	return c.wDist[v]
}

// shortcutsFor computes the shortcuts contracting v needs into c.shortcuts,
// and the cycles u->v->u it closes into c.loops.
func (c *contractor) shortcutsFor(v uint32, limit int) {
	c.shortcuts = c.shortcuts[:0]
	c.loops = c.loops[:0]
	ins, outs := c.in[v], c.out[v]
	if len(ins) == 0 || len(outs) == 0 {
		return
	}
	var maxOut int64
	for _, o := range outs {
		if o.w > maxOut {
			maxOut = o.w
		}
	}
	for _, i := range ins {
		u := i.node
		needSearch := false
		for _, o := range outs {
			if o.node != u {
				needSearch = true
				break
			}
		}
		if needSearch {
			c.nextEpoch()
			targets := 0
			for _, o := range outs {
				if o.node != u && c.tStamp[o.node] != c.wEpoch {
					c.tStamp[o.node] = c.wEpoch
					targets++
				}
			}
			c.witness(u, v, i.w+maxOut, targets, limit)
		}
		for _, o := range outs {
			w := i.w + o.w
			if o.node == u {
				c.loops = append(c.loops, pendingShortcut{from: u, to: u, w: w})
				continue
			}
			if c.wd(o.node) <= w {
				continue
			}
			c.shortcuts = append(c.shortcuts, pendingShortcut{from: u, to: o.node, w: w, hops: i.hops + o.hops})
		}
	}
}

// priority returns the contraction priority of v (lower contracts
// earlier): its level plus the arc and hop quotients of simulating it.
func (c *contractor) priority(v uint32) int64 {
	c.shortcutsFor(v, c.simLimit)
	removed := len(c.in[v]) + len(c.out[v])
	var removedHops uint32
	for _, a := range c.in[v] {
		removedHops += a.hops
	}
	for _, a := range c.out[v] {
		removedHops += a.hops
	}
	var addedHops uint32
	for _, s := range c.shortcuts {
		addedHops += s.hops
	}
	p := float64(c.level[v]) + c.neighbourWeight*float64(c.deleted[v])
	if removed > 0 {
		p += 2 * float64(len(c.shortcuts)) / float64(removed)
	}
	if removedHops > 0 {
		p += float64(addedHops) / float64(removedHops)
	}
	return int64(p * 1024)
}

type frozenArc struct {
	other uint32
	mid   int32
	w     int64
}

func (c *contractor) run() *Hierarchy {
	n := c.n
	pq := newMinHeap(n)
	for v := 0; v < n; v++ {
		pq.push(uint32(v), c.priority(uint32(v)))
	}
	rank := make([]uint32, n)
	up := make([][]frozenArc, n)
	down := make([][]frozenArc, n)
	var next uint32
	neighbours := make([]uint32, 0, 64)
	mark := make([]bool, n)
	for pq.len() > 0 {
		v, _ := pq.pop()
		// Lazy update.
		if p := c.priority(v); pq.len() > 0 && p > pq.minKey() {
			pq.push(v, p)
			continue
		}
		c.shortcutsFor(v, c.limit)
		for _, l := range c.loops {
			if l.w < c.loop[l.from] {
				c.loop[l.from] = l.w
				c.loopMid[l.from] = int32(v)
			}
		}
		rank[v] = next
		next++
		c.contracted[v] = true
		// Freeze v's arcs: every remaining neighbour ranks above v.
		for _, a := range c.out[v] {
			up[v] = append(up[v], frozenArc{other: a.node, mid: a.mid, w: a.w})
		}
		for _, a := range c.in[v] {
			down[v] = append(down[v], frozenArc{other: a.node, mid: a.mid, w: a.w})
		}
		neighbours = neighbours[:0]
		for _, a := range c.out[v] {
			c.in[a.node] = removeArc(c.in[a.node], v)
			if !mark[a.node] {
				mark[a.node] = true
				neighbours = append(neighbours, a.node)
			}
		}
		for _, a := range c.in[v] {
			c.out[a.node] = removeArc(c.out[a.node], v)
			if !mark[a.node] {
				mark[a.node] = true
				neighbours = append(neighbours, a.node)
			}
		}
		pend := append([]pendingShortcut(nil), c.shortcuts...)
		for _, s := range pend {
			c.addArc(s.from, s.to, s.w, int32(v), s.hops)
		}
		c.out[v], c.in[v] = nil, nil
		for _, u := range neighbours {
			mark[u] = false
			if c.level[u] < c.level[v]+1 {
				c.level[u] = c.level[v] + 1
			}
			c.deleted[u]++
			if !c.lazyOnly {
				pq.set(u, c.priority(u))
			}
		}
		if next%65536 == 0 {
			runtime.Gosched()
		}
	}
	return freeze(n, rank, up, down, c.loop, c.loopMid)
}

// freeze lays the hierarchy out for queries. Nodes are renumbered by
// descending rank, so that the top of the hierarchy, which every search
// visits, is packed at the start of every array, and a downward sweep in
// rank order is a linear pass.
func freeze(n int, rank []uint32, up, down [][]frozenArc, loop []int64, loopMid []int32) *Hierarchy {
	h := &Hierarchy{N: n, Order: make([]uint32, n), orig: make([]uint32, n)}
	for v := 0; v < n; v++ {
		id := uint32(n-1) - rank[v]
		h.Order[v] = id
		h.orig[id] = uint32(v)
	}
	remap := func(lists [][]frozenArc) [][]frozenArc {
		out := make([][]frozenArc, n)
		for v, l := range lists {
			m := make([]frozenArc, len(l))
			for i, a := range l {
				m[i] = frozenArc{other: h.Order[a.other], mid: a.mid, w: a.w}
				if a.mid >= 0 {
					m[i].mid = int32(h.Order[a.mid])
				}
			}
			out[h.Order[v]] = m
		}
		return out
	}
	h.UpFirst, h.UpHead, h.UpWeight, h.UpMid = toCSR(n, remap(up))
	h.DownFirst, h.DownTail, h.DownWeight, h.DownMid = toCSR(n, remap(down))
	h.Loop = make([]int64, n)
	h.LoopMid = make([]int32, n)
	for v := 0; v < n; v++ {
		id := h.Order[v]
		h.Loop[id] = loop[v]
		h.LoopMid[id] = loopMid[v]
		if loopMid[v] >= 0 {
			h.LoopMid[id] = int32(h.Order[loopMid[v]])
		}
	}
	return h
}

func toCSR(n int, lists [][]frozenArc) (first, other []uint32, w []int64, mid []int32) {
	first = make([]uint32, n+1)
	total := 0
	for v, l := range lists {
		first[v] = uint32(total)
		total += len(l)
	}
	first[n] = uint32(total)
	other = make([]uint32, 0, total)
	w = make([]int64, 0, total)
	mid = make([]int32, 0, total)
	for _, l := range lists {
		for _, a := range l {
			other = append(other, a.other)
			w = append(w, a.w)
			mid = append(mid, a.mid)
		}
	}
	return first, other, w, mid
}
