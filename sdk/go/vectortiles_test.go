package geosvc_test

import (
	"context"
	"encoding/json"
	"testing"
)

// TestVectorTiles: the SDK's vector tile of Dover at z14 is an MVT (its
// first field a layer, protobuf tag 3, wire type 2: 0x1a) inflated from
// the gzip the transport asked for; the TileJSON is version 3.0.0 with
// the roads layer among its vector_layers.
func TestVectorTiles(t *testing.T) {
	c := newClient(t, demoKey)
	ctx := context.Background()
	x, y := slippy(dover, 14)
	b, err := c.VectorTile(ctx, 14, x, y)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 1000 || b[0] != 0x1a {
		t.Errorf("tile 14/%d/%d: %d bytes starting %x, want an MVT", x, y, len(b), b[:min(len(b), 4)])
	}
	if _, err := c.VectorTile(ctx, 2, 4, 0); err == nil {
		t.Errorf("x 4 at zoom 2: no error")
	}
	js, err := c.VectorTileJSON(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var tj struct {
		TileJSON     string `json:"tilejson"`
		VectorLayers []struct {
			ID string `json:"id"`
		} `json:"vector_layers"`
	}
	if err := json.Unmarshal(js, &tj); err != nil {
		t.Fatal(err)
	}
	roads := false
	for _, l := range tj.VectorLayers {
		roads = roads || l.ID == "roads"
	}
	if tj.TileJSON != "3.0.0" || !roads {
		t.Errorf("TileJSON %s", js)
	}
}
