package worker

import (
	"runtime"

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

// graphEngine is the engine of a routing graph. Its destination buckets
// are built with every CPU: the other chunks of the job wait for them.
type graphEngine struct{ g *routing.Graph }

func (e graphEngine) SnapAll(pts []orb.Point, radiusM float64) []routing.Snap {
	return e.g.SnapAll(pts, radiusM)
}

func (e graphEngine) Targets(m routing.Metric, dst []routing.Snap) (targets, int64) {
	t := e.g.NewTargetsParallel(m, dst, runtime.GOMAXPROCS(0))
	return t, t.Bytes() // Bytes builds the buckets, here and once

}

func (e graphEngine) Table(src []routing.Snap, t targets) routing.Table {
	return e.g.Table(src, t.(*routing.Targets))
}
