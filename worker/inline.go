package worker

import (
	"context"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/queue"
)

// Inline computes small matrix orders in the API process, before the
// order returns (api.InlineComputer), on the routing graph of the bundle
// the order was taken on (a Computer on the served bundles).
type Inline struct {
	cur *bundle.Current
	c   *Computer
}

// NewInline returns the inline computer of the bundles cur holds,
// snapping within snapRadiusM metres and recording in m as NewComputer
// does.
func NewInline(cur *bundle.Current, snapRadiusM float64, m *Metrics) *Inline {
	return &Inline{cur: cur, c: NewComputer(cur, snapRadiusM, m)}
}

// Ready reports whether a bundle with a routing graph is loaded.
func (i *Inline) Ready() bool {
	b := i.cur.Load()
	return b != nil && b.Graph != nil
}

// ComputeAll computes every chunk of the order on its bundle.
func (i *Inline) ComputeAll(ctx context.Context, spec *queue.Spec) ([]queue.ChunkResult, error) {
	return i.c.ComputeAll(ctx, spec)
}
