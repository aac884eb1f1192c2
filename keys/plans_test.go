package keys

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/geosvc/geosvc/configs"
	"github.com/geosvc/geosvc/internal/redistest"
)

// testPlans is a plan file for the tests: an unlimited default, a trial,
// and a billed plan with included allowances, quotas and prices.
const testPlans = `
currency: EUR
default_plan: internal
trial_plan: trial
cancel_plan: free
sales_contact: sales@example.test
plans:
  internal: {hidden: true}
  trial:
    trial_days: 7
    interfaces: [geocoderv1, soap]
    metrics:
      geocoderv1: {quota: {day: 5}}
  free:
    metrics:
      geocoderv1: {quota: {day: 2}}
  pro:
    title: Pro
    price_month: 4900
    metrics:
      geocoderv1: {included: {day: 3}, price: {amount: 7, per: 10}}
      zip4v1: {included: {month: 10}, quota: {day: 8, month: 20}, price: {amount: 1, per: 3}}
      tdmv1.cells: {included: {month: 100}, quota: {month: 1000}, price: {amount: 5, per: 1000}}
`

func mustPlans(t testing.TB, src string) *Plans {
	t.Helper()
	ps, err := ParsePlans([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// newPlanStore is newStore with the test plans and a trial policy.
func newPlanStore(t *testing.T, trials TrialPolicy) (*Store, *redistest.Redis, *time.Time) {
	t.Helper()
	r := redistest.New(t)
	now := time.Date(2026, 11, 5, 10, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	s := NewStore(r.Client, Options{Prefix: r.Prefix, Plans: mustPlans(t, testPlans), Trials: trials,
		Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	return s, r, &now
}

func TestShippedPlansParse(t *testing.T) {
	ps, err := ParsePlans(configs.Plans())
	if err != nil {
		t.Fatalf("configs/plans.yaml: %v", err)
	}
	if ps.Get(ps.DefaultPlan).Metrics != nil || ps.Get(ps.DefaultPlan).PriceMonth != 0 {
		t.Errorf("the default plan %q should be unlimited and free", ps.DefaultPlan)
	}
	trial := ps.Get(ps.TrialPlan)
	if trial.TrialDays < 1 || trial.Allows(TDMV1) || !trial.Allows(SOAP) || !trial.Allows(KeysV1) {
		t.Errorf("trial plan %+v: want a trial length, soap, no tdmv1", trial)
	}
	if names := ps.Names(); names[0] != "internal" || len(names) != len(ps.Plans) {
		t.Errorf("Names() = %v, want the file's order", names)
	}
}

func TestParsePlansErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"currency: usd\ndefault_plan: a\nplans: {a: {}}", "currency"},
		{"currency: USD\nplans: {a: {}}", "default_plan is missing"},
		{"currency: USD\ndefault_plan: b\nplans: {a: {}}", `default_plan "b" is not a plan`},
		{"currency: USD\ndefault_plan: a\ntrial_plan: a\nplans: {a: {}}", "trial_days"},
		{"currency: USD\ndefault_plan: a\nplans: {a: {interfaces: [tdm]}}", `unknown interface "tdm"`},
		{"currency: USD\ndefault_plan: a\nplans: {a: {metrics: {keysv1: {quota: {day: 1}}}}}", "unknown metric"},
		{"currency: USD\ndefault_plan: a\nplans: {a: {metrics: {soap: {included: {day: 1, month: 2}}}}}", "not both"},
		{"currency: USD\ndefault_plan: a\nplans: {a: {price_month: -1}}", "negative"},
		{"currency: USD\ndefault_plan: a\nplans: {a: {prise: 1}}", "field prise not found"},
		{"currency: USD\ndefault_plan: A\nplans: {A: {}}", "lower-case"},
	} {
		_, err := ParsePlans([]byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePlans(%q) = %v, want an error about %q", tc.src, err, tc.want)
		}
	}
}

func TestPriceAndFormat(t *testing.T) {
	p := Price{Amount: 50, Per: 1000}
	for units, want := range map[int64]int64{0: 0, 1: 1, 20: 1, 21: 2, 1000: 50, 1001: 51} {
		if got := p.Cost(units); got != want {
			t.Errorf("Cost(%d) = %d, want %d", units, got, want)
		}
	}
	for _, tc := range []struct {
		n    int64
		cur  string
		want string
	}{{2900, "USD", "29.00 USD"}, {5, "EUR", "0.05 EUR"}, {500, "JPY", "500 JPY"}, {-150, "USD", "-1.50 USD"}} {
		if got := FormatAmount(tc.n, tc.cur); got != tc.want {
			t.Errorf("FormatAmount(%d, %s) = %q, want %q", tc.n, tc.cur, got, tc.want)
		}
	}
	if got := (Allowance{Day: 1000, Month: 1234567}).String(); got != "1,000/day, 1,234,567/month" {
		t.Errorf("Allowance.String() = %q", got)
	}
}

// TestQuotaTwoStores: two stores on one Redis (two API processes) taking
// from one key's daily quota at once never pass it, and say when it
// resets.
func TestQuotaTwoStores(t *testing.T) {
	ctx := context.Background()
	s1, r, now := newPlanStore(t, TrialPolicy{})
	s2 := NewStore(r.Client, Options{Prefix: r.Prefix, Plans: s1.Plans(), Now: func() time.Time { return *now }})
	k, _, err := s1.Create(ctx, CreateOptions{Owner: "q", Plan: "pro"})
	if err != nil {
		t.Fatal(err)
	}
	var ok, refused atomic.Int64
	var wg sync.WaitGroup
	for _, s := range []*Store{s1, s2, s1, s2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				_, err := s.TakeQuota(ctx, k, Zip4V1, 1)
				var qe *QuotaExceeded
				switch {
				case err == nil:
					ok.Add(1)
				case errors.As(err, &qe):
					refused.Add(1)
				default:
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 8 || refused.Load() != 32 {
		t.Fatalf("%d taken, %d refused; want 8 (the daily quota) and 32", ok.Load(), refused.Load())
	}
	_, err = s1.TakeQuota(ctx, k, Zip4V1, 1)
	var qe *QuotaExceeded
	if !errors.As(err, &qe) || qe.Period != PeriodDay || qe.Limit != 8 || qe.Used != 8 || qe.Plan != "pro" ||
		!qe.Resets.Equal(time.Date(2026, 11, 6, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("over quota: %#v", err)
	}
	if !strings.Contains(qe.Error(), "zip4v1 requests, 8 per day on plan pro; resets 2026-11-06T00:00:00Z") {
		t.Errorf("message %q", qe.Error())
	}
	// A released reservation gives its unit back.
	*now = now.Add(24 * time.Hour) // the next day: the day quota resets, the month has 12 left
	res, err := s1.TakeQuota(ctx, k, Zip4V1, 8)
	if err != nil {
		t.Fatal(err)
	}
	if err := s1.Release(ctx, res); err != nil {
		t.Fatal(err)
	}
	if used, _ := s1.QuotaUsed(ctx, k.ID, Zip4V1, PeriodDay, *now); used != 0 {
		t.Errorf("after the release %d used today, want 0", used)
	}
	// The month cap: 8 used, 12 left; a request for 13 is refused
	// whole and takes nothing.
	if _, err := s1.TakeQuota(ctx, k, Zip4V1, 13); !errors.As(err, &qe) || qe.Period != PeriodDay {
		t.Fatalf("13 units: %v, want the day quota (8) refusal", err)
	}
	for i := range 3 {
		if i == 2 {
			*now = now.Add(24 * time.Hour) // 16 used this month, 8 today
		}
		if _, err := s1.TakeQuota(ctx, k, Zip4V1, 4); err != nil {
			t.Fatalf("take %d: %v", i, err)
		}
	}
	if _, err := s1.TakeQuota(ctx, k, Zip4V1, 1); !errors.As(err, &qe) || qe.Period != PeriodMonth || qe.Used != 20 ||
		!qe.Resets.Equal(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("month cap: %#v", err)
	}
	// Uncapped metrics and plans touch no counter.
	if res, err := s1.TakeQuota(ctx, k, GeocoderV1, 1000); err != nil || !res.Empty() {
		t.Errorf("uncapped metric: %v %v", res, err)
	}
	def, _, _ := s1.Create(ctx, CreateOptions{Owner: "internal"})
	if res, err := s1.TakeQuota(ctx, def, Zip4V1, 1000); err != nil || !res.Empty() {
		t.Errorf("default plan: %v %v", res, err)
	}
}

func TestTrial(t *testing.T) {
	ctx := context.Background()
	s, _, now := newPlanStore(t, TrialPolicy{Enabled: true, PerIPPerDay: 2})
	k, plain, err := s.IssueTrial(ctx, TrialRequest{Name: "Ann", Email: "Ann.Lee+geo@Example.com", Company: "Acme", IP: "192.0.2.1"})
	if err != nil {
		t.Fatal(err)
	}
	if k.Plan != "trial" || k.Email != "ann.lee@example.com" || !k.Expires.Equal(now.AddDate(0, 0, 7)) || k.Owner != "trial: Ann <ann.lee@example.com> (Acme)" {
		t.Errorf("trial key %+v", k)
	}
	if _, err := s.Authenticate(ctx, plain); err != nil {
		t.Fatalf("fresh trial key: %v", err)
	}
	// The same address, however written, is refused while the trial runs.
	for _, e := range []string{"ann.lee@example.com", " ANN.LEE+other@example.com "} {
		if _, _, err := s.IssueTrial(ctx, TrialRequest{Email: e, IP: "198.51.100.7"}); !errors.Is(err, ErrTrialEmail) {
			t.Errorf("second trial for %q: %v, want ErrTrialEmail", e, err)
		}
	}
	// Gmail dots and googlemail are one address.
	if _, _, err := s.IssueTrial(ctx, TrialRequest{Email: "j.doe@gmail.com", IP: "192.0.2.1"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.IssueTrial(ctx, TrialRequest{Email: "jdoe@googlemail.com", IP: "203.0.113.9"}); !errors.Is(err, ErrTrialEmail) {
		t.Errorf("googlemail twin: %v, want ErrTrialEmail", err)
	}
	// 192.0.2.1 has had its two trials today.
	var lim *TrialIPLimit
	if _, _, err := s.IssueTrial(ctx, TrialRequest{Email: "third@example.com", IP: "192.0.2.1"}); !errors.As(err, &lim) ||
		!lim.Resets.Equal(time.Date(2026, 11, 6, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("third trial from one address: %v, want TrialIPLimit", err)
	}
	// IPv6 addresses count by /64.
	for i, ip := range []string{"2001:db8::1", "2001:db8::2", "2001:db8::3"} {
		_, _, err := s.IssueTrial(ctx, TrialRequest{Email: fmt.Sprintf("v6-%d@example.com", i), IP: ip})
		if (err == nil) != (i < 2) {
			t.Errorf("IPv6 trial %d from %s: %v", i, ip, err)
		}
	}
	for _, e := range []string{"", "not an address", "Ann <ann@example.com>", "a@localhost", "a@[192.0.2.1]"} {
		var in *TrialInputError
		if _, _, err := s.IssueTrial(ctx, TrialRequest{Email: e}); !errors.As(err, &in) {
			t.Errorf("e-mail %q: %v, want a TrialInputError", e, err)
		}
	}
	// The trial ends: the key is refused as expired.
	*now = now.AddDate(0, 0, 7)
	if _, err := s.Authenticate(ctx, plain); !errors.Is(err, ErrExpired) || !Refused(err) {
		t.Errorf("expired trial key: %v, want ErrExpired", err)
	}
	// Moving it to a plan ends the expiry.
	if _, err := s.SetPlan(ctx, k.ID, "pro"); err != nil {
		t.Fatal(err)
	}
	if k, err := s.Authenticate(ctx, plain); err != nil || k.Plan != "pro" {
		t.Errorf("after set-plan: %+v %v", k, err)
	}
}

func TestTrialPolicy(t *testing.T) {
	ctx := context.Background()
	s, _, _ := newPlanStore(t, TrialPolicy{})
	if _, _, err := s.IssueTrial(ctx, TrialRequest{Email: "a@example.com"}); !errors.Is(err, ErrTrialsOff) {
		t.Errorf("trials off: %v", err)
	}
	s, _, _ = newPlanStore(t, TrialPolicy{Enabled: true, EmailDomains: []string{"example.com"}})
	if _, _, err := s.IssueTrial(ctx, TrialRequest{Email: "a@dept.example.com"}); err != nil {
		t.Errorf("subdomain of an allowed domain: %v", err)
	}
	var in *TrialInputError
	if _, _, err := s.IssueTrial(ctx, TrialRequest{Email: "a@example.org"}); !errors.As(err, &in) {
		t.Errorf("domain not allowed: %v", err)
	}
}

func TestStatement(t *testing.T) {
	ctx := context.Background()
	s, _, now := newPlanStore(t, TrialPolicy{})
	k, _, err := s.Create(ctx, CreateOptions{Owner: "st", Plan: "pro"})
	if err != nil {
		t.Fatal(err)
	}
	add := func(day int, metric string, n int64) {
		t.Helper()
		saved := *now
		*now = time.Date(2026, 11, day, 12, 0, 0, 0, time.UTC)
		if err := s.AddUsage(ctx, k.ID, metric, n); err != nil {
			t.Fatal(err)
		}
		*now = saved
	}
	add(1, GeocoderV1, 5)          // 3 included, 2 billable
	add(2, GeocoderV1, 10)         // 3 included, 7 billable
	add(1, Zip4V1, 6)              // month allowance 10: 6 included
	add(3, Zip4V1, 7)              // 4 included, 3 billable
	add(4, TDMV1+CellsSuffix, 250) // 100 included, 150 billable
	add(4, KeysV1, 3)              // never on a statement
	add(5, SOAP, 9)                // not in the plan: counted, not billed
	if err := s.AddUsage(ctx, k.ID, GeocoderV1, 0); err != nil {
		t.Fatal(err)
	}
	st, err := s.Statement(ctx, k, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	want := []StatementLine{
		{"2026-11-01", GeocoderV1, 5, 3, 2, 2},  // 2 * 7/10 = 1.4 -> 2
		{"2026-11-01", Zip4V1, 6, 6, 0, 0},      //
		{"2026-11-02", GeocoderV1, 10, 3, 7, 5}, // 9 * 7/10 = 6.3 -> 7 through today; 7 - 2
		{"2026-11-03", Zip4V1, 7, 4, 3, 1},      // 3 * 1/3 = 1
		{"2026-11-04", TDMV1 + CellsSuffix, 250, 100, 150, 1},
		{"2026-11-05", SOAP, 9, 0, 9, 0},
	}
	if fmt.Sprint(st.Days) != fmt.Sprint(want) {
		t.Errorf("days\n got %v\nwant %v", st.Days, want)
	}
	if st.BaseFee != 4900 || st.UsageAmount != 9 || st.Total != 4909 || st.Currency != "EUR" || st.Month != "2026-11" || st.Through != "2026-11-05" {
		t.Errorf("statement %+v", st)
	}
	var geo MetricTotal
	for _, m := range st.Metrics {
		if m.Metric == GeocoderV1 {
			geo = m
		}
	}
	if geo.Count != 15 || geo.Billable != 9 || geo.Amount != 7 || geo.Allowance != "3/day" || geo.Price != "0.07 EUR per 10" {
		t.Errorf("geocoder total %+v", geo)
	}
	var b strings.Builder
	if err := st.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if lines[0] != "month,day,metric,count,included,billable,amount,currency" || lines[1] != "2026-11,2026-11-01,geocoderv1,5,3,2,2,EUR" ||
		lines[len(lines)-1] != "2026-11,,total,,,,4909,EUR" {
		t.Errorf("CSV:\n%s", b.String())
	}
	if _, err := s.Statement(ctx, k, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)); err == nil {
		t.Errorf("a statement of a future month")
	}
}

func TestPaymentAndEvents(t *testing.T) {
	ctx := context.Background()
	s, _, _ := newPlanStore(t, TrialPolicy{})
	k, plain, err := s.Create(ctx, CreateOptions{Owner: "buyer", Plan: "pro", Pending: true, Expires: s.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(ctx, plain); !errors.Is(err, ErrPending) || !Refused(err) {
		t.Fatalf("pending key: %v", err)
	}
	if _, err := s.ApplyPayment(ctx, k.ID, Payment{Plan: "pro", Customer: "cus_1", Subscription: "sub_1"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Authenticate(ctx, plain)
	if err != nil || got.Plan != "pro" || !got.Expires.IsZero() || got.StripeSubscription != "sub_1" || got.StripeCustomer != "cus_1" {
		t.Fatalf("paid key %+v %v", got, err)
	}
	if k, err := s.EndSubscription(ctx, "sub_1", ""); err != nil || k.Plan != "free" || k.StripeSubscription != "" {
		t.Fatalf("ended subscription: %+v %v", k, err)
	}
	if _, err := s.EndSubscription(ctx, "sub_unknown", ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown subscription: %v", err)
	}
	first, err := s.ClaimEvent(ctx, "evt_1")
	if err != nil || !first {
		t.Fatalf("first claim %v %v", first, err)
	}
	if again, _ := s.ClaimEvent(ctx, "evt_1"); again {
		t.Errorf("an event in process claimed twice")
	}
	if err := s.FinishEvent(ctx, "evt_1"); err != nil {
		t.Fatal(err)
	}
	if again, _ := s.ClaimEvent(ctx, "evt_1"); again {
		t.Errorf("a processed event claimed again")
	}
	if first, _ := s.ClaimEvent(ctx, "evt_2"); !first {
		t.Fatal("evt_2")
	}
	if err := s.ReleaseEvent(ctx, "evt_2"); err != nil {
		t.Fatal(err)
	}
	if again, _ := s.ClaimEvent(ctx, "evt_2"); !again {
		t.Errorf("a released event cannot be claimed again")
	}
}
