package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
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

// openRedis connects to url, or with url empty and embed set starts an
// in-process miniredis on a loopback port. The returned func closes both.
func openRedis(ctx context.Context, url string, embed bool, log *slog.Logger) (*redis.Client, func(), error) {
	var opt *redis.Options
	var mini *miniredis.Miniredis
	switch {
	case url != "":
		var err error
		if opt, err = redis.ParseURL(url); err != nil {
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
		opt = &redis.Options{Addr: mini.Addr(), Password: password}
		log.Info("no REDIS_URL: started an embedded Redis (miniredis); keys, usage and jobs live in this process and are lost when it stops",
			"addr", mini.Addr())
	default:
		return nil, nil, errNoRedis
	}
	redis.SetLogger(redisLogger{log})
	opt.PoolSize = max(opt.PoolSize, 32)
	rdb := redis.NewClient(opt)
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := rdb.Ping(pctx).Err(); err != nil {
		rdb.Close()
		if mini != nil {
			mini.Close()
		}
		return nil, nil, fmt.Errorf("redis %s: %w", opt.Addr, err)
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
