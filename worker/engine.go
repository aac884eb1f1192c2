package worker

import (
	"context"
	"runtime"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing"
)

// targets is an engine's destination side of a table, opaque to the worker.
type targets any

// engine is the part of the routing engine a worker calls. *routing.Graph
// provides it through graphEngine; tests give one of their own.
type engine interface {
	// SnapAll places every point on a road the metric does not avoid,
	// pts[i] with opts[i] (opts nil: the default rule for all).
	SnapAll(m routing.Metric, pts []orb.Point, radiusM float64, opts []routing.SnapOptions) []routing.Snap
	// Targets builds the destination side for the metric (customizing it
	// on first use) and returns it with the bytes it holds.
	Targets(ctx context.Context, m routing.Metric, dst []routing.Snap) (targets, int64, error)
	// Table computes src against every target.
	Table(ctx context.Context, src []routing.Snap, t targets) (routing.Table, error)
}

// graphEngine is the engine of a routing graph. Its destination buckets
// are built with every CPU: the other chunks of the job wait for them.
// Default fastest and shortest use the contraction hierarchies; any other
// metric its customized CCH metric, cached by the graph.
type graphEngine struct{ g *routing.Graph }

func (e graphEngine) SnapAll(m routing.Metric, pts []orb.Point, radiusM float64, opts []routing.SnapOptions) []routing.Snap {
	return e.g.SnapAllWith(m, pts, radiusM, opts)
}

func (e graphEngine) Targets(ctx context.Context, m routing.Metric, dst []routing.Snap) (targets, int64, error) {
	t, err := e.g.NewTargets(ctx, m, dst, runtime.GOMAXPROCS(0))
	if err != nil {
		return nil, 0, err
	}
	t.Build() // here and once, before the chunks share them
	return t, t.Bytes(), nil
}

func (e graphEngine) Table(ctx context.Context, src []routing.Snap, t targets) (routing.Table, error) {
	return e.g.Table(ctx, src, t.(*routing.Targets))
}
