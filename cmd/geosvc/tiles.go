package main

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/api"
	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/profile"
)

// tileData is what the tiles are drawn from once the bundle is loaded.
type tileData struct {
	src     cartography.Sources
	builtAt time.Time
}

// mapSources returns the sources a map of the loaded bundle is drawn
// from: its map layer, its road graph's roads, and the gazetteer's
// towns when the map layer has no places.
func mapSources(g *routing.Graph, ls *loadedLayers) cartography.Sources {
	src := cartography.Sources{Layer: ls.mapLayer(), Extent: g.Bounds()}
	src.Roads = func(b orb.Bound, fn func(cartography.Road)) {
		g.MapRoads(b, func(shape []orb.Point, rt profile.RoadType, name string) {
			fn(cartography.Road{Shape: shape, Type: rt.String(), Name: name})
		})
	}
	if src.Layer == nil || len(src.Layer.Places(g.Bounds())) == 0 {
		ix, _ := ls.get(geocodeLayerName).(*geocode.Index)
		src.Places = cartography.GazetteerPlaces(ix)
	}
	return src
}

// registerTiles adds /tilesv1 to srv: tiles drawn by geo/cartography
// from data, 503 until it is set; their cache generation is the
// bundle's build time.
func registerTiles(srv *api.Server, data *atomic.Pointer[tileData]) error {
	style := cartography.Default()
	return api.RegisterTiles(srv, api.TileOptions{
		Render: func(_ context.Context, z, x, y int) ([]byte, error) {
			d := data.Load()
			if d == nil {
				return nil, api.ErrNotReady
			}
			return cartography.Tile(d.src, z, x, y, style)
		},
		Generation: func() string {
			if d := data.Load(); d != nil {
				return d.builtAt.UTC().Format(time.RFC3339Nano)
			}
			return ""
		},
	})
}
