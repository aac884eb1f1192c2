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
	// Plans are the plans keys belong to; nil means DefaultPlans (one
	// unlimited plan).
	Plans *Plans
	// Trials says whether and to whom IssueTrial issues trial keys.
	Trials TrialPolicy
}

// Store keeps API keys and usage counters in Redis. It is safe for
// concurrent use.
type Store struct {
	rdb      redis.UniversalClient
	prefix   string
	usageTTL time.Duration
	now      func() time.Time
	cache    *authCache
	plans    *Plans
	trials   TrialPolicy
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
	s.plans = opts.Plans
	s.trials = opts.Trials
	if s.plans == nil {
		s.plans = DefaultPlans()
	}
	return s
}

// Prefix returns the Redis key prefix of the store.
func (s *Store) Prefix() string { return s.prefix }

// Plans returns the plans of the store.
func (s *Store) Plans() *Plans { return s.plans }

// PlanOf returns the plan of key k (the default plan when k names none, or
// a plan the plans no longer have).
func (s *Store) PlanOf(k Key) *Plan { return s.plans.Of(k.Plan) }

// Trials returns the store's trial policy.
func (s *Store) Trials() TrialPolicy { return s.trials }

// Now returns the store's current time.
func (s *Store) Now() time.Time { return s.now() }

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
	// Plan names the key's plan; empty means the default plan.
	Plan string
	// Expires, when not zero, is when the key stops working.
	Expires time.Time
	// Email is the customer's e-mail address.
	Email string
	// Pending creates the key pending payment (refused until Activate).
	Pending bool
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
	if o.Plan != "" && s.plans.Get(o.Plan) == nil {
		return Key{}, "", fmt.Errorf("keys: unknown plan %q: the plans are %s", o.Plan, strings.Join(s.plans.Names(), ", "))
	}
	k := Key{
		ID:         uuid.NewString(),
		Owner:      o.Owner,
		Created:    s.now().UTC(),
		Status:     Active,
		Interfaces: slices.Clone(o.Interfaces),
		Plan:       o.Plan,
		Email:      o.Email,
	}
	if !o.Expires.IsZero() {
		k.Expires = o.Expires.UTC()
	}
	if o.Pending {
		k.Status = Pending
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
	// No MULTI: the record, the id index and the set of ids hash to
	// different slots of a Redis Cluster. The writes are ordered instead:
	// the id index and the set first, the record's fields last, so that a
	// key authenticates only once everything about it is written.
	err = s.rdb.Set(ctx, s.idKey(k.ID), h, 0).Err()
	if err == nil {
		err = s.rdb.SAdd(ctx, s.setKey(), k.ID).Err()
	}
	if err == nil {
		err = s.rdb.HSet(ctx, rec, encode(k)).Err()
	}
	if err != nil {
		// Give the claimed record back, so that a half-written key does
		// not block that value forever (best effort: Redis just failed).
		bg := context.WithoutCancel(ctx)
		s.rdb.SRem(bg, s.setKey(), k.ID)
		s.rdb.Del(bg, s.idKey(k.ID))
		s.rdb.Del(bg, rec)
		return Key{}, "", fmt.Errorf("keys: create: %w", err)
	}
	if s.cache != nil {
		s.cache.forget(h) // it may have been tried, and cached as unknown
	}
	return k, plain, nil
}

// Authenticate returns the active key whose value is key. It returns
// ErrMalformed, ErrUnknown, ErrRevoked, ErrPending or ErrExpired when the
// key must be refused (Refused reports it), and another error when Redis
// failed.
func (s *Store) Authenticate(ctx context.Context, key string) (Key, error) {
	if err := Validate(key); err != nil {
		return Key{}, err
	}
	var k Key
	var err error
	if s.cache != nil {
		k, err = s.cachedAuthenticate(ctx, key)
	} else {
		k, err = s.authenticate(ctx, key)
	}
	// Expiry is checked here, after the cache: a cached key expires on
	// time.
	if err == nil && k.ExpiredAt(s.now()) {
		return k, ErrExpired
	}
	return k, err
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
	switch k.Status {
	case Active:
		return k, nil
	case Pending:
		return k, ErrPending
	}
	return k, ErrRevoked
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
	m := map[string]any{
		"id":         k.ID,
		"owner":      k.Owner,
		"created":    k.Created.Format(time.RFC3339Nano),
		"status":     string(k.Status),
		"interfaces": strings.Join(k.Interfaces, ","),
		"plan":       k.Plan,
		"email":      k.Email,
		"expires":    "",
	}
	if !k.Expires.IsZero() {
		m["expires"] = k.Expires.Format(time.RFC3339Nano)
	}
	return m
}

func decode(m map[string]string) (Key, error) {
	k := Key{ID: m["id"], Owner: m["owner"], Status: Status(m["status"]), Plan: m["plan"], Email: m["email"],
		StripeCustomer: m["stripe_customer"], StripeSubscription: m["stripe_subscription"]}
	var err error
	if e := m["expires"]; e != "" {
		if k.Expires, err = time.Parse(time.RFC3339Nano, e); err != nil {
			return Key{}, fmt.Errorf("keys: record %s: bad expiry time: %w", k.ID, err)
		}
	}
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
	if k.Status != Active && k.Status != Revoked && k.Status != Pending {
		return Key{}, fmt.Errorf("keys: record %s: bad status %q", k.ID, k.Status)
	}
	return k, nil
}
