package routing

import (
	"container/list"
	"context"
	"sync"
)

// defaultMetricCacheBytes bounds a graph's cache of customized metrics
// until SetMetricCacheBytes changes it.
const defaultMetricCacheBytes = 512 << 20

// metricCache keeps customized metrics by their metricKey (the Metric
// with its areas' SHA-256 in place of their encoding), least recently
// used first out once their bytes
// exceed the bound. Concurrent callers of one metric customize it once:
// the others wait for it. It is safe for concurrent use.
type metricCache struct {
	g *Graph

	mu       sync.Mutex
	maxBytes int64
	bytes    int64
	entries  map[metricKey]*metricEntry
	lru      *list.List // of *metricEntry, most recent at the front

	customizations int64 // counted for tests and metrics
}

// metricKey is a metric's cache key: its objective, speeds and avoid
// flags, and its areas' SHA-256, so that the key stays small however many
// vertices the areas have.
type metricKey struct {
	objective Objective
	speeds    [numRoadTypes]float64
	avoid     Avoid
	areas     [32]byte
	profile   Profile
	vehicle   Vehicle
	bucket    SpeedBucket
	turns     int16
}

// keyOf returns m's cache key.
func keyOf(m Metric) metricKey {
	if !m.Bucket.changes() {
		m.Bucket = SpeedBucket{}
	}
	return metricKey{objective: m.Objective, speeds: m.Speeds, avoid: m.Avoid, areas: m.Areas.Hash(), profile: m.Profile, vehicle: m.Vehicle, bucket: m.Bucket, turns: m.Turns}
}

type metricEntry struct {
	key  metricKey
	spec Metric
	done chan struct{} // closed when m or err is set
	m    *customMetric
	err  error
	elem *list.Element // nil until done without error
}

// newMetricCache returns a cache of g's custom metrics bounded to
// maxBytes (one metric is kept even when it alone is larger).
func newMetricCache(g *Graph, maxBytes int64) *metricCache {
	return &metricCache{g: g, maxBytes: maxBytes, entries: map[metricKey]*metricEntry{}, lru: list.New()}
}

// SetMetricCacheBytes sets the bound of the graph's cache of customized
// metrics (512 MiB until set), dropping the least recently used ones
// beyond it.
func (g *Graph) SetMetricCacheBytes(n int64) {
	c := g.metrics
	c.mu.Lock()
	c.maxBytes = n
	c.evict()
	c.mu.Unlock()
}

// customMetric returns the customized metric of m from the graph's
// cache, customizing it (once for concurrent callers) on a miss. It
// returns ctx's error if ctx ends first.
func (g *Graph) customMetric(ctx context.Context, m Metric) (*customMetric, error) {
	return g.metrics.get(ctx, m)
}

// get returns the customized metric of spec; see Graph.customMetric.
func (c *metricCache) get(ctx context.Context, spec Metric) (*customMetric, error) {
	key := keyOf(spec)
	for {
		c.mu.Lock()
		e, ok := c.entries[key]
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
		e = &metricEntry{key: key, spec: spec, done: make(chan struct{})}
		c.entries[key] = e
		c.customizations++
		c.mu.Unlock()

		m, err := c.g.customize(ctx, spec)
		c.mu.Lock()
		e.m, e.err = m, err
		if err != nil {
			delete(c.entries, key)
		} else {
			e.elem = c.lru.PushFront(e)
			c.bytes += m.bytes()
			c.evict()
		}
		c.mu.Unlock()
		close(e.done)
		return m, err
	}
}

// evict drops least recently used metrics until the bytes fit, keeping
// the newest. c.mu is held.
func (c *metricCache) evict() {
	for c.bytes > c.maxBytes && c.lru.Len() > 1 {
		e := c.lru.Remove(c.lru.Back()).(*metricEntry)
		delete(c.entries, e.key)
		c.bytes -= e.m.bytes()
	}
}

// dropUnheld drops the cached metrics whose speed version held no
// longer accepts (a metric being customized stays until done).
func (c *metricCache) dropUnheld(held func(version string) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.entries {
		if k.bucket.IsZero() || e.elem == nil || held(k.bucket.Version) {
			continue
		}
		c.lru.Remove(e.elem)
		delete(c.entries, k)
		c.bytes -= e.m.bytes()
	}
}

// specsOf returns up to n cached metrics of buckets of speed version v
// that change times, most recently used first.
func (c *metricCache) specsOf(v string, n int) []Metric {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Metric
	for el := c.lru.Front(); el != nil && len(out) < n; el = el.Next() {
		e := el.Value.(*metricEntry)
		if e.key.bucket.Version == v && e.key.bucket.changes() {
			out = append(out, e.spec)
		}
	}
	return out
}

// stats returns the number of cached metrics, their bytes and the
// customizations run so far.
func (c *metricCache) stats() (metrics int, bytes, customizations int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len(), c.bytes, c.customizations
}

// MetricCacheStats returns the number of customized metrics the graph
// keeps, their bytes and the customizations run so far.
func (g *Graph) MetricCacheStats() (metrics int, bytes, customizations int64) {
	return g.metrics.stats()
}

// cchInput returns the turn arcs of the edge-based graph as CCH input
// arcs (arc i is the turn at index i of g.base) and every node's
// coordinate: the midpoint of its road segment.
func (g *Graph) cchInput() (tails []uint32, coords [][2]float64) {
	b := &g.base
	n := len(b.nodeEdge)
	tails = make([]uint32, len(b.turnHead))
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
	return tails, coords
}
