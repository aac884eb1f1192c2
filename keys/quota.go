package keys

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Quota periods.
const (
	// PeriodDay is a UTC day.
	PeriodDay = "day"
	// PeriodMonth is a calendar month, UTC.
	PeriodMonth = "month"
)

// monthFormat names a month in quota keys and statements.
const monthFormat = "2006-01"

// quotaKeep is how long a quota counter outlives its period (a refund that
// arrives just after the period ends finds it, and an operator can look).
const quotaKeep = 24 * time.Hour

// QuotaExceeded is the refusal of a request that would pass a quota of its
// key's plan. It says which quota and when it resets.
type QuotaExceeded struct {
	// Plan is the key's plan.
	Plan string `json:"plan"`
	// Metric is the usage metric ("geocoderv1", "tdmv1.cells").
	Metric string `json:"metric"`
	// Period is "day" or "month".
	Period string `json:"period"`
	// Limit is the quota: units per period.
	Limit int64 `json:"limit"`
	// Used is the units already taken in the period.
	Used int64 `json:"used"`
	// Requested is the units the request needed (1 for a request, the
	// cells of a matrix order).
	Requested int64 `json:"requested"`
	// Resets is when the period ends and the quota is whole again.
	Resets time.Time `json:"resets"`
}

// Error says which quota was reached and when it resets.
func (e *QuotaExceeded) Error() string {
	unit := "requests"
	if e.Metric == TDMV1+CellsSuffix {
		unit = "matrix cells"
	}
	need := ""
	if e.Requested > 1 {
		need = fmt.Sprintf("; this request needs %d, %d are left", e.Requested, max(0, e.Limit-e.Used))
	}
	return fmt.Sprintf("quota exceeded: %s %s, %d per %s on plan %s%s; resets %s",
		e.Metric, unit, e.Limit, e.Period, e.Plan, need, e.Resets.UTC().Format(time.RFC3339))
}

// RetryAfter is the time from now until the quota resets, at least 1 s.
func (e *QuotaExceeded) RetryAfter(now time.Time) time.Duration {
	return max(time.Second, e.Resets.Sub(now))
}

// Reservation is units taken from quota counters by TakeQuota; Release
// gives them back (a request that failed after all).
type Reservation struct {
	keys []string
	n    int64
}

// Empty reports whether the reservation holds nothing (no quota applied).
func (r Reservation) Empty() bool { return len(r.keys) == 0 || r.n == 0 }

// takeQuota checks and takes cost units from every counter of KEYS at
// once: either all have room (each counter + cost <= its limit), and all
// are incremented, or none is touched. ARGV: cost, then per key its limit
// and its lifetime in ms. It returns {0, 0} when the
// units were taken, else {i, used}: the 1-based index of the first full
// counter and its count. Lifetimes are relative (the store's clock, not
// Redis's, decides where a period ends). One script, so API processes sharing a Redis
// never overshoot a quota.
var takeQuota = redis.NewScript(`
local cost = tonumber(ARGV[1])
for i = 1, #KEYS do
  local used = tonumber(redis.call('GET', KEYS[i]) or '0')
  if used + cost > tonumber(ARGV[2 * i]) then
    return {i, used}
  end
end
for i = 1, #KEYS do
  redis.call('INCRBY', KEYS[i], cost)
  redis.call('PEXPIRE', KEYS[i], ARGV[2 * i + 1])
end
return {0, 0}
`)

// releaseQuota gives cost (ARGV[1]) units back to every counter of KEYS
// that still exists (an expired one is not recreated).
var releaseQuota = redis.NewScript(`
local cost = tonumber(ARGV[1])
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    redis.call('DECRBY', KEYS[i], cost)
  end
end
return 0
`)

// quotaKey is the counter of one key, metric and period ("d2026-11-05",
// "m2026-11"). The key id is a hash tag: every counter of a key is in one
// Redis Cluster slot, as one script call needs.
func (s *Store) quotaKey(id, metric, period string) string {
	return s.prefix + "quota:{" + id + "}:" + metric + ":" + period
}

// periodBounds returns the name and end of the period containing t.
func periodBounds(period string, t time.Time) (string, time.Time) {
	t = t.UTC()
	if period == PeriodDay {
		start := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		return "d" + start.Format(dayFormat), start.AddDate(0, 0, 1)
	}
	start := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	return "m" + start.Format(monthFormat), start.AddDate(0, 1, 0)
}

// TakeQuota takes n units of metric from the quotas of key k's plan. It
// returns the reservation (to Release if the request fails after all), a
// *QuotaExceeded when a quota has no room for n (nothing is taken then), or
// another error when Redis failed. A metric the plan does not cap costs no
// Redis call.
func (s *Store) TakeQuota(ctx context.Context, k Key, metric string, n int64) (Reservation, error) {
	plan := s.PlanOf(k)
	m := plan.Metric(metric)
	if !m.Capped() || n <= 0 {
		return Reservation{}, nil
	}
	now := s.now()
	type limitOf struct {
		period string
		limit  int64
		resets time.Time
	}
	var caps []limitOf
	var ks []string
	args := []any{n}
	for _, c := range []struct {
		period string
		limit  int64
	}{{PeriodDay, m.Quota.Day}, {PeriodMonth, m.Quota.Month}} {
		if c.limit <= 0 {
			continue
		}
		name, end := periodBounds(c.period, now)
		caps = append(caps, limitOf{c.period, c.limit, end})
		ks = append(ks, s.quotaKey(k.ID, metric, name))
		args = append(args, c.limit, end.Add(quotaKeep).Sub(now).Milliseconds())
	}
	res, err := takeQuota.Run(ctx, s.rdb, ks, args...).Int64Slice()
	if err != nil {
		return Reservation{}, fmt.Errorf("keys: quota: %w", err)
	}
	if len(res) != 2 || res[0] < 0 || res[0] > int64(len(caps)) {
		return Reservation{}, fmt.Errorf("keys: quota: unexpected reply %v", res)
	}
	if i := res[0]; i > 0 {
		c := caps[i-1]
		return Reservation{}, &QuotaExceeded{Plan: plan.Name, Metric: metric, Period: c.period, Limit: c.limit, Used: res[1], Requested: n, Resets: c.resets}
	}
	return Reservation{keys: ks, n: n}, nil
}

// Release gives the units of r back to their quotas.
func (s *Store) Release(ctx context.Context, r Reservation) error {
	if r.Empty() {
		return nil
	}
	if err := releaseQuota.Run(ctx, s.rdb, r.keys, r.n).Err(); err != nil {
		return fmt.Errorf("keys: quota release: %w", err)
	}
	return nil
}

// QuotaUsed returns the units of metric taken from key id's quota in the
// period ("day" or "month") containing t (0 when none, or not capped).
func (s *Store) QuotaUsed(ctx context.Context, id, metric, period string, t time.Time) (int64, error) {
	name, _ := periodBounds(period, t)
	v, err := s.rdb.Get(ctx, s.quotaKey(id, metric, name)).Result()
	if err == redis.Nil {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("keys: quota: %w", err)
	}
	return strconv.ParseInt(v, 10, 64)
}
