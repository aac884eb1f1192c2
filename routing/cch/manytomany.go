package cch

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
)

// Targets is the target side of a many-to-many query: for every node that
// the elimination-tree searches from the targets reach, the targets and
// their labels there (buckets, ordered by node). Built once, it answers
// any subset of source rows from any number of goroutines.
type Targets struct {
	m *Metric
	n int // targets (table columns)
	// first[x]..first[x+1] index the entries of node x (rank).
	first   []uint32
	target  []uint32
	dist    []Weight
	minDist Weight // the least bucket label (0 when none is negative)
}

type bucketEntry struct {
	node, target uint32
	dist         Weight
}

// NewTargets runs the backward elimination-tree search of every target
// (each a set of endpoints; an empty set is an unreachable target) on up
// to workers goroutines and collects the buckets.
func (m *Metric) NewTargets(targets [][]Endpoint, workers int) *Targets {
	workers = max(1, min(workers, len(targets)))
	parts := make([][]bucketEntry, workers)
	per := (len(targets) + workers - 1) / workers
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			lo, hi := min(w*per, len(targets)), min((w+1)*per, len(targets))
			q := m.NewQuery()
			var out []bucketEntry
			for j := lo; j < hi; j++ {
				out = q.bucketEntries(targets[j], uint32(j), out)
			}
			parts[w] = out
		}(w)
	}
	wg.Wait()
	tg := &Targets{m: m, n: len(targets), first: make([]uint32, m.t.n+1)}
	total := 0
	for _, p := range parts {
		total += len(p)
		for _, e := range p {
			tg.first[e.node+1]++
		}
	}
	for x := 0; x < m.t.n; x++ {
		tg.first[x+1] += tg.first[x]
	}
	tg.target = make([]uint32, total)
	tg.dist = make([]Weight, total)
	fill := slices.Clone(tg.first[:m.t.n])
	for _, p := range parts {
		for _, e := range p {
			k := fill[e.node]
			fill[e.node]++
			tg.target[k], tg.dist[k] = e.target, e.dist
			if e.dist.Less(tg.minDist) {
				tg.minDist = e.dist
			}
		}
	}
	return tg
}

// bucketEntries appends the entries of the backward search from eps.
func (q *Query) bucketEntries(eps []Endpoint, target uint32, out []bucketEntry) []bucketEntry {
	q.reset()
	if len(eps) == 0 {
		return out
	}
	m := q.m
	t := m.t
	q.seed(q.bw, q.bwArc, eps)
	for {
		x, ok := q.pop()
		if !ok {
			break
		}
		bx := q.bw[x]
		if bx.W == infW || m.stalled(q.bw, x, bx, false) {
			continue
		}
		out = append(out, bucketEntry{x, target, bx})
		for a := t.upFirst[x]; a < t.upFirst[x+1]; a++ {
			wa := m.w[a].Down
			if wa.W == infW {
				continue
			}
			y := t.upHead[a]
			if c := bx.Add(wa); c.Less(q.bw[y]) {
				q.bw[y] = c
			}
		}
	}
	return out
}

// stalled reports whether the label d of x in a forward (or backward)
// elimination-tree search is beaten by a label already found at a higher
// neighbour y plus the arc y->x (x->y): then d is not a shortest-path
// distance, so no shortest path meets or passes at x with it, and the
// search neither records nor relaxes it (stall-on-demand; the labels of
// higher nodes are upper bounds of real paths at any time).
func (m *Metric) stalled(lab []Weight, x uint32, d Weight, forward bool) bool {
	t := m.t
	for a := t.upFirst[x]; a < t.upFirst[x+1]; a++ {
		ly := lab[t.upHead[a]]
		if ly.W == infW {
			continue
		}
		wa := m.w[a].Down // y->x
		if !forward {
			wa = m.w[a].Up // x->y
		}
		if wa.W == infW {
			continue
		}
		if c := ly.Add(wa); c.Less(d) {
			return true
		}
	}
	return false
}

// Bytes returns the memory the targets hold.
func (tg *Targets) Bytes() int64 {
	return int64(len(tg.first))*4 + int64(len(tg.target))*20 + 64
}

// Row fills row (one cell per target) with the least weight from the
// source endpoints to every target, Inf where there is none.
func (q *Query) Row(sources []Endpoint, tg *Targets, row []Weight) {
	q.rowWithin(sources, tg, Inf, row)
}

// rowWithin is Row for the targets within limit: a cell above limit is
// Inf, and the search stops relaxing where every target would be (a
// one-to-many proximity search).
func (q *Query) rowWithin(sources []Endpoint, tg *Targets, limit Weight, row []Weight) {
	for j := range row {
		row[j] = Inf
	}
	q.reset()
	if len(sources) == 0 {
		return
	}
	m := q.m
	t := m.t
	q.seed(q.fw, q.fwArc, sources)
	for {
		x, ok := q.pop()
		if !ok {
			break
		}
		fx := q.fw[x]
		if fx.W == infW || m.stalled(q.fw, x, fx, true) {
			continue
		}
		// Labels above x only grow: past the limit (less the most
		// negative bucket label) nothing is left to find from x.
		if limit.W != infW && limit.Less(Weight{fx.W + tg.minDist.W, fx.S + tg.minDist.S}) {
			continue
		}
		lo, hi := tg.first[x], tg.first[x+1]
		ds := tg.dist[lo:hi]
		for k, j := range tg.target[lo:hi] {
			d := ds[k]
			cw, cs := fx.W+d.W, fx.S+d.S
			if cw < 0 || (cw == 0 && cs < 0) {
				// The target lies behind the source on x: go round.
				l := m.loop[x]
				if l.W == infW {
					continue
				}
				cw, cs = cw+l.W, cs+l.S
			}
			if r := &row[j]; cw < r.W || (cw == r.W && cs < r.S) {
				*r = Weight{cw, cs}
			}
		}
		for a := t.upFirst[x]; a < t.upFirst[x+1]; a++ {
			wa := m.w[a].Up
			if wa.W == infW {
				continue
			}
			y := t.upHead[a]
			if c := fx.Add(wa); c.Less(q.fw[y]) {
				q.fw[y] = c
			}
		}
	}
	if limit.W != infW {
		for j := range row {
			if limit.Less(row[j]) {
				row[j] = Inf
			}
		}
	}
}

// Table fills out (row-major, len(sources) x the number of targets) with
// the least weights from every source to every target, on up to workers
// goroutines. It returns ctx's error soon after ctx is done, leaving out
// partly filled.
func (m *Metric) Table(ctx context.Context, sources [][]Endpoint, tg *Targets, workers int, out []Weight) error {
	cols := tg.n
	var next atomic.Int64
	const grain = 8
	var wg sync.WaitGroup
	workers = max(1, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := m.NewQuery()
			for ctx.Err() == nil {
				lo := int(next.Add(grain)) - grain
				if lo >= len(sources) {
					return
				}
				for i := lo; i < min(lo+grain, len(sources)); i++ {
					q.Row(sources[i], tg, out[i*cols:(i+1)*cols])
				}
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}
