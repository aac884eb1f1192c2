package api

import (
	"context"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/bundle"
)

// bundleInfo describes the loaded data bundle in /v1/info.
type bundleInfo struct {
	// Name is the data set's name, from the OSM file it was built from
	// ("delaware-latest").
	Name string `json:"name"`
	// ID tells this build from any other (bundle.Bundle.ID); tdmv1's
	// fetch answers the id of the bundle a job was computed on.
	ID string `json:"id,omitempty"`
	// Version is the bundle format version.
	Version string `json:"bundle_version"`
	// OSMTimestamp is the data date of the OSM extract; left out when
	// the extract has none (not the zero time, 0001-01-01).
	OSMTimestamp time.Time `json:"osm_timestamp,omitzero"`
	// BuiltAt is when `geosvc build` wrote the bundle.
	BuiltAt time.Time `json:"built_at"`
	// Nodes and Edges count the routing graph.
	Nodes int `json:"nodes"`
	Edges int `json:"edges"`
	// DrivingSide is the car profile's side of the road, LeftHandEdges
	// the car graph's road edges where traffic keeps left (their
	// country's side or the profile's).
	DrivingSide   string `json:"driving_side,omitempty"`
	LeftHandEdges int    `json:"left_hand_edges"`
	// ConditionalTurns counts the car graph's turns that conditional
	// turn restrictions close at some times: 0 when the data has none,
	// absent only until the graph is loaded.
	ConditionalTurns *int `json:"conditional_turns,omitempty"`
	// Layers lists the bundle's layers ("routing", ...).
	Layers []string `json:"layers"`
	// Profiles lists the routing profiles the bundle routes ("car",
	// "bicycle", "foot": geosvc build --profiles).
	Profiles []string `json:"profiles"`
	// BBox is the extent of the road network, [west, south, east, north];
	// nil when the graph is not loaded.
	BBox *[4]float64 `json:"bbox,omitempty"`
	// Speeds describes the speed data applied (its version, when it was
	// loaded and how old it is); absent without speed data.
	Speeds *speedsInfo `json:"speeds,omitempty"`
}

// speedsInfo is /v1/info's description of the speed data applied.
type speedsInfo struct {
	Version  string    `json:"version"`
	LoadedAt time.Time `json:"loaded_at"`
	AgeS     float64   `json:"age_s"`
	Matched  int       `json:"matched_segments"`
	Unknown  int       `json:"unknown_segments"`
	Rules    int       `json:"rules"`
	// CondMaxspeeds counts the bundle's conditional maximum speed rows
	// (caps from OSM's maxspeed:conditional), when it has any.
	CondMaxspeeds int `json:"conditional_maxspeeds,omitempty"`
}

// describe returns the /v1/info description of b.
func describe(b *bundle.Bundle) *bundleInfo {
	m := b.Manifest
	info := &bundleInfo{
		Name:         b.Name(),
		ID:           b.ID,
		Version:      m.BundleVersion,
		OSMTimestamp: b.OSMTimestamp(),
		BuiltAt:      m.BuiltAt,
		Nodes:        m.Nodes,
		Edges:        m.Edges,
		Layers:       m.LayerNames(),
		Profiles:     b.Profiles(),
		BBox:         b.BBox(),
	}
	if b.Graph != nil {
		meta := b.Graph.Meta()
		info.Nodes, info.Edges = meta.Nodes, meta.Edges
		info.DrivingSide, info.LeftHandEdges = meta.DrivingSide, meta.LeftHandEdges
		n := b.Graph.ConditionalTurns()
		info.ConditionalTurns = &n
	}
	if sp := b.Speeds(); sp != nil {
		info.Speeds = &speedsInfo{Version: sp.Version, LoadedAt: sp.LoadedAt, AgeS: math.Round(time.Since(sp.LoadedAt).Seconds()*10) / 10,
			Matched: sp.Report.Matched, Unknown: sp.Report.Unknown, Rules: sp.Report.Rules, CondMaxspeeds: sp.Report.CondMaxspeeds}
	}
	return info
}

// healthz answers 200 while the process serves HTTP.
func (s *Server) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// readyz answers 200 when the bundle is loaded and Redis answers PING,
// else 503 {"message": reason}.
func (s *Server) readyz(c echo.Context) error {
	if s.opts.Bundle.Load() == nil {
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
	Data *bundleInfo `json:"data"`
	// Attribution is the data licence notice.
	Attribution string `json:"attribution"`
	// Interfaces lists the REST interfaces served (first path segments).
	Interfaces []string `json:"interfaces"`
}

func (s *Server) info(c echo.Context) error {
	credits := attribution
	var data *bundleInfo
	if b := s.opts.Bundle.Load(); b != nil {
		data = describe(b)
		if a := b.Attribution(); len(a) > 0 {
			credits += "; " + strings.Join(a, "; ")
		}
	}
	return c.JSON(http.StatusOK, infoBody{
		Service:     "geosvc",
		Version:     s.opts.Version,
		Data:        data,
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
		if seg == osrmMount[1:] {
			seg = osrmInterface // the OSRM API is mounted at /osrm
		}
		if seg != "" && !slices.Contains(out, seg) {
			out = append(out, seg)
		}
	}
	slices.Sort(out)
	return out
}
