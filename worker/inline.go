package worker

import (
	"context"
	"errors"
	"sync"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/queue"
)

// Inline computes small matrix orders in the API process, before the
// order returns (api.InlineComputer), on the routing graph of the bundle
// being served: a Computer per bundle, made when the bundle is first
// used, so a new bundle takes over with the next order.
type Inline struct {
	cur         *bundle.Current
	snapRadiusM float64
	metrics     *Metrics

	mu   sync.Mutex
	of   *bundle.Bundle
	comp *Computer
}

// NewInline returns the inline computer of the bundles cur holds,
// snapping within snapRadiusM metres and recording in m as NewComputer
// does.
func NewInline(cur *bundle.Current, snapRadiusM float64, m *Metrics) *Inline {
	return &Inline{cur: cur, snapRadiusM: snapRadiusM, metrics: m}
}

// Ready reports whether a bundle with a routing graph is loaded.
func (i *Inline) Ready() bool {
	b := i.cur.Load()
	return b != nil && b.Graph != nil
}

// ComputeAll computes every chunk of the order on the current bundle.
func (i *Inline) ComputeAll(ctx context.Context, spec *queue.Spec) ([]queue.ChunkResult, error) {
	c := i.computer()
	if c == nil {
		return nil, errors.New("the road graph is not loaded yet")
	}
	return c.ComputeAll(ctx, spec)
}

// computer returns the Computer of the current bundle, nil while none is
// loaded.
func (i *Inline) computer() *Computer {
	b := i.cur.Load()
	if b == nil || b.Graph == nil {
		return nil
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.of != b {
		i.of, i.comp = b, NewComputer(b.Graph, i.snapRadiusM, i.metrics)
	}
	return i.comp
}
