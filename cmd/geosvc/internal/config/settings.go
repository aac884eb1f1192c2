package config

// Setting is one configuration key with its environment variable and flag.
type Setting struct {
	// Key is the dotted YAML path ("http.body_limit").
	Key string
	// Env is the environment variable that overrides it.
	Env string
	// Flag is the command-line flag (without dashes) that overrides it.
	Flag string
	// Help is the flag's usage text.
	Help string
	// Group is the set of subcommands the flag is offered on.
	Group Group
}

// Group selects which subcommands offer a setting's flag.
type Group uint8

// Groups of settings.
const (
	// Common settings: every subcommand that talks to Redis.
	Common Group = 1 << iota
	// HTTPGroup settings: serve and api.
	HTTPGroup
	// WorkerGroup settings: serve and worker.
	WorkerGroup
)

// Server is every group: what `geosvc serve` offers.
const Server = Common | HTTPGroup | WorkerGroup

// Settings lists every setting, in the order of configs/geosvc.yaml.
var Settings = []Setting{
	{"addr", "GEOSVC_ADDR", "addr", "HTTP listen address", HTTPGroup},
	{"data_dir", "GEOSVC_DATA", "data", "data bundle directory", HTTPGroup | WorkerGroup},
	{"data_reload", "GEOSVC_DATA_RELOAD", "data-reload", "how often to check data_dir for a new bundle and swap to it without a restart (0: only on SIGHUP)", HTTPGroup | WorkerGroup},
	{"speeds_watch", "GEOSVC_SPEEDS_WATCH", "speeds-watch", "speed data file (segment speed CSV or .yaml rules) applied at start and again whenever it changes, without a restart (empty: none)", HTTPGroup | WorkerGroup},
	{"redis_url", "REDIS_URL", "redis-url", "Redis URL (redis://host:port/db); empty: embedded Redis (serve only)", Common},
	{"key_prefix", "GEOSVC_KEY_PREFIX", "key-prefix", "prefix of every Redis key geosvc writes", Common},
	{"log.level", "GEOSVC_LOG_LEVEL", "log-level", "log level: debug, info, warn, error", Common},
	{"log.format", "GEOSVC_LOG_FORMAT", "log-format", "log format: text or json", Common},
	{"http.body_limit", "GEOSVC_BODY_LIMIT", "body-limit", "largest request body in bytes", HTTPGroup},
	{"http.cors_origins", "GEOSVC_CORS_ORIGINS", "cors-origins", "comma-separated CORS origins (* for any, empty: no CORS)", HTTPGroup},
	{"http.shutdown_timeout", "GEOSVC_SHUTDOWN_TIMEOUT", "shutdown-timeout", "graceful shutdown wait for in-flight requests", HTTPGroup},
	{"http.read_timeout", "GEOSVC_READ_TIMEOUT", "read-timeout", "time to read one request", HTTPGroup},
	{"http.write_timeout", "GEOSVC_WRITE_TIMEOUT", "write-timeout", "time to write one response", HTTPGroup},
	{"http.public_url", "GEOSVC_PUBLIC_URL", "public-url", "base URL clients reach the service at (behind a proxy); the SOAP WSDL advertises it; empty: from each request", HTTPGroup},
	{"http.trusted_proxies", "GEOSVC_TRUSTED_PROXIES", "trusted-proxies", "comma-separated addresses or CIDR ranges of reverse proxies whose X-Forwarded-For names the client (empty: the peer is the client)", HTTPGroup},
	{"auth.demo_key", "GEOSVC_DEMO_KEY", "demo-key", "demo API key (30..128 chars); empty: generated on first start", HTTPGroup},
	{"auth.demo", "GEOSVC_DEMO", "demo", "create or reuse a demo key at start-up", HTTPGroup},
	{"auth.soap_key_requests", "GEOSVC_SOAP_KEY_REQUESTS", "soap-key-requests", "former name of auth.trial.enabled: true offers free trials", HTTPGroup},
	{"auth.plans_file", "GEOSVC_PLANS_FILE", "plans-file", "plan file (configs/plans.yaml format); empty: the embedded plans", Common},
	{"auth.trial.enabled", "GEOSVC_TRIALS", "trials", "offer free-trial keys (/signup, POST /keysv1/trial, SOAP LocationGetSubscriptionKey)", HTTPGroup},
	{"auth.trial.per_ip_per_day", "GEOSVC_TRIALS_PER_IP", "trials-per-ip", "free trials per client address and UTC day (0: no cap)", HTTPGroup},
	{"auth.trial.email_domains", "GEOSVC_TRIAL_DOMAINS", "trial-domains", "comma-separated e-mail domains trials are limited to (empty: any)", HTTPGroup},
	{"auth.rate_limit.rate", "GEOSVC_RATE_LIMIT", "rate-limit", "per-key requests per second (0: no limit)", HTTPGroup},
	{"auth.rate_limit.burst", "GEOSVC_RATE_BURST", "rate-burst", "per-key burst size", HTTPGroup},
	{"auth.usage_retention_days", "GEOSVC_USAGE_DAYS", "usage-days", "days of usage counters kept", Common},
	{"auth.cache_ttl", "GEOSVC_KEY_CACHE_TTL", "key-cache-ttl", "how long an API process remembers a key lookup (0: ask Redis every request)", HTTPGroup},
	{"auth.usage_flush", "GEOSVC_USAGE_FLUSH", "usage-flush", "how often an API process writes usage counts (0: on every request)", HTTPGroup},
	{"queue.queues", "GEOSVC_QUEUES", "queues", "asynq queues and priorities, e.g. tdm=6,default=1", HTTPGroup | WorkerGroup},
	{"queue.tdm_queue", "GEOSVC_TDM_QUEUE", "tdm-queue", "queue of tdmv1 chunk tasks", HTTPGroup | WorkerGroup},
	{"worker.concurrency", "GEOSVC_CONCURRENCY", "concurrency", "chunks run at once per worker process (0: CPUs)", WorkerGroup},
	{"worker.task_check_interval", "GEOSVC_TASK_CHECK_INTERVAL", "task-check-interval", "idle worker polling interval", WorkerGroup},
	{"worker.shutdown_timeout", "GEOSVC_WORKER_SHUTDOWN_TIMEOUT", "worker-shutdown-timeout", "wait for running chunks on shutdown", WorkerGroup},
	{"worker.bucket_cache_bytes", "GEOSVC_BUCKET_CACHE", "bucket-cache", "bytes of per-job bucket cache per worker", WorkerGroup},
	{"worker.metric_cache_bytes", "GEOSVC_METRIC_CACHE", "metric-cache", "bytes of customized routing metrics kept per process", HTTPGroup | WorkerGroup},
	{"tdm.chunk_rows", "GEOSVC_CHUNK_ROWS", "chunk-rows", "origin rows per chunk task", HTTPGroup | WorkerGroup},
	{"tdm.retention", "GEOSVC_TDM_RETENTION", "tdm-retention", "how long jobs and results are kept", HTTPGroup | WorkerGroup},
	{"tdm.tombstone_retention", "GEOSVC_TDM_TOMBSTONE", "tdm-tombstone", "how long after expiry fetch answers 410", HTTPGroup | WorkerGroup},
	{"tdm.max_retry", "GEOSVC_TDM_MAX_RETRY", "tdm-max-retry", "retries of a failing chunk", HTTPGroup | WorkerGroup},
	{"tdm.snap_radius_m", "GEOSVC_SNAP_RADIUS", "snap-radius", "snapping radius in metres", HTTPGroup | WorkerGroup},
	{"tdm.inline_cells", "GEOSVC_INLINE_CELLS", "inline-cells", "largest order (origins x destinations) the API computes before answering (0: none)", HTTPGroup},
	{"tdm.max_locations", "GEOSVC_MAX_LOCATIONS", "max-locations", "most origins, and most destinations, of one order", HTTPGroup},
	{"admin.addr", "GEOSVC_ADMIN_ADDR", "admin-addr", "admin listen address (/metrics, /admin/queues, /debug/pprof/); empty: none", HTTPGroup | WorkerGroup},
	{"stripe.secret_key", "GEOSVC_STRIPE_SECRET_KEY", "stripe-secret-key", "Stripe API secret key (set it in the environment); empty: plans are not sold online", HTTPGroup},
	{"stripe.webhook_secret", "GEOSVC_STRIPE_WEBHOOK_SECRET", "stripe-webhook-secret", "Stripe webhook signing secret (whsec_...; set it in the environment)", HTTPGroup},
	{"osrm.max_table_size", "GEOSVC_OSRM_MAX_TABLE_SIZE", "osrm-max-table-size", "OSRM API: a table of more than this squared cells answers TooBig (osrm-routed --max-table-size)", HTTPGroup},
	{"osrm.max_viaroute_size", "GEOSVC_OSRM_MAX_VIAROUTE_SIZE", "osrm-max-viaroute-size", "OSRM API: most coordinates of a route (--max-viaroute-size)", HTTPGroup},
	{"osrm.max_trip_size", "GEOSVC_OSRM_MAX_TRIP_SIZE", "osrm-max-trip-size", "OSRM API: most coordinates of a trip (--max-trip-size)", HTTPGroup},
	{"osrm.max_nearest_size", "GEOSVC_OSRM_MAX_NEAREST_SIZE", "osrm-max-nearest-size", "OSRM API: largest number= of a nearest request (--max-nearest-size)", HTTPGroup},
	{"osrm.max_matching_size", "GEOSVC_OSRM_MAX_MATCHING_SIZE", "osrm-max-matching-size", "OSRM API: most coordinates of a match request (--max-matching-size)", HTTPGroup},
	{"osrm.max_alternatives", "GEOSVC_OSRM_MAX_ALTERNATIVES", "osrm-max-alternatives", "OSRM API: largest alternatives= of a route (--max-alternatives)", HTTPGroup},
	{"stripe.api_url", "GEOSVC_STRIPE_API_URL", "stripe-api-url", "Stripe API base URL (stripe-mock in tests); empty: Stripe's", HTTPGroup},
}
