package keys

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Statement is one key's usage in one calendar month (UTC) with what the
// key's plan includes and bills: per metric and day the count, the units
// the included allowance covered, the billable rest and its amount. Amounts
// are integers in the minor unit of Currency.
type Statement struct {
	// KeyID is the key.
	KeyID string `json:"key_id"`
	// Plan is the key's plan; the statement prices the month with it.
	Plan string `json:"plan"`
	// Currency is the ISO 4217 code of the amounts.
	Currency string `json:"currency"`
	// Month is YYYY-MM.
	Month string `json:"month"`
	// Through is the last day counted (today for the current month).
	Through string `json:"through"`
	// Days are the metric-days with usage, by day then metric.
	Days []StatementLine `json:"days"`
	// Metrics are the month's totals per metric, sorted by metric.
	Metrics []MetricTotal `json:"metrics"`
	// BaseFee is the plan's monthly fee.
	BaseFee int64 `json:"base_fee"`
	// UsageAmount is the sum of the metrics' amounts.
	UsageAmount int64 `json:"usage_amount"`
	// Total is BaseFee + UsageAmount.
	Total int64 `json:"total"`
}

// StatementLine is one metric on one day.
type StatementLine struct {
	// Day is YYYY-MM-DD (UTC).
	Day string `json:"day"`
	// Metric is an interface name or tdmv1.cells.
	Metric string `json:"metric"`
	// Count is the units counted (Included + Billable).
	Count int64 `json:"count"`
	// Included is the units the plan's included allowance covered.
	Included int64 `json:"included"`
	// Billable is the units beyond the allowance.
	Billable int64 `json:"billable"`
	// Amount is what the billable units cost, minor units.
	Amount int64 `json:"amount"`
}

// MetricTotal is one metric over the month.
type MetricTotal struct {
	// Metric is an interface name or tdmv1.cells.
	Metric string `json:"metric"`
	// Count, Included, Billable and Amount sum the metric's lines.
	Count    int64 `json:"count"`
	Included int64 `json:"included"`
	Billable int64 `json:"billable"`
	Amount   int64 `json:"amount"`
	// Allowance is the plan's included allowance ("20,000/month"), empty
	// when none.
	Allowance string `json:"allowance,omitempty"`
	// Quota is the plan's cap ("1,000/day"), empty when none.
	Quota string `json:"quota,omitempty"`
	// Price is the price of billable units ("2.00 USD per 1000"), empty
	// when they cost nothing.
	Price string `json:"price,omitempty"`
}

// ParseMonth reads YYYY-MM.
func ParseMonth(s string) (time.Time, error) {
	t, err := time.Parse(monthFormat, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("month %q: want YYYY-MM", s)
	}
	return t, nil
}

// Statement computes key k's statement for the month containing month,
// from the daily usage counters. A future month is an error; days before
// the counters' retention count nothing.
//
// An allowance per month covers the month's first units in day order; the
// amount of a day is the amount of the month through that day less the
// amount through the day before, so that rounding happens once per metric
// and the days add up to the month exactly.
func (s *Store) Statement(ctx context.Context, k Key, month time.Time) (Statement, error) {
	plan := s.PlanOf(k)
	now := s.now().UTC()
	start := time.Date(month.Year(), month.Month(), 1, 0, 0, 0, 0, time.UTC)
	if start.After(now) {
		return Statement{}, fmt.Errorf("keys: statement: %s is in the future", start.Format(monthFormat))
	}
	end := start.AddDate(0, 1, 0) // exclusive
	last := end.AddDate(0, 0, -1)
	if today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC); last.After(today) {
		last = today
	}
	var days []time.Time
	for d := start; !d.After(last); d = d.AddDate(0, 0, 1) {
		days = append(days, d)
	}
	cmds := make([]*redis.MapStringStringCmd, len(days))
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, d := range days {
			cmds[i] = p.HGetAll(ctx, s.usageKey(k.ID, d))
		}
		return nil
	})
	if err != nil {
		return Statement{}, fmt.Errorf("keys: statement: %w", err)
	}
	st := Statement{KeyID: k.ID, Plan: plan.Name, Currency: s.plans.Currency, Month: start.Format(monthFormat),
		Through: last.Format(dayFormat), Days: []StatementLine{}, Metrics: []MetricTotal{}, BaseFee: plan.PriceMonth}
	totals := map[string]*MetricTotal{}
	// Per metric: included units used so far this month, billable units
	// and amount through the previous day.
	type running struct{ included, billable, amount int64 }
	run := map[string]*running{}
	for i, d := range days {
		counts := cmds[i].Val()
		for _, metric := range slices.Sorted(maps.Keys(counts)) {
			n, err := strconv.ParseInt(counts[metric], 10, 64)
			if err != nil {
				return Statement{}, fmt.Errorf("keys: statement %s %s: %w", d.Format(dayFormat), metric, err)
			}
			if n == 0 || metric == KeysV1 {
				continue
			}
			m := plan.Metric(metric)
			r := run[metric]
			if r == nil {
				r = &running{}
				run[metric] = r
			}
			line := StatementLine{Day: d.Format(dayFormat), Metric: metric, Count: n}
			var free int64
			if m != nil {
				switch {
				case m.Included.Day > 0:
					free = m.Included.Day
				case m.Included.Month > 0:
					free = max(0, m.Included.Month-r.included)
				}
			}
			line.Included = min(n, free)
			line.Billable = n - line.Included
			r.included += line.Included
			if m.Billed() {
				through := m.Price.Cost(r.billable + line.Billable)
				line.Amount = through - r.amount
				r.amount = through
			}
			r.billable += line.Billable
			st.Days = append(st.Days, line)
			t := totals[metric]
			if t == nil {
				t = &MetricTotal{Metric: metric}
				totals[metric] = t
			}
			t.Count += line.Count
			t.Included += line.Included
			t.Billable += line.Billable
			t.Amount += line.Amount
		}
	}
	for _, name := range slices.Sorted(maps.Keys(totals)) {
		t := totals[name]
		if m := plan.Metric(name); m != nil {
			t.Allowance = m.Included.String()
			t.Quota = m.Quota.String()
			if m.Billed() {
				t.Price = FormatAmount(m.Price.Amount, s.plans.Currency) + " per " + strconv.FormatInt(max(m.Price.Per, 1), 10)
			}
		}
		st.Metrics = append(st.Metrics, *t)
		st.UsageAmount += t.Amount
	}
	st.Total = st.BaseFee + st.UsageAmount
	return st, nil
}

// WriteCSV writes the statement as CSV: a header, one row per metric and
// day, one "total" row per metric (day empty), then the rows "base_fee" and
// "total" (metric column) with their amounts. Amounts are minor units.
func (st Statement) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	i64 := func(n int64) string { return strconv.FormatInt(n, 10) }
	rows := [][]string{{"month", "day", "metric", "count", "included", "billable", "amount", "currency"}}
	for _, l := range st.Days {
		rows = append(rows, []string{st.Month, l.Day, l.Metric, i64(l.Count), i64(l.Included), i64(l.Billable), i64(l.Amount), st.Currency})
	}
	for _, t := range st.Metrics {
		rows = append(rows, []string{st.Month, "", t.Metric, i64(t.Count), i64(t.Included), i64(t.Billable), i64(t.Amount), st.Currency})
	}
	rows = append(rows,
		[]string{st.Month, "", "base_fee", "", "", "", i64(st.BaseFee), st.Currency},
		[]string{st.Month, "", "total", "", "", "", i64(st.Total), st.Currency})
	if err := cw.WriteAll(rows); err != nil {
		return err
	}
	return cw.Error()
}
