package keys

import (
	"context"
	"testing"
	"time"

	"github.com/geosvc/geosvc/internal/redistest"
)

// TestRateLimitLeases: with a bucket big enough for leases, two API
// processes sharing one Redis together let through the burst and no more
// (give or take the unspent part of one lease), and each refuses the rest
// with 429.
func TestRateLimitLeases(t *testing.T) {
	rdb := redistest.New(t)
	now := time.Unix(1_800_000_000, 0)
	clock := func() time.Time { return now }
	const burst = 400
	rl := RateLimit{Rate: 100, Burst: burst} // no refill: the clock stands
	a := newLimiter(rdb.Client, rdb.Prefix+"rl:", rl, clock)
	b := newLimiter(rdb.Client, rdb.Prefix+"rl:", rl, clock)
	if a.lease != 10 {
		t.Fatalf("lease %d, want 10", a.lease)
	}
	allowed := 0
	for i := 0; i < 2*burst; i++ {
		l := a
		if i%3 == 0 {
			l = b
		}
		d, err := l.allow(context.Background(), "key1")
		if err != nil {
			t.Fatal(err)
		}
		if d.retryAfter == 0 {
			allowed++
		}
	}
	if allowed > burst || allowed < burst-a.lease {
		t.Fatalf("%d requests allowed from a bucket of %d", allowed, burst)
	}
}
