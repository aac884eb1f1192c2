package api

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/glyphs"
	"github.com/geosvc/geosvc/geo/vectortile"
)

// mvtType is the media type of a Mapbox Vector Tile.
const mvtType = "application/vnd.mapbox-vector-tile"

// vectorOptions are the vector tiles' sources, set by RegisterTiles.
type vectorOptions struct {
	// render encodes tile z/x/y as an MVT (not compressed).
	render func(ctx context.Context, z, x, y int) ([]byte, error)
	// bounds is the extract's box (ok false while no bundle is loaded).
	bounds func() (orb.Bound, bool)
}

// vectorSources returns the vector tiles' sources of opts: its
// RenderMVT and Bounds, else its bundle's.
func vectorSources(opts TileOptions) vectorOptions {
	v := vectorOptions{render: opts.RenderMVT, bounds: opts.Bounds}
	cur := opts.Bundle
	if v.render == nil {
		v.render = func(_ context.Context, z, x, y int) ([]byte, error) {
			if cur == nil {
				return nil, ErrNotReady
			}
			b := cur.Load()
			if b == nil {
				return nil, ErrNotReady
			}
			return vectortile.Tile(b.MapSources(), z, x, y)
		}
	}
	if v.bounds == nil {
		v.bounds = func() (orb.Bound, bool) {
			if cur == nil {
				return orb.Bound{}, false
			}
			b := cur.Load()
			if b == nil {
				return orb.Bound{}, false
			}
			src := b.MapSources()
			bd := src.Extent
			if src.Layer != nil {
				bd = src.Layer.Bound()
			}
			return bd, true
		}
	}
	return v
}

// fontsPath is the route of the style's glyphs.
const fontsPath = "/" + tilesInterface + "/fonts/:stack/:range"

// registerVectorTiles adds the vector tiles' documents to s: the
// TileJSON, the MapLibre style, its sprite and its glyphs, public (they
// hold no map data; the tiles they name need a key or a token).
func registerVectorTiles(s *Server, h *tileHandler) {
	s.Public(http.MethodGet, "/"+tilesInterface+"/tiles.json", h.tileJSON)
	s.Public(http.MethodGet, "/"+tilesInterface+"/style.json", h.styleJSON)
	for _, n := range []string{"sprite.json", "sprite.png", "sprite@2x.json", "sprite@2x.png"} {
		s.Public(http.MethodGet, "/"+tilesInterface+"/"+n, h.sprite)
	}
	s.PublicPattern(http.MethodGet, fontsPath, h.glyphs)
}

// vector answers GET /tilesv1/{z}/{x}/{y}.mvt: gzip-compressed when the
// client accepts it; both forms cached.
func (h *tileHandler) vector(c echo.Context) error {
	z, x, y, err := parseVectorTile(c.Param("z"), c.Param("x"), c.Param("y"))
	if err != nil {
		return httpError(http.StatusBadRequest, err.Error())
	}
	gen := h.opts.Generation() + "/mvt"
	gz := acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding))
	var t *tile
	if gz {
		t, err = h.get(c.Request().Context(), gen+".gz", z, x, y, func(ctx context.Context, z, x, y int) ([]byte, error) {
			raw, err := h.get(ctx, gen, z, x, y, h.vopts.render)
			if err != nil {
				return nil, err
			}
			return gzipBytes(raw.png)
		})
	} else {
		t, err = h.get(c.Request().Context(), gen, z, x, y, h.vopts.render)
	}
	switch {
	case errors.Is(err, ErrNotReady):
		return httpError(http.StatusServiceUnavailable, "not ready: data bundle not loaded")
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return httpError(http.StatusServiceUnavailable, "tile not made in time, retry later")
	case err != nil:
		return err
	}
	hd := c.Response().Header()
	hd.Set(echo.HeaderCacheControl, "private, max-age=3600")
	hd.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	hd.Set("ETag", t.etag)
	if etagMatches(c.Request().Header.Get("If-None-Match"), t.etag) {
		return c.NoContent(http.StatusNotModified)
	}
	if gz {
		hd.Set(echo.HeaderContentEncoding, "gzip")
	}
	return c.Blob(http.StatusOK, mvtType, t.png)
}

// parseVectorTile reads z, x and y.mvt of a vector tile's path.
func parseVectorTile(zs, xs, ys string) (z, x, y int, err error) {
	ys, _ = strings.CutSuffix(ys, ".mvt")
	return parseTile(zs, xs, ys+".png")
}

func gzipBytes(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// docBase returns the request's base URL (scheme and host) and its
// tile token (copied, URL-escaped, into the tile URLs: a bad one is
// refused by the tiles, 403).
func docBase(c echo.Context) (base, token string, err error) {
	return c.Scheme() + "://" + c.Request().Host, c.QueryParam("token"), nil
}

func (h *tileHandler) tileJSON(c echo.Context) error {
	base, token, err := docBase(c)
	if err != nil {
		return err
	}
	b, ok := h.vopts.bounds()
	if !ok {
		return httpError(http.StatusServiceUnavailable, "not ready: data bundle not loaded")
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-cache")
	return c.JSONBlob(http.StatusOK, vectortile.TileJSON(base+"/"+tilesInterface, token, b))
}

func (h *tileHandler) styleJSON(c echo.Context) error {
	base, token, err := docBase(c)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-cache")
	return c.JSONBlob(http.StatusOK, vectortile.Style(base+"/"+tilesInterface, token))
}

// sprites are the sprite's files, drawn once.
var sprites = sync.OnceValues(func() (map[string][]byte, error) { return vectortile.Sprites() })

func (h *tileHandler) sprite(c echo.Context) error {
	fs, err := sprites()
	if err != nil {
		return err
	}
	name := strings.TrimPrefix(c.Path(), "/"+tilesInterface+"/")
	ct := echo.MIMEApplicationJSON
	if strings.HasSuffix(name, ".png") {
		ct = "image/png"
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=86400")
	return c.Blob(http.StatusOK, ct, fs[name])
}

// glyphs answers GET /tilesv1/fonts/{fontstack}/{start}-{end}.pbf: the
// SDF glyphs of code points start..end (at most 256; MapLibre asks for
// 0-255, 256-511, ...) in the first font of the stack geosvc has (the Go
// fonts).
func (h *tileHandler) glyphs(c echo.Context) error {
	rg, _ := strings.CutSuffix(c.Param("range"), ".pbf")
	lo, hi, ok := parseGlyphRange(c.Param("range"))
	if !ok {
		return httpError(http.StatusBadRequest, "range must be {start}-{end}.pbf, at most 256 code points of 0..65535 (0-255, 256-511, ...)")
	}
	stack, err := url.PathUnescape(c.Param("stack"))
	if err != nil {
		return httpError(http.StatusBadRequest, "fontstack must be a URL-escaped list of font names")
	}
	pbf, err := glyphs.Range(stack, rune(lo), rune(hi), rg)
	if errors.Is(err, glyphs.ErrNoFont) {
		return httpErrorf(http.StatusBadRequest, "fontstack must name one of the fonts %s", strings.Join(glyphs.Fonts(), ", "))
	}
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=86400")
	return c.Blob(http.StatusOK, "application/x-protobuf", pbf)
}

// parseGlyphRange reads "{start}-{end}.pbf": code points start..end (in
// either order) of 0..65535, at most 256 of them.
func parseGlyphRange(s string) (lo, hi int, ok bool) {
	rg, ok := strings.CutSuffix(s, ".pbf")
	if !ok {
		return 0, 0, false
	}
	a, b, found := strings.Cut(rg, "-")
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	lo, hi = min(lo, hi), max(lo, hi)
	return lo, hi, found && err1 == nil && err2 == nil && lo >= 0 && hi <= 0xFFFF && hi-lo < 256
}
