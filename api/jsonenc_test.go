package api

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// TestJSONNotHTMLEscaped: answers and error messages keep <, > and & as
// written.
func TestJSONNotHTMLEscaped(t *testing.T) {
	s := New(Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	s.Public(http.MethodGet, "/answer", func(c echo.Context) error {
		return c.JSON(http.StatusOK, map[string]string{"name": "A & B <C>"})
	})
	s.Public(http.MethodGet, "/error", func(c echo.Context) error {
		return httpError(http.StatusBadRequest, "n must be > 0")
	})
	tests := []struct {
		path string
		code int
		want string
	}{
		{"/answer", http.StatusOK, `{"name":"A & B <C>"}`},
		{"/error", http.StatusBadRequest, `{"message":"n must be > 0"}`},
	}
	for _, tc := range tests {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
		if got := strings.TrimSpace(rec.Body.String()); rec.Code != tc.code || got != tc.want {
			t.Errorf("%s = %d %s, want %d %s", tc.path, rec.Code, got, tc.code, tc.want)
		}
	}
}
