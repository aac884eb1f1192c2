package bundle

import (
	"sync"
	"sync/atomic"

	"github.com/geosvc/geosvc/routing/speeds"
)

// keepRecent is how many bundles served before the current one a Current
// keeps reachable by ID: a matrix job ordered on one finishes on it after
// a swap.
const keepRecent = 2

// Current is the bundle a process serves: one atomic pointer, nil until
// the first bundle is stored. Handlers Load it once per request and use
// that bundle to the end of the request, so storing a new bundle (new
// OSM data) never changes one under a request in flight. The bundles
// served just before stay reachable by their ID (ByID) for the work that
// started on them.
type Current struct {
	p atomic.Pointer[Bundle]

	mu     sync.Mutex
	recent []*Bundle // newest first
	// speeds is the live speed data (SetSpeeds), applied to every bundle
	// stored after it; nil until set.
	speeds *speeds.Data
}

// NewCurrent returns a Current holding b (nil: none yet).
func NewCurrent(b *Bundle) *Current {
	c := &Current{}
	c.p.Store(b)
	return c
}

// Load returns the bundle being served, nil while none is loaded. A nil
// *Current holds none.
func (c *Current) Load() *Bundle {
	if c == nil {
		return nil
	}
	return c.p.Load()
}

// Store makes b the bundle served from now on. The one it replaces is
// kept reachable by ID; the one that falls out of that list has its
// mapped pages released (Bundle.Release: work still running on it reads
// them again from its files).
func (c *Current) Store(b *Bundle) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.speeds != nil {
		b.ApplySpeeds(c.speeds)
	}
	old := c.p.Swap(b)
	if old == nil || old == b {
		return
	}
	c.recent = append([]*Bundle{old}, c.recent...)
	if len(c.recent) > keepRecent {
		for _, gone := range c.recent[keepRecent:] {
			gone.Release()
		}
		c.recent = c.recent[:keepRecent]
	}
}

// ByID returns the bundle of that id among the current one and the ones
// served just before, nil when none has it; "" is the current one.
func (c *Current) ByID(id string) *Bundle {
	cur := c.Load()
	if id == "" || cur != nil && cur.ID == id {
		return cur
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, b := range c.recent {
		if b.ID == id {
			return b
		}
	}
	return nil
}
