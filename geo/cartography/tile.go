package cartography

import (
	"github.com/geosvc/geosvc/geo/render"
)

// TileSize is the side of a map tile in pixels.
const TileSize = 256

// TileRoads reports whether a tile of zoom z draws roads of a
// MapRoadType: motorways and dual carriageways from zoom 0, federal and
// regional roads from 9, local roads from 12, every road from 14.
func TileRoads(z int) func(roadType string) bool {
	return func(rt string) bool {
		switch rt {
		case "Motorway", "DualCarriageWay", "DualCarriageWayCity":
			return true
		case "FederalHighway", "FederalHighwayCity", "RegionalRoad", "RegionalRoadCity", "FerryCar", "FerryCargo", "FerryTrain":
			return z >= 9
		case "LocalRoad", "LocalRoadCity":
			return z >= 12
		default:
			return z >= 14
		}
	}
}

// Tile renders XYZ web-mercator tile z/x/y (TileSize pixels square) as a
// PNG, with place and road names written inside the tile.
func Tile(src Sources, z, x, y int, st *Style) ([]byte, error) {
	c, _, err := Draw(src, Request{View: render.TileView(z, x, y, TileSize), Style: st, Road: TileRoads(z), Labels: true})
	if err != nil {
		return nil, err
	}
	return c.Encode(render.PNG)
}
