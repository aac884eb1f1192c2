package keys

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// DemoOwner is the owner label of the demo key.
const DemoOwner = "demo"

// Demo is the outcome of EnsureDemo.
type Demo struct {
	// Key is the demo key's record.
	Key Key
	// Plain is the key's value when it is known: always when it was given
	// (GEOSVC_DEMO_KEY) or just created; empty when an earlier start created
	// it (only its hash is stored).
	Plain string
	// Created is true when this call created the key.
	Created bool
}

// EnsureDemo makes sure a demo key exists and remembers its id.
//
// With fixed set (GEOSVC_DEMO_KEY), that value is the demo key: it is
// created when absent and reused when present (a revoked one stays revoked,
// and the returned Key says so). With fixed empty, the demo key of an
// earlier start is reused while it is active (its value is then unknown:
// Plain is empty); otherwise a new random key is created. Only hashes are
// stored, so a restart against a persistent Redis can say "unchanged" but
// cannot print the key again.
func (s *Store) EnsureDemo(ctx context.Context, fixed string) (Demo, error) {
	if fixed != "" {
		if err := Validate(fixed); err != nil {
			return Demo{}, fmt.Errorf("keys: demo key needs %d to %d printable characters: %w", MinLen, MaxLen, err)
		}
	}
	// Several processes starting at once against one Redis take turns:
	// the first creates the key, the others find it.
	unlock, err := s.lockDemo(ctx)
	if err != nil {
		return Demo{}, err
	}
	defer unlock()
	if fixed != "" {
		k, err := s.Authenticate(ctx, fixed)
		switch {
		case err == nil || errors.Is(err, ErrRevoked):
			return Demo{Key: k, Plain: fixed}, s.rdb.Set(ctx, s.demoKey(), k.ID, 0).Err()
		case !errors.Is(err, ErrUnknown):
			return Demo{}, err
		}
		return s.createDemo(ctx, fixed)
	}
	if d, ok, err := s.activeDemo(ctx); err != nil || ok {
		return d, err
	}
	return s.createDemo(ctx, "")
}

// demoLockTTL bounds how long a process that died while holding the demo
// lock holds the others up.
const demoLockTTL = 5 * time.Second

// unlockScript deletes the lock only while it still holds our token: a
// holder whose lock expired must not free the next holder's.
var unlockScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// lockDemo waits for the demo lock and returns its release.
func (s *Store) lockDemo(ctx context.Context) (func(), error) {
	key, token := s.demoKey()+":lock", rand.Text()
	for {
		got, err := s.rdb.SetNX(ctx, key, token, demoLockTTL).Result()
		if err != nil {
			return nil, fmt.Errorf("keys: demo lock: %w", err)
		}
		if got {
			return func() { unlockScript.Run(context.WithoutCancel(ctx), s.rdb, []string{key}, token) }, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// activeDemo returns the demo key of an earlier start when it is active.
func (s *Store) activeDemo(ctx context.Context) (Demo, bool, error) {
	id, err := s.rdb.Get(ctx, s.demoKey()).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return Demo{}, false, nil
	case err != nil:
		return Demo{}, false, fmt.Errorf("keys: demo: %w", err)
	}
	k, err := s.Get(ctx, id)
	switch {
	case err == nil && k.Active():
		return Demo{Key: k}, true, nil
	case err != nil && !errors.Is(err, ErrNotFound):
		return Demo{}, false, err
	}
	return Demo{}, false, nil
}

func (s *Store) createDemo(ctx context.Context, plain string) (Demo, error) {
	k, plain, err := s.Create(ctx, CreateOptions{Owner: DemoOwner, Key: plain})
	if err != nil {
		return Demo{}, err
	}
	if err := s.rdb.Set(ctx, s.demoKey(), k.ID, 0).Err(); err != nil {
		return Demo{}, fmt.Errorf("keys: demo: %w", err)
	}
	return Demo{Key: k, Plain: plain, Created: true}, nil
}
