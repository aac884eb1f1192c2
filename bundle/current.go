package bundle

import "sync/atomic"

// Current is the bundle a process serves: one atomic pointer, nil until
// the first bundle is stored. Handlers Load it once per request and use
// that bundle to the end of the request, so storing a new bundle (new
// OSM data) never changes one under a request in flight.
type Current struct {
	p atomic.Pointer[Bundle]
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

// Store makes b the bundle served from now on.
func (c *Current) Store(b *Bundle) { c.p.Store(b) }
