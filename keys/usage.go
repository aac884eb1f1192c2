package keys

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// CellsSuffix is appended to an interface name to form the metric that
// counts matrix cells (origins x destinations) rather than requests.
const CellsSuffix = ".cells"

// dayFormat names a UTC day in usage keys.
const dayFormat = "2006-01-02"

func (s *Store) usageKey(id string, day time.Time) string {
	return s.prefix + "usage:" + id + ":" + day.UTC().Format(dayFormat)
}

// AddUsage adds n to today's (UTC) counter of metric for key id. Request
// counts use the interface name as metric ("tdmv1"); see AddCells.
func (s *Store) AddUsage(ctx context.Context, id, metric string, n int64) error {
	k := s.usageKey(id, s.now())
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.HIncrBy(ctx, k, metric, n)
		p.Expire(ctx, k, s.usageTTL)
		return nil
	})
	if err != nil {
		return fmt.Errorf("keys: add usage: %w", err)
	}
	return nil
}

// AddCells adds n matrix cells to today's counter of iface+CellsSuffix.
func (s *Store) AddCells(ctx context.Context, id, iface string, n int64) error {
	return s.AddUsage(ctx, id, iface+CellsSuffix, n)
}

// DayUsage is one UTC day of usage of one key.
type DayUsage struct {
	// Day is the UTC date, YYYY-MM-DD.
	Day string `json:"day"`
	// Counts maps metric to count; metrics never used that day are absent.
	Counts map[string]int64 `json:"counts"`
}

// Metrics returns the metric names of u, sorted.
func (u DayUsage) Metrics() []string { return slices.Sorted(maps.Keys(u.Counts)) }

// Usage returns the usage of key id over the last days UTC days, today
// included, newest first. Days without usage have empty Counts.
func (s *Store) Usage(ctx context.Context, id string, days int) ([]DayUsage, error) {
	if days < 1 {
		return nil, fmt.Errorf("keys: usage: days must be at least 1, got %d", days)
	}
	today := s.now().UTC()
	cmds := make([]*redis.MapStringStringCmd, days)
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i := range days {
			cmds[i] = p.HGetAll(ctx, s.usageKey(id, today.AddDate(0, 0, -i)))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("keys: usage: %w", err)
	}
	out := make([]DayUsage, days)
	for i, c := range cmds {
		u := DayUsage{Day: today.AddDate(0, 0, -i).Format(dayFormat), Counts: map[string]int64{}}
		for m, v := range c.Val() {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("keys: usage %s %s: %w", u.Day, m, err)
			}
			u.Counts[m] = n
		}
		out[i] = u
	}
	return out, nil
}
