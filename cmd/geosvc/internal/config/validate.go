package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
)

// Validate reports the first setting that cannot work.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if c.Addr == "" {
		bad("addr: empty")
	}
	if c.DataDir == "" {
		bad("data_dir: empty")
	}
	if c.KeyPrefix == "" {
		bad("key_prefix: empty")
	}
	if !slices.Contains([]string{"debug", "info", "warn", "error"}, strings.ToLower(c.Log.Level)) {
		bad("log.level: %q is not debug, info, warn or error", c.Log.Level)
	}
	if !slices.Contains([]string{"text", "json"}, strings.ToLower(c.Log.Format)) {
		bad("log.format: %q is not text or json", c.Log.Format)
	}
	if c.HTTP.BodyLimit < 1024 {
		bad("http.body_limit: %d is below 1024 bytes", c.HTTP.BodyLimit)
	}
	if c.HTTP.ShutdownTimeout <= 0 || c.HTTP.ReadTimeout <= 0 || c.HTTP.WriteTimeout <= 0 {
		bad("http timeouts must be positive")
	}
	if u := c.HTTP.PublicURL; u != "" {
		if pu, err := url.Parse(u); err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" || pu.RawQuery != "" || pu.Fragment != "" {
			bad("http.public_url: %q is not an http(s) base URL like https://geo.example.org", u)
		}
	}
	if _, err := c.HTTP.Proxies(); err != nil {
		bad("%v", err)
	}
	if k := c.Auth.DemoKey; k != "" && (len(k) < 30 || len(k) > 128) {
		bad("auth.demo_key: %d characters, want 30 to 128", len(k))
	}
	if c.Auth.RateLimit.Rate < 0 || c.Auth.RateLimit.Burst < 0 {
		bad("auth.rate_limit: negative rate or burst")
	}
	if c.Auth.CacheTTL < 0 || c.Auth.UsageFlush < 0 {
		bad("auth.cache_ttl and auth.usage_flush must not be negative")
	}
	if c.Auth.Trial.PerIPPerDay < 0 {
		bad("auth.trial.per_ip_per_day: %d, want 0 (no cap) or more", c.Auth.Trial.PerIPPerDay)
	}
	if u := c.Stripe.APIURL; u != "" {
		if pu, err := url.Parse(u); err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			bad("stripe.api_url: %q is not an http(s) URL", u)
		}
	}
	if c.Auth.UsageRetentionDays < 1 {
		bad("auth.usage_retention_days: %d, want at least 1", c.Auth.UsageRetentionDays)
	}
	if a := c.Admin.Addr; a != "" {
		if _, _, err := net.SplitHostPort(a); err != nil {
			bad("admin.addr: %q is not host:port (empty turns the admin listener off)", a)
		}
	}
	if len(c.Queue.Queues) == 0 {
		bad("queue.queues: empty")
	}
	for name, p := range c.Queue.Queues {
		if p < 1 {
			bad("queue.queues: priority of %q is %d, want at least 1", name, p)
		}
	}
	if _, ok := c.Queue.Queues[c.Queue.TDMQueue]; !ok {
		bad("queue.tdm_queue: %q is not in queue.queues", c.Queue.TDMQueue)
	}
	if c.Worker.Concurrency < 0 {
		bad("worker.concurrency: %d, want 0 (CPUs) or more", c.Worker.Concurrency)
	}
	if c.Worker.TaskCheckInterval <= 0 || c.Worker.ShutdownTimeout <= 0 {
		bad("worker intervals must be positive")
	}
	if c.Worker.BucketCacheBytes < 1<<20 {
		bad("worker.bucket_cache_bytes: %d, want at least 1 MiB", c.Worker.BucketCacheBytes)
	}
	if c.Worker.MetricCacheBytes < 1<<20 {
		bad("worker.metric_cache_bytes: %d, want at least 1 MiB", c.Worker.MetricCacheBytes)
	}
	if c.TDM.ChunkRows < 1 || c.TDM.ChunkRows > 1000 {
		bad("tdm.chunk_rows: %d, want 1 to 1000", c.TDM.ChunkRows)
	}
	// The queue reads 0 as "its default" for these two, so 0 is refused
	// here rather than silently turned into 7 days or 5 retries.
	if c.TDM.Retention <= 0 || c.TDM.TombstoneRetention <= 0 {
		bad("tdm.retention and tdm.tombstone_retention must be positive durations")
	}
	if c.TDM.MaxRetry < 1 {
		bad("tdm.max_retry: %d, want at least 1 (a chunk whose worker dies is retried)", c.TDM.MaxRetry)
	}
	if c.TDM.InlineCells < 0 || c.TDM.InlineCells > 1_000_000 {
		bad("tdm.inline_cells: %d, want 0 (none) to 1000000", c.TDM.InlineCells)
	}
	if c.TDM.MaxLocations < 1 || c.TDM.MaxLocations > 10_000 {
		bad("tdm.max_locations: %d, want 1 to 10000", c.TDM.MaxLocations)
	}
	for _, l := range []struct {
		key    string
		v, max int
	}{
		{"osrm.max_table_size", c.OSRM.MaxTableSize, 1000}, {"osrm.max_viaroute_size", c.OSRM.MaxViarouteSize, 10_000},
		{"osrm.max_trip_size", c.OSRM.MaxTripSize, 1000}, {"osrm.max_nearest_size", c.OSRM.MaxNearestSize, 1000},
		{"osrm.max_matching_size", c.OSRM.MaxMatchingSize, 10_000}, {"osrm.max_alternatives", c.OSRM.MaxAlternatives, 10},
	} {
		if l.v < 1 || l.v > l.max {
			bad("%s: %d, want 1 to %d", l.key, l.v, l.max)
		}
	}
	if c.TDM.SnapRadiusM <= 0 {
		bad("tdm.snap_radius_m: %v, want more than 0", c.TDM.SnapRadiusM)
	}
	return errors.Join(errs...)
}

func sortStrings(s []string) { slices.Sort(s) }
