// Package mapdata owns a bundle's map layer: the areas (water, parks,
// woods, buildings...), lines (railways, borders) and places (towns,
// suburbs) a map shows under and beside the roads, read from the OSM
// extract at build time. Renderers ask it for what lies in a view at a
// scale; it answers geometry in lon/lat, simplified for that scale.
package mapdata

import (
	"github.com/paulmach/orb"
)

// Class is what an area or a line is, in the terms of the specification's
// MapBackgroundType (Land .. RailroadArea are areas; Railway, Border and
// Province are lines).
type Class uint8

// The classes, in the order a map draws its areas (later over earlier).
const (
	Land Class = iota
	Water
	Park
	Woodland
	Moor
	Sand
	Industry
	Community
	RailroadArea
	Buildings
	Railway
	Border
	Province
)

var classNames = [...]string{"Land", "Water", "Park", "Woodland", "Moor", "Sand", "Industry", "Community", "RailroadArea", "Buildings", "Railway", "Border", "Province"}

// String returns the class's MapBackgroundType name.
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "Class(?)"
}

// Area is a polygon of one class, lon/lat: an outer ring, then its holes.
type Area struct {
	Class   Class
	Polygon orb.Polygon
}

// Line is a line feature (Railway, Border, Province), lon/lat.
type Line struct {
	Class Class
	Line  orb.LineString
}

// PlaceKind is an OSM place=* value a map labels.
type PlaceKind uint8

// The place kinds, from largest to smallest.
const (
	City PlaceKind = iota
	Town
	Village
	Hamlet
	Suburb
	Quarter
	Neighbourhood
)

// Place is a named place node (or an area's label point).
type Place struct {
	Name       string
	Kind       PlaceKind
	Population int  // 0: unknown
	Capital    bool // capital=yes or capital=2/4 (a country's or state's capital)
	Point      orb.Point
}

// Layer is a bundle's map layer. The zero value is an empty layer.
type Layer struct {
	areas  []Area
	lines  []Line
	places []Place
}

// New returns a layer of the given features.
func New(areas []Area, lines []Line, places []Place) *Layer {
	return &Layer{areas: areas, lines: lines, places: places}
}

// Areas returns the areas that intersect b, in drawing order (by class),
// simplified for a map of metresPerPixel.
func (l *Layer) Areas(b orb.Bound, metresPerPixel float64) []Area {
	var out []Area
	for _, a := range l.areas {
		if a.Polygon.Bound().Intersects(b) {
			out = append(out, a)
		}
	}
	return out
}

// Lines returns the lines that intersect b, simplified for a map of
// metresPerPixel.
func (l *Layer) Lines(b orb.Bound, metresPerPixel float64) []Line {
	var out []Line
	for _, ln := range l.lines {
		if ln.Line.Bound().Intersects(b) {
			out = append(out, ln)
		}
	}
	return out
}

// Places returns the places inside b.
func (l *Layer) Places(b orb.Bound) []Place {
	var out []Place
	for _, p := range l.places {
		if b.Contains(p.Point) {
			out = append(out, p)
		}
	}
	return out
}
