package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
	"syscall"
	"time"

	"github.com/geosvc/geosvc/api"
	"github.com/geosvc/geosvc/api/console"
	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/cmd/geosvc/internal/config"
	"github.com/geosvc/geosvc/keys"
	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/soap"
	"github.com/geosvc/geosvc/worker"
)

// role says which parts a server process runs.
type role struct {
	name     string
	http     bool
	workers  bool
	embed    bool // may start an embedded Redis
	groups   config.Group
	synopsis string
	about    string
}

var (
	serveRole = role{"serve", true, true, true, config.Server, "serve [flags]",
		"Run the REST API and the matrix workers in one process. Without REDIS_URL an\n" +
			"embedded Redis is started (nothing survives a restart). Prints the URL and the\n" +
			"demo API key. Stops gracefully on SIGINT/SIGTERM."}
	apiRole = role{"api", true, false, false, config.Common | config.HTTPGroup, "api [flags]",
		"Run the REST API only, against the Redis named by REDIS_URL; matrix jobs are\n" +
			"computed by `geosvc worker` processes on the same Redis and data bundle."}
	workerRole = role{"worker", false, true, false, config.Common | config.WorkerGroup, "worker [flags]",
		"Run matrix chunk workers only, against the Redis named by REDIS_URL. Start as\n" +
			"many as you like, on any machine with the same data bundle. On SIGINT/SIGTERM\n" +
			"a worker stops taking chunks; a chunk it cannot finish is retried elsewhere."}
)

func runServe(args []string) error  { return runServer(serveRole, args) }
func runAPI(args []string) error    { return runServer(apiRole, args) }
func runWorker(args []string) error { return runServer(workerRole, args) }

// runServer runs a server process of role r until SIGINT or SIGTERM.
func runServer(r role, args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, r, args, nil)
}

// serve loads the configuration, connects to Redis, serves HTTP at once
// (/healthz up, /readyz 503 until the bundle is loaded), loads the bundle,
// starts the workers, and when ctx ends shuts down: HTTP first (in-flight
// requests finish), then the workers. When listening is not nil it
// receives the base URLs once HTTP listens (tests start a server in
// process on port 0 this way).
func serve(ctx context.Context, r role, args []string, listening chan<- serverURLs) error {
	fs := newFlagSet(r.name, r.synopsis, r.about)
	loader := config.NewLoader(fs, r.groups)
	if err := parse(fs, args); err != nil {
		return err
	}
	cfg, source, err := loader.Load(os.LookupEnv)
	if err != nil {
		return err
	}
	log := newLogger(cfg.Log, os.Stderr)
	slog.SetDefault(log)
	log.Info("geosvc starting", "command", r.name, "version", version, "config", source, "data", cfg.DataDir)

	ctx, stop := context.WithCancel(ctx)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)

	// A missing or outdated bundle is reported before anything is
	// announced (the bundle itself loads in the background, below).
	if _, err := bundle.Check(cfg.DataDir); err != nil {
		return err
	}

	rdb, closeRedis, err := openRedis(ctx, cfg.RedisURL, r.embed, log)
	if err != nil {
		return err
	}
	defer closeRedis()

	pm := api.NewProcessMetrics(rdb)
	admin, err := api.ListenAdmin(api.AdminOptions{Addr: cfg.Admin.Addr, Fallback: cfg.Admin.Fallback, Metrics: pm, Redis: rdb, Logger: log})
	if err != nil {
		return err
	}
	if admin != nil {
		admin.Serve(log)
		log.Info("admin listening", "metrics", admin.URL()+"/metrics", "queues", admin.URL()+"/admin/queues/", "pprof", admin.URL()+"/debug/pprof/")
		defer func() {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			admin.Shutdown(sctx)
		}()
	}
	var apiMetrics *api.Metrics
	var workerMetrics *worker.Metrics
	if r.http {
		apiMetrics = api.NewMetrics(pm.Registry())
	}
	if r.workers || r.http {
		// An API process computes small matrix orders itself.
		workerMetrics = worker.NewMetrics(pm.Registry())
	}

	q, err := queue.New(rdb, queue.Config{
		Prefix:       cfg.KeyPrefix + "tdm",
		QueueName:    cfg.Queue.TDMQueue,
		ChunkRows:    cfg.TDM.ChunkRows,
		Retention:    cfg.TDM.Retention,
		TombstoneTTL: cfg.TDM.TombstoneRetention,
		MaxRetry:     cfg.TDM.MaxRetry,
	})
	if err != nil {
		return err
	}

	var srv *api.Server
	// The bundle every interface answers from, once loaded.
	cur := &bundle.Current{}
	// Live speed data: POST /admin/speeds, --speeds-watch (applied to
	// each bundle as it is stored).
	admin.ServeSpeeds(cur, log)
	pm.WatchSpeedMetrics(cur)
	if cfg.SpeedsWatch != "" {
		if err := api.WatchSpeeds(cur, cfg.SpeedsWatch, time.Second, ctx.Done(), log); err != nil {
			return fmt.Errorf("--speeds-watch %s: %w", cfg.SpeedsWatch, err)
		}
	}
	httpErr := make(chan error, 1)
	if r.http {
		plans, err := loadPlans(cfg)
		if err != nil {
			return err
		}
		store := keys.NewStore(rdb, keys.Options{
			Prefix:         cfg.KeyPrefix,
			UsageRetention: time.Duration(cfg.Auth.UsageRetentionDays) * 24 * time.Hour,
			AuthCacheTTL:   cfg.Auth.CacheTTL,
			Plans:          plans,
			Trials: keys.TrialPolicy{
				Enabled:      cfg.Auth.TrialsEnabled(),
				PerIPPerDay:  cfg.Auth.Trial.PerIPPerDay,
				EmailDomains: cfg.Auth.Trial.EmailDomains,
			},
		})
		gate := keys.NewGate(store, keys.GateOptions{
			RateLimit:  keys.RateLimit{Rate: cfg.Auth.RateLimit.Rate, Burst: cfg.Auth.RateLimit.Burst},
			UsageFlush: cfg.Auth.UsageFlush,
			Logger:     log,
			Observer:   apiMetrics,
		})
		proxies, err := cfg.HTTP.Proxies()
		if err != nil {
			return err
		}
		srv = api.New(api.Options{
			TrustedProxies: proxies,
			Logger:         log,
			Redis:          rdb,
			Gate:           gate,
			Bundle:         cur,
			BodyLimit:      cfg.HTTP.BodyLimit,
			CORSOrigins:    cfg.HTTP.CORSOrigins,
			ReadTimeout:    cfg.HTTP.ReadTimeout,
			WriteTimeout:   cfg.HTTP.WriteTimeout,
			Version:        version,
			Metrics:        apiMetrics,
		})
		// Small matrix orders are computed here, on the same graph.
		inline := worker.NewInline(cur, cfg.TDM.SnapRadiusM, workerMetrics)
		api.RegisterTDM(srv.Protected(), api.TDMOptions{
			Queue: q, Usage: gate, Logger: log, Closing: srv.Closing(),
			Inline: inline, InlineCells: inlineCells(cfg.TDM.InlineCells), MaxLocations: cfg.TDM.MaxLocations, Bundle: cur,
		})
		srv.SetMaxLocations(cfg.TDM.MaxLocations)
		registerLookups(srv.Protected(), cur)
		registerOSRM(srv.Protected(), cur, cfg.OSRM)
		api.RegisterKeys(srv, api.KeysOptions{Store: store, PublicURL: cfg.HTTP.PublicURL, Logger: log, Stripe: api.StripeOptions{
			SecretKey: cfg.Stripe.SecretKey, WebhookSecret: cfg.Stripe.WebhookSecret, APIURL: cfg.Stripe.APIURL,
		}})
		mountSOAP(srv, soap.New(soap.Options{Bundle: cur, Gate: gate, Redis: rdb, Prefix: cfg.KeyPrefix, PublicURL: cfg.HTTP.PublicURL, Logger: log}))
		if err := api.RegisterTiles(srv, api.TileOptions{Bundle: cur}); err != nil {
			return err
		}
		if err := srv.ServeConsole(console.Files()); err != nil {
			return err
		}
		ln, err := net.Listen("tcp", cfg.Addr)
		if err != nil {
			return err
		}
		go func() { httpErr <- srv.Serve(ln) }()
		url := api.ListenerURL(ln.Addr())
		log.Info("HTTP listening", "url", url)
		fmt.Fprintf(os.Stdout, "geosvc %s listening on %s\n", r.name, url)
		if cfg.Auth.Demo {
			if err := announceDemo(ctx, store, cfg.Auth.DemoKey, url, log); err != nil {
				return err
			}
		}
		if listening != nil {
			listening <- serverURLs{api: url, admin: admin.URL()}
		}
	}

	// Load the bundle in the background: /healthz answers meanwhile and
	// /readyz says why it is not ready yet.
	type loaded struct {
		b   *bundle.Bundle
		err error
	}
	// bundleOpened readies a bundle just opened (at start or by a swap).
	bundleOpened := func(b, old *bundle.Bundle, took time.Duration) {
		b.SetMetricCacheBytes(cfg.Worker.MetricCacheBytes)
		m := b.Manifest
		log.Info("data bundle loaded", "dir", cfg.DataDir, "name", b.Name(), "id", b.ID, "bundle_version", m.BundleVersion, "profiles", b.Profiles(),
			"nodes", b.Graph.Meta().Nodes, "edges", b.Graph.Meta().Edges, "took", took.Round(time.Millisecond))
		pm.BundleLoaded(b, old, took)
		// Opening decodes and indexes (the time zones, the world layer):
		// give the memory that took back to the system rather than hold
		// it until a later GC.
		debug.FreeOSMemory()
	}
	bundleCh := make(chan loaded, 1)
	// The served bundle's checksums are verified in the background: a
	// corrupt file stops the process with its name.
	verifyErr := make(chan error, 1)
	go func() {
		start := time.Now()
		// Each role opens what it uses: workers the routing graph, the
		// API every layer (the graph for the SOAP route planner, routev1
		// and the tiles' roads).
		b, err := openFor(r)(cfg.DataDir)
		if err == nil {
			bundleOpened(b, nil, time.Since(start))
		}
		bundleCh <- loaded{b, err}
	}()

	var w *worker.Worker
	var runErr error
wait:
	for {
		select {
		case <-ctx.Done():
			log.Info("signal received, shutting down")
			break wait
		case err := <-verifyErr:
			runErr = err
			break wait
		case err := <-httpErr:
			if !errors.Is(err, http.ErrServerClosed) {
				runErr = fmt.Errorf("http: %w", err)
			}
			break wait
		case l := <-bundleCh:
			bundleCh = nil
			if l.err != nil {
				runErr = l.err
				break wait
			}
			cur.Store(l.b)
			go func(b *bundle.Bundle) {
				start := time.Now()
				if err := b.Verify(); err != nil {
					verifyErr <- fmt.Errorf("data bundle %s is corrupt: rebuild it (geosvc build): %w", cfg.DataDir, err)
					return
				}
				log.Info("data bundle verified", "id", b.ID, "took", time.Since(start).Round(time.Millisecond))
				debug.FreeOSMemory()
			}(l.b)
			// From now on a new build in the bundle directory (or SIGHUP)
			// swaps the served bundle without a restart.
			reload := &bundle.Reloader{Dir: cfg.DataDir, Current: cur, Open: openFor(r), Logger: log,
				Swapped: func(old, b *bundle.Bundle, took time.Duration) { bundleOpened(b, old, took) }}
			go reload.Run(ctx, cfg.DataReload, hup)
			if r.workers {
				w, err = worker.New(worker.Options{
					Redis:             rdb,
					Queue:             q,
					Bundle:            cur,
					Concurrency:       cfg.Worker.Concurrency,
					Queues:            cfg.Queue.Queues,
					TaskCheckInterval: cfg.Worker.TaskCheckInterval,
					ShutdownTimeout:   cfg.Worker.ShutdownTimeout,
					CacheBytes:        cfg.Worker.BucketCacheBytes,
					SnapRadiusM:       cfg.TDM.SnapRadiusM,
					Logger:            log,
					Metrics:           workerMetrics,
				})
				if err == nil {
					err = w.Start()
				}
				if err != nil {
					runErr = err
					w = nil
					break wait
				}
			}
		}
	}
	stop()

	// Workers take no new chunk from now on; HTTP (in-flight requests
	// finish) and the running chunks then wind down side by side, so the
	// whole stop takes the longer of the two timeouts, not their sum.
	if w != nil {
		w.Stop()
	}
	var wg sync.WaitGroup
	if srv != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sctx, cancel := context.WithTimeout(context.Background(), cfg.HTTP.ShutdownTimeout)
			defer cancel()
			if err := srv.Shutdown(sctx); err != nil {
				log.Warn("HTTP shutdown incomplete", "err", err)
			}
			log.Info("HTTP stopped")
		}()
	}
	if w != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.Shutdown()
		}()
	}
	wg.Wait()
	return runErr
}

// openFor returns how a server of role r opens a bundle: workers the
// routing graph only, the API every layer (the graph too, for the SOAP
// route planner, routev1 and the tiles' roads).
func openFor(r role) func(string) (*bundle.Bundle, error) {
	if r.http {
		return bundle.Open
	}
	return bundle.OpenRouting
}

// serverURLs are a started server's base URLs: the public API's and the
// admin listener's ("" when it is off).
type serverURLs struct{ api, admin string }

// announceDemo ensures the demo key and prints it (or, when an earlier
// start created it and only its hash is stored, its id).
func announceDemo(ctx context.Context, store *keys.Store, fixed, url string, log *slog.Logger) error {
	d, err := store.EnsureDemo(ctx, fixed)
	if err != nil {
		return fmt.Errorf("demo key: %w", err)
	}
	switch {
	case !d.Key.Active():
		log.Warn("the demo key set by GEOSVC_DEMO_KEY is revoked", "key_id", d.Key.ID)
		fmt.Fprintf(os.Stdout, "demo key (id %s) is revoked: create one with `geosvc keys create`\n", d.Key.ID)
	case d.Plain != "":
		log.Info("demo key ready", "key_id", d.Key.ID, "created", d.Created)
		fmt.Fprintf(os.Stdout, "demo API key: %s\ntry: curl -H 'x-api-key: %s' %s/v1/info\nconsole: %s/#key=%s\n", d.Plain, d.Plain, url, url, d.Plain)
	default:
		log.Info("demo key unchanged", "key_id", d.Key.ID)
		fmt.Fprintf(os.Stdout, "demo key unchanged (id %s); it was printed when first created.\n"+
			"Set GEOSVC_DEMO_KEY to choose one, or run `geosvc keys create`.\n", d.Key.ID)
	}
	return nil
}

// inlineCells maps the setting tdm.inline_cells (0: none) onto
// api.TDMOptions.InlineCells (negative: none).
func inlineCells(n int) int {
	if n == 0 {
		return -1
	}
	return n
}
