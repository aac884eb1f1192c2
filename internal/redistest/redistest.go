// Package redistest gives tests a Redis to talk to: the server named by
// REDIS_URL when it is set (CI runs a real redis-server), otherwise an
// in-process miniredis. Every test gets a key prefix and an asynq queue
// name of its own; on a real server only the keys under that prefix and
// that queue's keys are deleted afterwards, nothing else on a shared
// server is touched. It is the one Redis helper of the module's tests:
// queue/queuetest adds the TDM queue's fixtures on top of it.
package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// Redis is one test's connection, key prefix and queue name.
type Redis struct {
	// Client talks to the test server.
	Client *redis.Client
	// Prefix is unique to the test; put every key under it.
	Prefix string
	// QueueName is an asynq queue name unique to the test.
	QueueName string
	// URL is the server's redis:// URL, for code that dials by itself.
	URL string
	// Mini is the in-process server, nil when REDIS_URL is used.
	Mini *miniredis.Miniredis
}

// New returns a Redis for t, cleaned up when t ends.
func New(t testing.TB) *Redis {
	t.Helper()
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	tag := hex.EncodeToString(b[:])
	name := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	r := &Redis{Prefix: "test:" + name + ":" + tag + ":", QueueName: "tdmtest-" + tag}
	if url := os.Getenv("REDIS_URL"); url != "" {
		opt, err := redis.ParseURL(url)
		if err != nil {
			t.Fatalf("REDIS_URL: %v", err)
		}
		r.URL = url
		r.Client = redis.NewClient(opt)
		if err := r.Client.Ping(context.Background()).Err(); err != nil {
			t.Fatalf("REDIS_URL %s: %v", url, err)
		}
		t.Cleanup(r.cleanUp)
		return r
	}
	r.Mini = miniredis.RunT(t)
	r.URL = "redis://" + r.Mini.Addr()
	r.Client = redis.NewClient(&redis.Options{Addr: r.Mini.Addr()})
	t.Cleanup(func() { r.Client.Close() })
	return r
}

// cleanUp deletes the test's keys and its asynq queue from a shared
// server, then closes the client.
func (r *Redis) cleanUp() {
	defer r.Client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = asynq.NewInspectorFromRedisClient(r.Client).DeleteQueue(r.QueueName, true)
	// The test's keys, and asynq's statistics of the test's queue.
	for _, pattern := range []string{r.Prefix + "*", "asynq:{" + r.QueueName + "}:*"} {
		iter := r.Client.Scan(ctx, 0, pattern, 1000).Iterator()
		var ks []string
		for iter.Next(ctx) {
			ks = append(ks, iter.Val())
			if len(ks) == 500 {
				r.Client.Del(ctx, ks...)
				ks = ks[:0]
			}
		}
		if len(ks) > 0 {
			r.Client.Del(ctx, ks...)
		}
	}
}
