package geosvc

import (
	"fmt"
	"math"
	"strconv"
)

// Point is a position in decimal degrees, WGS 84. The client writes it
// the way each interface wants it (zip4v1: x = latitude; tdmv1 and
// routev1: "lon,lat").
type Point struct {
	Lon, Lat float64
}

// String writes the point "lon,lat", as tdmv1 and routev1 read it, with
// the shortest decimals that give the same float64 back.
func (p Point) String() string {
	return strconv.FormatFloat(p.Lon, 'f', -1, 64) + "," + strconv.FormatFloat(p.Lat, 'f', -1, 64)
}

// check reports a point that no interface accepts, before a request.
func (p Point) check() error {
	if math.IsNaN(p.Lon) || math.IsNaN(p.Lat) || p.Lon < -180 || p.Lon > 180 || p.Lat < -90 || p.Lat > 90 {
		return fmt.Errorf("geosvc: point %v: longitude must be in [-180, 180] and latitude in [-90, 90]", p)
	}
	return nil
}

// Bounds is a rectangle in longitude and latitude, whichever order the
// interface wrote it in.
type Bounds struct {
	MinLon, MinLat, MaxLon, MaxLat float64
}

// boundsLatFirst reads a bbox written [minLat, minLon, maxLat, maxLon]
// (adminv1's and zip4v1's top-level bbox).
func boundsLatFirst(b *[]float64) *Bounds {
	if b == nil || len(*b) != 4 {
		return nil
	}
	v := *b
	return &Bounds{MinLat: v[0], MinLon: v[1], MaxLat: v[2], MaxLon: v[3]}
}

// boundsLonFirst reads a bbox written [minLon, minLat, maxLon, maxLat].
func boundsLonFirst(v []float64) *Bounds {
	if len(v) != 4 {
		return nil
	}
	return &Bounds{MinLon: v[0], MinLat: v[1], MaxLon: v[2], MaxLat: v[3]}
}
