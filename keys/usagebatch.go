package keys

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// UsageBatch collects usage increments in memory and writes them to the
// store in one pipeline per flush, so that counting a request costs no
// Redis round trip. Run flushes it periodically; Flush writes what is
// pending (call it on shutdown). Counts not yet flushed when a process
// dies are lost: at most one flush interval of them.
type UsageBatch struct {
	s       *Store
	mu      sync.Mutex
	pending map[usageCell]int64
}

type usageCell struct {
	key    string // the Redis hash of the key's day
	metric string
}

// NewUsageBatch returns a batch writing to s.
func (s *Store) NewUsageBatch() *UsageBatch {
	return &UsageBatch{s: s, pending: map[usageCell]int64{}}
}

// Add counts n more of metric for key id today.
func (b *UsageBatch) Add(id, metric string, n int64) {
	c := usageCell{key: b.s.usageKey(id, b.s.now()), metric: metric}
	b.mu.Lock()
	b.pending[c] += n
	b.mu.Unlock()
}

// Flush writes the pending counts.
func (b *UsageBatch) Flush(ctx context.Context) error {
	b.mu.Lock()
	if len(b.pending) == 0 {
		b.mu.Unlock()
		return nil
	}
	cells := b.pending
	b.pending = map[usageCell]int64{}
	b.mu.Unlock()
	_, err := b.s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		seen := map[string]bool{}
		for c, n := range cells {
			p.HIncrBy(ctx, c.key, c.metric, n)
			if !seen[c.key] {
				seen[c.key] = true
				p.Expire(ctx, c.key, b.s.usageTTL)
			}
		}
		return nil
	})
	if err != nil {
		// Put the counts back so that the next flush retries them.
		b.mu.Lock()
		for c, n := range cells {
			b.pending[c] += n
		}
		b.mu.Unlock()
		return err
	}
	return nil
}

// Run flushes every interval until ctx ends, then flushes once more with
// a short deadline. Flush errors go to onErr.
func (b *UsageBatch) Run(ctx context.Context, every time.Duration, onErr func(error)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			if err := b.Flush(fctx); err != nil && onErr != nil {
				onErr(err)
			}
			cancel()
			return
		case <-t.C:
			if err := b.Flush(ctx); err != nil && onErr != nil {
				onErr(err)
			}
		}
	}
}
