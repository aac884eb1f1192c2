package geosvc

import (
	"context"
	"net/http"
)

// VectorTile returns the Mapbox Vector Tile z/x/y (tilesv1; XYZ web
// mercator; not compressed: the transport asks for gzip and inflates
// it). A tile with no feature is empty.
func (c *Client) VectorTile(ctx context.Context, z, x, y int) ([]byte, error) {
	r, err := c.raw.VectorTileWithResponse(ctx, z, x, y, nil)
	if err != nil {
		return nil, wrap("vector-tile", err)
	}
	if r.StatusCode() != http.StatusOK {
		return nil, newAPIError("vector-tile", r.HTTPResponse, r.Body)
	}
	return r.Body, nil
}

// VectorTileJSON returns the vector tiles' TileJSON 3.0.0 document
// (bounds, zooms, vector_layers and their fields), as sent.
func (c *Client) VectorTileJSON(ctx context.Context) ([]byte, error) {
	r, err := c.raw.VectorTileJSONWithResponse(ctx, nil)
	if err != nil {
		return nil, wrap("tiles-json", err)
	}
	if r.StatusCode() != http.StatusOK {
		return nil, newAPIError("tiles-json", r.HTTPResponse, r.Body)
	}
	return r.Body, nil
}
