// Package redistest gives tests of the api and soap packages a Redis to talk to: the
// server named by REDIS_URL when it is set (CI runs a real redis-server),
// otherwise an in-process miniredis. Every test gets its own key prefix, and
// on a real server only the keys under that prefix are deleted afterwards.
package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// Redis is one test's connection and key prefix.
type Redis struct {
	// Client talks to the test server.
	Client *redis.Client
	// Prefix is unique to the test; put every key under it.
	Prefix string
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
	name := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	r := &Redis{Prefix: "test:" + name + ":" + hex.EncodeToString(b[:]) + ":"}
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
		t.Cleanup(func() {
			ctx := context.Background()
			iter := r.Client.Scan(ctx, 0, r.Prefix+"*", 500).Iterator()
			var ks []string
			for iter.Next(ctx) {
				ks = append(ks, iter.Val())
			}
			if len(ks) > 0 {
				r.Client.Del(ctx, ks...)
			}
			r.Client.Close()
		})
		return r
	}
	r.Mini = miniredis.RunT(t)
	r.URL = "redis://" + r.Mini.Addr()
	r.Client = redis.NewClient(&redis.Options{Addr: r.Mini.Addr()})
	t.Cleanup(func() { r.Client.Close() })
	return r
}
