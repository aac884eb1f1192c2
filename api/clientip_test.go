package api

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/labstack/echo/v4"
)

// TestForwardedFor: behind listed proxies the client is the rightmost
// X-Forwarded-For address that is not a listed proxy; from any other
// peer, or without the option, X-Forwarded-For is ignored. Handlers see
// it both as c.RealIP() and as the request's RemoteAddr (what the SOAP
// service reads).
func TestForwardedFor(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8::/32")}
	tests := []struct {
		name    string
		proxies []netip.Prefix
		peer    string
		xff     []string
		want    string
	}{
		{"proxy forwards a client", proxies, "10.1.2.3:4000", []string{"203.0.113.9"}, "203.0.113.9"},
		{"two listed proxies in a row", proxies, "10.1.2.3:4000", []string{"198.51.100.1, 10.9.9.9"}, "198.51.100.1"},
		{"a client's own X-Forwarded-For before the proxy's", proxies, "10.1.2.3:4000", []string{"1.1.1.1, 198.51.100.1"}, "198.51.100.1"},
		{"headers joined", proxies, "10.1.2.3:4000", []string{"1.1.1.1", "198.51.100.1"}, "198.51.100.1"},
		{"IPv6 proxy", proxies, "[2001:db8::5]:4000", []string{"2001:db9::7"}, "2001:db9::7"},
		{"proxy without the header", proxies, "10.1.2.3:4000", nil, "10.1.2.3"},
		{"header that does not parse", proxies, "10.1.2.3:4000", []string{"unknown"}, "10.1.2.3"},
		{"peer that is no listed proxy", proxies, "198.51.100.7:4000", []string{"203.0.113.9"}, "198.51.100.7"},
		{"loopback is not trusted unless listed", proxies, "127.0.0.1:4000", []string{"203.0.113.9"}, "127.0.0.1"},
		{"private ranges are not trusted unless listed", proxies, "192.168.1.1:4000", []string{"203.0.113.9"}, "192.168.1.1"},
		{"no trusted proxies", nil, "10.1.2.3:4000", []string{"203.0.113.9"}, "10.1.2.3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), TrustedProxies: tc.proxies})
			var realIP, remote string
			s.Public(http.MethodGet, "/whoami", func(c echo.Context) error {
				realIP, remote = c.RealIP(), c.Request().RemoteAddr
				return c.NoContent(http.StatusNoContent)
			})
			req := httptest.NewRequest(http.MethodGet, "/whoami", nil)
			req.RemoteAddr = tc.peer
			for _, v := range tc.xff {
				req.Header.Add("X-Forwarded-For", v)
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			if rec.Code != http.StatusNoContent {
				t.Fatalf("status %d", rec.Code)
			}
			if realIP != tc.want {
				t.Errorf("RealIP %q, want %q", realIP, tc.want)
			}
			if ap, err := netip.ParseAddrPort(remote); err != nil || ap.Addr().String() != tc.want || ap.Port() != 4000 {
				t.Errorf("RemoteAddr %q, want %s with the peer's port", remote, tc.want)
			}
		})
	}
}
