package routing

import (
	"sync"
	"sync/atomic"

	"github.com/geosvc/geosvc/routing/ch"
)

// Targets is the destination side of a many-to-many table: the CH buckets
// of every destination for one metric. Build it once per destination list;
// it answers any subset of origin rows, from any number of goroutines.
type Targets struct {
	graph  *Graph
	metric Metric
	eps    [][]ch.Endpoint
	n      int

	// The buckets are built on first use by a table with enough rows; a
	// table of a few rows sweeps the targets' part of the hierarchy
	// instead (RPHAST), which costs less than building buckets.
	once    sync.Once
	workers int
	buckets atomic.Pointer[ch.Buckets]
	selOnce sync.Once
	sel     *ch.Selection
}

// sweepRows is the largest table height answered by sweeps rather than by
// buckets, when the buckets do not exist yet.
const sweepRows = 8

// selection returns the RPHAST selection of the targets, built on first
// call.
func (t *Targets) selection() *ch.Selection {
	t.selOnce.Do(func() { t.sel = t.graph.h[t.metric].Select(t.eps) })
	return t.sel
}

// Metric returns the metric the targets were built for.
func (t *Targets) Metric() Metric { return t.metric }

// Len returns the number of destinations (table columns).
func (t *Targets) Len() int { return t.n }

// Bytes returns the memory the targets hold (their buckets once built),
// for cache accounting.
func (t *Targets) Bytes() int64 {
	return int64(t.n)*48 + 64 + t.Buckets().Bytes()
}

// Buckets returns the CH buckets of the targets, building them on first
// call.
func (t *Targets) Buckets() *ch.Buckets {
	t.once.Do(func() {
		g := t.graph
		if t.workers > 1 && t.n >= 64 {
			t.buckets.Store(g.parallelBuckets(t.metric, t.eps, t.workers))
			return
		}
		q := g.query(t.metric)
		t.buckets.Store(q.NewBuckets(t.eps))
		g.release(t.metric, q)
	})
	return t.buckets.Load()
}

// NewTargets prepares the destination side of tables for metric m; the
// buckets are built by the first table that needs them (see Buckets). A
// destination that is not OK gives NoRoute cells.
func (g *Graph) NewTargets(m Metric, dst []Snap) *Targets {
	return g.newTargets(m, dst, 1)
}

// NewTargetsParallel is NewTargets whose buckets, when built, spread the
// backward searches over workers goroutines.
func (g *Graph) NewTargetsParallel(m Metric, dst []Snap, workers int) *Targets {
	return g.newTargets(m, dst, workers)
}

func (g *Graph) newTargets(m Metric, dst []Snap, workers int) *Targets {
	eps := make([][]ch.Endpoint, len(dst))
	for j, s := range dst {
		eps[j] = g.targetEndpoints(m, s, nil)
	}
	return &Targets{graph: g, metric: m, eps: eps, n: len(dst), workers: workers}
}

// parallelBuckets builds the buckets with the backward searches spread
// over workers goroutines.
func (g *Graph) parallelBuckets(m Metric, eps [][]ch.Endpoint, workers int) *ch.Buckets {
	parts := make([][][]ch.Endpoint, workers)
	offsets := make([]int, workers)
	per := (len(eps) + workers - 1) / workers
	for w := range parts {
		lo := min(w*per, len(eps))
		hi := min(lo+per, len(eps))
		parts[w], offsets[w] = eps[lo:hi], lo
	}
	qs := make([]*ch.Query, workers)
	for w := range qs {
		qs[w] = g.query(m)
	}
	b := ch.NewBucketsParallel(qs, parts, offsets, len(eps))
	for _, q := range qs {
		g.release(m, q)
	}
	return b
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
	if !t.usePHAST(len(src)) {
		t.Buckets() // once, before the workers share them
	}
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

// usePHAST reports whether a table of rows rows should sweep rather than
// use (and build) the buckets.
func (t *Targets) usePHAST(rows int) bool {
	return rows <= sweepRows && t.buckets.Load() == nil
}

func (g *Graph) fillRows(src []Snap, t *Targets, tab Table, lo, hi int) {
	m := t.metric
	sweep := t.usePHAST(len(src))
	var b *ch.Buckets
	var sel *ch.Selection
	if sweep {
		sel = t.selection()
	} else {
		b = t.Buckets()
	}
	q := g.query(m)
	defer g.release(m, q)
	row := make([]int64, t.n)
	var eps []ch.Endpoint
	for i := lo; i < hi; i++ {
		eps = g.sourceEndpoints(m, src[i], eps)
		if sweep {
			q.RowSweep(eps, sel, row)
		} else {
			q.Row(eps, b, row)
		}
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
