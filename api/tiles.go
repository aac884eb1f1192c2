package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dgraph-io/ristretto/v2"
	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/geo/render"
	"github.com/geosvc/geosvc/keys"
)

// tilesInterface is the interface name of the map tiles, as keys and usage
// counters know it.
const tilesInterface = keys.TilesV1

// maxTileZoom is the deepest zoom level /tilesv1 serves.
const maxTileZoom = 20

// defaultTileCacheBytes bounds the rendered-tile cache when
// TileOptions.CacheBytes is 0.
const defaultTileCacheBytes = 256 << 20

// TileOptions configures the tilesv1 interface.
type TileOptions struct {
	// Bundle is the data bundle the tiles are drawn from, by
	// geo/cartography in its default style, with the bundle's map sources
	// (bundle.Bundle.MapSources); nil, or holding none yet, while it
	// loads (tiles then answer 503).
	Bundle *bundle.Current
	// Render, when set, draws tile z/x/y (256 x 256 px, web mercator, XYZ
	// numbering) as a PNG instead (tests count renders with it); it
	// returns an error wrapping ErrNotReady while it has nothing to draw
	// from.
	Render func(ctx context.Context, z, x, y int) ([]byte, error)
	// RenderVariant, when set, draws the other variants of tile z/x/y:
	// the @2x tile (scale 2, 512 x 512 px) and the WebP tiles (webp
	// true); without it, with Render set, only the 256 px PNG is served.
	// Errors as Render's.
	RenderVariant func(ctx context.Context, z, x, y, scale int, webp bool) ([]byte, error)
	// CacheBytes bounds the in-memory cache of rendered tiles; 0 means
	// 256 MiB, < 0 no cache.
	CacheBytes int64
	// Generation names the data the tiles are drawn from: the cache keeps
	// tiles per generation, so new data is drawn afresh; default the
	// Bundle's build time. ETags are the hash of the PNG itself.
	Generation func() string
	// TokenTTL is how long a tile token is valid; 0 means one hour.
	TokenTTL time.Duration
	// RenderMVT, when set, encodes vector tile z/x/y (an MVT, not
	// compressed) instead of the Bundle (tests); Bounds then says the
	// extract's box for the TileJSON (ok false: not loaded yet).
	RenderMVT func(ctx context.Context, z, x, y int) ([]byte, error)
	Bounds    func() (orb.Bound, bool)
}

// ErrNotReady is what a TileOptions.Render returns while it has no data to
// draw from: the tile is answered 503.
var ErrNotReady = errors.New("data bundle not loaded")

// RegisterTiles adds the tilesv1 interface to s: POST /tilesv1/token
// answers {"token","expires_at"}, a token bound to the request's key for
// the tiles of an <img> or a browser map, which cannot send x-api-key; GET
// /tilesv1/{z}/{x}/{y}.png answers the PNG of a tile, authenticated by
// x-api-key or by ?token=; {y}@2x.png the 512 px tile drawn at twice the
// scale, {y}.webp and {y}@2x.webp the same in lossless WebP. Rendered tiles are kept in memory, bytes-bounded,
// and sent with an ETag and Cache-Control; If-None-Match is answered 304.
func RegisterTiles(s *Server, opts TileOptions) error {
	if opts.Render == nil && opts.Bundle == nil {
		return errors.New("api: tiles need a bundle or a renderer")
	}
	if opts.Render == nil {
		style := cartography.Default()
		cur := opts.Bundle
		opts.Render = func(_ context.Context, z, x, y int) ([]byte, error) {
			b := cur.Load()
			if b == nil {
				return nil, ErrNotReady
			}
			return cartography.Tile(b.MapSources(), z, x, y, style)
		}
		opts.RenderVariant = func(_ context.Context, z, x, y, scale int, webp bool) ([]byte, error) {
			b := cur.Load()
			if b == nil {
				return nil, ErrNotReady
			}
			f := render.PNG
			if webp {
				f = render.WebP
			}
			return cartography.TileImage(b.MapSources(), z, x, y, scale, style, f)
		}
		if opts.Generation == nil {
			opts.Generation = func() string {
				if b := cur.Load(); b != nil {
					return b.Manifest.BuiltAt.UTC().Format(time.RFC3339Nano)
				}
				return ""
			}
		}
	}
	if opts.TokenTTL <= 0 {
		opts.TokenTTL = time.Hour
	}
	if opts.Generation == nil {
		opts.Generation = func() string { return "" }
	}
	h := &tileHandler{opts: opts, vopts: vectorSources(opts), now: s.opts.Now, log: s.log, flights: map[string]*tileFlight{}}
	if opts.CacheBytes >= 0 {
		size := opts.CacheBytes
		if size == 0 {
			size = defaultTileCacheBytes
		}
		c, err := ristretto.NewCache(&ristretto.Config[string, *tile]{
			NumCounters: max(10_000, size/2_000), // ~10 per tile of ~20 KB
			MaxCost:     size,
			BufferItems: 64,
		})
		if err != nil {
			return fmt.Errorf("api: tile cache: %w", err)
		}
		h.cache = c
	}
	if s.opts.Redis != nil {
		prefix := keys.DefaultPrefix
		if s.opts.Gate != nil {
			prefix = s.opts.Gate.Store().Prefix()
		}
		s.tokens = newTokenSigner(s.opts.Redis, prefix+"tiles:secret", opts.TokenTTL, s.opts.Now)
	}
	h.tokens = s.tokens
	g := s.Protected()
	g.POST("/"+tilesInterface+"/token", h.token)
	g.GET("/"+tilesInterface+"/:z/:x/:y", h.tile)
	registerVectorTiles(s, h)
	return nil
}

// tile is one rendered tile.
type tile struct {
	png  []byte
	etag string
}

type tileFlight struct {
	done chan struct{}
	t    *tile
	err  error
}

type tileHandler struct {
	opts   TileOptions
	vopts  vectorOptions
	now    func() time.Time
	log    *slog.Logger
	cache  *ristretto.Cache[string, *tile]
	tokens *tokenSigner

	mu      sync.Mutex
	flights map[string]*tileFlight
}

// tokenAnswer is the body of POST /tilesv1/token.
type tokenAnswer struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expires_at"`
}

func (h *tileHandler) token(c echo.Context) error {
	if h.tokens == nil {
		return httpError(http.StatusServiceUnavailable, "tile tokens need Redis")
	}
	k, _ := keyOf(c)
	tok, exp, err := h.tokens.issue(c.Request().Context(), k.ID)
	if err != nil {
		h.log.Warn("tile token not issued", slog.String("request_id", requestIDOf(c)), slog.Any("error", err))
		return httpError(http.StatusServiceUnavailable, "key store unavailable, retry later")
	}
	return c.JSON(http.StatusOK, tokenAnswer{Token: tok, ExpiresAt: exp})
}

// parseTile reads z, x and y of a tile path ({z}/{x}/{y}.png); the
// variant's suffix (@2x, .webp) is cut off y by the caller.
func parseTile(zs, xs, ys string) (z, x, y int, err error) {
	ys, ok := strings.CutSuffix(ys, ".png")
	if !ok || strings.ContainsAny(ys, "@.") { // .jpg, @3x.png, @2x.mvt
		return 0, 0, 0, errors.New("a tile is {z}/{x}/{y}.png, {z}/{x}/{y}@2x.png, {z}/{x}/{y}.webp, {z}/{x}/{y}@2x.webp or {z}/{x}/{y}.mvt")
	}
	z, err = strconv.Atoi(zs)
	if err != nil || z < 0 || z > maxTileZoom {
		return 0, 0, 0, fmt.Errorf("z must be an integer in 0..%d", maxTileZoom)
	}
	n := 1 << z
	x, err = strconv.Atoi(xs)
	if err != nil || x < 0 || x >= n {
		return 0, 0, 0, fmt.Errorf("x must be an integer in 0..%d at zoom %d", n-1, z)
	}
	y, err = strconv.Atoi(ys)
	if err != nil || y < 0 || y >= n {
		return 0, 0, 0, fmt.Errorf("y must be an integer in 0..%d at zoom %d", n-1, z)
	}
	return z, x, y, nil
}

func (h *tileHandler) tile(c echo.Context) error {
	if strings.HasSuffix(c.Param("y"), ".mvt") {
		return h.vector(c)
	}
	ys, v := cutTileVariant(c.Param("y"))
	z, x, y, err := parseTile(c.Param("z"), c.Param("x"), ys)
	if err != nil {
		return httpError(http.StatusBadRequest, err.Error())
	}
	if v != (tileVariant{}) && h.opts.RenderVariant == nil {
		return httpError(http.StatusNotFound, "this server draws 256 px PNG tiles only")
	}
	gen := h.opts.Generation()
	render := h.opts.Render
	if v != (tileVariant{}) {
		render = func(ctx context.Context, z, x, y int) ([]byte, error) {
			return h.opts.RenderVariant(ctx, z, x, y, max(v.scale, 1), v.webp)
		}
	}
	t, err := h.get(c.Request().Context(), gen+v.suffix(), z, x, y, render)
	switch {
	case errors.Is(err, ErrNotReady):
		return httpError(http.StatusServiceUnavailable, "not ready: data bundle not loaded")
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return httpError(http.StatusServiceUnavailable, "tile not rendered in time, retry later")
	case err != nil:
		return err
	}
	hd := c.Response().Header()
	hd.Set(echo.HeaderCacheControl, "private, max-age=3600")
	hd.Set("ETag", t.etag)
	if etagMatches(c.Request().Header.Get("If-None-Match"), t.etag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, v.contentType(), t.png)
}

// etagMatches reports whether an If-None-Match header names etag (RFC 9110
// weak comparison, "*" matching any).
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, v := range strings.Split(header, ",") {
		v = strings.TrimSpace(v)
		v = strings.TrimPrefix(v, "W/")
		if v == "*" || v == etag {
			return true
		}
	}
	return false
}

// get returns the tile from the cache, or renders it once for all the
// callers asking at the same time.
func (h *tileHandler) get(ctx context.Context, gen string, z, x, y int, render func(ctx context.Context, z, x, y int) ([]byte, error)) (*tile, error) {
	key := gen + "/" + strconv.Itoa(z) + "/" + strconv.Itoa(x) + "/" + strconv.Itoa(y)
	if h.cache != nil {
		if t, ok := h.cache.Get(key); ok {
			return t, nil
		}
	}
	h.mu.Lock()
	if f, ok := h.flights[key]; ok {
		h.mu.Unlock()
		select {
		case <-f.done:
			return f.t, f.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f := &tileFlight{done: make(chan struct{})}
	h.flights[key] = f
	h.mu.Unlock()

	// The render goes on for the others when its first caller leaves.
	png, err := render(context.WithoutCancel(ctx), z, x, y)
	if err == nil {
		sum := sha256.Sum256(png)
		f.t = &tile{png: png, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
		if h.cache != nil {
			h.cache.Set(key, f.t, int64(len(png))+int64(len(key))+64)
			h.cache.Wait() // the next caller finds it
		}
	} else {
		f.err = err
	}
	h.mu.Lock()
	delete(h.flights, key)
	h.mu.Unlock()
	close(f.done)
	return f.t, f.err
}
