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
	return TileImage(src, z, x, y, 1, st, render.PNG)
}

// TileImage renders XYZ web-mercator tile z/x/y at pixel density scale
// (1: TileSize pixels square; 2: twice as many, the @2x tile of a
// high-density screen, with lines, text and symbols drawn twice as
// large, not a magnified TileSize tile) in format f.
func TileImage(src Sources, z, x, y, scale int, st *Style, f render.Format) ([]byte, error) {
	scale = max(scale, 1)
	c, _, err := Draw(src, Request{View: render.TileView(z, x, y, TileSize*scale), Style: st, Road: TileRoads(z), Labels: true, Scale: float64(scale)})
	if err != nil {
		return nil, err
	}
	return c.Encode(f)
}
