// Package keys is geosvc's API key store, plans, quotas, trials and usage
// counters, shared by the REST server (api) and the SOAP service. Keys live
// in Redis, hashed: only the SHA-256 of a key is stored, a key is looked up
// by that hash and the stored hash is compared in constant time. Each key
// has an id (safe to log and to show), an owner, a creation time, a status
// (active, pending payment or revoked), an optional expiry (trials), a plan
// (plans.go: prices, quotas, rate limit, interfaces) and the interfaces it
// may call (all by default). Usage is counted per key, metric (an interface
// name such as "tdmv1", or "tdmv1.cells" for matrix cells) and UTC day.
//
// Redis layout, under a configurable prefix P (default "geosvc:"):
//
//	P key:<sha256 hex>                  hash: the key record
//	P keyid:<id>                        string: the sha256 hex of key <id>
//	P keys                              set: every key id
//	P demo                              string: id of the demo key
//	P usage:<id>:<YYYY-MM-DD>           hash: metric -> count (expires)
//	P quota:<id>:<metric>:<period>      string: units taken in a quota period (expires)
//	P trial:email:<sha256 of e-mail>    string: id of the e-mail's trial key (expires with it)
//	P trial:ip:<ip>:<YYYY-MM-DD>        string: trials issued to an address that day (expires)
//	P stripe:event:<event id>           string: a processed payment event (expires)
//	P stripe:sub:<subscription id>      string: id of the key the subscription pays for
package keys

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"
)

// Length limits of an API key (SPEC.md, Limits).
const (
	MinLen = 30
	MaxLen = 128
)

// GeneratedPrefix starts every key Generate makes, so that a leaked key is
// easy to recognise in logs and by secret scanners.
const GeneratedPrefix = "gs_"

// generatedChars is the number of random base62 characters after the prefix
// (40 characters hold 238 bits).
const generatedChars = 40

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Errors returned by Authenticate. All of them mean 403 to a client; they
// differ only for logs.
var (
	// ErrMalformed: the key is empty or its length is outside MinLen..MaxLen.
	ErrMalformed = errors.New("keys: malformed key")
	// ErrUnknown: no key with this value exists.
	ErrUnknown = errors.New("keys: unknown key")
	// ErrRevoked: the key exists but was revoked.
	ErrRevoked = errors.New("keys: revoked key")
	// ErrNotFound: no key has the given id.
	ErrNotFound = errors.New("keys: no such key id")
	// ErrExists: a key with this value already exists.
	ErrExists = errors.New("keys: key already exists")
	// ErrExpired: the key exists but its trial (or its unpaid checkout)
	// has ended.
	ErrExpired = errors.New("keys: expired key")
	// ErrPending: the key waits for its payment.
	ErrPending = errors.New("keys: key pending payment")
)

// Refused reports whether err from Authenticate means the key must be
// refused (403 Forbidden, the SOAP Forbidden fault), as opposed to a
// failure of the store.
func Refused(err error) bool {
	return errors.Is(err, ErrMalformed) || errors.Is(err, ErrUnknown) || errors.Is(err, ErrRevoked) ||
		errors.Is(err, ErrExpired) || errors.Is(err, ErrPending)
}

// RefusalReason names the reason of a refused key's error, for metrics:
// malformed, unknown, revoked, expired or pending.
func RefusalReason(err error) string {
	switch {
	case errors.Is(err, ErrMalformed):
		return "malformed"
	case errors.Is(err, ErrUnknown):
		return "unknown"
	case errors.Is(err, ErrExpired):
		return "expired"
	case errors.Is(err, ErrPending):
		return "pending"
	}
	return "revoked"
}

// Status is the state of a key.
type Status string

// Key states.
const (
	// Active keys authenticate.
	Active Status = "active"
	// Revoked keys are refused; revocation is final.
	Revoked Status = "revoked"
	// Pending keys were created by a checkout and are refused until the
	// payment provider reports the payment (then they become Active).
	Pending Status = "pending"
)

// Key is a stored API key record. It never holds the key itself.
type Key struct {
	// ID identifies the key in logs, usage counters and the CLI.
	ID string `json:"id"`
	// Owner is a free-form label: a customer, an application, "demo".
	Owner string `json:"owner"`
	// Created is when the key was created.
	Created time.Time `json:"created"`
	// Status is Active or Revoked.
	Status Status `json:"status"`
	// RevokedAt is when the key was revoked, zero while active.
	RevokedAt time.Time `json:"revoked_at,omitzero"`
	// Interfaces lists the interfaces (first path segment, e.g. "tdmv1")
	// the key may call; empty means all of them.
	Interfaces []string `json:"interfaces,omitempty"`
	// Plan names the key's plan; empty means the plans' default plan.
	Plan string `json:"plan,omitempty"`
	// Expires is when the key stops working (a trial's end, an unpaid
	// checkout's); zero means never.
	Expires time.Time `json:"expires,omitzero"`
	// Email is the customer's e-mail address (trials, checkouts).
	Email string `json:"email,omitempty"`
	// StripeCustomer and StripeSubscription are the payment provider's
	// ids of the customer and subscription paying for the key.
	StripeCustomer     string `json:"stripe_customer,omitempty"`
	StripeSubscription string `json:"stripe_subscription,omitempty"`
}

// Allows reports whether the key may call interface iface. The account
// interface keysv1 (a key's own usage statement) is open to every key.
func (k Key) Allows(iface string) bool {
	return len(k.Interfaces) == 0 || iface == KeysV1 || slices.Contains(k.Interfaces, iface)
}

// Active reports whether the key's status is Active (it authenticates
// unless it has expired; see ExpiredAt).
func (k Key) Active() bool { return k.Status == Active }

// ExpiredAt reports whether the key has expired at time t.
func (k Key) ExpiredAt(t time.Time) bool { return !k.Expires.IsZero() && !t.Before(k.Expires) }

// Generate returns a new random key: GeneratedPrefix and 40 base62
// characters from crypto/rand (43 characters in all).
func Generate() (string, error) {
	var sb strings.Builder
	sb.Grow(len(GeneratedPrefix) + generatedChars)
	sb.WriteString(GeneratedPrefix)
	max := big.NewInt(int64(len(base62)))
	for range generatedChars {
		n, err := rand.Int(rand.Reader, max)
		if err != nil {
			return "", fmt.Errorf("keys: random: %w", err)
		}
		sb.WriteByte(base62[n.Int64()])
	}
	return sb.String(), nil
}

// Validate returns ErrMalformed unless key has MinLen..MaxLen characters,
// each printable ASCII other than a space (what an HTTP header carries
// unchanged; so bytes and characters are the same count).
func Validate(key string) error {
	if len(key) < MinLen || len(key) > MaxLen {
		return ErrMalformed
	}
	for i := 0; i < len(key); i++ {
		if key[i] <= ' ' || key[i] >= 0x7f {
			return ErrMalformed
		}
	}
	return nil
}

// Hash returns the hex SHA-256 of key, the form in which keys are stored.
func Hash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}
