// Package config is geosvc's configuration: the settings of every
// subcommand, their defaults, and their loading with the precedence
// defaults < YAML file < environment variables < command-line flags.
package config

import (
	"fmt"
	"net/netip"
	"strings"
	"time"
)

// Config is the whole service configuration. Its yaml tags are the keys of
// configs/geosvc.yaml, which documents each of them.
type Config struct {
	// Addr is the HTTP listen address.
	Addr string `yaml:"addr"`
	// DataDir is the data bundle directory.
	DataDir string `yaml:"data_dir"`
	// DataReload is how often a server checks whether the bundle in
	// DataDir changed (a new build, a repointed symlink) and swaps to it;
	// 0 checks only on SIGHUP.
	DataReload time.Duration `yaml:"data_reload"`
	// SpeedsWatch is a speed file (segment speed CSV or YAML rules) a
	// server applies at start and again whenever it changes; "" for
	// none.
	SpeedsWatch string `yaml:"speeds_watch"`
	// RedisURL is the Redis server; empty lets `serve` embed one.
	RedisURL string `yaml:"redis_url"`
	// KeyPrefix starts every Redis key geosvc writes.
	KeyPrefix string `yaml:"key_prefix"`
	// Log configures logging.
	Log Log `yaml:"log"`
	// HTTP configures the HTTP server.
	HTTP HTTP `yaml:"http"`
	// Auth configures API keys and rate limits.
	Auth Auth `yaml:"auth"`
	// Queue names the asynq queues.
	Queue Queue `yaml:"queue"`
	// Worker configures the chunk workers.
	Worker Worker `yaml:"worker"`
	// TDM configures matrix jobs.
	TDM TDM `yaml:"tdm"`
	// Stripe configures the payment provider.
	Stripe Stripe `yaml:"stripe"`
	// Admin configures the admin listener.
	Admin Admin `yaml:"admin"`
	// OSRM configures the OSRM-compatible API's limits.
	OSRM OSRM `yaml:"osrm"`
}

// OSRM holds the limits of the OSRM-compatible API (/osrm), named after
// osrm-routed's flags (--max-table-size, ...).
type OSRM struct {
	// MaxTableSize: a table of more than this squared cells answers TooBig.
	MaxTableSize int `yaml:"max_table_size"`
	// MaxViarouteSize is the most coordinates of a route.
	MaxViarouteSize int `yaml:"max_viaroute_size"`
	// MaxTripSize is the most coordinates of a trip.
	MaxTripSize int `yaml:"max_trip_size"`
	// MaxNearestSize is the largest number= of a nearest request.
	MaxNearestSize int `yaml:"max_nearest_size"`
	// MaxMatchingSize is the most coordinates of a match request.
	MaxMatchingSize int `yaml:"max_matching_size"`
	// MaxAlternatives is the largest alternatives= of a route.
	MaxAlternatives int `yaml:"max_alternatives"`
}

// DefaultAdminAddr is the admin listener's built-in address.
const DefaultAdminAddr = "127.0.0.1:9090"

// Admin configures the admin listener: /metrics, /admin/queues and
// /debug/pprof/, apart from the public port.
type Admin struct {
	// Addr is its listen address; empty turns it off.
	Addr string `yaml:"addr"`
	// Fallback is set by Load when Addr is DefaultAdminAddr and neither a
	// flag nor an environment variable gave it (a config file that copies
	// the default does not count): the listener then takes a free port
	// on the same host, with a warning, when another process (an api and
	// a worker on one machine) holds the default. An address given
	// explicitly that is taken stays a start-up error.
	Fallback bool `yaml:"-"`
}

// Log configures logging.
type Log struct {
	// Level is debug, info, warn or error.
	Level string `yaml:"level"`
	// Format is text or json.
	Format string `yaml:"format"`
}

// HTTP configures the HTTP server.
type HTTP struct {
	// BodyLimit is the largest request body in bytes.
	BodyLimit int64 `yaml:"body_limit"`
	// CORSOrigins are the origins browsers may call from.
	CORSOrigins []string `yaml:"cors_origins"`
	// ShutdownTimeout bounds waiting for in-flight requests on shutdown.
	ShutdownTimeout time.Duration `yaml:"shutdown_timeout"`
	// ReadTimeout bounds reading a request.
	ReadTimeout time.Duration `yaml:"read_timeout"`
	// WriteTimeout bounds writing a response.
	WriteTimeout time.Duration `yaml:"write_timeout"`
	// PublicURL is the service's base URL as clients reach it (behind a
	// proxy); empty: taken from each request.
	PublicURL string `yaml:"public_url"`
	// TrustedProxies are the addresses and CIDR ranges of reverse proxies
	// whose X-Forwarded-For names the client (see Proxies).
	TrustedProxies []string `yaml:"trusted_proxies"`
}

// Proxies parses TrustedProxies: each an address ("192.0.2.7", a range
// of one) or a CIDR range ("10.0.0.0/8", "2001:db8::/32").
func (h HTTP) Proxies() ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range h.TrustedProxies {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("http.trusted_proxies: %q is neither an IP address nor a CIDR range", s)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// Auth configures API keys, the rate limit and usage counters.
type Auth struct {
	// DemoKey is the demo key's value; empty generates one.
	DemoKey string `yaml:"demo_key"`
	// Demo enables the demo key at start-up.
	Demo bool `yaml:"demo"`
	// SOAPKeyRequests is the former switch of LocationGetSubscriptionKey,
	// now an alias: true turns free trials on (Trial.Enabled).
	SOAPKeyRequests bool `yaml:"soap_key_requests"`
	// PlansFile is the plan file; empty: the embedded configs/plans.yaml.
	PlansFile string `yaml:"plans_file"`
	// Trial configures free-trial keys.
	Trial Trial `yaml:"trial"`
	// RateLimit is the per-key token bucket.
	RateLimit RateLimit `yaml:"rate_limit"`
	// UsageRetentionDays is how many days usage counters are kept.
	UsageRetentionDays int `yaml:"usage_retention_days"`
	// CacheTTL is how long an API process remembers a key lookup.
	CacheTTL time.Duration `yaml:"cache_ttl"`
	// UsageFlush is how often an API process writes its usage counts.
	UsageFlush time.Duration `yaml:"usage_flush"`
}

// TrialsEnabled reports whether free trials are offered: trial.enabled, or
// its former name soap_key_requests.
func (a Auth) TrialsEnabled() bool { return a.Trial.Enabled || a.SOAPKeyRequests }

// Trial configures free-trial keys (POST /keysv1/trial, /signup, the SOAP
// operation LocationGetSubscriptionKey).
type Trial struct {
	// Enabled offers free trials.
	Enabled bool `yaml:"enabled"`
	// PerIPPerDay caps the trials per client address and UTC day (0: no
	// cap).
	PerIPPerDay int `yaml:"per_ip_per_day"`
	// EmailDomains, when set, are the only e-mail domains trials go to.
	EmailDomains []string `yaml:"email_domains"`
}

// Stripe configures the payment provider. Its secrets belong in the
// environment, not in a file under version control.
type Stripe struct {
	// SecretKey is the API secret key; empty: plans are not sold online.
	SecretKey string `yaml:"secret_key"`
	// WebhookSecret is the webhook endpoint's signing secret.
	WebhookSecret string `yaml:"webhook_secret"`
	// APIURL replaces Stripe's API address (stripe-mock); empty: Stripe's.
	APIURL string `yaml:"api_url"`
}

// RateLimit is a per-key token bucket.
type RateLimit struct {
	// Rate is tokens per second; 0 disables the limit.
	Rate float64 `yaml:"rate"`
	// Burst is the bucket size.
	Burst int `yaml:"burst"`
}

// Queue names the asynq queues.
type Queue struct {
	// Queues maps queue names to priority weights.
	Queues map[string]int `yaml:"queues"`
	// TDMQueue is the queue of tdmv1 chunk tasks.
	TDMQueue string `yaml:"tdm_queue"`
}

// Worker configures the chunk workers.
type Worker struct {
	// Concurrency is the number of chunks run at once; 0 = CPUs.
	Concurrency int `yaml:"concurrency"`
	// TaskCheckInterval is the idle polling interval.
	TaskCheckInterval time.Duration `yaml:"task_check_interval"`
	// ShutdownTimeout bounds waiting for running chunks on shutdown.
	ShutdownTimeout time.Duration `yaml:"shutdown_timeout"`
	// BucketCacheBytes bounds the per-job bucket cache.
	BucketCacheBytes int64 `yaml:"bucket_cache_bytes"`
	// MetricCacheBytes bounds the cache of customized routing metrics
	// (speeds, avoid, efficient, safest) of a process's graph.
	MetricCacheBytes int64 `yaml:"metric_cache_bytes"`
}

// TDM configures matrix jobs.
type TDM struct {
	// ChunkRows is the number of origin rows per chunk task.
	ChunkRows int `yaml:"chunk_rows"`
	// Retention is how long a job and its result are kept.
	Retention time.Duration `yaml:"retention"`
	// TombstoneRetention is how long after expiry fetch answers 410.
	TombstoneRetention time.Duration `yaml:"tombstone_retention"`
	// MaxRetry is the number of retries of a failing chunk.
	MaxRetry int `yaml:"max_retry"`
	// SnapRadiusM is the snapping radius in metres.
	SnapRadiusM float64 `yaml:"snap_radius_m"`
	// InlineCells is the largest order, in cells, the API process
	// computes itself before the order returns; 0: none.
	InlineCells int `yaml:"inline_cells"`
	// MaxLocations is the most origins, and the most destinations, of
	// one order.
	MaxLocations int `yaml:"max_locations"`
}

// Defaults returns the built-in configuration; configs/geosvc.yaml holds
// the same values (a test keeps them equal).
func Defaults() Config {
	return Config{
		Addr:       ":8080",
		DataDir:    "./data",
		DataReload: 2 * time.Second,
		KeyPrefix:  "geosvc:",
		Log:        Log{Level: "info", Format: "text"},
		HTTP: HTTP{
			BodyLimit:       1 << 20,
			CORSOrigins:     []string{"*"},
			TrustedProxies:  []string{},
			ShutdownTimeout: 30 * time.Second,
			ReadTimeout:     30 * time.Second,
			WriteTimeout:    120 * time.Second,
		},
		Auth: Auth{
			Demo:               true,
			RateLimit:          RateLimit{Rate: 1000, Burst: 2000},
			Trial:              Trial{PerIPPerDay: 5, EmailDomains: []string{}},
			UsageRetentionDays: 400,
			CacheTTL:           2 * time.Second,
			UsageFlush:         time.Second,
		},
		Queue: Queue{Queues: map[string]int{"tdm": 6, "default": 1}, TDMQueue: "tdm"},
		Worker: Worker{
			TaskCheckInterval: 10 * time.Millisecond,
			ShutdownTimeout:   25 * time.Second,
			BucketCacheBytes:  512 << 20,
			MetricCacheBytes:  512 << 20,
		},
		TDM: TDM{
			ChunkRows:          50,
			Retention:          24 * time.Hour,
			TombstoneRetention: 7 * 24 * time.Hour,
			MaxRetry:           5,
			SnapRadiusM:        1000,
			InlineCells:        10_000,
			MaxLocations:       1000,
		},
		Admin: Admin{Addr: DefaultAdminAddr},
		OSRM:  OSRM{MaxTableSize: 100, MaxViarouteSize: 500, MaxTripSize: 100, MaxNearestSize: 100, MaxMatchingSize: 100, MaxAlternatives: 3},
	}
}
