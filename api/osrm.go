package api

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/keys"
	"github.com/geosvc/geosvc/routing"
)

// osrmMount is the path prefix of the OSRM-compatible API: its services
// are at /osrm/{service}/v1/... (key in the x-api-key header or
// ?api_key=) and /osrm/{key}/{service}/v1/... (the key in the path, for
// clients configured with a server URL only).
const osrmMount = "/osrm"

// osrmInterface is the interface name of the OSRM API, as keys, plans
// and usage counters know it.
const osrmInterface = keys.OSRMV1

// OSRMLimits are the limits of the OSRM API, as osrm-routed's flags of
// the same names set them; zero values take OSRM's defaults.
type OSRMLimits struct {
	// MaxTableSize: a table of more than this squared cells (sources x
	// destinations) answers TooBig (--max-table-size, default 100).
	MaxTableSize int
	// MaxViarouteSize is the most coordinates of a route
	// (--max-viaroute-size, default 500).
	MaxViarouteSize int
	// MaxTripSize is the most coordinates of a trip (--max-trip-size,
	// default 100).
	MaxTripSize int
	// MaxNearestSize is the largest number= of a nearest request
	// (--max-nearest-size, default 100).
	MaxNearestSize int
	// MaxMatchingSize is the most coordinates of a match request
	// (--max-matching-size, default 100).
	MaxMatchingSize int
	// MaxAlternatives is the largest alternatives= of a route
	// (--max-alternatives, default 3).
	MaxAlternatives int
}

// withDefaults fills in OSRM's defaults.
func (l OSRMLimits) withDefaults() OSRMLimits {
	set := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	set(&l.MaxTableSize, 100)
	set(&l.MaxViarouteSize, 500)
	set(&l.MaxTripSize, 100)
	set(&l.MaxNearestSize, 100)
	set(&l.MaxMatchingSize, 100)
	set(&l.MaxAlternatives, 3)
	return l
}

// OSRMOptions configures the OSRM API.
type OSRMOptions struct {
	// Bundle is the data bundle answered from; the API answers 503 while
	// it holds none.
	Bundle *bundle.Current
	// SnapRadiusM is how far from a road a coordinate without a radius
	// may be (OSRM's default is unlimited); 0: routing.MaxSnapRadiusM.
	SnapRadiusM float64
	// Limits are the request size limits.
	Limits OSRMLimits
}

// RegisterOSRM adds OSRM v5's HTTP API (route, table, nearest, trip, match) under
// /osrm to g, which must authenticate requests (Server.Protected); see
// docs/osrm.md. Errors are OSRM's: 400 {"code", "message"}; a refused key
// is geosvc's 403 {"message":"Forbidden"}.
func RegisterOSRM(g *echo.Group, opts OSRMOptions) {
	if opts.SnapRadiusM <= 0 {
		opts.SnapRadiusM = routing.MaxSnapRadiusM
	}
	opts.Limits = opts.Limits.withDefaults()
	h := &osrmHandler{opts: opts}
	for _, svc := range osrmServices {
		g.GET(osrmRoutePath(svc), h.serve)
	}
	// The key-in-path form, and OSRM's own answers to unknown services
	// and malformed URLs.
	g.GET(osrmMount+"/*", h.serve)
}

// osrmRoutePath is the route of a service with the key in the header or
// the query: /osrm/route/v1/:profile/:coordinates.
func osrmRoutePath(service string) string {
	return osrmMount + "/" + service + "/v1/:profile/:coordinates"
}

type osrmHandler struct{ opts OSRMOptions }

// serve parses the URL, then answers the service.
func (h *osrmHandler) serve(c echo.Context) error {
	err := h.answer(c)
	var oe *osrmError
	if errors.As(err, &oe) {
		return c.JSON(http.StatusBadRequest, oe)
	}
	return err
}

func (h *osrmHandler) answer(c echo.Context) error {
	req := c.Request()
	path := strings.TrimPrefix(req.URL.EscapedPath(), osrmMount+"/")
	r, oe := parseOSRMURL(path, req.URL.RawQuery, len(osrmMount)+1)
	if oe != nil {
		return oe
	}
	b := h.opts.Bundle.Load()
	if b == nil {
		return errBundleLoading
	}
	if msg := profileMissing(b, r.profile.graph); msg != "" {
		return osrmErr("InvalidUrl", "profile: %s", msg)
	}
	g := b.GraphFor(r.profile.graph)
	if g == nil {
		return errBundleLoading
	}
	if oe := r.atDeparture(b, g); oe != nil {
		return oe
	}
	switch r.service {
	case osrmRoute:
		return h.route(c, g, r)
	case osrmTable:
		return h.table(c, g, r)
	case osrmNearest:
		return h.nearest(c, g, r)
	case osrmMatch:
		return h.match(c, g, r)
	}
	return h.trip(c, g, r)
}

// osrmPathKey returns the key segment of an OSRM API path
// (/osrm/{key}/{service}/v1/...), "" when the path has none, and removes
// it from the request's URL so that neither the access log nor the
// handler sees it.
func osrmPathKey(req *http.Request) string {
	rest, ok := strings.CutPrefix(req.URL.EscapedPath(), osrmMount+"/")
	if !ok {
		return ""
	}
	segs := strings.Split(rest, "/")
	if len(segs) < 5 || slices.Contains(osrmServices, segs[0]) || segs[0] == "tile" {
		return ""
	}
	key, err := url.PathUnescape(segs[0])
	if err != nil || key == "" {
		key = segs[0]
	}
	esc := osrmMount + "/" + strings.Join(segs[1:], "/")
	if p, err := url.PathUnescape(esc); err == nil {
		req.URL.Path, req.URL.RawPath = p, esc
	}
	return key
}

// osrmKeys adds to the x-api-key header values of an OSRM API request
// the key of its path and those of ?api_key= (more than one key in all
// is refused by the gate, as two headers are).
func osrmKeys(req *http.Request, header []string) []string {
	vals := slices.Clone(header)
	if k := osrmPathKey(req); k != "" {
		vals = append(vals, k)
	}
	q, err := semicolonQuery(req.URL.RawQuery)
	if err == nil {
		vals = append(vals, q["api_key"]...)
	}
	return vals
}
