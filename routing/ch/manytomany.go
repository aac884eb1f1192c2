package ch

import "sort"

// Buckets is the target side of a many-to-many query (Knopp et al. 2007):
// for every node reached by a backward upward search from some target, the
// targets and their labels there. Built once, it answers any subset of
// source rows, from any number of goroutines.
type Buckets struct {
	h *Hierarchy
	// Targets is the number of targets (table columns).
	Targets int
	// first[v]..first[v+1] index v's entries in target and dist; only nodes
	// in nodes have entries, first is indexed through slot.
	nodes  []uint32 // nodes with entries, ascending
	first  []uint32 // len(nodes)+1
	target []uint32
	dist   []int64
	dense  []int32 // dense[v] = index into nodes, or -1
	// negative[i] is true when node nodes[i] holds a negative entry (a
	// target's own node), where a loop may be needed.
	negative []bool
}

type bucketEntry struct {
	node   uint32
	target uint32
	dist   int64
}

// NewBuckets runs the backward search from every target (each a set of
// endpoints; an empty set is an unreachable target) and collects the
// buckets. q provides the workspace.
func (q *Query) NewBuckets(targets [][]Endpoint) *Buckets {
	h := q.h
	bw := q.bw
	var entries []bucketEntry
	for j, eps := range targets {
		if len(eps) == 0 {
			continue
		}
		bw.reset()
		for _, e := range eps {
			bw.relax(e.Node, e.Init, e.Node, -1)
		}
		for bw.heap.len() > 0 {
			v, d := bw.heap.pop()
			if h.stalledBackward(bw, v, d) {
				continue
			}
			entries = append(entries, bucketEntry{node: v, target: uint32(j), dist: d})
			for i := h.DownFirst[v]; i < h.DownFirst[v+1]; i++ {
				bw.relax(h.DownTail[i], d+h.DownWeight[i], v, int32(i))
			}
		}
	}
	sort.Slice(entries, func(a, b int) bool {
		if entries[a].node != entries[b].node {
			return entries[a].node < entries[b].node
		}
		return entries[a].target < entries[b].target
	})
	b := &Buckets{h: h, Targets: len(targets)}
	b.target = make([]uint32, len(entries))
	b.dist = make([]int64, len(entries))
	b.dense = make([]int32, h.N)
	for i := range b.dense {
		b.dense[i] = -1
	}
	for i, e := range entries {
		if len(b.nodes) == 0 || b.nodes[len(b.nodes)-1] != e.node {
			b.dense[e.node] = int32(len(b.nodes))
			b.nodes = append(b.nodes, e.node)
			b.first = append(b.first, uint32(i))
			b.negative = append(b.negative, false)
		}
		b.target[i] = e.target
		b.dist[i] = e.dist
		if e.dist < 0 {
			b.negative[len(b.negative)-1] = true
		}
	}
	b.first = append(b.first, uint32(len(entries)))
	return b
}

// Bytes returns the memory held by the buckets.
func (b *Buckets) Bytes() int64 {
	return int64(len(b.dense))*4 + int64(len(b.nodes))*9 + int64(len(b.first))*4 +
		int64(len(b.target))*12
}

// Entries returns the number of bucket entries.
func (b *Buckets) Entries() int { return len(b.target) }

// Row fills row (len b.Targets) with the least weight from the source
// endpoints to every target, Inf where there is none.
func (q *Query) Row(sources []Endpoint, b *Buckets, row []int64) {
	for j := range row {
		row[j] = Inf
	}
	if len(sources) == 0 {
		return
	}
	h := q.h
	fw := q.fw
	fw.reset()
	for _, e := range sources {
		fw.relax(e.Node, e.Init, e.Node, -1)
	}
	for fw.heap.len() > 0 {
		v, d := fw.heap.pop()
		if h.stalledForward(fw, v, d) {
			continue
		}
		if s := b.dense[v]; s >= 0 {
			lo, hi := b.first[s], b.first[s+1]
			tg := b.target[lo:hi]
			ds := b.dist[lo:hi]
			for k, t := range tg {
				c := d + ds[k]
				// A negative sum is the invalid meeting of a source and a
				// target on one node, target behind: it never wins here.
				if uint64(c) < uint64(row[t]) {
					row[t] = c
				}
			}
			if b.negative[s] && h.Loop[v] != Inf {
				for k, t := range tg {
					if c := d + ds[k]; c < 0 {
						if c += h.Loop[v]; c < row[t] {
							row[t] = c
						}
					}
				}
			}
		}
		for i := h.UpFirst[v]; i < h.UpFirst[v+1]; i++ {
			fw.relax(h.UpHead[i], d+h.UpWeight[i], v, int32(i))
		}
	}
}
