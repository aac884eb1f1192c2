package routing

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/geosvc/geosvc/routing/cch"
	"github.com/geosvc/geosvc/routing/ch"
)

// Targets is the destination side of a many-to-many table: the CH buckets
// of every destination for one metric, or the CCH buckets of a custom
// metric. Build it once per destination list; it answers any subset of
// origin rows, from any number of goroutines.
type Targets struct {
	graph  *Graph
	metric chMetric
	eps    [][]ch.Endpoint
	n      int

	// A customized metric's targets: built at once.
	custom *customMetric
	ctg    *cch.Targets

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

// Bytes returns the memory the targets hold, for cache accounting: their
// buckets once built (see Build), not the custom metric they share. It
// builds nothing.
func (t *Targets) Bytes() int64 {
	n := int64(t.n)*48 + 64
	if t.ctg != nil {
		n += t.ctg.Bytes()
	}
	if b := t.buckets.Load(); b != nil {
		n += b.Bytes()
	}
	return n
}

// Build builds the buckets now (with the workers the targets were made
// with) rather than in the first table that needs them: call it before
// sharing the targets between chunks so that Bytes counts them. A custom
// metric's targets are built already.
func (t *Targets) Build() {
	if t.custom == nil {
		t.chBuckets()
	}
}

// chBuckets returns the CH buckets of the targets, building them on first
// call (nil for a custom metric's targets).
func (t *Targets) chBuckets() *ch.Buckets {
	if t.custom != nil {
		return nil
	}
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

// NewTargets prepares the destination side of tables for metric m, its
// buckets built on workers goroutines. For plain Fastest and Shortest the
// CH buckets are built by the first table that needs them (or by Build);
// any other metric is customized on first use (and cached by the graph)
// and its CCH buckets are built at once. The destinations must be snapped
// with the same metric (Snap, SnapAll); one that is not OK gives NoRoute
// cells. It returns ctx's error if ctx ends during a customization.
func (g *Graph) NewTargets(ctx context.Context, m Metric, dst []Snap, workers int) (*Targets, error) {
	h, ok := m.hierarchy()
	if ok {
		return g.newTargets(h, dst, workers), nil
	}
	cm, err := g.customMetric(ctx, m)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return cm.newTargets(dst, workers), nil
}

// newTargets builds the destination side of tables on the metric, on
// workers goroutines.
func (cm *customMetric) newTargets(dst []Snap, workers int) *Targets {
	eps := make([][]cch.Endpoint, len(dst))
	for j, s := range dst {
		eps[j] = cm.endpoints(s, false, nil)
	}
	return &Targets{graph: cm.g, metric: chFastest, n: len(dst), custom: cm, ctg: cm.m.NewTargets(eps, workers)}
}

func (g *Graph) newTargets(m chMetric, dst []Snap, workers int) *Targets {
	eps := make([][]ch.Endpoint, len(dst))
	for j, s := range dst {
		eps[j] = g.targetEndpoints(m, s, nil)
	}
	return &Targets{graph: g, metric: m, eps: eps, n: len(dst), workers: workers}
}

// parallelBuckets builds the buckets with the backward searches spread
// over workers goroutines.
func (g *Graph) parallelBuckets(m chMetric, eps [][]ch.Endpoint, workers int) *ch.Buckets {
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

// tableCheckRows is how many rows a table computes between two looks at
// its context.
const tableCheckRows = 8

// Table computes every source row against the targets on one goroutine.
// It returns ctx's error soon after ctx ends (checked every few rows).
func (g *Graph) Table(ctx context.Context, src []Snap, t *Targets) (Table, error) {
	tab := newTable(len(src), t.n)
	for lo := 0; lo < len(src); lo += tableCheckRows {
		if err := ctx.Err(); err != nil {
			return Table{}, err
		}
		g.fillRows(src, t, tab, lo, min(lo+tableCheckRows, len(src)))
	}
	return tab, nil
}

// Matrix is the convenience form of NewTargets + Table for a small table,
// on one goroutine.
func (g *Graph) Matrix(ctx context.Context, m Metric, src, dst []Snap) (Table, error) {
	t, err := g.NewTargets(ctx, m, dst, 1)
	if err != nil {
		return Table{}, err
	}
	return g.Table(ctx, src, t)
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
	if t.custom != nil {
		g.fillCustomRows(src, t, tab, lo, hi)
		return
	}
	m := t.metric
	sweep := t.usePHAST(len(src))
	var b *ch.Buckets
	var sel *ch.Selection
	if sweep {
		sel = t.selection()
	} else {
		b = t.chBuckets()
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

// fillCustomRows is fillRows on a custom metric's CCH buckets.
func (g *Graph) fillCustomRows(src []Snap, t *Targets, tab Table, lo, hi int) {
	cm := t.custom
	q := cm.pool.Get().(*cch.Query)
	defer cm.pool.Put(q)
	row := make([]cch.Weight, t.n)
	var eps []cch.Endpoint
	for i := lo; i < hi; i++ {
		eps = cm.endpoints(src[i], true, eps)
		q.Row(eps, t.ctg, row)
		base := i * t.n
		for j, w := range row {
			if w.IsInf() {
				tab.Durations[base+j], tab.Distances[base+j] = NoRoute, NoRoute
				continue
			}
			tab.Durations[base+j], tab.Distances[base+j] = toUnits(chFastest, w.S)
		}
	}
}
