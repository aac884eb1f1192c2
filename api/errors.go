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
	}
	if code >= 500 {
		s.log.Error("request failed", slog.String("request_id", requestIDOf(c)), slog.Int("status", code), slog.Any("error", err))
	}
	if c.Request().Method == http.MethodHead {
		err = c.NoContent(code)
	} else {
		err = c.JSON(code, body)
	}
	if err != nil {
		s.log.Debug("writing error response", slog.Any("error", err))
	}
}
