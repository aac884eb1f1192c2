// Package queuetest gives tests a TDM queue on the Redis of
// internal/redistest (REDIS_URL when set, an embedded miniredis otherwise),
// with a key prefix and an asynq queue name of their own that are cleaned
// up when the test ends, and Expire, which ages a job out as its TTL
// would.
package queuetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/geosvc/geosvc/internal/redistest"
	"github.com/geosvc/geosvc/queue"
)

// Env is a Redis for one test (internal/redistest) with a queue
// configuration of its own.
type Env struct {
	// Client is connected to the test's Redis.
	Client redis.UniversalClient
	// Mini is the embedded server, nil on a real Redis.
	Mini *miniredis.Miniredis
	// Config has a unique Prefix and QueueName; tests may change the rest.
	Config queue.Config
}

// New returns a Redis for t and registers its clean-up.
func New(t testing.TB) *Env {
	t.Helper()
	r := redistest.New(t)
	return &Env{
		Client: r.Client,
		Mini:   r.Mini,
		// The prefix's trailing colon is the queue's to add.
		Config: queue.Config{Prefix: strings.TrimSuffix(r.Prefix, ":"), QueueName: r.QueueName},
	}
}

// Expire makes every key of job id vanish as its TTL would, leaving the
// tombstone. Neither a real Redis nor other jobs of the test can be
// fast-forwarded, so Expire first asserts (PTTL) that each key of the job
// that exists carries a TTL no longer than the retention and that the
// tombstone outlives it, then deletes the job's keys.
func (e *Env) Expire(t testing.TB, id string) {
	t.Helper()
	ctx := context.Background()
	retention := e.Config.Retention
	if retention == 0 {
		retention = queue.DefaultRetention
	}
	tombstone := e.Config.TombstoneTTL
	if tombstone == 0 {
		tombstone = queue.DefaultTombstoneTTL
	}
	key := func(suffix string) string { return e.Config.Prefix + ":{" + id + "}:" + suffix }
	for _, suffix := range []string{"job", "done", "res", "gone"} {
		ttl, err := e.Client.PTTL(ctx, key(suffix)).Result()
		if err != nil {
			t.Fatal(err)
		}
		limit := retention
		if suffix == "gone" {
			limit = retention + tombstone
		}
		switch {
		case ttl == -2*time.Nanosecond && suffix != "gone":
			continue // not written (yet): nothing to expire
		case ttl < 0:
			t.Fatalf("job %s: %s has PTTL %v, want a TTL in (0, %v]", id, suffix, ttl, limit)
		case ttl > limit:
			t.Fatalf("job %s: %s has PTTL %v, longer than %v", id, suffix, ttl, limit)
		case suffix == "gone" && ttl <= retention:
			t.Fatalf("job %s: the tombstone's PTTL %v does not outlive the retention %v", id, ttl, retention)
		}
		if suffix != "gone" {
			if err := e.Client.Del(ctx, key(suffix)).Err(); err != nil {
				t.Fatal(err)
			}
		}
	}
}
