package keys

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Plans is the parsed plan file (configs/plans.yaml documents its format):
// what a key may call, how fast, how much, and at what price. Prices are
// integers in the minor unit of the currency (cents): no floating point
// touches money.
type Plans struct {
	// Currency is the ISO 4217 code of every price, e.g. "USD".
	Currency string `yaml:"currency"`
	// DefaultPlan is the plan of keys that name none: keys made before
	// plans existed, the demo key, `keys create` without --plan.
	DefaultPlan string `yaml:"default_plan"`
	// TrialPlan is the plan of free-trial keys.
	TrialPlan string `yaml:"trial_plan"`
	// CancelPlan is the plan a key falls back to when its paid
	// subscription ends; empty revokes the key instead.
	CancelPlan string `yaml:"cancel_plan"`
	// SalesContact is shown where a plan cannot be bought online (no
	// payment provider, or an interface sold through sales only).
	SalesContact string `yaml:"sales_contact"`
	// Plans maps plan names to plans.
	Plans map[string]*Plan `yaml:"plans"`
	// order is the plans' order in the file.
	order []string
}

// Plan is one plan.
type Plan struct {
	// Name is the plan's key in the file (set by ParsePlans).
	Name string `yaml:"-"`
	// Title is the plan's display name.
	Title string `yaml:"title"`
	// Description is one line for the pricing page.
	Description string `yaml:"description"`
	// Hidden plans are not on the pricing page (internal, enterprise).
	Hidden bool `yaml:"hidden"`
	// PriceMonth is the monthly fee in minor units; 0 is free.
	PriceMonth int64 `yaml:"price_month"`
	// StripePrice, when set, is the payment provider's recurring price id
	// to sell the plan with; empty sells PriceMonth per month as an
	// inline price.
	StripePrice string `yaml:"stripe_price"`
	// TrialDays is how long a key of this plan works when issued as a
	// free trial; 0 for plans that are not trials.
	TrialDays int `yaml:"trial_days"`
	// RateLimit overrides the server's per-key rate limit (auth.rate_limit)
	// when set.
	RateLimit *PlanRateLimit `yaml:"rate_limit"`
	// Interfaces lists the interfaces keys of the plan may call; empty
	// means all. An interface left out is sold through sales.
	Interfaces []string `yaml:"interfaces"`
	// Metrics maps a usage metric (an interface name, or "tdmv1.cells")
	// to its allowance, quota and price.
	Metrics map[string]*Metric `yaml:"metrics"`
}

// PlanRateLimit is a plan's token bucket.
type PlanRateLimit struct {
	// Rate is requests per second; 0 means no limit.
	Rate float64 `yaml:"rate"`
	// Burst is the bucket size; below 1 it is max(1, Rate).
	Burst int `yaml:"burst"`
}

// Metric is what a plan includes, caps and bills of one usage metric.
type Metric struct {
	// Included is the free allowance: units per day or per month that
	// the monthly fee covers. Units beyond it are billable.
	Included Allowance `yaml:"included"`
	// Quota caps the units per day and per month (0: no cap); a request
	// that would pass a cap is refused with 429 until the period resets.
	Quota Allowance `yaml:"quota"`
	// Price is what billable units cost.
	Price Price `yaml:"price"`
}

// Allowance is a number of units per UTC day and per calendar month (UTC);
// 0 means none (for Included) or no cap (for Quota).
type Allowance struct {
	// Day is units per UTC day.
	Day int64 `yaml:"day"`
	// Month is units per calendar month.
	Month int64 `yaml:"month"`
}

// Price is an amount per a number of units: 50 per 1000 is 0.50 per
// thousand (in a currency of cents). Amounts are rounded up to the minor
// unit once per statement line, never per request.
type Price struct {
	// Amount is in minor units.
	Amount int64 `yaml:"amount"`
	// Per is the number of units Amount buys; 0 is taken as 1.
	Per int64 `yaml:"per"`
}

// Billed reports whether billable units of the metric cost anything.
func (m *Metric) Billed() bool { return m != nil && m.Price.Amount > 0 }

// Capped reports whether the metric has a quota.
func (m *Metric) Capped() bool { return m != nil && (m.Quota.Day > 0 || m.Quota.Month > 0) }

// Cost returns the amount of units billable units, rounded up to the minor
// unit.
func (p Price) Cost(units int64) int64 {
	per := max(p.Per, 1)
	if units <= 0 || p.Amount <= 0 {
		return 0
	}
	return (units*p.Amount + per - 1) / per
}

// Allows reports whether keys of the plan may call iface (keysv1, the
// account interface, always).
func (p *Plan) Allows(iface string) bool {
	return len(p.Interfaces) == 0 || iface == KeysV1 || slices.Contains(p.Interfaces, iface)
}

// Metric returns the plan's terms for metric, nil when it has none (the
// metric is neither capped nor billed).
func (p *Plan) Metric(metric string) *Metric { return p.Metrics[metric] }

// MetricNames returns the plan's metrics, sorted.
func (p *Plan) MetricNames() []string { return slices.Sorted(maps.Keys(p.Metrics)) }

// Purchasable reports whether the plan can be bought online: it is shown,
// costs something per month and is not a trial.
func (p *Plan) Purchasable() bool { return !p.Hidden && p.PriceMonth > 0 && p.TrialDays == 0 }

// ParsePlans reads a plan file and checks it: unknown fields, unknown
// interfaces and metrics, negative amounts and dangling plan names are
// errors.
func ParsePlans(data []byte) (*Plans, error) {
	var ps Plans
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&ps); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("plans: %w", err)
	}
	// The file's order, for the pricing page.
	var doc struct {
		Plans yaml.Node `yaml:"plans"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("plans: %w", err)
	}
	for i := 0; i+1 < len(doc.Plans.Content); i += 2 {
		ps.order = append(ps.order, doc.Plans.Content[i].Value)
	}
	if err := ps.check(); err != nil {
		return nil, err
	}
	return &ps, nil
}

var (
	currencyRE = regexp.MustCompile(`^[A-Z]{3}$`)
	planNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)
)

// check validates a parsed file and fills in plan names.
func (ps *Plans) check() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("plans: "+format, args...)) }
	if !currencyRE.MatchString(ps.Currency) {
		bad("currency %q: want an ISO 4217 code such as USD", ps.Currency)
	}
	if len(ps.Plans) == 0 {
		bad("no plans")
	}
	for name, p := range ps.Plans {
		if p == nil {
			p = &Plan{}
			ps.Plans[name] = p
		}
		p.Name = name
		at := "plan " + name
		if !planNameRE.MatchString(name) {
			bad("%s: a name is 1 to 40 lower-case letters, digits, '-' or '_'", at)
		}
		if p.Title == "" {
			p.Title = name
		}
		if p.PriceMonth < 0 || p.TrialDays < 0 {
			bad("%s: negative price_month or trial_days", at)
		}
		if p.RateLimit != nil && (p.RateLimit.Rate < 0 || p.RateLimit.Burst < 0) {
			bad("%s: negative rate_limit", at)
		}
		for _, i := range p.Interfaces {
			if !IsKnown(i) {
				bad("%s: unknown interface %q: the interfaces are %s", at, i, knownList())
			}
		}
		for mname, m := range p.Metrics {
			if m == nil {
				bad("%s: metric %s is empty", at, mname)
				continue
			}
			if !knownMetric(mname) {
				bad("%s: unknown metric %q: an interface name (not %s) or %s", at, mname, KeysV1, TDMV1+CellsSuffix)
			}
			if m.Included.Day < 0 || m.Included.Month < 0 || m.Quota.Day < 0 || m.Quota.Month < 0 || m.Price.Amount < 0 || m.Price.Per < 0 {
				bad("%s: metric %s: negative numbers", at, mname)
			}
			if m.Included.Day > 0 && m.Included.Month > 0 {
				bad("%s: metric %s: included is per day or per month, not both", at, mname)
			}
		}
	}
	for _, ref := range []struct{ key, name string }{{"default_plan", ps.DefaultPlan}, {"trial_plan", ps.TrialPlan}, {"cancel_plan", ps.CancelPlan}} {
		if ref.name == "" {
			if ref.key == "default_plan" {
				bad("default_plan is missing")
			}
			continue
		}
		if ps.Plans[ref.name] == nil {
			bad("%s %q is not a plan", ref.key, ref.name)
		}
	}
	if t := ps.Plans[ps.TrialPlan]; t != nil && t.TrialDays < 1 {
		bad("trial_plan %q: trial_days must be at least 1", ps.TrialPlan)
	}
	return errors.Join(errs...)
}

// knownMetric reports whether name is a usage metric a plan can price:
// an interface other than keysv1, or tdmv1.cells.
func knownMetric(name string) bool {
	if name == TDMV1+CellsSuffix {
		return true
	}
	return IsKnown(name) && name != KeysV1
}

// DefaultPlans returns the plans of a store given none: one plan,
// "unlimited", with no quota and no price.
func DefaultPlans() *Plans {
	return &Plans{
		Currency:    "USD",
		DefaultPlan: "unlimited",
		Plans:       map[string]*Plan{"unlimited": {Name: "unlimited", Title: "Unlimited", Hidden: true}},
		order:       []string{"unlimited"},
	}
}

// Get returns the plan named name, nil when there is none.
func (ps *Plans) Get(name string) *Plan { return ps.Plans[name] }

// Of returns the plan of a key whose plan field is name: that plan, or the
// default plan when name is empty or names no plan.
func (ps *Plans) Of(name string) *Plan {
	if p := ps.Plans[name]; p != nil {
		return p
	}
	return ps.Plans[ps.DefaultPlan]
}

// Names returns the plan names in the file's order.
func (ps *Plans) Names() []string {
	if len(ps.order) == len(ps.Plans) {
		return slices.Clone(ps.order)
	}
	return slices.Sorted(maps.Keys(ps.Plans))
}

// List returns the plans in the file's order.
func (ps *Plans) List() []*Plan {
	var out []*Plan
	for _, n := range ps.Names() {
		out = append(out, ps.Plans[n])
	}
	return out
}

// zeroDecimal lists the currencies without a minor unit (Stripe's list).
var zeroDecimal = []string{"BIF", "CLP", "DJF", "GNF", "JPY", "KMF", "KRW", "MGA", "PYG", "RWF", "UGX", "VND", "VUV", "XAF", "XOF", "XPF"}

// FormatAmount writes an amount in minor units for people: "29.00 USD",
// "500 JPY".
func FormatAmount(minor int64, currency string) string {
	if slices.Contains(zeroDecimal, currency) {
		return strconv.FormatInt(minor, 10) + " " + currency
	}
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	return fmt.Sprintf("%s%d.%02d %s", sign, minor/100, minor%100, currency)
}

// String describes an allowance: "1,000/day", "10,000/month", or both.
func (a Allowance) String() string {
	var parts []string
	if a.Day > 0 {
		parts = append(parts, group(a.Day)+"/day")
	}
	if a.Month > 0 {
		parts = append(parts, group(a.Month)+"/month")
	}
	return strings.Join(parts, ", ")
}

// group writes n with thousands separators.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
