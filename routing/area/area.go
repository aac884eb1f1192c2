// Package area reads, checks and encodes the polygons a routing metric
// avoids (avoid_polygons: a GeoJSON Polygon or MultiPolygon), and tells
// whether a road segment enters one of them.
//
// Coordinates are lon/lat in decimal degrees, kept to 7 decimals (about
// 1 cm) as integers. Lines between them are straight in lon/lat, as RFC
// 7946 draws them (section 3.1.1), and the tests of a ring and of a road
// segment treat lon/lat as a plane: polygons are at most MaxExtentKm
// across, where the difference from a great circle is below the
// precision of road geometry.
//
// A Set is canonical: outer rings counter-clockwise and holes clockwise
// (RFC 7946's right-hand rule), each ring starting at its least vertex,
// holes and polygons sorted, repeated consecutive positions and repeated
// polygons dropped. Two inputs that draw the same polygons with the same
// vertices give the same Set and the same Key.
package area

import (
	"fmt"

	"github.com/paulmach/orb"
)

// Limits of one request's polygons.
const (
	// MaxPositions is the most positions all rings of a request hold
	// together, each ring's closing position included.
	MaxPositions = 2000
	// MaxExtentKm is the most a polygon's bounding box spans, east-west
	// (at its middle latitude) and north-south.
	MaxExtentKm = 200
	// MaxAreaKm2 is the most area the polygons cover together (outer
	// rings less their holes, summed).
	MaxAreaKm2 = 10000
)

// scale is the number of integer units per degree.
const scale = 1e7

// vertex is a position in 1e-7 degrees: lon, lat.
type vertex [2]int32

// ring is a ring's vertices without the closing one.
type ring []vertex

// polygon is an outer ring, then its holes.
type polygon []ring

// Set is a checked, canonical set of polygons. The zero Set holds none.
// A Set is read-only once made and safe for concurrent use.
type Set struct {
	polys []polygon
}

// Len returns the number of polygons.
func (s Set) Len() int { return len(s.polys) }

// Positions returns the number of positions of every ring, closing
// positions included.
func (s Set) Positions() int {
	n := 0
	for _, p := range s.polys {
		for _, r := range p {
			n += len(r) + 1
		}
	}
	return n
}

// MultiPolygon returns the polygons as closed orb rings in degrees.
func (s Set) MultiPolygon() orb.MultiPolygon {
	mp := make(orb.MultiPolygon, len(s.polys))
	for i, p := range s.polys {
		mp[i] = make(orb.Polygon, len(p))
		for j, r := range p {
			mp[i][j] = r.orb()
		}
	}
	return mp
}

// orb returns the ring closed, in degrees.
func (r ring) orb() orb.Ring {
	out := make(orb.Ring, len(r)+1)
	for i, v := range r {
		out[i] = v.point()
	}
	out[len(r)] = out[0]
	return out
}

func (v vertex) point() orb.Point {
	return orb.Point{float64(v[0]) / scale, float64(v[1]) / scale}
}

// Error is an invalid polygon input: Path names the part, from the
// GeoJSON object down ("type", "coordinates[0][1][3]"), and Msg says what
// is wrong.
type Error struct {
	Path, Msg string
}

func (e *Error) Error() string { return e.Path + ": " + e.Msg }

func errorf(path, format string, args ...any) *Error {
	return &Error{Path: path, Msg: fmt.Sprintf(format, args...)}
}
