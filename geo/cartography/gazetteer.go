package cartography

import (
	"math"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/geo/mapdata"
)

// GazetteerPlaces returns a Sources.Places of the gazetteer's cities,
// towns and villages (for bundles whose map layer has no places).
func GazetteerPlaces(ix *geocode.Index) func(b orb.Bound) []mapdata.Place {
	if ix == nil {
		return nil
	}
	return func(b orb.Bound) []mapdata.Place {
		c := b.Center()
		r := geo.HaversineM(b.Min, b.Max) / 2
		var out []mapdata.Place
		for _, cd := range ix.Nearby(c, math.Max(r, 1), geocode.NearbyCities, 300) {
			if !b.Contains(cd.Location) {
				continue
			}
			name, _ := cd.Component("locality")
			if name == "" && len(cd.Components) > 0 {
				name = cd.Components[0].LongName
			}
			kind := map[string]mapdata.PlaceKind{"city": mapdata.City, "town": mapdata.Town, "village": mapdata.Village}[cd.PlaceClass]
			out = append(out, mapdata.Place{Name: name, Kind: kind, Population: int(cd.Population), Point: cd.Location})
		}
		return out
	}
}
