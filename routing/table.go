package routing

import (
	"sync"

	"github.com/geosvc/geosvc/routing/ch"
)

// Targets is the destination side of a many-to-many table: the CH buckets
// of every destination for one metric. Build it once per destination list;
// it answers any subset of origin rows, from any number of goroutines.
type Targets struct {
	metric  Metric
	buckets *ch.Buckets
	n       int
}

// Metric returns the metric the targets were built for.
func (t *Targets) Metric() Metric { return t.metric }

// Len returns the number of destinations (table columns).
func (t *Targets) Len() int { return t.n }

// Bytes returns the memory the targets hold, for cache accounting.
func (t *Targets) Bytes() int64 { return t.buckets.Bytes() + 64 }

// NewTargets builds the destination-side buckets for metric m. A
// destination that is not OK gives NoRoute cells.
func (g *Graph) NewTargets(m Metric, dst []Snap) *Targets {
	eps := make([][]ch.Endpoint, len(dst))
	for j, s := range dst {
		eps[j] = g.targetEndpoints(m, s, nil)
	}
	q := g.query(m)
	b := q.NewBuckets(eps)
	g.release(m, q)
	return &Targets{metric: m, buckets: b, n: len(dst)}
}

// NewTargetsParallel is NewTargets with the backward searches spread over
// workers goroutines.
func (g *Graph) NewTargetsParallel(m Metric, dst []Snap, workers int) *Targets {
	if workers <= 1 || len(dst) < 64 {
		return g.NewTargets(m, dst)
	}
	eps := make([][]ch.Endpoint, len(dst))
	for j, s := range dst {
		eps[j] = g.targetEndpoints(m, s, nil)
	}
	parts := make([][][]ch.Endpoint, workers)
	offsets := make([]int, workers)
	per := (len(dst) + workers - 1) / workers
	for w := range parts {
		lo := min(w*per, len(dst))
		hi := min(lo+per, len(dst))
		parts[w], offsets[w] = eps[lo:hi], lo
	}
	qs := make([]*ch.Query, workers)
	for w := range qs {
		qs[w] = g.query(m)
	}
	b := ch.NewBucketsParallel(qs, parts, offsets, len(dst))
	for _, q := range qs {
		g.release(m, q)
	}
	return &Targets{metric: m, buckets: b, n: len(dst)}
}

// Table computes every source row against the targets on one goroutine.
func (g *Graph) Table(src []Snap, t *Targets) Table {
	tab := newTable(len(src), t.n)
	g.fillRows(src, t, tab, 0, len(src))
	return tab
}

// TableParallel is Table spread over workers goroutines.
func (g *Graph) TableParallel(src []Snap, t *Targets, workers int) Table {
	if workers <= 1 || len(src) < 2 {
		return g.Table(src, t)
	}
	tab := newTable(len(src), t.n)
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	const grain = 8
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				lo := next
				next += grain
				mu.Unlock()
				if lo >= len(src) {
					return
				}
				hi := min(lo+grain, len(src))
				g.fillRows(src, t, tab, lo, hi)
			}
		}()
	}
	wg.Wait()
	return tab
}

// Matrix is the convenience form of NewTargets + Table.
func (g *Graph) Matrix(m Metric, src, dst []Snap) Table {
	return g.Table(src, g.NewTargets(m, dst))
}

func newTable(rows, cols int) Table {
	return Table{Rows: rows, Cols: cols, Durations: make([]int32, rows*cols), Distances: make([]int32, rows*cols)}
}

func (g *Graph) fillRows(src []Snap, t *Targets, tab Table, lo, hi int) {
	m := t.metric
	q := g.query(m)
	defer g.release(m, q)
	row := make([]int64, t.n)
	var eps []ch.Endpoint
	for i := lo; i < hi; i++ {
		eps = g.sourceEndpoints(m, src[i], eps)
		q.Row(eps, t.buckets, row)
		base := i * t.n
		for j, w := range row {
			if w == ch.Inf {
				tab.Durations[base+j], tab.Distances[base+j] = NoRoute, NoRoute
				continue
			}
			tab.Durations[base+j], tab.Distances[base+j] = toUnits(m, w)
		}
	}
}
