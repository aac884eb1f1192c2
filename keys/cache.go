package keys

import (
	"context"
	"sync"
	"time"
)

// authCache remembers recent Authenticate answers by key hash, so that a
// busy API process asks Redis about a key once per TTL instead of on every
// request. A revocation made by another process therefore takes effect
// within the TTL; one made through this Store at once.
type authCache struct {
	ttl time.Duration
	now func() time.Time
	mu  sync.Mutex
	m   map[string]authEntry
}

type authEntry struct {
	key     Key
	err     error
	expires time.Time
}

// maxAuthEntries bounds the cache; past it, the cache starts afresh (a
// flood of random keys cannot grow it without bound).
const maxAuthEntries = 100000

func (c *authCache) get(hash string) (authEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[hash]
	if !ok || !c.now().Before(e.expires) {
		return authEntry{}, false
	}
	return e, true
}

func (c *authCache) put(hash string, k Key, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxAuthEntries {
		c.m = map[string]authEntry{}
	}
	c.m[hash] = authEntry{key: k, err: err, expires: c.now().Add(c.ttl)}
}

func (c *authCache) forget(hash string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, hash)
}

// cachedAuthenticate answers from the cache when it can. Errors other than
// the key's own (malformed, unknown, revoked) are never cached.
func (s *Store) cachedAuthenticate(ctx context.Context, key string) (Key, error) {
	h := Hash(key)
	if e, ok := s.cache.get(h); ok {
		return e.key, e.err
	}
	k, err := s.authenticate(ctx, key)
	if err == nil || err == ErrUnknown || err == ErrRevoked {
		s.cache.put(h, k, err)
	}
	return k, err
}
