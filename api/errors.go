package api

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"
)

// messageBody is the body of every error response: {"message": "..."}.
type messageBody struct {
	Message string `json:"message"`
}

// forbidden is the exact body of a refused API key (SPEC.md, Errors).
var forbidden = messageBody{Message: "Forbidden"}

// httpError returns an error that the server answers with status code and the
// body {"message": msg}.
func httpError(code int, msg string) *echo.HTTPError {
	return echo.NewHTTPError(code, msg)
}

// httpErrorf is httpError with a formatted message.
func httpErrorf(code int, format string, args ...any) *echo.HTTPError {
	return echo.NewHTTPError(code, fmt.Sprintf(format, args...))
}

// errorWriter answers a failed request in the shape of the interface its
// route belongs to: code and msg are what handleError made of err (the
// status and the message of the {"message"} body it would write).
type errorWriter func(c echo.Context, code int, msg string, err error) error

// ctxErrorWriter is the context key of a route's errorWriter.
const ctxErrorWriter = "geosvc.errorWriter"

// withErrorWriter is route middleware that makes handleError answer the
// route's errors with w (the geocoder's Google-shaped bodies). Errors that
// arise before the route runs (a refused key, the rate limit) keep the
// common {"message"} shape.
func withErrorWriter(w errorWriter) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			c.Set(ctxErrorWriter, w)
			return next(c)
		}
	}
}

// statusCoder is an error that carries its own HTTP status.
type statusCoder interface{ StatusCode() int }

// handleError writes err as a JSON error. An *echo.HTTPError whose message
// is a string (or error) becomes {"message": ...}; one whose message is
// any other value (a struct with "message" and "errors", say) is written
// as it is. A body cut by the body limit is a 413 wherever it was read.
// Any other error is a 500 whose detail goes only to the log.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	code := http.StatusInternalServerError
	var body any = messageBody{Message: http.StatusText(code)}
	var he *echo.HTTPError
	var mbe *http.MaxBytesError
	var sc statusCoder
	switch {
	case errors.As(err, &mbe):
		code = http.StatusRequestEntityTooLarge
		body = messageBody{Message: fmt.Sprintf("request body larger than %d bytes", mbe.Limit)}
	case errors.As(err, &he):
		if inner, ok := he.Internal.(*echo.HTTPError); ok {
			he = inner
		}
		code = he.Code
		switch m := he.Message.(type) {
		case string:
			body = messageBody{Message: m}
		case error:
			body = messageBody{Message: m.Error()}
		case nil:
			body = messageBody{Message: http.StatusText(code)}
		default:
			body = m
		}
	case errors.As(err, &sc):
		code = sc.StatusCode()
		body = messageBody{Message: err.Error()}
	}
	switch {
	case code == http.StatusServiceUnavailable:
		// Loading or a Redis outage: expected, and said by the answer.
		s.log.Warn("request failed", slog.String("request_id", requestIDOf(c)), slog.Int("status", code), slog.Any("error", err))
	case code >= 500:
		s.log.Error("request failed", slog.String("request_id", requestIDOf(c)), slog.Int("status", code), slog.Any("error", err))
	}
	if w, ok := c.Get(ctxErrorWriter).(errorWriter); ok {
		msg := ""
		if m, ok := body.(messageBody); ok {
			msg = m.Message
		}
		err = w(c, code, msg, err)
	} else if c.Request().Method == http.MethodHead {
		err = c.NoContent(code)
	} else {
		err = c.JSON(code, body)
	}
	if err != nil {
		s.log.Debug("writing error response", slog.Any("error", err))
	}
}
