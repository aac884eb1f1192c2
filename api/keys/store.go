package keys

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// DefaultPrefix is the Redis key prefix used when Options.Prefix is empty.
const DefaultPrefix = "geosvc:"

// DefaultUsageRetention is how long daily usage counters are kept.
const DefaultUsageRetention = 400 * 24 * time.Hour

// Options configures a Store. Zero fields take their defaults.
type Options struct {
	// Prefix starts every Redis key the store writes.
	Prefix string
	// UsageRetention is how long a day's usage counters are kept.
	UsageRetention time.Duration
	// Now returns the current time (tests set it); default time.Now.
	Now func() time.Time
	// AuthCacheTTL is how long Authenticate remembers an answer in
	// process (a revocation made elsewhere takes effect within it); 0
	// means no cache.
	AuthCacheTTL time.Duration
}

// Store keeps API keys and usage counters in Redis. It is safe for
// concurrent use.
type Store struct {
	rdb      redis.UniversalClient
	prefix   string
	usageTTL time.Duration
	now      func() time.Time
	cache    *authCache
}

// NewStore returns a Store on rdb.
func NewStore(rdb redis.UniversalClient, opts Options) *Store {
	s := &Store{rdb: rdb, prefix: opts.Prefix, usageTTL: opts.UsageRetention, now: opts.Now}
	if s.prefix == "" {
		s.prefix = DefaultPrefix
	}
	if s.usageTTL <= 0 {
		s.usageTTL = DefaultUsageRetention
	}
	if s.now == nil {
		s.now = time.Now
	}
	if opts.AuthCacheTTL > 0 {
		s.cache = &authCache{ttl: opts.AuthCacheTTL, now: s.now}
	}
	return s
}

// Prefix returns the Redis key prefix of the store.
func (s *Store) Prefix() string { return s.prefix }

func (s *Store) recordKey(hash string) string { return s.prefix + "key:" + hash }
func (s *Store) idKey(id string) string       { return s.prefix + "keyid:" + id }
func (s *Store) setKey() string               { return s.prefix + "keys" }
func (s *Store) demoKey() string              { return s.prefix + "demo" }

// CreateOptions describes a key to create.
type CreateOptions struct {
	// Owner labels the key.
	Owner string
	// Interfaces restricts the key to these interfaces; empty means all.
	Interfaces []string
	// Key is the key's value; empty means Generate one. A given value must
	// pass Validate.
	Key string
}

// Create stores a new active key and returns its record and its value. The
// value is not stored and cannot be read back: show it to the user now.
func (s *Store) Create(ctx context.Context, o CreateOptions) (Key, string, error) {
	plain := o.Key
	if plain == "" {
		var err error
		if plain, err = Generate(); err != nil {
			return Key{}, "", err
		}
	} else if err := Validate(plain); err != nil {
		return Key{}, "", fmt.Errorf("keys: a key needs %d to %d printable characters: %w", MinLen, MaxLen, err)
	}
	for _, name := range o.Interfaces {
		if !IsKnown(name) {
			return Key{}, "", fmt.Errorf("keys: unknown interface %q: the interfaces are %s", name, knownList())
		}
	}
	k := Key{
		ID:         uuid.NewString(),
		Owner:      o.Owner,
		Created:    s.now().UTC(),
		Status:     Active,
		Interfaces: slices.Clone(o.Interfaces),
	}
	h := Hash(plain)
	rec := s.recordKey(h)
	// HSETNX on the hash field claims the record atomically: two creates
	// of one value cannot both succeed.
	ok, err := s.rdb.HSetNX(ctx, rec, "hash", h).Result()
	if err != nil {
		return Key{}, "", fmt.Errorf("keys: create: %w", err)
	}
	if !ok {
		return Key{}, "", ErrExists
	}
	_, err = s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, rec, encode(k))
		p.Set(ctx, s.idKey(k.ID), h, 0)
		p.SAdd(ctx, s.setKey(), k.ID)
		return nil
	})
	if err != nil {
		// Give the claimed record back, so that a half-written key does
		// not block that value forever (best effort: Redis just failed).
		s.rdb.Del(context.WithoutCancel(ctx), rec)
		return Key{}, "", fmt.Errorf("keys: create: %w", err)
	}
	if s.cache != nil {
		s.cache.forget(h) // it may have been tried, and cached as unknown
	}
	return k, plain, nil
}

// Authenticate returns the active key whose value is key. It returns
// ErrMalformed, ErrUnknown or ErrRevoked when the key must be refused, and
// another error when Redis failed.
func (s *Store) Authenticate(ctx context.Context, key string) (Key, error) {
	if err := Validate(key); err != nil {
		return Key{}, err
	}
	if s.cache != nil {
		return s.cachedAuthenticate(ctx, key)
	}
	return s.authenticate(ctx, key)
}

// authenticate asks Redis.
func (s *Store) authenticate(ctx context.Context, key string) (Key, error) {
	h := Hash(key)
	m, err := s.rdb.HGetAll(ctx, s.recordKey(h)).Result()
	if err != nil {
		return Key{}, fmt.Errorf("keys: authenticate: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(m["hash"]), []byte(h)) != 1 || m["id"] == "" {
		return Key{}, ErrUnknown
	}
	k, err := decode(m)
	if err != nil {
		return Key{}, err
	}
	if !k.Active() {
		return k, ErrRevoked
	}
	return k, nil
}

// Get returns the key with the given id, active or revoked.
func (s *Store) Get(ctx context.Context, id string) (Key, error) {
	h, err := s.rdb.Get(ctx, s.idKey(id)).Result()
	if errors.Is(err, redis.Nil) {
		return Key{}, ErrNotFound
	}
	if err != nil {
		return Key{}, fmt.Errorf("keys: get: %w", err)
	}
	m, err := s.rdb.HGetAll(ctx, s.recordKey(h)).Result()
	if err != nil {
		return Key{}, fmt.Errorf("keys: get: %w", err)
	}
	if m["id"] != id {
		return Key{}, ErrNotFound
	}
	return decode(m)
}

// List returns every key, oldest first.
func (s *Store) List(ctx context.Context) ([]Key, error) {
	ids, err := s.rdb.SMembers(ctx, s.setKey()).Result()
	if err != nil {
		return nil, fmt.Errorf("keys: list: %w", err)
	}
	out := make([]Key, 0, len(ids))
	for _, id := range ids {
		k, err := s.Get(ctx, id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b Key) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// Revoke marks the key with the given id revoked; it authenticates no more.
// Revoking a revoked key is not an error and keeps the first revocation time.
func (s *Store) Revoke(ctx context.Context, id string) (Key, error) {
	k, err := s.Get(ctx, id)
	if err != nil {
		return Key{}, err
	}
	if k.Status == Revoked {
		return k, nil
	}
	h, err := s.rdb.Get(ctx, s.idKey(id)).Result()
	if err != nil {
		return Key{}, fmt.Errorf("keys: revoke: %w", err)
	}
	k.Status = Revoked
	k.RevokedAt = s.now().UTC()
	if err := s.rdb.HSet(ctx, s.recordKey(h), "status", string(Revoked), "revoked", k.RevokedAt.Format(time.RFC3339Nano)).Err(); err != nil {
		return Key{}, fmt.Errorf("keys: revoke: %w", err)
	}
	if s.cache != nil {
		s.cache.forget(h)
		s.cache.forget("id:" + id)
	}
	return k, nil
}

func encode(k Key) map[string]any {
	return map[string]any{
		"id":         k.ID,
		"owner":      k.Owner,
		"created":    k.Created.Format(time.RFC3339Nano),
		"status":     string(k.Status),
		"interfaces": strings.Join(k.Interfaces, ","),
	}
}

func decode(m map[string]string) (Key, error) {
	k := Key{ID: m["id"], Owner: m["owner"], Status: Status(m["status"])}
	var err error
	if k.Created, err = time.Parse(time.RFC3339Nano, m["created"]); err != nil {
		return Key{}, fmt.Errorf("keys: record %s: bad created time: %w", k.ID, err)
	}
	if r := m["revoked"]; r != "" {
		if k.RevokedAt, err = time.Parse(time.RFC3339Nano, r); err != nil {
			return Key{}, fmt.Errorf("keys: record %s: bad revoked time: %w", k.ID, err)
		}
	}
	if s := m["interfaces"]; s != "" {
		k.Interfaces = strings.Split(s, ",")
	}
	if k.Status != Active && k.Status != Revoked {
		return Key{}, fmt.Errorf("keys: record %s: bad status %q", k.ID, k.Status)
	}
	return k, nil
}
