package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	neturl "net/url"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// errNoRedis is returned by commands that need a real Redis.
var errNoRedis = errors.New("REDIS_URL is not set: this command needs a shared Redis (only `geosvc serve` can embed one)")

// redisLogger sends go-redis's own log lines (pool dial failures, retried
// on every attempt) to the process log at debug level: the error that
// ends an attempt to connect is reported once, by the caller.
type redisLogger struct{ log *slog.Logger }

// Printf logs one go-redis line.
func (l redisLogger) Printf(ctx context.Context, format string, v ...any) {
	l.log.DebugContext(ctx, "go-redis: "+fmt.Sprintf(format, v...))
}

// openRedis connects to url (redisClient's forms), or with url empty and
// embed set starts an in-process miniredis on a loopback port. The
// returned func closes both.
func openRedis(ctx context.Context, url string, embed bool, log *slog.Logger) (redis.UniversalClient, func(), error) {
	var rdb redis.UniversalClient
	var mini *miniredis.Miniredis
	switch {
	case url != "":
		var err error
		if rdb, err = redisClient(url); err != nil {
			return nil, nil, fmt.Errorf("REDIS_URL: %w", err)
		}
	case embed:
		mini = miniredis.NewMiniRedis()
		// The embedded Redis listens on a loopback port that any local
		// user could reach: it takes a random password only this process
		// knows.
		var pw [24]byte
		if _, err := rand.Read(pw[:]); err != nil {
			return nil, nil, fmt.Errorf("embedded Redis: %w", err)
		}
		password := hex.EncodeToString(pw[:])
		mini.RequireAuth(password)
		if err := mini.StartAddr("127.0.0.1:0"); err != nil {
			return nil, nil, fmt.Errorf("embedded Redis: %w", err)
		}
		rdb = redis.NewClient(&redis.Options{Addr: mini.Addr(), Password: password, PoolSize: minPoolSize})
		log.Info("no REDIS_URL: started an embedded Redis (miniredis); keys, usage and jobs live in this process and are lost when it stops",
			"addr", mini.Addr())
	default:
		return nil, nil, errNoRedis
	}
	redis.SetLogger(redisLogger{log})
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := rdb.Ping(pctx).Err(); err != nil {
		rdb.Close()
		if mini != nil {
			mini.Close()
		}
		return nil, nil, fmt.Errorf("redis %s: %w", redactURL(url), err)
	}
	stopClock := func() {}
	if mini != nil {
		stopClock = runMiniClock(mini, time.Second)
	}
	closeAll := func() {
		stopClock()
		rdb.Close()
		if mini != nil {
			mini.Close()
		}
	}
	return rdb, closeAll, nil
}

// minPoolSize is the least number of connections per Redis server: the
// API, the workers and the janitor share the client.
const minPoolSize = 32

// redisClient returns the client a REDIS_URL names, in one of three forms:
//
//   - redis://[user:password@]host:port[/db][?options] (rediss:// for TLS):
//     one server, as go-redis's ParseURL reads it;
//   - redis+sentinel://[user:password@]sentinel:26379[/db]?master_name=NAME[&addr=sentinel2:26379...][&password=...]
//     (rediss+sentinel://): a Sentinel set, as ParseFailoverURL reads the
//     URL without "+sentinel" (the userinfo is the sentinels', the
//     password parameter the master's);
//   - redis+cluster://[user:password@]node:6379?addr=node2:6379[&addr=...]
//     (rediss+cluster://): a Redis Cluster, as ParseClusterURL reads it.
//
// asynq takes the same client (it needs no URL of its own).
func redisClient(url string) (redis.UniversalClient, error) {
	scheme, rest, ok := strings.Cut(url, "://")
	if !ok {
		return nil, fmt.Errorf("%q is not a URL: write redis://host:port/db (or redis+sentinel://, redis+cluster://)", redactURL(url))
	}
	base, mode, _ := strings.Cut(scheme, "+")
	if base != "redis" && base != "rediss" {
		return nil, fmt.Errorf("scheme %q: use redis, rediss, redis+sentinel or redis+cluster", scheme)
	}
	plain := base + "://" + rest
	switch mode {
	case "":
		opt, err := redis.ParseURL(plain)
		if err != nil {
			return nil, err
		}
		opt.PoolSize = max(opt.PoolSize, minPoolSize)
		return redis.NewClient(opt), nil
	case "sentinel":
		opt, err := redis.ParseFailoverURL(plain)
		if err != nil {
			return nil, err
		}
		if opt.MasterName == "" {
			return nil, errors.New("a Sentinel URL needs master_name=NAME (the name the sentinels monitor)")
		}
		opt.PoolSize = max(opt.PoolSize, minPoolSize)
		return redis.NewFailoverClient(opt), nil
	case "cluster":
		opt, err := redis.ParseClusterURL(plain)
		if err != nil {
			return nil, err
		}
		opt.PoolSize = max(opt.PoolSize, minPoolSize)
		return redis.NewClusterClient(opt), nil
	}
	return nil, fmt.Errorf("scheme %q: use redis, rediss, redis+sentinel or redis+cluster", scheme)
}

// redactURL is url without its password, for messages.
func redactURL(u string) string {
	p, err := neturl.Parse(u)
	if err != nil {
		return "(unparsable URL)"
	}
	return p.Redacted()
}

// runMiniClock makes the embedded Redis expire keys: miniredis counts TTLs
// down only when told how much time has passed, so a ticker tells it
// every tick. The returned func stops the ticker.
func runMiniClock(mini *miniredis.Miniredis, every time.Duration) func() {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		last := time.Now()
		for {
			select {
			case <-stop:
				return
			case now := <-t.C:
				mini.FastForward(now.Sub(last))
				last = now
			}
		}
	}()
	return func() {
		close(stop)
		<-done
	}
}
