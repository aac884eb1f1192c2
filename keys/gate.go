package keys

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// GateOptions configures a Gate. Zero fields take their defaults.
type GateOptions struct {
	// RateLimit is the per-key token bucket of keys whose plan sets none
	// (auth.rate_limit); a zero Rate disables it.
	RateLimit RateLimit
	// UsageFlush, when > 0, collects usage counts in memory and writes
	// them every UsageFlush (RunUsage, Flush) instead of on every
	// request.
	UsageFlush time.Duration
	// Logger logs what the gate lets through because Redis could not say
	// (rate limit, quota, usage); default slog.Default().
	Logger *slog.Logger
	// Now is the rate limiter's clock; default the store's.
	Now func() time.Time
	// Observer is told of every refusal and rate-limit hit (the
	// server's metrics); nil: nobody.
	Observer Observer
}

// Observer is told what a Gate refuses, for metrics.
type Observer interface {
	// Refused is called with the reason a key was refused: missing,
	// malformed, unknown, revoked, expired, pending, interface,
	// duplicate or token.
	Refused(reason string)
	// RateLimited is called when a request finds its key's bucket empty.
	RateLimited()
}

// Gate admits requests of any transport (REST, SOAP, the OSRM paths):
// it authenticates the key a request shows for an interface, applies the
// rate limit and the quotas of the key's plan, and counts what succeeded
// in the key's usage. It is safe for concurrent use.
//
// A request goes through it in three steps:
//
//	k, err := gate.Authenticate(ctx, presented, iface) // *Refusal or ErrUnavailable
//	pass, err := gate.Admit(ctx, k, iface)             // *RateLimited or *QuotaExceeded
//	... pass.TakeQuota(ctx, "tdmv1.cells", n) for work measured in more units ...
//	pass.Done(ctx, succeeded)                          // counts usage, or gives the quota back
type Gate struct {
	store    *Store
	log      *slog.Logger
	obs      Observer
	limiter  *limiter
	usage    *UsageBatch // nil: usage written per request
	every    time.Duration
	byPlan   map[string]bucket
	fallback bucket
}

// NewGate returns the gate of the keys in s.
func NewGate(s *Store, opts GateOptions) *Gate {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = s.now
	}
	g := &Gate{store: s, log: opts.Logger, obs: opts.Observer, byPlan: map[string]bucket{}, every: opts.UsageFlush}
	g.limiter = newLimiter(s.rdb, s.prefix+"ratelimit:", opts.RateLimit, opts.Now)
	g.fallback = g.limiter.bucket
	for _, p := range s.plans.List() {
		if p.RateLimit != nil {
			g.byPlan[p.Name] = newBucket(RateLimit{Rate: p.RateLimit.Rate, Burst: p.RateLimit.Burst})
		}
	}
	if opts.UsageFlush > 0 {
		g.usage = s.NewUsageBatch()
	}
	return g
}

// Store returns the key store the gate checks keys against.
func (g *Gate) Store() *Store { return g.store }

// ErrForbidden is what every refused key is, whatever the reason: the
// transports answer it as the specification's Forbidden (REST 403
// {"message":"Forbidden"}, a SOAP Sender fault "Forbidden").
var ErrForbidden = errors.New("Forbidden")

// ErrUnavailable is returned when the key store cannot be reached to
// authenticate a key (REST 503, a SOAP Receiver fault).
var ErrUnavailable = errors.New("key store unavailable, retry later")

// Refusal is a refused key and why; it is ErrForbidden.
type Refusal struct {
	// Reason is the metrics label: missing, malformed, unknown, revoked,
	// expired, pending, interface, duplicate or token.
	Reason string
}

func (r *Refusal) Error() string { return ErrForbidden.Error() }

// Is makes errors.Is(err, ErrForbidden) true for every refusal.
func (r *Refusal) Is(target error) bool { return target == ErrForbidden }

// Refuse records a refusal the transport decided itself (a bad tile
// token: reason "token") and returns it.
func (g *Gate) Refuse(reason string) error {
	if g.obs != nil {
		g.obs.Refused(reason)
	}
	return &Refusal{Reason: reason}
}

// Authenticate returns the key a request shows for interface iface:
// presented are the values it carried (the x-api-key headers, the SOAP
// SubscriptionKey elements). None, two or more, a malformed, unknown,
// revoked, expired or unpaid key, and a key not allowed the interface by
// itself or by its plan are a *Refusal; a key store that cannot be
// reached is ErrUnavailable (wrapping the cause).
func (g *Gate) Authenticate(ctx context.Context, presented []string, iface string) (Key, error) {
	switch len(presented) {
	case 0:
		return Key{}, g.Refuse("missing")
	case 1:
	default:
		// Two keys are refused rather than one of them chosen: a proxy
		// and a client disagreeing on the key is not a key.
		return Key{}, g.Refuse("duplicate")
	}
	k, err := g.store.Authenticate(ctx, presented[0])
	return g.checked(k, err, iface)
}

// AuthenticateID is Authenticate for a key known by its id (the key a
// tile token was issued to).
func (g *Gate) AuthenticateID(ctx context.Context, id, iface string) (Key, error) {
	k, err := g.store.AuthenticateID(ctx, id)
	return g.checked(k, err, iface)
}

// checked turns the store's answer into Authenticate's.
func (g *Gate) checked(k Key, err error, iface string) (Key, error) {
	switch {
	case Refused(err):
		return Key{}, g.Refuse(RefusalReason(err))
	case err != nil:
		return Key{}, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	if !g.Allows(k, iface) {
		return Key{}, g.Refuse("interface")
	}
	return k, nil
}

// Allows reports whether key k may use interface iface, by itself and
// by its plan.
func (g *Gate) Allows(k Key, iface string) bool {
	return k.Allows(iface) && g.store.PlanOf(k).Allows(iface)
}

// RateLimited is a request refused by its key's rate limit.
type RateLimited struct {
	// RetryAfter is how long until a token is available.
	RetryAfter time.Duration
}

func (r *RateLimited) Error() string {
	return "rate limit exceeded: retry in " + strconv.Itoa(r.Seconds()) + " s"
}

// Seconds is RetryAfter in whole seconds, rounded up, at least 1 (the
// Retry-After header's value).
func (r *RateLimited) Seconds() int {
	return max(1, int((r.RetryAfter+time.Second-1)/time.Second))
}

// Counted reports whether requests to iface count in usage and quotas:
// all but the account interface keysv1.
func Counted(iface string) bool { return iface != KeysV1 }

// Pass is an admitted request: the key that pays for it and the quota
// units it has taken. Done must be called once it is answered.
type Pass struct {
	g     *Gate
	key   Key
	iface string
	mu    sync.Mutex
	taken []Reservation
	// items is how many units of iface the request counts as (0: one).
	items int64
}

// CountItems makes the request count as n units of its interface (a
// batch of n items) instead of one: it takes the n-1 units beyond the
// one Admit took from the quota of the key's plan (a *QuotaExceeded when
// they would pass it; nothing is taken then), and Done counts n in usage
// when the request succeeds, or gives them all back when it fails. n
// below 2 leaves the request at one unit.
func (p *Pass) CountItems(ctx context.Context, n int64) error {
	if n < 2 || !Counted(p.iface) {
		return nil
	}
	if err := p.TakeQuota(ctx, p.iface, n-1); err != nil {
		return err
	}
	p.mu.Lock()
	p.items = n
	p.mu.Unlock()
	return nil
}

// Key returns the key the request is billed to.
func (p *Pass) Key() Key { return p.key }

// Admit lets a request of key billed to interface iface in: one token of
// the rate limit of the key's plan (the gate's, unless the plan sets
// one), then, for a counted interface, one unit of the plan's quota for
// iface. It returns a *RateLimited or a *QuotaExceeded when the request
// must wait. When Redis cannot say, the request is let through (logged).
func (g *Gate) Admit(ctx context.Context, billed Key, iface string) (*Pass, error) {
	if wait := g.takeToken(ctx, billed); wait > 0 {
		if g.obs != nil {
			g.obs.RateLimited()
		}
		return nil, &RateLimited{RetryAfter: wait}
	}
	p := &Pass{g: g, key: billed, iface: iface}
	if Counted(iface) {
		if err := p.TakeQuota(ctx, iface, 1); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// takeToken takes a token of key k's bucket: zero when the request may
// go on (also when there is no limit or Redis cannot say), else how long
// to wait.
func (g *Gate) takeToken(ctx context.Context, k Key) time.Duration {
	b := g.fallback
	if pb, ok := g.byPlan[g.store.PlanOf(k).Name]; ok {
		b = pb
	}
	d, err := g.limiter.allowIn(ctx, k.ID, b)
	if err != nil {
		g.log.Warn("rate limiter unavailable, request let through", slog.String("key_id", k.ID), slog.Any("error", err))
		return 0
	}
	return d.retryAfter
}

// TakeQuota takes n units of metric ("tdmv1.cells" for the cells of a
// matrix order) from the quotas of the pass's key's plan. It returns a
// *QuotaExceeded when a quota has no room for them; when the plan has no
// such quota, or Redis cannot say (logged), the request goes on. Units
// taken are given back by Done unless the request succeeds.
func (p *Pass) TakeQuota(ctx context.Context, metric string, n int64) error {
	res, err := p.g.store.TakeQuota(ctx, p.key, metric, n)
	var qe *QuotaExceeded
	switch {
	case errors.As(err, &qe):
		return qe
	case err != nil:
		p.g.log.Warn("quota unavailable, request let through", slog.String("key_id", p.key.ID), slog.Any("error", err))
		return nil
	}
	if !res.Empty() {
		p.mu.Lock()
		p.taken = append(p.taken, res)
		p.mu.Unlock()
	}
	return nil
}

// Done ends the pass: a request that succeeded is counted in its key's
// usage (for a counted interface); one that failed gives back the quota
// units it took. Calls after the first do nothing.
func (p *Pass) Done(ctx context.Context, succeeded bool) {
	p.mu.Lock()
	taken := p.taken
	p.taken = nil
	done := p.g == nil
	g := p.g
	p.g = nil
	units := max(1, p.items)
	p.mu.Unlock()
	if done {
		return
	}
	if succeeded {
		if Counted(p.iface) {
			g.CountUsage(ctx, p.key.ID, p.iface, units)
		}
		return
	}
	ctx = context.WithoutCancel(ctx)
	for _, r := range taken {
		if err := g.store.Release(ctx, r); err != nil {
			g.log.Warn("quota units not given back", slog.String("key_id", p.key.ID), slog.Any("error", err))
		}
	}
}

// CountUsage counts n requests of a key to an interface (batched when
// GateOptions.UsageFlush is set); a usage store that cannot be reached is
// logged.
func (g *Gate) CountUsage(ctx context.Context, keyID, iface string, n int64) {
	if g.usage != nil {
		g.usage.Add(keyID, iface, n)
		return
	}
	if err := g.store.AddUsage(ctx, keyID, iface, n); err != nil {
		g.log.Warn("usage not counted", slog.String("key_id", keyID), slog.Any("error", err))
	}
}

// AddCells counts n matrix cells of an order in a key's usage, under
// iface + CellsSuffix (written at once, never batched: an order is rare
// and large).
func (g *Gate) AddCells(ctx context.Context, keyID, iface string, n int64) error {
	return g.store.AddCells(ctx, keyID, iface, n)
}

// RunUsage writes the batched usage counts every GateOptions.UsageFlush
// until ctx ends, then writes what is pending and returns. Without
// UsageFlush it returns at once.
func (g *Gate) RunUsage(ctx context.Context) {
	if g.usage == nil {
		return
	}
	g.usage.Run(ctx, g.every, func(err error) {
		g.log.Warn("usage counts not written yet", slog.Any("error", err))
	})
}

// FlushUsage writes the batched usage counts collected so far.
func (g *Gate) FlushUsage(ctx context.Context) error {
	if g.usage == nil {
		return nil
	}
	return g.usage.Flush(ctx)
}
