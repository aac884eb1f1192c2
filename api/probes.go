package api

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// Bundle describes the loaded data bundle, for /readyz and /v1/info.
type Bundle struct {
	// Name is the data set's name, from the OSM file it was built from
	// ("delaware-latest").
	Name string `json:"name"`
	// Version is the bundle format version.
	Version string `json:"bundle_version"`
	// OSMTimestamp is the data date of the OSM extract.
	OSMTimestamp time.Time `json:"osm_timestamp"`
	// BuiltAt is when `geosvc build` wrote the bundle.
	BuiltAt time.Time `json:"built_at"`
	// Nodes and Edges count the routing graph.
	Nodes int `json:"nodes"`
	Edges int `json:"edges"`
	// Layers lists the bundle's layers ("routing", ...).
	Layers []string `json:"layers"`
	// BBox is the extent of the road network, [west, south, east, north];
	// nil when the graph is not loaded.
	BBox *[4]float64 `json:"bbox,omitempty"`
	// Attribution credits the data sets besides OpenStreetMap that the
	// loaded layers answer from (the world base layer's, the health
	// layer's); /v1/info appends them to its attribution.
	Attribution []string `json:"-"`
}

// SetBundle records the loaded bundle: /readyz reports ready from then on
// (while Redis answers) and /v1/info describes it. Nil means not loaded.
func (s *Server) SetBundle(b *Bundle) { s.bundle.Store(b) }

// healthz answers 200 while the process serves HTTP.
func (s *Server) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// readyz answers 200 when the bundle is loaded and Redis answers PING,
// else 503 {"message": reason}.
func (s *Server) readyz(c echo.Context) error {
	if s.bundle.Load() == nil {
		return httpError(http.StatusServiceUnavailable, "not ready: data bundle not loaded")
	}
	if s.opts.Redis == nil {
		return httpError(http.StatusServiceUnavailable, "not ready: no Redis configured")
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.opts.Redis.Ping(ctx).Err(); err != nil {
		return httpErrorf(http.StatusServiceUnavailable, "not ready: Redis unreachable: %v", err)
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ready"})
}

// infoBody is the body of /v1/info.
type infoBody struct {
	// Service is "geosvc".
	Service string `json:"service"`
	// Version is the program version.
	Version string `json:"version"`
	// Data describes the loaded bundle; null until it is loaded.
	Data *Bundle `json:"data"`
	// Attribution is the data licence notice.
	Attribution string `json:"attribution"`
	// Interfaces lists the REST interfaces served (first path segments).
	Interfaces []string `json:"interfaces"`
}

func (s *Server) info(c echo.Context) error {
	b := s.bundle.Load()
	credits := attribution
	if b != nil && len(b.Attribution) > 0 {
		credits += "; " + strings.Join(b.Attribution, "; ")
	}
	return c.JSON(http.StatusOK, infoBody{
		Service:     "geosvc",
		Version:     s.opts.Version,
		Data:        b,
		Attribution: credits,
		Interfaces:  s.Interfaces(),
	})
}

// Interfaces returns the interfaces registered behind the key, sorted: the
// distinct first path segments of the protected routes, and those added
// with AddInterface.
func (s *Server) Interfaces() []string {
	s.mu.Lock()
	out := append([]string{}, s.extraIfaces...)
	s.mu.Unlock()
	for _, r := range s.e.Routes() {
		if s.public[r.Path] || r.Path == "" || r.Path == "/*" {
			continue
		}
		seg := strings.TrimPrefix(r.Path, "/")
		if i := strings.IndexByte(seg, '/'); i >= 0 {
			seg = seg[:i]
		}
		if seg != "" && !slices.Contains(out, seg) {
			out = append(out, seg)
		}
	}
	slices.Sort(out)
	return out
}
