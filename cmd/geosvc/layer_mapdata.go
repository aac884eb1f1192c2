package main

import (
	"fmt"

	"github.com/geosvc/geosvc/geo/mapdata"
)

// mapLayerName is the map layer's name in manifest.json and in
// loadedLayers.
const mapLayerName = "mapdata"

func init() {
	dataLayers = append(dataLayers, dataLayer{
		name:    mapLayerName,
		order:   70,
		version: mapdata.FileVersion,
		build: func(bc *buildContext) (string, error) {
			_, rep, err := mapdata.Build(mapdata.BuildOptions{OSMPath: bc.OSMPath, Out: bc.Out})
			if err != nil {
				return "", err
			}
			fmt.Println(rep.String())
			return mapdata.FileName, nil
		},
		load: func(dir string, ls *loadedLayers) error {
			l, err := mapdata.Load(dir)
			if err != nil {
				return err
			}
			ls.byName[mapLayerName] = l
			return nil
		},
	})
}

// mapLayer returns the loaded bundle's map layer (areas, lines and places
// that geo/render draws under and beside the roads), nil until the bundle
// is loaded. It is how the renderer's callers reach it: the SOAP map
// operations and /tilesv1 take it as a func() *mapdata.Layer, e.g.
//
//	soap.Options{..., MapLayer: layers.mapLayer}
//	api.TileOptions{Render: func(ctx, z, x, y) { ... render with layers.mapLayer() ... }}
//
// Only processes that serve HTTP load it (loadLayers).
func (ls *loadedLayers) mapLayer() *mapdata.Layer {
	l, _ := ls.get(mapLayerName).(*mapdata.Layer)
	return l
}
