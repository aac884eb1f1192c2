package routing

import (
	"container/list"
	"context"
	"sync"
)

// DefaultMetricCacheBytes bounds a graph's cache of customized metrics
// until SetMetricCacheBytes changes it.
const DefaultMetricCacheBytes = 512 << 20

// MetricCache keeps customized metrics by their spec's canonical key, least
// recently used first out once their bytes exceed the bound. Concurrent
// callers of one spec customize it once: the others wait for it. It is
// safe for concurrent use.
type MetricCache struct {
	g *Graph

	mu       sync.Mutex
	maxBytes int64
	bytes    int64
	entries  map[MetricSpec]*metricEntry
	lru      *list.List // of *metricEntry, most recent at the front

	customizations int64 // counted for tests and metrics
}

type metricEntry struct {
	spec MetricSpec
	done chan struct{} // closed when m or err is set
	m    *CustomMetric
	err  error
	elem *list.Element // nil until done without error
}

// NewMetricCache returns a cache of g's custom metrics bounded to
// maxBytes (one metric is kept even when it alone is larger).
func NewMetricCache(g *Graph, maxBytes int64) *MetricCache {
	return &MetricCache{g: g, maxBytes: maxBytes, entries: map[MetricSpec]*metricEntry{}, lru: list.New()}
}

// SetMetricCacheBytes sets the bound of the graph's metric cache.
func (g *Graph) SetMetricCacheBytes(n int64) {
	c := g.metrics
	c.mu.Lock()
	c.maxBytes = n
	c.evict()
	c.mu.Unlock()
}

// CustomMetric returns the customized metric of spec from the graph's
// cache, customizing it (once for concurrent callers) on a miss. It
// returns ctx's error if ctx ends first.
func (g *Graph) CustomMetric(ctx context.Context, spec MetricSpec) (*CustomMetric, error) {
	return g.metrics.Get(ctx, spec)
}

// Get returns the metric of spec; see Graph.CustomMetric.
func (c *MetricCache) Get(ctx context.Context, spec MetricSpec) (*CustomMetric, error) {
	for {
		c.mu.Lock()
		e, ok := c.entries[spec]
		if ok {
			if e.elem != nil {
				c.lru.MoveToFront(e.elem)
				c.mu.Unlock()
				return e.m, nil
			}
			c.mu.Unlock()
			select {
			case <-e.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if e.err == nil {
				return e.m, nil
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue // the customizing caller was cancelled: try again
		}
		e = &metricEntry{spec: spec, done: make(chan struct{})}
		c.entries[spec] = e
		c.customizations++
		c.mu.Unlock()

		m, err := c.g.customize(ctx, spec)
		c.mu.Lock()
		e.m, e.err = m, err
		if err != nil {
			delete(c.entries, spec)
		} else {
			e.elem = c.lru.PushFront(e)
			c.bytes += m.Bytes()
			c.evict()
		}
		c.mu.Unlock()
		close(e.done)
		return m, err
	}
}

// evict drops least recently used metrics until the bytes fit, keeping
// the newest. c.mu is held.
func (c *MetricCache) evict() {
	for c.bytes > c.maxBytes && c.lru.Len() > 1 {
		e := c.lru.Remove(c.lru.Back()).(*metricEntry)
		delete(c.entries, e.spec)
		c.bytes -= e.m.Bytes()
	}
}

// Stats returns the number of cached metrics, their bytes and the
// customizations run so far.
func (c *MetricCache) Stats() (metrics int, bytes, customizations int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len(), c.bytes, c.customizations
}

// MetricCacheStats returns the graph's metric cache statistics; see
// MetricCache.Stats.
func (g *Graph) MetricCacheStats() (metrics int, bytes, customizations int64) {
	return g.metrics.Stats()
}

// cchInput returns the turn arcs of the edge-based graph as CCH input
// arcs (arc i is the turn at index i of g.base) and every node's
// coordinate: the midpoint of its road segment.
func (g *Graph) cchInput() (tails, heads []uint32, coords [][2]float64) {
	b := &g.base
	n := len(b.nodeEdge)
	tails = make([]uint32, len(b.turnHead))
	heads = b.turnHead
	for v := 0; v < n; v++ {
		for i := b.turnFirst[v]; i < b.turnFirst[v+1]; i++ {
			tails[i] = uint32(v)
		}
	}
	coords = make([][2]float64, n)
	for v, id := range b.nodeEdge {
		e := id / 2
		p := cutLine(g.edgeShape(e), g.edgeLen[e], 0.5, 0.5)[0]
		coords[v] = [2]float64{p[0], p[1]}
	}
	return tails, heads, coords
}
