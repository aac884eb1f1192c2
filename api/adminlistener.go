package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"syscall"
	"time"

	"github.com/hibiken/asynq"
	"github.com/hibiken/asynq/x/metrics"
	"github.com/hibiken/asynqmon"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/redis/go-redis/v9"

	"github.com/geosvc/geosvc/bundle"
)

// ProcessMetrics is one server process's metrics registry, with the Go
// runtime's and the process's collectors and the bundle's.
type ProcessMetrics struct {
	reg         *prometheus.Registry
	bundleInfo  *prometheus.GaugeVec
	bundleLoad  prometheus.Gauge
	bundleBuilt prometheus.Gauge
	swaps       prometheus.Counter
}

// NewProcessMetrics returns a registry with the Go and process
// collectors, asynq's queue metrics (sizes, states, retries, by queue,
// read through an Inspector on rdb) and the bundle gauges.
func NewProcessMetrics(rdb redis.UniversalClient) *ProcessMetrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	pm := &ProcessMetrics{
		reg: reg,
		bundleInfo: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "geosvc_bundle_info",
			Help: "The data bundle served: 1, labelled with its name, bundle format version and id.",
		}, []string{"name", "version", "id"}),
		bundleLoad: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "geosvc_bundle_load_seconds",
			Help: "How long the data bundle served took to open (at start-up or by a swap).",
		}),
		bundleBuilt: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "geosvc_bundle_built_timestamp_seconds",
			Help: "When the data bundle served was built (Unix time): its age is time() minus this.",
		}),
		swaps: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "geosvc_bundle_swaps_total",
			Help: "Data bundles swapped in without a restart (a new build in the bundle directory, or SIGHUP).",
		}),
	}
	reg.MustRegister(pm.bundleInfo, pm.bundleLoad, pm.bundleBuilt, pm.swaps)
	if rdb != nil {
		reg.MustRegister(metrics.NewQueueMetricsCollector(asynq.NewInspectorFromRedisClient(rdb)))
	}
	return pm
}

// Registry returns the registry, for the other metrics of the process.
func (pm *ProcessMetrics) Registry() *prometheus.Registry { return pm.reg }

// BundleLoaded records a bundle loaded at start-up (old nil) or by a
// swap, and how long opening it took; the old one's info series goes.
func (pm *ProcessMetrics) BundleLoaded(b, old *bundle.Bundle, took time.Duration) {
	if old != nil {
		pm.bundleInfo.DeleteLabelValues(old.Name(), old.Manifest.BundleVersion, old.ID)
		pm.swaps.Inc()
	}
	pm.bundleInfo.WithLabelValues(b.Name(), b.Manifest.BundleVersion, b.ID).Set(1)
	pm.bundleLoad.Set(took.Seconds())
	pm.bundleBuilt.Set(float64(b.Manifest.BuiltAt.Unix()))
}

// redisClientOpt hands asynqmon the process's own Redis client (asynqmon
// wants an asynq.RedisConnOpt; the embedded Redis has no URL to give).
type redisClientOpt struct{ c redis.UniversalClient }

// MakeRedisClient returns the client.
func (o redisClientOpt) MakeRedisClient() any { return o.c }

// AdminListener is the admin listener: /metrics, the queue dashboard at
// /admin/queues and Go's profiler at /debug/pprof/. It needs no key:
// bind it to a loopback or private address (docs/operations.md).
type AdminListener struct {
	hs  *http.Server
	ln  net.Listener
	url string
	mon *asynqmon.HTTPHandler
	mux *http.ServeMux // for routes added later (ServeSpeeds)
}

// AdminOptions configures the admin listener.
type AdminOptions struct {
	// Addr is the address to bind; "" turns the listener off.
	Addr string
	// Fallback lets a taken Addr give way to a free port on the same
	// host (Addr is the default, not set explicitly).
	Fallback bool
	// Metrics are served at /metrics.
	Metrics *ProcessMetrics
	// Redis is the queue's, for the dashboard; nil: no dashboard.
	Redis redis.UniversalClient
	// Logger logs the fallback and listener errors.
	Logger *slog.Logger
}

// ListenAdmin binds opts.Addr and returns the listener, not yet serving;
// nil when the address is empty (the listener is off). A port in use is
// an error, before anything is announced, unless opts.Fallback: the
// default address, taken by another process on this machine (an api and
// a worker side by side), then gives way to a free port on the same
// host, with a warning that names it.
func ListenAdmin(opts AdminOptions) (*AdminListener, error) {
	addr, reg, rdb, log := opts.Addr, opts.Metrics.reg, opts.Redis, opts.Logger
	if addr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil && opts.Fallback && errors.Is(err, syscall.EADDRINUSE) {
		host, _, _ := net.SplitHostPort(addr)
		if ln, err = net.Listen("tcp", net.JoinHostPort(host, "0")); err == nil {
			log.Warn("admin listener: the default address is in use (another geosvc process on this machine?), listening on a free port instead; give each process its own admin.addr (--admin-addr, GEOSVC_ADMIN_ADDR) to scrape it at a fixed address",
				"default", addr, "addr", ln.Addr().String())
		}
	}
	if err != nil {
		return nil, fmt.Errorf("admin listener (admin.addr, --admin-addr, GEOSVC_ADMIN_ADDR; empty turns it off): %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	a := &AdminListener{ln: ln, url: ListenerURL(ln.Addr()), mux: mux}
	if rdb != nil {
		a.mon = asynqmon.New(asynqmon.Options{RootPath: "/admin/queues", RedisConnOpt: redisClientOpt{rdb}})
		mux.Handle("/admin/queues/", a.mon)
		mux.Handle("/admin/queues", http.RedirectHandler("/admin/queues/", http.StatusMovedPermanently))
	}
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>geosvc admin</title><h1>geosvc admin</h1><ul>`+
			`<li><a href="/metrics">/metrics</a> (Prometheus)</li><li><a href="/admin/queues/">/admin/queues</a> (asynqmon)</li>`+
			`<li><a href="/debug/pprof/">/debug/pprof/</a></li><li><a href="/admin/speeds">/admin/speeds</a> (speed data; POST a speed file)</li></ul>`)
	})
	a.hs = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	return a, nil
}

// URL returns the listener's base URL, "" for a nil listener (off).
func (a *AdminListener) URL() string {
	if a == nil {
		return ""
	}
	return a.url
}

// Serve answers on the listener in a goroutine of its own until Shutdown.
func (a *AdminListener) Serve(log *slog.Logger) {
	if a == nil {
		return
	}
	go func() {
		if err := a.hs.Serve(a.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("admin listener stopped", "err", err)
		}
	}()
}

// Shutdown stops the admin listener.
func (a *AdminListener) Shutdown(ctx context.Context) {
	if a == nil {
		return
	}
	_ = a.hs.Shutdown(ctx)
	if a.mon != nil {
		_ = a.mon.Close()
	}
}

// ListenerURL returns the URL a local client reaches the listener at
// addr at ("localhost" for an unspecified address).
func ListenerURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
