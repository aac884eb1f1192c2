package api

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// accessLog writes one structured line per request: method, path, route,
// status, latency, bytes written, request id and the key id (never the
// key). It renders an error returned by the chain itself, so that the
// status it logs is the one sent. A response cut short on purpose (a
// result stream whose client went away panics with http.ErrAbortHandler)
// is logged too, as "aborted", and the panic goes on to net/http.
func (s *Server) accessLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		aborted := true
		defer func() {
			if aborted {
				s.logRequest(c, start, true)
			}
		}()
		if err := next(c); err != nil {
			c.Error(err)
		}
		aborted = false
		s.logRequest(c, start, false)
		return nil
	}
}

// logRequest writes the access-log line of c.
func (s *Server) logRequest(c echo.Context, start time.Time, aborted bool) {
	res := c.Response()
	// A 503 (loading, Redis away) is an expected state that the answer
	// explains: WARN. Other 5xx and aborted requests are errors.
	level := slog.LevelInfo
	switch {
	case res.Status == http.StatusServiceUnavailable && !aborted:
		level = slog.LevelWarn
	case res.Status >= 500 || aborted:
		level = slog.LevelError
	}
	took := time.Since(start)
	s.opts.Metrics.observe(c, res.Status, took)
	req := c.Request()
	attrs := []slog.Attr{
		slog.String("method", req.Method),
		slog.String("path", req.URL.Path),
		slog.String("route", c.Path()),
		slog.Int("status", res.Status),
		slog.Duration("latency", took),
		slog.Int64("bytes", res.Size),
		slog.String("request_id", requestIDOf(c)),
		slog.String("key_id", keyIDOf(c)),
		slog.String("remote", c.RealIP()),
	}
	if aborted {
		attrs = append(attrs, slog.Bool("aborted", true))
	}
	s.log.LogAttrs(req.Context(), level, "http", attrs...)
}
