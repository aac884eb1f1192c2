package ch

import "sync"

// Buckets is the target side of a many-to-many query (Knopp et al. 2007):
// for every node reached by a backward upward search from some target, the
// targets and their labels there. Built once, it answers any subset of
// source rows, from any number of goroutines.
type Buckets struct {
	// targets is the number of targets (table columns).
	targets int
	// The nodes with entries are found through an open-addressing table:
	// slots[i] is a node id + 1 (0 = empty) and slotBucket[i] its bucket
	// number k, whose entries are target[first[k]:first[k+1]] with labels
	// in dist, by ascending target. The table is sized to the buckets, not
	// to the graph, so small target sets stay small and cache-resident.
	slots      []uint32
	slotBucket []uint32
	shift      uint32
	first      []uint32
	target     []uint32
	dist       []int64
	// negative[k] is true when bucket k holds a negative label (a target's
	// own node), where a loop may be needed.
	negative []bool
}

// slotOf returns the table position of node v: its slot, or the empty
// slot where it would go.
func (b *Buckets) slotOf(v uint32) uint32 {
	mask := uint32(len(b.slots) - 1)
	i := (v * 0x9E3779B1) >> b.shift
	for {
		if s := b.slots[i]; s == 0 || s == v+1 {
			return i
		}
		i = (i + 1) & mask
	}
}

// bucket returns node v's bucket number, or -1.
func (b *Buckets) bucket(v uint32) int {
	i := b.slotOf(v)
	if b.slots[i] == 0 {
		return -1
	}
	return int(b.slotBucket[i])
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
// counting sort over the nodes' table slots, which keeps each node's
// entries in target order.
func (h *Hierarchy) bucketsOf(targets int, entries []bucketEntry) *Buckets {
	b := &Buckets{targets: targets}
	// A table of at least twice as many slots as entries has room for
	// every distinct node at a load of at most one half.
	size, shift := 16, uint32(28)
	for size < 2*len(entries) {
		size <<= 1
		shift--
	}
	b.slots = make([]uint32, size)
	b.slotBucket = make([]uint32, size)
	b.shift = shift
	counts := make([]uint32, 0, len(entries)/8+1)
	for _, e := range entries {
		i := b.slotOf(e.node)
		if b.slots[i] == 0 {
			b.slots[i] = e.node + 1
			b.slotBucket[i] = uint32(len(counts))
			counts = append(counts, 0)
		}
		counts[b.slotBucket[i]]++
	}
	n := len(counts)
	b.first = make([]uint32, n+1)
	for k, c := range counts {
		b.first[k+1] = b.first[k] + c
	}
	fill := counts[:0]
	fill = append(fill, b.first[:n]...)
	b.target = make([]uint32, len(entries))
	b.dist = make([]int64, len(entries))
	b.negative = make([]bool, n)
	for _, e := range entries {
		k := b.slotBucket[b.slotOf(e.node)]
		j := fill[k]
		fill[k]++
		b.target[j] = e.target
		b.dist[j] = e.dist
		if e.dist < 0 {
			b.negative[k] = true
		}
	}
	return b
}

// Entries returns the number of bucket entries: the sum over the
// targets of their backward search spaces, which a row scans a share of
// at every node it settles (the hierarchy's order decides it).
func (b *Buckets) Entries() int { return len(b.target) }

// Bytes returns the memory held by the buckets.
func (b *Buckets) Bytes() int64 {
	return int64(len(b.slots))*8 + int64(len(b.first))*5 + int64(len(b.target))*12
}

// Row fills row (len b.Targets) with the least weight from the source
// endpoints to every target, Inf where there is none.
func (q *Query) Row(sources []Endpoint, b *Buckets, row []int64) {
	fw := q.startRow(sources, row)
	if fw == nil {
		return
	}
	h := q.h
	for fw.heap.len() > 0 {
		v, d := fw.heap.pop()
		if h.stalledForward(fw, v, d) {
			continue
		}
		if k := b.bucket(v); k >= 0 {
			lo, hi := b.first[k], b.first[k+1]
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
			if b.negative[k] && h.Loop[v] != Inf {
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
