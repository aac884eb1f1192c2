package worker

import (
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing"
)

// targets is an engine's destination side of a table, opaque to the worker.
type targets any

// engine is the part of the routing engine a worker calls. *routing.Graph
// provides it through graphEngine; tests give one of their own.
type engine interface {
	// SnapAll places every point on the road network.
	SnapAll(pts []orb.Point, radiusM float64) []routing.Snap
	// Targets builds the destination side for metric m and returns it with
	// the bytes it holds.
	Targets(m routing.Metric, dst []routing.Snap) (targets, int64)
	// Table computes src against every target.
	Table(src []routing.Snap, t targets) routing.Table
}

// graphEngine is the engine of a routing graph.
type graphEngine struct{ g *routing.Graph }

func (e graphEngine) SnapAll(pts []orb.Point, radiusM float64) []routing.Snap {
	return e.g.SnapAll(pts, radiusM)
}

func (e graphEngine) Targets(m routing.Metric, dst []routing.Snap) (targets, int64) {
	t := e.g.NewTargets(m, dst)
	return t, t.Bytes()
}

func (e graphEngine) Table(src []routing.Snap, t targets) routing.Table {
	return e.g.Table(src, t.(*routing.Targets))
}
