package api

import (
	"log/slog"
	"time"

	"github.com/labstack/echo/v4"
)

// accessLog writes one structured line per request: method, path, route,
// status, latency, bytes written, request id and the key id (never the
// key). It renders an error returned by the chain itself, so that the
// status it logs is the one sent.
func (s *Server) accessLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		if err := next(c); err != nil {
			c.Error(err)
		}
		res := c.Response()
		level := slog.LevelInfo
		if res.Status >= 500 {
			level = slog.LevelError
		}
		req := c.Request()
		s.log.LogAttrs(req.Context(), level, "http",
			slog.String("method", req.Method),
			slog.String("path", req.URL.Path),
			slog.String("route", c.Path()),
			slog.Int("status", res.Status),
			slog.Duration("latency", time.Since(start)),
			slog.Int64("bytes", res.Size),
			slog.String("request_id", RequestID(c)),
			slog.String("key_id", KeyID(c)),
			slog.String("remote", c.RealIP()),
		)
		return nil
	}
}
