// Package api is geosvc's REST front: an Echo server with the middleware
// every interface shares (request ids, access log, panic recovery, CORS,
// JSON errors, API-key authentication, a per-key rate limit and the quotas
// of the key's plan, body size and content-type checks, usage counting),
// the key-less service endpoints /healthz, /readyz and /v1/info, the
// OpenAPI document of the REST interfaces (openapi.yaml, served at
// /openapi.yaml), and the account interface keysv1 with its pages /signup
// and /pricing (RegisterKeys: free trials, purchase through Stripe
// Checkout, usage statements). Interfaces (tdmv1, and the lookups that
// follow) register their routes on Protected().
package api

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/redis/go-redis/v9"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/keys"
)

// Defaults for Options.
const (
	// defaultBodyLimit is the largest request body accepted, in bytes.
	defaultBodyLimit = 1 << 20
	// defaultReadTimeout bounds reading one request.
	defaultReadTimeout = 30 * time.Second
	// defaultWriteTimeout bounds writing one response.
	defaultWriteTimeout = 120 * time.Second
)

// attribution is the data licence notice /v1/info returns.
const attribution = "(c) OpenStreetMap contributors, ODbL"

// Options configures a Server.
type Options struct {
	// Logger receives the access log and errors; default slog.Default().
	Logger *slog.Logger
	// Redis is the server /readyz pings and tile tokens are kept in.
	Redis redis.UniversalClient
	// Bundle is the data bundle the server answers from; /readyz reports
	// ready once it holds one (while Redis answers), /v1/info describes
	// it. Nil: never ready.
	Bundle *bundle.Current
	// Gate authenticates requests, applies the rate limits and quotas of
	// their keys' plans and counts their usage; nil: every keyed request
	// is Forbidden.
	Gate *keys.Gate
	// BodyLimit is the largest request body in bytes; 0 means
	// defaultBodyLimit.
	BodyLimit int64
	// CORSOrigins are the origins browsers may call from ("*" for any);
	// empty disables CORS.
	CORSOrigins []string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client; empty: the peer is the client.
	TrustedProxies []netip.Prefix
	// ReadTimeout and WriteTimeout bound one request; 0 means the defaults.
	ReadTimeout, WriteTimeout time.Duration
	// Version is the program version /v1/info reports.
	Version string
	// Now returns the current time (tests set it); default time.Now.
	Now func() time.Time
	// Metrics records requests, refusals and rate-limit hits; nil records
	// nothing (NewMetrics).
	Metrics *Metrics
}

// Server is the REST API server.
type Server struct {
	opts   Options
	log    *slog.Logger
	e      *echo.Echo
	hs     *http.Server
	group  *echo.Group
	public map[string]bool
	// publicPattern are the public routes with parameters (PublicPattern).
	publicPattern map[string]bool
	tokens        *tokenSigner           // tile tokens; nil until RegisterTiles
	openAPIDoc    atomic.Pointer[[]byte] // the served document; nil: the embedded one
	mu            sync.Mutex             // guards closed, stopUsage, usageDone, extraIfaces
	// extraIfaces are interfaces served on public routes that check
	// their key themselves (SOAP).
	extraIfaces []string
	closed      bool
	stopUsage   context.CancelFunc
	usageDone   chan struct{}
	// closing is closed when Shutdown begins (Closing).
	closing     chan struct{}
	closingOnce sync.Once
}

// Closing returns a channel closed when Shutdown begins: handlers that
// wait for something (a tdmv1 fetch's "wait", TDMOptions.Closing) answer
// at once then, rather than holding the shutdown up.
func (s *Server) Closing() <-chan struct{} { return s.closing }

// New returns a Server with its middleware and service endpoints in place.
func New(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.BodyLimit <= 0 {
		opts.BodyLimit = defaultBodyLimit
	}
	if opts.ReadTimeout <= 0 {
		opts.ReadTimeout = defaultReadTimeout
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = defaultWriteTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Server{opts: opts, log: opts.Logger, public: map[string]bool{}, publicPattern: map[string]bool{}, closing: make(chan struct{})}
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.JSONSerializer = plainJSON{}
	// The peer's address, not X-Forwarded-For: clients cannot write the
	// access log's remote address. Behind trusted proxies, forwardedFor
	// has made the peer's address the client's by then.
	e.IPExtractor = echo.ExtractIPDirect()
	s.hs = &http.Server{
		Handler:           e,
		ReadTimeout:       opts.ReadTimeout,
		ReadHeaderTimeout: 10 * time.Second,
		WriteTimeout:      opts.WriteTimeout,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(opts.Logger.Handler(), slog.LevelWarn),
	}
	e.HTTPErrorHandler = s.handleError
	s.e = e
	if len(opts.TrustedProxies) > 0 {
		e.Pre(forwardedFor(opts.TrustedProxies))
	}
	e.Pre(requestID, s.accessLog, s.recoverPanic)
	if len(opts.CORSOrigins) > 0 {
		e.Use(middleware.CORSWithConfig(middleware.CORSConfig{
			AllowOrigins: opts.CORSOrigins,
			AllowHeaders: []string{headerAPIKey, echo.HeaderContentType, echo.HeaderAccept, "Cache-Control", headerRequestID},
			// Headers a page's script may read besides the safelisted ones:
			// timezonesv1's zone name, a tile's ETag, the retry delay.
			ExposeHeaders: []string{headerRequestID, "Retry-After", "X-Time-Zone", "ETag"},
			MaxAge:        86400,
		}))
	}
	e.Use(s.guard)
	s.group = e.Group("")

	s.Public(http.MethodGet, "/healthz", s.healthz)
	s.Public(http.MethodGet, "/readyz", s.readyz)
	s.Public(http.MethodGet, "/v1/info", s.info)
	s.Public(http.MethodGet, openAPIPath, s.openAPI)
	return s
}

// Protected returns the route group behind authentication, rate limit,
// body limit, content-type check and usage counting. Interfaces register
// their routes here, under their version marker ("/tdmv1/order").
func (s *Server) Protected() *echo.Group { return s.group }

// Public registers a route that needs no API key (health checks, and
// endpoints that carry their key in the body, like SOAP). Its path must be
// static (no parameters).
func (s *Server) Public(method, path string, h echo.HandlerFunc) *echo.Route {
	s.public[path] = true
	return s.e.Add(method, path, h)
}

// PublicPattern registers a public route whose path has parameters
// (":name"): every path it matches needs no API key.
func (s *Server) PublicPattern(method, path string, h echo.HandlerFunc) *echo.Route {
	s.publicPattern[path] = true
	return s.Public(method, path, h)
}

// AddInterface lists an interface in /v1/info that is served on a public
// route and checks its key itself (the SOAP service, "soap").
func (s *Server) AddInterface(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.extraIfaces, name) {
		s.extraIfaces = append(s.extraIfaces, name)
	}
}

// IsPublic reports whether the route path was registered with Public.
func (s *Server) IsPublic(path string) bool { return s.public[path] }

// Echo returns the underlying Echo instance (for route listings in tests).
func (s *Server) Echo() *echo.Echo { return s.e }

// ServeHTTP serves one request; a Server is an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.e.ServeHTTP(w, r) }

// Serve answers requests on ln until Shutdown; it returns
// http.ErrServerClosed after a Shutdown.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return http.ErrServerClosed
	}
	if s.opts.Gate != nil && s.stopUsage == nil {
		ctx, cancel := context.WithCancel(context.Background())
		s.stopUsage, s.usageDone = cancel, make(chan struct{})
		go func() {
			defer close(s.usageDone)
			s.opts.Gate.RunUsage(ctx)
		}()
	}
	s.mu.Unlock()
	return s.hs.Serve(ln)
}

// FlushUsage writes the usage counts the key gate has collected so far
// (with keys.GateOptions.UsageFlush).
func (s *Server) FlushUsage(ctx context.Context) error {
	if s.opts.Gate == nil {
		return nil
	}
	return s.opts.Gate.FlushUsage(ctx)
}

// Shutdown stops accepting connections and waits, until ctx ends, for the
// requests in flight to finish.
// A Serve that starts after Shutdown returns http.ErrServerClosed at once.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	stop, done := s.stopUsage, s.usageDone
	s.mu.Unlock()
	s.closingOnce.Do(func() { close(s.closing) })
	err := s.hs.Shutdown(ctx)
	if stop != nil {
		stop() // the runner writes what is pending, then ends
		<-done
	}
	return err
}
