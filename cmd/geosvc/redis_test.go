package main

import (
	"context"
	"fmt"
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
	opt := rdb.(*redis.Client).Options()
	stranger := redis.NewClient(&redis.Options{Addr: opt.Addr})
	defer stranger.Close()
	if v, err := stranger.Get(ctx, "k").Result(); err == nil || !strings.Contains(err.Error(), "NOAUTH") {
		t.Errorf("a client without the password read %q, err %v; want NOAUTH", v, err)
	}
	if len(opt.Password) < 32 {
		t.Errorf("password %q: too short", opt.Password)
	}
}

// TestRedisClient: the three REDIS_URL forms give a server's, a Sentinel
// set's and a Cluster's client with the options of the URL; other forms
// are refused with a message.
func TestRedisClient(t *testing.T) {
	for _, tc := range []struct {
		url, want string // want: the client type, or an error's text
		check     func(t *testing.T, c redis.UniversalClient)
	}{
		{"redis://:pw@127.0.0.1:6380/3", "*redis.Client", func(t *testing.T, c redis.UniversalClient) {
			o := c.(*redis.Client).Options()
			if o.Addr != "127.0.0.1:6380" || o.DB != 3 || o.Password != "pw" || o.PoolSize < minPoolSize {
				t.Errorf("options %+v", o)
			}
		}},
		{"rediss://h:6380", "*redis.Client", func(t *testing.T, c redis.UniversalClient) {
			if c.(*redis.Client).Options().TLSConfig == nil {
				t.Error("rediss without TLS")
			}
		}},
		{"redis+sentinel://s1:26379/2?master_name=mymaster&addr=s2:26379&password=mpw", "*redis.Client", nil},
		{"redis+cluster://n1:7000?addr=n2:7001&addr=n3:7002", "*redis.ClusterClient", func(t *testing.T, c redis.UniversalClient) {
			o := c.(*redis.ClusterClient).Options()
			if strings.Join(o.Addrs, " ") != "n1:7000 n2:7001 n3:7002" || o.PoolSize < minPoolSize {
				t.Errorf("options %+v", o)
			}
		}},
		{"redis+sentinel://s1:26379", "needs master_name", nil},
		{"redis+mesh://h:1", "use redis, rediss, redis+sentinel or redis+cluster", nil},
		{"http://h:1", "use redis, rediss, redis+sentinel or redis+cluster", nil},
		{"127.0.0.1:6379", "is not a URL", nil},
		{"redis+cluster://n1:7000?bogus=1", "bogus", nil},
	} {
		t.Run(tc.url, func(t *testing.T) {
			c, err := redisClient(tc.url)
			if err != nil {
				if !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %q, want one containing %q", err, tc.want)
				}
				return
			}
			defer c.Close()
			if got := fmt.Sprintf("%T", c); got != tc.want {
				t.Fatalf("client %s, want %s", got, tc.want)
			}
			if tc.check != nil {
				tc.check(t, c)
			}
		})
	}
}
