package api

import (
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/keys"
)

// headerAPIKey carries the API key (SPEC.md, Authentication).
const headerAPIKey = "x-api-key"

// ctxKey and ctxPass are the context keys under which the guard leaves
// the request's key and its pass through the key gate.
const (
	ctxKey  = "geosvc.key"
	ctxPass = "geosvc.pass"
)

// guard runs for every routed request. Public routes and CORS preflights
// pass with only the body limit; everything else, unknown paths included,
// goes through the key gate (keys.Gate): an active key allowed to use the
// interface (by the key and by its plan), then the rate limit and the
// quota of the key's plan; then the body limit and the content-type
// check; and the request is counted in the key's usage when it
// succeeds. Quota units taken for a request that fails are given back.
func (s *Server) guard(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if s.public[c.Path()] && (req.URL.Path == c.Path() || s.publicPattern[c.Path()]) {
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
		pass, err := s.opts.Gate.Admit(req.Context(), k, interfaceOf(c))
		if err != nil {
			return s.gateError(c, err)
		}
		c.Set(ctxPass, pass)
		s.limitBody(c)
		// Only a route that takes this method reads a body: a POST to a
		// GET route is a 405, whatever its content type.
		if takesBody(req.Method) && s.routeTakes(req.Method, c.Path()) {
			if err := checkContentType(req); err != nil {
				pass.Done(req.Context(), false)
				return err
			}
		}
		err = next(c)
		st := c.Response().Status
		pass.Done(req.Context(), err == nil && st >= 200 && st < 300)
		return err
	}
}

// authenticate returns the request's key, or the error to answer: 403
// {"message":"Forbidden"} for a missing, malformed, unknown, revoked,
// expired or unpaid key, for two keys, and for a key not allowed to use
// the interface (by itself or by its plan); 503 when the key store cannot
// be reached.
func (s *Server) authenticate(c echo.Context) (keys.Key, error) {
	if s.opts.Gate == nil {
		return keys.Key{}, echo.NewHTTPError(http.StatusForbidden, forbidden.Message)
	}
	vals := c.Request().Header.Values(headerAPIKey)
	ctx := c.Request().Context()
	var k keys.Key
	var err error
	if len(vals) == 0 && s.tokens != nil && c.Request().URL.Query().Has("token") && c.Path() == tilePath {
		k, err = s.authenticateToken(c)
	} else {
		switch interfaceOf(c) {
		case osrmInterface:
			vals = osrmKeys(c.Request(), vals) // the key may be in the path or the query
		case mapsInterface:
			vals = staticMapKeys(c.Request(), vals) // or in ?key=, for an <img>
		}
		k, err = s.opts.Gate.Authenticate(ctx, vals, interfaceOf(c))
	}
	if err != nil {
		return keys.Key{}, s.gateError(c, err)
	}
	return k, nil
}

// tilePath is the route of a map tile, the one route a tile token opens.
const tilePath = "/" + tilesInterface + "/:z/:x/:y"

// authenticateToken returns the key a tile token (?token=) was issued to:
// a bad or expired token is refused (reason "token"), as is a key no
// longer active or allowed tiles.
func (s *Server) authenticateToken(c echo.Context) (keys.Key, error) {
	ctx := c.Request().Context()
	id, err := s.tokens.verify(ctx, c.QueryParam("token"))
	if errors.Is(err, errBadToken) {
		return keys.Key{}, s.opts.Gate.Refuse("token")
	}
	if err != nil {
		return keys.Key{}, fmt.Errorf("%w: %w", keys.ErrUnavailable, err)
	}
	return s.opts.Gate.AuthenticateID(ctx, id, tilesInterface)
}

// gateError is the answer to a request the gate refused: 403
// {"message":"Forbidden"} for a refused key, 429 with Retry-After for the
// rate limit (a message) and a quota (a message and the quota: see
// quotaBody), 503 when the key store cannot be reached.
func (s *Server) gateError(c echo.Context, err error) error {
	var rl *keys.RateLimited
	var qe *keys.QuotaExceeded
	switch {
	case errors.Is(err, keys.ErrForbidden):
		return echo.NewHTTPError(http.StatusForbidden, forbidden.Message)
	case errors.As(err, &rl):
		c.Response().Header().Set("Retry-After", strconv.Itoa(rl.Seconds()))
		return httpError(http.StatusTooManyRequests, "rate limit exceeded: retry later")
	case errors.As(err, &qe):
		c.Response().Header().Set("Retry-After", strconv.FormatInt(int64((qe.RetryAfter(s.opts.Now())+time.Second-1)/time.Second), 10))
		return echo.NewHTTPError(http.StatusTooManyRequests, quotaBody{Message: qe.Error(), Quota: qe})
	case errors.Is(err, keys.ErrUnavailable):
		s.log.Error("key store unavailable", slog.String("request_id", requestIDOf(c)), slog.Any("error", err))
		return httpError(http.StatusServiceUnavailable, "key store unavailable, retry later")
	}
	return err
}

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
	if p == osrmMount[1:] {
		return osrmInterface // served under /osrm, as OSRM clients expect
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
