package api

import (
	"context"
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/keys"
)

// headerAPIKey carries the API key (SPEC.md, Authentication).
const headerAPIKey = "x-api-key"

const ctxKey = "geosvc.key"

// guard runs for every routed request. Public routes and CORS preflights
// pass with only the body limit; everything else, unknown paths included,
// must first show an active key allowed to use the interface (by the key
// and by its plan), then passes the rate limit and the quota of the key's
// plan, the body limit and the content-type check, and is counted in the
// key's usage when it succeeds. Quota units taken for a request that fails
// are given back.
func (s *Server) guard(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if s.public[c.Path()] && req.URL.Path == c.Path() {
			s.limitBody(c)
			return next(c)
		}
		if req.Method == http.MethodOptions && req.Header.Get(echo.HeaderAccessControlRequestMethod) != "" {
			return next(c)
		}
		k, err := s.authenticate(c)
		if err != nil {
			return err
		}
		c.Set(ctxKey, k)
		c.Set(ctxServer, s)
		if wait := s.takeToken(req.Context(), k, requestIDOf(c)); wait > 0 {
			c.Response().Header().Set("Retry-After", decision{retryAfter: wait}.retryAfterHeader())
			return httpError(http.StatusTooManyRequests, "rate limit exceeded: retry later")
		}
		iface := interfaceOf(c)
		counted := iface != keys.KeysV1 // the account interface is never counted
		if counted {
			if err := takeQuota(c, iface, 1); err != nil {
				return err
			}
		}
		s.limitBody(c)
		// Only a route that takes this method reads a body: a POST to a
		// GET route is a 405, whatever its content type.
		if takesBody(req.Method) && s.routeTakes(req.Method, c.Path()) {
			if err := checkContentType(req); err != nil {
				s.releaseQuota(c)
				return err
			}
		}
		err = next(c)
		st := c.Response().Status
		if err != nil || st < 200 || st >= 300 {
			s.releaseQuota(c)
			return err
		}
		if !counted {
			return nil
		}
		if s.usage != nil {
			s.usage.Add(k.ID, iface, 1)
		} else if s.opts.Keys != nil {
			if err := s.opts.Keys.AddUsage(req.Context(), k.ID, iface, 1); err != nil {
				s.log.Warn("usage not counted", slog.String("request_id", requestIDOf(c)), slog.String("key_id", k.ID), slog.Any("error", err))
			}
		}
		return nil
	}
}

// authenticate returns the request's key, or the error to answer: 403
// {"message":"Forbidden"} for a missing, malformed, unknown, revoked,
// expired or unpaid key and for a key not allowed to use the interface
// (by itself or by its plan); 503 when the key store cannot be reached.
func (s *Server) authenticate(c echo.Context) (keys.Key, error) {
	forbidden := echo.NewHTTPError(http.StatusForbidden, forbidden.Message)
	if s.opts.Keys == nil {
		return keys.Key{}, forbidden
	}
	// Two x-api-key headers are refused rather than one of them chosen:
	// a proxy and a client disagreeing on the key is not a key.
	vals := c.Request().Header.Values(headerAPIKey)
	if len(vals) > 1 {
		s.opts.Metrics.refused("duplicate")
		return keys.Key{}, forbidden
	}
	if len(vals) == 0 && s.tokens != nil && c.Request().URL.Query().Has("token") && c.Path() == tilePath {
		return s.authenticateToken(c)
	}
	if len(vals) == 0 {
		s.opts.Metrics.refused("missing")
		return keys.Key{}, forbidden
	}
	k, err := s.opts.Keys.Authenticate(c.Request().Context(), vals[0])
	if keys.Refused(err) {
		s.opts.Metrics.refused(keys.RefusalReason(err))
		return keys.Key{}, forbidden
	}
	if err != nil {
		s.log.Error("key store unavailable", slog.String("request_id", requestIDOf(c)), slog.Any("error", err))
		return keys.Key{}, httpError(http.StatusServiceUnavailable, "key store unavailable, retry later")
	}
	if iface := interfaceOf(c); !k.Allows(iface) || !s.opts.Keys.PlanOf(k).Allows(iface) {
		s.opts.Metrics.refused("interface")
		return keys.Key{}, forbidden
	}
	return k, nil
}

// tilePath is the route of a map tile, the one route a tile token opens.
const tilePath = "/" + tilesInterface + "/:z/:x/:y"

// authenticateToken returns the key a tile token (?token=) was issued to,
// or the error to answer: 403 {"message":"Forbidden"} for a bad or expired
// token and for a key no longer active or allowed tiles; 503 when the key
// store cannot be reached.
func (s *Server) authenticateToken(c echo.Context) (keys.Key, error) {
	forbidden := echo.NewHTTPError(http.StatusForbidden, forbidden.Message)
	ctx := c.Request().Context()
	id, err := s.tokens.verify(ctx, c.QueryParam("token"))
	if errors.Is(err, errBadToken) {
		s.opts.Metrics.refused("token")
		return keys.Key{}, forbidden
	}
	if err != nil {
		s.log.Error("key store unavailable", slog.String("request_id", requestIDOf(c)), slog.Any("error", err))
		return keys.Key{}, httpError(http.StatusServiceUnavailable, "key store unavailable, retry later")
	}
	k, err := s.opts.Keys.AuthenticateID(ctx, id)
	if keys.Refused(err) {
		s.opts.Metrics.refused(keys.RefusalReason(err))
		return keys.Key{}, forbidden
	}
	if err != nil {
		s.log.Error("key store unavailable", slog.String("request_id", requestIDOf(c)), slog.Any("error", err))
		return keys.Key{}, httpError(http.StatusServiceUnavailable, "key store unavailable, retry later")
	}
	if !k.Allows(tilesInterface) || !s.opts.Keys.PlanOf(k).Allows(tilesInterface) {
		s.opts.Metrics.refused("interface")
		return keys.Key{}, forbidden
	}
	return k, nil
}

// RefusedKey records, for the metrics, a key the SOAP service refused
// (reason as geosvc_auth_refusals_total's label).
func (s *Server) RefusedKey(reason string) { s.opts.Metrics.refused(reason) }

// limitBody refuses a declared Content-Length over the limit at once (the
// error surfaces when the handler reads) and caps the bytes a handler can
// read; reading past the cap yields an *http.MaxBytesError, which the error
// handler answers with 413.
func (s *Server) limitBody(c echo.Context) {
	req := c.Request()
	if req.Body == nil || req.Body == http.NoBody {
		return
	}
	req.Body = http.MaxBytesReader(c.Response(), req.Body, s.opts.BodyLimit)
	if req.ContentLength > s.opts.BodyLimit {
		// Make the first read fail without consuming the body.
		req.Body = errReader{&http.MaxBytesError{Limit: s.opts.BodyLimit}}
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
func (r errReader) Close() error             { return nil }

// TakeToken takes one token of the rate limit of key k's plan (the
// server's, unless the plan sets one) for a request that checks its key
// itself (SOAP): zero when it may go on, else how long to wait; zero also
// when there is no limit or Redis cannot say.
func (s *Server) TakeToken(ctx context.Context, k keys.Key) time.Duration {
	return s.takeToken(ctx, k, "")
}

// takeToken is TakeToken, logging under a request id.
func (s *Server) takeToken(ctx context.Context, k keys.Key, requestID string) time.Duration {
	if s.limiter == nil {
		return 0
	}
	b := s.limiter.bucket
	if s.opts.Keys != nil {
		if pb, ok := s.planBuckets[s.opts.Keys.PlanOf(k).Name]; ok {
			b = pb
		}
	}
	d, err := s.limiter.allowIn(ctx, k.ID, b)
	if err != nil {
		s.log.Warn("rate limiter unavailable, request let through", slog.String("request_id", requestID), slog.String("key_id", k.ID), slog.Any("error", err))
		return 0
	}
	if d.retryAfter > 0 {
		s.opts.Metrics.limited()
	}
	return d.retryAfter
}

// CountUsage counts n requests of a key to an interface, as the guard
// counts the REST ones (batched when auth.usage_flush is set).
func (s *Server) CountUsage(ctx context.Context, keyID, iface string, n int64) {
	switch {
	case s.usage != nil:
		s.usage.Add(keyID, iface, n)
	case s.opts.Keys != nil:
		if err := s.opts.Keys.AddUsage(ctx, keyID, iface, n); err != nil {
			s.log.Warn("usage not counted", slog.String("key_id", keyID), slog.Any("error", err))
		}
	}
}

// takesBody reports whether requests of the method carry a body.
func takesBody(method string) bool {
	return method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch
}

// routeTakes reports whether a route of that method is registered at
// path (the route pattern).
func (s *Server) routeTakes(method, path string) bool {
	for _, r := range s.e.Routes() {
		if r.Method == method && r.Path == path {
			return true
		}
	}
	return false
}

// checkContentType answers 415 for a request with a body (POST, PUT, PATCH)
// whose Content-Type is not application/json (an empty body may come
// without one). Other methods may send any
// content type: clients send it on GETs too.
func checkContentType(req *http.Request) error {
	if !takesBody(req.Method) || (req.ContentLength == 0 && len(req.TransferEncoding) == 0) {
		return nil // no body to read (POST /tilesv1/token)
	}
	ct := req.Header.Get(echo.HeaderContentType)
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != echo.MIMEApplicationJSON {
		if ct == "" {
			ct = "none"
		}
		return httpErrorf(http.StatusUnsupportedMediaType, "content type %s is not supported: send application/json", ct)
	}
	return nil
}

// interfaceOf returns the interface a request addresses: the first segment of
// its route ("tdmv1" for /tdmv1/order), or of its path for unknown routes.
func interfaceOf(c echo.Context) string {
	p := c.Path()
	if p == "" || p == "/*" {
		p = c.Request().URL.Path
	}
	p = strings.TrimPrefix(p, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		p = p[:i]
	}
	return p
}

// keyOf returns the authenticated key of the request, false on public routes.
func keyOf(c echo.Context) (keys.Key, bool) {
	k, ok := c.Get(ctxKey).(keys.Key)
	return k, ok
}

// keyIDOf returns the id of the request's authenticated key, "" if none.
func keyIDOf(c echo.Context) string {
	k, _ := keyOf(c)
	return k.ID
}
