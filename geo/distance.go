// Package geo holds the geometry helpers shared by every data set:
// distances on the sphere (HaversineM), a local plane for short distances
// (LocalProjection), points inside polygons (InteriorPoint, LabelPoint)
// and rounding to OSM's precision of 7 decimals (Round7, Round7Point).
// Its sub-packages own one thing each: a data set (boundary, timezone,
// zip4, geocode, health, mapdata), the world base layer embedded in the
// binary (world), a spatial index (spatial), OSM reading (osmfile,
// osmarea), road reference numbers (roadref) or map rendering (render).
package geo

import (
	"math"

	"github.com/paulmach/orb"
)

// EarthRadiusM is the mean Earth radius (IUGG) in metres, used for every
// distance in geosvc.
const EarthRadiusM = 6371008.8

const degToRad = math.Pi / 180

// HaversineM returns the great-circle distance between a and b in metres.
func HaversineM(a, b orb.Point) float64 {
	lat1, lat2 := a[1]*degToRad, b[1]*degToRad
	dLat := lat2 - lat1
	dLon := (b[0] - a[0]) * degToRad
	s1 := math.Sin(dLat / 2)
	s2 := math.Sin(dLon / 2)
	h := s1*s1 + math.Cos(lat1)*math.Cos(lat2)*s2*s2
	return 2 * EarthRadiusM * math.Asin(math.Min(1, math.Sqrt(h)))
}

// LocalProjection maps lon/lat to metres on a plane tangent near a reference
// latitude (equirectangular). It is accurate to well under 0.1 % within a few
// kilometres of the reference, which is what snapping and nearest-segment
// searches need.
type LocalProjection struct {
	kx, ky float64
}

// NewLocalProjection returns the projection for points near latitude lat.
func NewLocalProjection(lat float64) LocalProjection {
	return LocalProjection{
		kx: EarthRadiusM * degToRad * math.Cos(lat*degToRad),
		ky: EarthRadiusM * degToRad,
	}
}

// XY returns p in metres on the plane (x east, y north), relative to the
// origin lon=0, lat=0 scaled at the reference latitude.
func (lp LocalProjection) XY(p orb.Point) (x, y float64) {
	return p[0] * lp.kx, p[1] * lp.ky
}

// Point returns the lon/lat of plane coordinates x, y.
func (lp LocalProjection) Point(x, y float64) orb.Point {
	return orb.Point{x / lp.kx, y / lp.ky}
}
