package bundle

import (
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/routing"
)

// MapSources returns what maps of the bundle are drawn from, the one
// place tiles (tilesv1) and SOAP map images take it: the map layer, the
// routing graph's roads, and the gazetteer's towns when the map layer has
// no places. A bundle without a graph draws the map layer only.
func (b *Bundle) MapSources() cartography.Sources {
	b.mapOnce.Do(func() {
		src := cartography.Sources{Layer: b.Map}
		if g := b.Graph; g != nil {
			src.Extent = g.Bounds()
			src.Roads = func(bb orb.Bound, fn func(cartography.Road)) {
				g.MapRoadDetails(bb, func(r routing.MapRoad) {
					fn(cartography.Road{Shape: r.Shape, Type: r.Type.String(), Name: r.Name, Class: r.Class, Ref: r.Ref, Oneway: r.Oneway,
						Bridge: r.Bridge, Tunnel: r.Tunnel, Layer: r.Layer})
				})
			}
		}
		if b.Map == nil || len(b.Map.Places(src.Extent)) == 0 {
			src.Places = cartography.GazetteerPlaces(b.Geocoder)
		}
		b.mapSources = src
	})
	return b.mapSources
}
