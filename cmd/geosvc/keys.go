package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/geosvc/geosvc/cmd/geosvc/internal/config"
	"github.com/geosvc/geosvc/configs"
	"github.com/geosvc/geosvc/keys"
)

// loadPlans reads the plan file of cfg (auth.plans_file), or the embedded
// configs/plans.yaml.
func loadPlans(cfg config.Config) (*keys.Plans, error) {
	data, source := configs.Plans(), "embedded configs/plans.yaml"
	if f := cfg.Auth.PlansFile; f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("auth.plans_file: %w", err)
		}
		data, source = b, f
	}
	ps, err := keys.ParsePlans(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return ps, nil
}

const keysUsage = `Usage: geosvc keys SUBCOMMAND [flags]

Manage API keys in the Redis named by REDIS_URL (keys live in Redis; an
embedded Redis of 'geosvc serve' is not reachable from here).

Subcommands:
  create [--owner NAME] [--plan PLAN] [--interfaces tdmv1,...] [--key VALUE]
                       create a key and print it (shown once: only its hash is stored)
  list                 list keys (id, owner, created, status, plan, expiry, interfaces)
  plans                list the plans of the plan file (auth.plans_file)
  set-plan ID PLAN     move a key to a plan (a trial key then no longer expires)
  revoke ID            revoke a key; API processes refuse it within auth.cache_ttl (2 s)
  usage ID [--days N]  daily usage counters of a key
  statement ID [--month YYYY-MM] [--csv]
                       a month's usage per interface and day, with the plan's
                       included units, billable units and amounts (minor units)

Every subcommand takes --json, --redis-url, --key-prefix and --config;
run 'geosvc keys SUBCOMMAND --help' for details.
`

func runKeys(args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(os.Stderr, keysUsage)
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	sub, args := args[0], args[1:]
	var synopsis, about string
	switch sub {
	case "create":
		synopsis, about = "keys create [flags]", "Create an API key and print it once; only its SHA-256 is stored."
	case "list":
		synopsis, about = "keys list [flags]", "List every API key (never the key values)."
	case "revoke":
		synopsis, about = "keys revoke [flags] ID", "Revoke the key with id ID."
	case "usage":
		synopsis, about = "keys usage [flags] ID", "Show the daily usage counters (UTC days, newest first) of key ID:\nrequests per interface, and matrix cells as <interface>.cells."
	case "plans":
		synopsis, about = "keys plans [flags]", "List the plans of the plan file (auth.plans_file, else the embedded configs/plans.yaml)."
	case "set-plan":
		synopsis, about = "keys set-plan [flags] ID PLAN", "Move key ID to plan PLAN. A trial key moved to a plan no longer expires."
	case "statement":
		synopsis, about = "keys statement [flags] ID", "Print key ID's statement of a month (UTC): per interface and day the count,\nthe units the plan's allowance included, the billable units and their amount\nin the plan's currency (integers in minor units: 2900 is 29.00 USD); then the\nmonth's totals, the base fee and the total."
	default:
		fmt.Fprintf(os.Stderr, "geosvc keys: unknown subcommand %q\n\n%s", sub, keysUsage)
		return errUsage
	}
	fs := newFlagSet("keys "+sub, synopsis, about)
	loader := config.NewLoader(fs, config.Common)
	asJSON := fs.Bool("json", false, "print JSON")
	var owner, ifaces, value, plan, month *string
	var days *int
	var asCSV *bool
	switch sub {
	case "create":
		owner = fs.String("owner", "", "owner label (customer, application)")
		plan = fs.String("plan", "", "the key's plan (default: the plan file's default_plan)")
		ifaces = fs.String("interfaces", "", "comma-separated interfaces the key may call (default: all its plan allows)")
		value = fs.String("key", "", "use this key value (30..128 characters) instead of a random one")
	case "usage":
		days = fs.Int("days", 7, "number of days to show")
	case "statement":
		month = fs.String("month", "", "the month, YYYY-MM (default: this month, UTC)")
		asCSV = fs.Bool("csv", false, "print CSV")
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	wantArgs := 0
	switch sub {
	case "revoke", "usage", "statement":
		wantArgs = 1
	case "set-plan":
		wantArgs = 2
	}
	if fs.NArg() != wantArgs {
		if wantArgs >= 1 && fs.NArg() == 0 {
			fmt.Fprintf(os.Stderr, "geosvc keys %s: the key id is missing (`geosvc keys list` shows the ids)\n\n", sub)
		}
		fs.Usage()
		return errUsage
	}
	cfg, _, err := loader.Load(os.LookupEnv)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rdb, closeRedis, err := openRedis(ctx, cfg.RedisURL, false, newLogger(cfg.Log, os.Stderr))
	if err != nil {
		return err
	}
	defer closeRedis()
	plans, err := loadPlans(cfg)
	if err != nil {
		return err
	}
	store := keys.NewStore(rdb, keys.Options{
		Prefix:         cfg.KeyPrefix,
		UsageRetention: time.Duration(cfg.Auth.UsageRetentionDays) * 24 * time.Hour,
		Plans:          plans,
	})
	out := os.Stdout
	switch sub {
	case "create":
		var list []string
		for _, s := range strings.Split(*ifaces, ",") {
			if s = strings.TrimSpace(s); s != "" {
				list = append(list, s)
			}
		}
		k, plain, err := store.Create(ctx, keys.CreateOptions{Owner: *owner, Interfaces: list, Key: *value, Plan: *plan})
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(out, struct {
				keys.Key
				APIKey string `json:"api_key"`
			}{k, plain})
		}
		fmt.Fprintf(out, "id:      %s\nplan:    %s\napi key: %s\n(the key is shown only now; geosvc stores its hash)\n", k.ID, store.PlanOf(k).Name, plain)
	case "list":
		ks, err := store.List(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(out, ks)
		}
		printKeys(out, ks, store)
	case "plans":
		if *asJSON {
			return writeJSON(out, plans)
		}
		printPlans(out, plans)
	case "set-plan":
		k, err := store.SetPlan(ctx, fs.Arg(0), fs.Arg(1))
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(out, k)
		}
		fmt.Fprintf(out, "key %s (owner %q) is on plan %s\n", k.ID, k.Owner, k.Plan)
	case "statement":
		k, err := store.Get(ctx, fs.Arg(0))
		if err != nil {
			return err
		}
		m := store.Now().UTC()
		if *month != "" {
			if m, err = keys.ParseMonth(*month); err != nil {
				return err
			}
		}
		st, err := store.Statement(ctx, k, m)
		if err != nil {
			return err
		}
		switch {
		case *asCSV:
			return st.WriteCSV(out)
		case *asJSON:
			return writeJSON(out, st)
		}
		printStatement(out, st)
	case "revoke":
		k, err := store.Revoke(ctx, fs.Arg(0))
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(out, k)
		}
		fmt.Fprintf(out, "revoked %s (owner %q) at %s\n", k.ID, k.Owner, k.RevokedAt.Format(time.RFC3339))
	case "usage":
		if _, err := store.Get(ctx, fs.Arg(0)); err != nil {
			return err
		}
		u, err := store.Usage(ctx, fs.Arg(0), *days)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(out, u)
		}
		printUsage(out, u)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func printKeys(w io.Writer, ks []keys.Key, store *keys.Store) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tOWNER\tCREATED\tSTATUS\tPLAN\tEXPIRES\tINTERFACES")
	now := store.Now()
	for _, k := range ks {
		ifaces := "all"
		if len(k.Interfaces) > 0 {
			ifaces = strings.Join(k.Interfaces, ",")
		}
		status := string(k.Status)
		if k.Active() && k.ExpiredAt(now) {
			status = "expired"
		}
		plan := store.PlanOf(k).Name
		switch {
		case k.Plan == "":
			plan += " (default)"
		case store.Plans().Get(k.Plan) == nil:
			plan = k.Plan + " (unknown: " + plan + ")"
		}
		expires := "-"
		if !k.Expires.IsZero() {
			expires = k.Expires.Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Owner, k.Created.Format(time.RFC3339), status, plan, expires, ifaces)
	}
	tw.Flush()
}

func printPlans(w io.Writer, ps *keys.Plans) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PLAN\tTITLE\tPRICE/MONTH\tTRIAL DAYS\tRATE LIMIT\tINTERFACES\tMETRICS\tNOTE")
	for _, p := range ps.List() {
		rate := "server's"
		if p.RateLimit != nil {
			rate = fmt.Sprintf("%g/s burst %d", p.RateLimit.Rate, p.RateLimit.Burst)
		}
		ifaces := "all"
		if len(p.Interfaces) > 0 {
			ifaces = strings.Join(p.Interfaces, ",")
		}
		var notes []string
		for name, role := range map[string]string{ps.DefaultPlan: "default", ps.TrialPlan: "trial", ps.CancelPlan: "after cancel"} {
			if name == p.Name {
				notes = append(notes, role)
			}
		}
		if p.Hidden {
			notes = append(notes, "hidden")
		}
		sort.Strings(notes)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", p.Name, p.Title, keys.FormatAmount(p.PriceMonth, ps.Currency), p.TrialDays,
			rate, ifaces, strings.Join(p.MetricNames(), ","), strings.Join(notes, ","))
	}
	tw.Flush()
}

func printStatement(w io.Writer, st keys.Statement) {
	fmt.Fprintf(w, "key %s, plan %s, %s (through %s), amounts in %s minor units\n\n", st.KeyID, st.Plan, st.Month, st.Through, st.Currency)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "DAY\tMETRIC\tCOUNT\tINCLUDED\tBILLABLE\tAMOUNT\t")
	for _, l := range st.Days {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t\n", l.Day, l.Metric, l.Count, l.Included, l.Billable, l.Amount)
	}
	for _, m := range st.Metrics {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t\n", "month", m.Metric, m.Count, m.Included, m.Billable, m.Amount)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nbase fee %s, usage %s, total %s\n", keys.FormatAmount(st.BaseFee, st.Currency),
		keys.FormatAmount(st.UsageAmount, st.Currency), keys.FormatAmount(st.Total, st.Currency))
}

func printUsage(w io.Writer, days []keys.DayUsage) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DAY\tMETRIC\tCOUNT")
	for _, d := range days {
		if len(d.Counts) == 0 {
			fmt.Fprintf(tw, "%s\t-\t0\n", d.Day)
			continue
		}
		for _, m := range d.Metrics() {
			fmt.Fprintf(tw, "%s\t%s\t%d\n", d.Day, m, d.Counts[m])
		}
	}
	tw.Flush()
}
