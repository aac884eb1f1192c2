package api

import (
	"net"
	"net/netip"

	"github.com/labstack/echo/v4"
)

// forwardedFor returns the middleware that, for a request whose peer is
// one of proxies, takes the client's address from X-Forwarded-For: the
// rightmost address there that is not itself a trusted proxy, as a proxy
// appends the address it received the request from. The request's
// RemoteAddr becomes that address (the peer's port kept), so the access
// log, the per-address free-trial cap and the SOAP service all see the
// client rather than the proxy. A request from any other peer, or with an
// X-Forwarded-For that does not parse, keeps its peer address: clients
// cannot choose the address they are counted under.
func forwardedFor(proxies []netip.Prefix) echo.MiddlewareFunc {
	// Only the listed ranges: echo trusts loopback, link-local and
	// private addresses by default.
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range proxies {
		p = p.Masked()
		opts = append(opts, echo.TrustIPRange(&net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}))
	}
	extract := echo.ExtractIPFromXFFHeader(opts...)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if ip := extract(r); ip != "" {
				_, port, err := net.SplitHostPort(r.RemoteAddr)
				if err != nil {
					port = "0"
				}
				r.RemoteAddr = net.JoinHostPort(ip, port)
			}
			return next(c)
		}
	}
}
