package api

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"

	"github.com/labstack/echo/v4"
)

// recoverPanic turns a panic in a handler into a 500 {"message":"Internal
// Server Error"}; the panic value and stack go to the log only.
func (s *Server) recoverPanic(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			r := recover()
			if r == nil {
				return
			}
			if e, ok := r.(error); ok && errors.Is(e, http.ErrAbortHandler) {
				panic(r)
			}
			s.log.Error("panic", slog.String("request_id", requestIDOf(c)),
				slog.String("panic", fmt.Sprint(r)), slog.String("stack", string(debug.Stack())))
			err = httpError(http.StatusInternalServerError, http.StatusText(http.StatusInternalServerError))
		}()
		return next(c)
	}
}
