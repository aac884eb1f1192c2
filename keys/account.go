package keys

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// update writes fields of key id's record (the id must exist) and forgets
// the key's cached lookups in this process.
func (s *Store) update(ctx context.Context, id string, fields map[string]any) (Key, error) {
	h, err := s.rdb.Get(ctx, s.idKey(id)).Result()
	if errors.Is(err, redis.Nil) {
		return Key{}, ErrNotFound
	}
	if err != nil {
		return Key{}, fmt.Errorf("keys: update: %w", err)
	}
	if err := s.rdb.HSet(ctx, s.recordKey(h), fields).Err(); err != nil {
		return Key{}, fmt.Errorf("keys: update: %w", err)
	}
	if s.cache != nil {
		s.cache.forget(h)
		s.cache.forget("id:" + id)
	}
	return s.Get(ctx, id)
}

// SetPlan moves key id to plan (which must exist) and ends its expiry: a
// trial key moved to a plan keeps working. A revoked key stays revoked.
func (s *Store) SetPlan(ctx context.Context, id, plan string) (Key, error) {
	if s.plans.Get(plan) == nil {
		return Key{}, fmt.Errorf("keys: unknown plan %q: the plans are %s", plan, strings.Join(s.plans.Names(), ", "))
	}
	if _, err := s.Get(ctx, id); err != nil {
		return Key{}, err
	}
	return s.update(ctx, id, map[string]any{"plan": plan, "expires": ""})
}

// Payment is what a completed checkout tells about the key it paid for.
type Payment struct {
	// Plan is the plan bought.
	Plan string
	// Customer and Subscription are the payment provider's ids.
	Customer, Subscription string
	// Email is the payer's address, kept when the key has none.
	Email string
}

// ApplyPayment puts key id on the plan bought, makes a pending key active
// and ends its expiry, and remembers the subscription (so that its end
// finds the key). A revoked key stays revoked.
func (s *Store) ApplyPayment(ctx context.Context, id string, p Payment) (Key, error) {
	if s.plans.Get(p.Plan) == nil {
		return Key{}, fmt.Errorf("keys: unknown plan %q", p.Plan)
	}
	k, err := s.Get(ctx, id)
	if err != nil {
		return Key{}, err
	}
	fields := map[string]any{"plan": p.Plan, "expires": "", "stripe_customer": p.Customer, "stripe_subscription": p.Subscription}
	if k.Status == Pending {
		fields["status"] = string(Active)
	}
	if k.Email == "" && p.Email != "" {
		fields["email"] = strings.ToLower(strings.TrimSpace(p.Email))
	}
	if p.Subscription != "" {
		if err := s.rdb.Set(ctx, s.subscriptionKey(p.Subscription), id, 0).Err(); err != nil {
			return Key{}, fmt.Errorf("keys: payment: %w", err)
		}
	}
	return s.update(ctx, id, fields)
}

// EndSubscription moves the key paid for by subscription (found by the
// subscription, or by keyID when given) to the plans' cancel plan, or
// revokes it when there is none. A key paid for by another subscription
// since is left alone. It returns ErrNotFound when no key is known.
func (s *Store) EndSubscription(ctx context.Context, subscription, keyID string) (Key, error) {
	id, err := s.rdb.Get(ctx, s.subscriptionKey(subscription)).Result()
	switch {
	case errors.Is(err, redis.Nil):
		id = keyID
	case err != nil:
		return Key{}, fmt.Errorf("keys: subscription: %w", err)
	}
	if id == "" {
		return Key{}, ErrNotFound
	}
	k, err := s.Get(ctx, id)
	if err != nil {
		return Key{}, err
	}
	if k.StripeSubscription != "" && k.StripeSubscription != subscription {
		return k, nil // paid for by a newer subscription
	}
	s.rdb.Del(ctx, s.subscriptionKey(subscription))
	if s.plans.CancelPlan == "" {
		return s.Revoke(ctx, id)
	}
	return s.update(ctx, id, map[string]any{"plan": s.plans.CancelPlan, "stripe_subscription": ""})
}

func (s *Store) subscriptionKey(sub string) string { return s.prefix + "stripe:sub:" + sub }
func (s *Store) eventKey(id string) string         { return s.prefix + "stripe:event:" + id }

// EventRetention is how long a processed payment event id is remembered:
// a replay within it has no effect (Stripe retries for three days).
const EventRetention = 30 * 24 * time.Hour

// eventClaimTTL bounds how long a process may hold an event it is
// processing: if it dies, a retry of the event is processed after it.
const eventClaimTTL = time.Minute

// ClaimEvent marks a payment event as being processed. It returns false
// when the event was processed already, or is being processed now
// (a replay): the caller must do nothing then. After processing, call
// FinishEvent; after a failure, ReleaseEvent (the provider retries).
func (s *Store) ClaimEvent(ctx context.Context, id string) (bool, error) {
	ok, err := s.rdb.SetNX(ctx, s.eventKey(id), "processing", eventClaimTTL).Result()
	if err != nil {
		return false, fmt.Errorf("keys: event: %w", err)
	}
	return ok, nil
}

// FinishEvent records a claimed event as processed for EventRetention.
func (s *Store) FinishEvent(ctx context.Context, id string) error {
	if err := s.rdb.Set(ctx, s.eventKey(id), "done", EventRetention).Err(); err != nil {
		return fmt.Errorf("keys: event: %w", err)
	}
	return nil
}

// ReleaseEvent forgets a claimed event that could not be processed.
func (s *Store) ReleaseEvent(ctx context.Context, id string) error {
	return s.rdb.Del(ctx, s.eventKey(id)).Err()
}
