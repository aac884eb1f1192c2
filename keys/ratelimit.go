package keys

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// RateLimit is a per-key token bucket: Rate tokens are added per second up
// to Burst; a request takes one token, and a request finding no token is
// answered 429 with Retry-After.
type RateLimit struct {
	// Rate is the refill rate, in requests per second; 0 disables.
	Rate float64
	// Burst is the bucket size; below 1 it is taken as max(1, Rate).
	Burst int
}

// tokenBucket refills and takes from one bucket atomically. The bucket is
// a hash {tokens, ts}; ARGV: rate per ms, burst, now in ms, cost. It
// returns {allowed (0/1), wait in ms until the cost is available}.
var tokenBucket = redis.NewScript(`
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(b[1])
local ts = tonumber(b[2])
if tokens == nil or ts == nil then
  tokens = burst
  ts = now
end
if now > ts then
  tokens = math.min(burst, tokens + (now - ts) * rate)
  ts = now
end
local allowed = 0
local wait = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
else
  wait = math.ceil((cost - tokens) / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(ts))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate) + 1000)
return {allowed, wait}
`)

type limiter struct {
	rdb    redis.UniversalClient
	prefix string
	// bucket is the default bucket (the server's auth.rate_limit); a
	// key's plan may bring its own.
	bucket bucket
	now    func() time.Time
	// lease is the default bucket's lease (bucket.lease).
	lease  int
	mu     sync.Mutex
	leases map[string]*lease
}

// bucket is one token bucket's parameters in the script's form.
type bucket struct {
	rate  float64
	perMs string
	burst string
	// lease is how many tokens one Redis call takes: a 40th of the
	// burst and at most a tenth of a second's rate, 1 for small buckets.
	lease int
}

// newBucket returns the parameters of rl; rl.Rate must be above 0.
func newBucket(rl RateLimit) bucket {
	burst := rl.Burst
	if burst < 1 {
		burst = max(1, int(rl.Rate))
	}
	return bucket{
		rate:  rl.Rate,
		perMs: strconv.FormatFloat(rl.Rate/1000, 'g', -1, 64),
		burst: strconv.Itoa(burst),
		lease: max(1, min(burst/40, int(rl.Rate/10))),
	}
}

func newLimiter(rdb redis.UniversalClient, prefix string, rl RateLimit, now func() time.Time) *limiter {
	l := &limiter{
		rdb:    rdb,
		prefix: prefix,
		now:    now,
		leases: map[string]*lease{},
	}
	if rl.Rate > 0 {
		l.bucket = newBucket(rl)
		l.lease = l.bucket.lease
	}
	return l
}

// decision is the outcome of one take.
type decision struct {
	// retryAfter is zero when the request may go on.
	retryAfter time.Duration
}

// allow takes one token from the default bucket of key id.
func (l *limiter) allow(ctx context.Context, id string) (decision, error) {
	return l.allowIn(ctx, id, l.bucket)
}

// allowIn takes one token from key id's bucket b; a bucket of rate 0 lets
// everything through.
func (l *limiter) allowIn(ctx context.Context, id string, b bucket) (decision, error) {
	if b.rate <= 0 {
		return decision{}, nil
	}
	if b.lease <= 1 {
		return l.take(ctx, id, b, 1)
	}
	// Spend a local lease of tokens taken from the shared bucket in one
	// go; when it is spent or stale, take another, or a single token when
	// the bucket cannot spare a whole lease.
	now := l.now()
	l.mu.Lock()
	if ls := l.leases[id]; ls != nil && ls.tokens > 0 && now.Before(ls.expires) {
		ls.tokens--
		l.mu.Unlock()
		return decision{}, nil
	}
	l.mu.Unlock()
	d, err := l.take(ctx, id, b, b.lease)
	if err != nil || d.retryAfter > 0 {
		return l.take(ctx, id, b, 1)
	}
	l.mu.Lock()
	if len(l.leases) >= maxLeases {
		l.leases = map[string]*lease{}
	}
	l.leases[id] = &lease{tokens: b.lease - 1, expires: now.Add(leaseTTL)}
	l.mu.Unlock()
	return decision{}, nil
}

// take takes cost tokens from the key's shared bucket b in Redis.
func (l *limiter) take(ctx context.Context, id string, b bucket, cost int) (decision, error) {
	now := strconv.FormatInt(l.now().UnixMilli(), 10)
	res, err := tokenBucket.Run(ctx, l.rdb, []string{l.prefix + id}, b.perMs, b.burst, now, strconv.Itoa(cost)).Int64Slice()
	if err != nil {
		return decision{}, fmt.Errorf("rate limit: %w", err)
	}
	if len(res) != 2 {
		return decision{}, fmt.Errorf("rate limit: unexpected reply %v", res)
	}
	if res[0] == 1 {
		return decision{}, nil
	}
	return decision{retryAfter: time.Duration(max(1, res[1])) * time.Millisecond}, nil
}

// lease is a batch of tokens an API process took from a key's bucket.
type lease struct {
	tokens  int
	expires time.Time
}

// leaseTTL bounds how long taken tokens may be spent: unspent ones are
// given up, so a process never hoards more than a fraction of a second.
const leaseTTL = 250 * time.Millisecond

// maxLeases bounds the lease table.
const maxLeases = 100000
