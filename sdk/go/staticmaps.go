package geosvc

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/geosvc/geosvc/sdk/go/openapi"
)

// StaticMapOptions are the parameters of a static map (mapsv1/static):
// Width and Height in pixels (the image is that times Scale), and either
// Center and Zoom, or BBox, or neither (the map is then fitted to the
// markers, paths and route).
type StaticMapOptions struct {
	Width, Height int
	// Scale is 1 (0 means 1) or 2, the pixel density.
	Scale int
	// Format is "png" (when ""), "gif" or "webp".
	Format string
	// Center and Zoom (0 to 20) place the map; Center nil leaves them out.
	Center *Point
	Zoom   int
	// BBox is minlon, minlat, maxlon, maxlat; nil leaves it out.
	BBox *[4]float64
	// Markers and Paths are values of the markers and path parameters
	// ("color:red|label:A|-75.52,39.15", "weight:4|enc:..."), one each.
	Markers, Paths []string
	// Route is 2 to 10 points routed through (none: no route).
	Route []Point
}

// StaticMap returns the image of a static map (mapsv1/static).
func (c *Client) StaticMap(ctx context.Context, o StaticMapOptions) ([]byte, error) {
	params := &openapi.StaticMapParams{Size: strconv.Itoa(o.Width) + "x" + strconv.Itoa(o.Height)}
	if o.Scale != 0 {
		s := openapi.StaticMapParamsScale(o.Scale)
		params.Scale = &s
	}
	if o.Format != "" {
		f := openapi.StaticMapParamsFormat(o.Format)
		params.Format = &f
	}
	if o.Center != nil {
		if err := o.Center.check(); err != nil {
			return nil, err
		}
		center, zoom := o.Center.String(), o.Zoom
		params.Center, params.Zoom = &center, &zoom
	}
	if o.BBox != nil {
		parts := make([]string, 4)
		for i, v := range o.BBox {
			parts[i] = strconv.FormatFloat(v, 'f', -1, 64)
		}
		b := strings.Join(parts, ",")
		params.Bbox = &b
	}
	if len(o.Markers) > 0 {
		params.Markers = &o.Markers
	}
	if len(o.Paths) > 0 {
		params.Path = &o.Paths
	}
	if len(o.Route) > 0 {
		parts := make([]string, len(o.Route))
		for i, p := range o.Route {
			if err := p.check(); err != nil {
				return nil, err
			}
			parts[i] = p.String()
		}
		r := strings.Join(parts, ";")
		params.Route = &r
	}
	r, err := c.raw.StaticMapWithResponse(ctx, params)
	if err != nil {
		return nil, wrap("static-map", err)
	}
	if r.StatusCode() != http.StatusOK {
		return nil, newAPIError("static-map", r.HTTPResponse, r.Body)
	}
	return r.Body, nil
}

// Tile2x returns the 512 px PNG of map tile z/x/y drawn at twice the
// scale, for high-density screens (tilesv1, {y}@2x.png).
func (c *Client) Tile2x(ctx context.Context, z, x, y int) ([]byte, error) {
	r, err := c.raw.Tile2xWithResponse(ctx, z, x, y, nil)
	if err != nil {
		return nil, wrap("tile-2x", err)
	}
	if r.StatusCode() != http.StatusOK {
		return nil, newAPIError("tile-2x", r.HTTPResponse, r.Body)
	}
	return r.Body, nil
}
