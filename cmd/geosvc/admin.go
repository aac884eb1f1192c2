package main

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

	"github.com/geosvc/geosvc/cmd/geosvc/internal/config"
	"github.com/hibiken/asynq"
	"github.com/hibiken/asynq/x/metrics"
	"github.com/hibiken/asynqmon"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/redis/go-redis/v9"
)

// processMetrics is one server process's metrics registry, with the Go
// runtime's and the process's collectors and the bundle's.
type processMetrics struct {
	reg        *prometheus.Registry
	bundleInfo *prometheus.GaugeVec
	bundleLoad prometheus.Gauge
}

// newProcessMetrics returns a registry with the Go and process
// collectors, asynq's queue metrics (sizes, states, retries, by queue,
// read through an Inspector on rdb) and the bundle gauges.
func newProcessMetrics(rdb redis.UniversalClient) *processMetrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	pm := &processMetrics{
		reg: reg,
		bundleInfo: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "geosvc_bundle_info",
			Help: "The loaded data bundle: 1, labelled with its name and bundle version.",
		}, []string{"name", "version"}),
		bundleLoad: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "geosvc_bundle_load_seconds",
			Help: "How long the data bundle took to load at start-up.",
		}),
	}
	reg.MustRegister(pm.bundleInfo, pm.bundleLoad)
	if rdb != nil {
		reg.MustRegister(metrics.NewQueueMetricsCollector(asynq.NewInspectorFromRedisClient(rdb)))
	}
	return pm
}

// bundleLoaded records the loaded bundle.
func (pm *processMetrics) bundleLoaded(name, version string, took time.Duration) {
	pm.bundleInfo.WithLabelValues(name, version).Set(1)
	pm.bundleLoad.Set(took.Seconds())
}

// redisClientOpt hands asynqmon the process's own Redis client (asynqmon
// wants an asynq.RedisConnOpt; the embedded Redis has no URL to give).
type redisClientOpt struct{ c redis.UniversalClient }

// MakeRedisClient returns the client.
func (o redisClientOpt) MakeRedisClient() any { return o.c }

// adminServer is the admin listener: /metrics, the queue dashboard at
// /admin/queues and Go's profiler at /debug/pprof/.
type adminServer struct {
	hs  *http.Server
	ln  net.Listener
	url string
	mon *asynqmon.HTTPHandler
}

// listenAdmin binds cfg.Addr and returns the server, not yet serving; nil
// when the address is empty (the listener is off). A port in use is an
// error, before anything is announced, unless cfg.Fallback: the default
// address, taken by another process on this machine (an api and a worker
// side by side), then gives way to a free port on the same host, with a
// warning that names it.
func listenAdmin(cfg config.Admin, reg *prometheus.Registry, rdb redis.UniversalClient, log *slog.Logger) (*adminServer, error) {
	addr := cfg.Addr
	if addr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil && cfg.Fallback && errors.Is(err, syscall.EADDRINUSE) {
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
	a := &adminServer{ln: ln, url: baseURL(ln.Addr())}
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
			`<li><a href="/debug/pprof/">/debug/pprof/</a></li></ul>`)
	})
	a.hs = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	return a, nil
}

// serve runs the admin listener until shutdown.
func (a *adminServer) serve(log *slog.Logger) {
	if a == nil {
		return
	}
	go func() {
		if err := a.hs.Serve(a.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("admin listener stopped", "err", err)
		}
	}()
}

// shutdown stops the admin listener.
func (a *adminServer) shutdown(ctx context.Context) {
	if a == nil {
		return
	}
	_ = a.hs.Shutdown(ctx)
	if a.mon != nil {
		_ = a.mon.Close()
	}
}
