package worker

import (
	"context"
	"fmt"
	"sync"
	"time"
	"unsafe"

	"github.com/dgraph-io/ristretto/v2"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/routing"
)

// jobEntry is what a worker keeps per job: the snapped points and the
// destination buckets.
type jobEntry struct {
	spec   *queue.Spec
	metric routing.Metric // spec.Routing, parsed
	// engine is the routing engine of the job's bundle.
	engine  engine
	origins []routing.Snap
	// originMoved and destMoved are, per point, the metres moved to the
	// road (queue.NotSnapped when it could not be snapped).
	originMoved, destMoved []float32
	// originFallback and destFallback are, with a fallback speed, where
	// its distances are measured from (nil without one).
	originFallback, destFallback []orb.Point
	targets                      targets
	bytes                        int64
}

// flight is one build of a job entry in progress.
type flight struct {
	done chan struct{}
	e    *jobEntry
	err  error
}

// jobCache holds job entries in ristretto, cost in bytes, and builds each
// entry once however many chunks of the job ask for it at the same time.
type jobCache struct {
	cache   *ristretto.Cache[string, *jobEntry]
	ttl     time.Duration
	load    func(ctx context.Context, id string) (*jobEntry, error)
	mu      sync.Mutex
	flights map[string]*flight
}

// newJobCache returns a cache of at most maxBytes whose entries are built by
// load and dropped ttl after they were built.
func newJobCache(maxBytes int64, ttl time.Duration, load func(context.Context, string) (*jobEntry, error)) (*jobCache, error) {
	c, err := ristretto.NewCache(&ristretto.Config[string, *jobEntry]{
		NumCounters: 10_000,
		MaxCost:     maxBytes,
		BufferItems: 64,
	})
	if err != nil {
		return nil, err
	}
	return &jobCache{cache: c, ttl: ttl, load: load, flights: map[string]*flight{}}, nil
}

// get returns job id's entry, building it when absent. Callers asking while
// a build runs wait for it.
func (c *jobCache) get(ctx context.Context, id string) (*jobEntry, error) {
	if e, ok := c.cache.Get(id); ok {
		return e, nil
	}
	c.mu.Lock()
	if e, ok := c.cache.Get(id); ok {
		c.mu.Unlock()
		return e, nil
	}
	f, running := c.flights[id]
	if !running {
		f = &flight{done: make(chan struct{})}
		c.flights[id] = f
	}
	c.mu.Unlock()
	if running {
		select {
		case <-f.done:
			return f.e, f.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	c.fly(ctx, id, f)
	return f.e, f.err
}

// fly loads job id for flight f and then, whatever happens (a panic in
// the load included, which becomes an error), ends the flight so that
// waiting chunks of the job never hang on it.
func (c *jobCache) fly(ctx context.Context, id string, f *flight) {
	defer func() {
		if r := recover(); r != nil {
			f.e, f.err = nil, fmt.Errorf("worker: load job %s: panic: %v", id, r)
		}
		c.mu.Lock()
		delete(c.flights, id)
		c.mu.Unlock()
		close(f.done)
	}()
	f.e, f.err = c.load(ctx, id)
	if f.err == nil {
		c.cache.SetWithTTL(id, f.e, f.e.bytes, c.ttl)
		c.cache.Wait()
	}
}

// drop removes job id's entry.
func (c *jobCache) drop(id string) { c.cache.Del(id) }

// close releases the cache.
func (c *jobCache) close() { c.cache.Close() }

// entryBytes estimates the memory of an entry beyond its targets.
func entryBytes(s *queue.Spec, origins []routing.Snap, moved int) int64 {
	const pt = int64(unsafe.Sizeof(s.Origins[0]))
	snap := int64(unsafe.Sizeof(routing.Snap{}))
	return int64(len(s.Origins)+len(s.Destinations))*pt + int64(len(origins))*snap + int64(moved)*4
}
