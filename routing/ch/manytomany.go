package ch

import "sync"

// Buckets is the target side of a many-to-many query (Knopp et al. 2007):
// for every node reached by a backward upward search from some target, the
// targets and their labels there. Built once, it answers any subset of
// source rows, from any number of goroutines.
type Buckets struct {
	// Targets is the number of targets (table columns).
	Targets int
	// Node v's entries are target[first[v]:first[v+1]] with labels in dist,
	// by ascending target.
	first  []uint32
	target []uint32
	dist   []int64
	// negative has bit v set when node v holds a negative label (a
	// target's own node), where a loop may be needed.
	negative []uint64
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
	entries := q.bucketEntries(targets, 0, nil)
	return q.h.bucketsOf(len(targets), entries)
}

// NewBucketsParallel builds the buckets of parts[w] (targets offsets[w]
// onwards) with query qs[w], one goroutine per part, then merges them.
// parts must cover targets 0..total-1 in order.
func NewBucketsParallel(qs []*Query, parts [][][]Endpoint, offsets []int, total int) *Buckets {
	results := make([][]bucketEntry, len(parts))
	var wg sync.WaitGroup
	for w := range parts {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			results[w] = qs[w].bucketEntries(parts[w], offsets[w], nil)
		}(w)
	}
	wg.Wait()
	n := 0
	for _, r := range results {
		n += len(r)
	}
	all := make([]bucketEntry, 0, n)
	for _, r := range results {
		all = append(all, r...)
	}
	return qs[0].h.bucketsOf(total, all)
}

// bucketEntries appends the entries of targets[i] as target offset+i.
func (q *Query) bucketEntries(targets [][]Endpoint, offset int, entries []bucketEntry) []bucketEntry {
	h := q.h
	bw := q.bw
	for j, eps := range targets {
		if len(eps) == 0 {
			continue
		}
		bw.start(h, eps, false)
		for bw.heap.len() > 0 {
			v, d := bw.heap.pop()
			if h.stalledBackward(bw, v, d) {
				continue
			}
			entries = append(entries, bucketEntry{node: v, target: uint32(offset + j), dist: d})
			for i := h.DownFirst[v]; i < h.DownFirst[v+1]; i++ {
				bw.relax(h.DownTail[i], d+h.DownWeight[i], v, int32(i))
			}
		}
	}
	return entries
}

// bucketsOf groups entries (in ascending target order) by node with a
// counting sort, which keeps each node's entries in target order.
func (h *Hierarchy) bucketsOf(targets int, entries []bucketEntry) *Buckets {
	b := &Buckets{
		Targets:  targets,
		first:    make([]uint32, h.N+1),
		target:   make([]uint32, len(entries)),
		dist:     make([]int64, len(entries)),
		negative: make([]uint64, (h.N+63)/64),
	}
	for _, e := range entries {
		b.first[e.node+1]++
	}
	for v := 0; v < h.N; v++ {
		b.first[v+1] += b.first[v]
	}
	for _, e := range entries {
		k := b.first[e.node]
		b.first[e.node]++
		b.target[k] = e.target
		b.dist[k] = e.dist
		if e.dist < 0 {
			b.negative[e.node/64] |= 1 << (e.node % 64)
		}
	}
	// The fill advanced every first[v] to first[v+1]: shift back.
	copy(b.first[1:], b.first[:h.N])
	b.first[0] = 0
	return b
}

// Bytes returns the memory held by the buckets.
func (b *Buckets) Bytes() int64 {
	return int64(len(b.first))*4 + int64(len(b.target))*12 + int64(len(b.negative))*8
}

// Entries returns the number of bucket entries.
func (b *Buckets) Entries() int { return len(b.target) }

// Row fills row (len b.Targets) with the least weight from the source
// endpoints to every target, Inf where there is none.
func (q *Query) Row(sources []Endpoint, b *Buckets, row []int64) {
	clearRow(row)
	if len(sources) == 0 {
		return
	}
	h := q.h
	fw := q.fw
	fw.start(h, sources, false)
	for fw.heap.len() > 0 {
		v, d := fw.heap.pop()
		if h.stalledForward(fw, v, d) {
			continue
		}
		if lo, hi := b.first[v], b.first[v+1]; lo < hi {
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
			if b.negative[v/64]&(1<<(v%64)) != 0 && h.Loop[v] != Inf {
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
