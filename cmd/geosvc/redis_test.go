package main

import (
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// TestMiniClockExpiresKeys: with the clock running, a key with a TTL in
// the embedded Redis goes away; miniredis alone would keep it forever.
func TestMiniClockExpiresKeys(t *testing.T) {
	mini := miniredis.RunT(t)
	stop := runMiniClock(mini, 10*time.Millisecond)
	defer stop()
	rdb := redis.NewClient(&redis.Options{Addr: mini.Addr()})
	defer rdb.Close()
	ctx := context.Background()
	if err := rdb.Set(ctx, "k", "v", 50*time.Millisecond).Err(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for rdb.Exists(ctx, "k").Val() == 1 {
		if time.Now().After(deadline) {
			t.Fatal("key with a 50 ms TTL still there after 5 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestUnreachableRedisIsOneError: a Redis that cannot be reached is one
// clear error, without go-redis's pool lines on stderr before it.
func TestUnreachableRedisIsOneError(t *testing.T) {
	var err error
	_, errOut := capture(t, func() {
		_, _, err = openRedis(context.Background(), "redis://127.0.0.1:1/0", false, slog.New(slog.NewTextHandler(os.Stderr, nil)))
	})
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("openRedis of a closed port: %v, want an error naming it", err)
	}
	if strings.Contains(errOut, "pool.go") || strings.Contains(errOut, "failed to dial") {
		t.Errorf("stderr before the error:\n%s", errOut)
	}
}

// TestEmbeddedRedisNeedsItsPassword: the embedded Redis answers the
// process that started it, and refuses a client without its password
// (another local user connecting to the loopback port).
func TestEmbeddedRedisNeedsItsPassword(t *testing.T) {
	rdb, closeAll, err := openRedis(context.Background(), "", true, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll()
	ctx := context.Background()
	if err := rdb.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatalf("the process's own client: %v", err)
	}
	opt := rdb.Options()
	stranger := redis.NewClient(&redis.Options{Addr: opt.Addr})
	defer stranger.Close()
	if v, err := stranger.Get(ctx, "k").Result(); err == nil || !strings.Contains(err.Error(), "NOAUTH") {
		t.Errorf("a client without the password read %q, err %v; want NOAUTH", v, err)
	}
	if len(opt.Password) < 32 {
		t.Errorf("password %q: too short", opt.Password)
	}
}
