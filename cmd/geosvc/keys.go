package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/geosvc/geosvc/api/keys"
	"github.com/geosvc/geosvc/cmd/geosvc/internal/config"
)

const keysUsage = `Usage: geosvc keys SUBCOMMAND [flags]

Manage API keys in the Redis named by REDIS_URL (keys live in Redis; an
embedded Redis of 'geosvc serve' is not reachable from here).

Subcommands:
  create [--owner NAME] [--interfaces tdmv1,...] [--key VALUE]
                       create a key and print it (shown once: only its hash is stored)
  list                 list keys (id, owner, created, status, interfaces)
  revoke ID            revoke a key; API processes refuse it within auth.cache_ttl (2 s)
  usage ID [--days N]  daily usage counters of a key

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
	default:
		fmt.Fprintf(os.Stderr, "geosvc keys: unknown subcommand %q\n\n%s", sub, keysUsage)
		return errUsage
	}
	fs := newFlagSet("keys "+sub, synopsis, about)
	loader := config.NewLoader(fs, config.Common)
	asJSON := fs.Bool("json", false, "print JSON")
	var owner, ifaces, value *string
	var days *int
	switch sub {
	case "create":
		owner = fs.String("owner", "", "owner label (customer, application)")
		ifaces = fs.String("interfaces", "", "comma-separated interfaces the key may call (default: all)")
		value = fs.String("key", "", "use this key value (30..128 characters) instead of a random one")
	case "usage":
		days = fs.Int("days", 7, "number of days to show")
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	wantArgs := 0
	if sub == "revoke" || sub == "usage" {
		wantArgs = 1
	}
	if fs.NArg() != wantArgs {
		if wantArgs == 1 && fs.NArg() == 0 {
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
	store := keys.NewStore(rdb, keys.Options{
		Prefix:         cfg.KeyPrefix,
		UsageRetention: time.Duration(cfg.Auth.UsageRetentionDays) * 24 * time.Hour,
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
		k, plain, err := store.Create(ctx, keys.CreateOptions{Owner: *owner, Interfaces: list, Key: *value})
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(out, struct {
				keys.Key
				APIKey string `json:"api_key"`
			}{k, plain})
		}
		fmt.Fprintf(out, "id:      %s\napi key: %s\n(the key is shown only now; geosvc stores its hash)\n", k.ID, plain)
	case "list":
		ks, err := store.List(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(out, ks)
		}
		printKeys(out, ks)
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

func printKeys(w io.Writer, ks []keys.Key) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tOWNER\tCREATED\tSTATUS\tINTERFACES")
	for _, k := range ks {
		ifaces := "all"
		if len(k.Interfaces) > 0 {
			ifaces = strings.Join(k.Interfaces, ",")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.ID, k.Owner, k.Created.Format(time.RFC3339), k.Status, ifaces)
	}
	tw.Flush()
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
