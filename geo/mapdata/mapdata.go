// Package mapdata owns a bundle's map layer: the areas (water, parks,
// woods, buildings...), lines (railways, borders) and places (towns,
// suburbs) a map shows under and beside the roads, read from the OSM
// extract at build time. Renderers ask it for what lies in a view at a
// scale; it answers geometry in lon/lat, simplified for that scale.
//
// A Layer keeps its geometry once per zoom band (bands.go): simplified
// with Douglas-Peucker to half a pixel of the band's finest scale, areas
// smaller than a pixel dropped, large polygons cut into pieces along
// straight lines so that a view gets only the parts near it. Each band
// has a grid index over its features. The whole layer is a few flat
// arrays, written into a binfmt container (file.go) and queried from it as
// loaded.
//
// Renderers: areas come in drawing order and may be pieces of larger
// polygons cut along straight lines (fill them; do not stroke their
// outlines, as the cuts would show). Build (build.go) reads an extract;
// `geosvc build` writes FileName into the bundle, and `geosvc serve` loads
// it with the bundle's other layers: cmd/geosvc's loadedLayers.mapLayer
// returns the loaded *Layer (nil until the bundle is in), for the SOAP map
// operations and /tilesv1. docs/data.md lists the OSM tags of each class
// and the bands.
package mapdata

import (
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/internal/binfmt"
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

// numClasses is the number of classes.
const numClasses = int(Province) + 1

var classNames = [...]string{"Land", "Water", "Park", "Woodland", "Moor", "Sand", "Industry", "Community", "RailroadArea", "Buildings", "Railway", "Border", "Province"}

// String returns the class's MapBackgroundType name.
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "Class(?)"
}

// IsLine reports whether features of the class are lines (Railway,
// Border, Province) rather than areas.
func (c Class) IsLine() bool { return c >= Railway && int(c) < numClasses }

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

var placeKindNames = [...]string{"city", "town", "village", "hamlet", "suburb", "quarter", "neighbourhood"}

// String returns the OSM place=* value of the kind.
func (k PlaceKind) String() string {
	if int(k) < len(placeKindNames) {
		return placeKindNames[k]
	}
	return "place(?)"
}

// Place is a named place node (or an area's label point).
type Place struct {
	Name       string
	Kind       PlaceKind
	Population int  // 0: unknown
	Capital    bool // capital=yes or capital=2/4 (a country's or state's capital)
	Point      orb.Point
}

// Layer is a bundle's map layer. The zero value is an empty layer. It is
// read-only once made and safe for concurrent use.
type Layer struct {
	// deferred holds the file checks of LoadDeferred (nil: done).
	deferred *binfmt.Deferred
	// coords are the x, y of every stored point in units of 1e-7 degree;
	// a ring (or line) is the points ringOff[i] .. ringOff[i]+ringLen[i]
	// (point indexes). Rings are stored once however many bands use them.
	coords  []int32
	ringOff []uint32
	ringLen []uint32
	bands   [numBands]band
	// places are in label order (sortPlaces), with their numbers by
	// longitude.
	places placeTable
	// bound is the extract's bounding box (the Land area).
	bound orb.Bound
}

// band is the features of one zoom band: areas (in drawing order) then
// lines, each a list of rings (an area's outer ring first) and a box.
type band struct {
	class    []uint8
	featRing []uint32 // feature -> first entry of rings; len features+1
	rings    []uint32 // ring numbers
	box      []int32  // minX, minY, maxX, maxY of each feature
	grid     grid
	numAreas int // features [0, numAreas) are areas, the rest lines
}

// grid is a uniform grid over a band's features: cell (cx, cy) lists the
// features whose box overlaps it.
type grid struct {
	MinX, MinY   int32 // 1e-7 degree
	CellW, CellH int32 // 1e-7 degree, >= 1
	NX, NY       int
	start        []uint32 // cell -> first entry of items; len NX*NY+1
	items        []uint32
}

// New returns a layer of the given features, in lon/lat: it simplifies
// them per zoom band and indexes them. Areas are drawn in class order,
// larger before smaller within a class. The extract's bound is the box of
// the features; Build passes the extract's own box (NewBounded).
func New(areas []Area, lines []Line, places []Place) *Layer {
	var b orb.Bound
	first := true
	ext := func(p orb.Point) {
		if first {
			b, first = orb.Bound{Min: p, Max: p}, false
		}
		b = b.Extend(p)
	}
	for _, a := range areas {
		for _, r := range a.Polygon {
			for _, p := range r {
				ext(p)
			}
		}
	}
	for _, l := range lines {
		for _, p := range l.Line {
			ext(p)
		}
	}
	for _, p := range places {
		ext(p.Point)
	}
	return NewBounded(b, areas, lines, places)
}

// NewBounded is New with the extract's bounding box given.
func NewBounded(bound orb.Bound, areas []Area, lines []Line, places []Place) *Layer {
	return pack(bound, areas, lines, places)
}

// Bound returns the extract's bounding box: where the layer has data.
func (l *Layer) Bound() orb.Bound { return l.bound }

// idPool holds the scratch slices of queries.
var idPool = sync.Pool{New: func() any { s := make([]uint32, 0, 256); return &s }}

// query returns the features of band bd whose box intersects b, in
// feature order, restricted to [lo, hi).
func (bd *band) query(b orb.Bound, lo, hi int, fn func(f int)) {
	g := &bd.grid
	if g.NX == 0 || lo >= hi {
		return
	}
	qx0, qy0 := fix(b.Min[0]), fix(b.Min[1])
	qx1, qy1 := fix(b.Max[0]), fix(b.Max[1])
	cx0, cy0 := g.cell(qx0, qy0)
	cx1, cy1 := g.cell(qx1, qy1)
	idsp := idPool.Get().(*[]uint32)
	ids := (*idsp)[:0]
	for cy := cy0; cy <= cy1; cy++ {
		for cx := cx0; cx <= cx1; cx++ {
			c := cy*g.NX + cx
			for _, f := range g.items[g.start[c]:g.start[c+1]] {
				if int(f) < lo || int(f) >= hi {
					continue
				}
				bx := bd.box[4*f : 4*f+4]
				if bx[0] > qx1 || bx[2] < qx0 || bx[1] > qy1 || bx[3] < qy0 {
					continue
				}
				ids = append(ids, f)
			}
		}
	}
	if cx1 > cx0 || cy1 > cy0 {
		slices.Sort(ids)
		ids = slices.Compact(ids)
	}
	for _, f := range ids {
		fn(int(f))
	}
	*idsp = ids
	idPool.Put(idsp)
}

// cell returns the cell of a point, clamped to the grid.
func (g *grid) cell(x, y int32) (int, int) {
	cx := int((int64(x) - int64(g.MinX)) / int64(g.CellW))
	cy := int((int64(y) - int64(g.MinY)) / int64(g.CellH))
	return min(max(cx, 0), g.NX-1), min(max(cy, 0), g.NY-1)
}

// points is the lon/lat points of a query's rings, allocated at once and
// handed out in capacity-limited slices.
type points struct{ buf []orb.Point }

// ring returns ring r as lon/lat points from ps.
func (l *Layer) ring(r uint32, ps *points) []orb.Point {
	off, n := l.ringOff[r], l.ringLen[r]
	if len(ps.buf) < int(n) {
		ps.buf = make([]orb.Point, n)
	}
	out := ps.buf[:n:n]
	ps.buf = ps.buf[n:]
	c := l.coords[2*off : 2*(off+n)]
	for i := range out {
		out[i] = orb.Point{unfix(c[2*i]), unfix(c[2*i+1])}
	}
	return out
}

// Areas returns the areas that intersect b, in drawing order (by class,
// larger before smaller within a class), simplified for a map of
// metresPerPixel (see BandFor). Large polygons come as pieces cut along
// straight lines. The result is the caller's.
func (l *Layer) Areas(b orb.Bound, metresPerPixel float64) []Area {
	if l == nil {
		return nil
	}
	bd := &l.bands[BandFor(metresPerPixel)]
	var fs []int
	n := 0
	bd.query(b, 0, bd.numAreas, func(f int) {
		fs = append(fs, f)
		for _, r := range bd.rings[bd.featRing[f]:bd.featRing[f+1]] {
			n += int(l.ringLen[r])
		}
	})
	if len(fs) == 0 {
		return nil
	}
	out := make([]Area, len(fs))
	ps := points{buf: make([]orb.Point, n)}
	for k, f := range fs {
		rs := bd.rings[bd.featRing[f]:bd.featRing[f+1]]
		p := make(orb.Polygon, len(rs))
		for i, r := range rs {
			p[i] = orb.Ring(l.ring(r, &ps))
		}
		out[k] = Area{Class: Class(bd.class[f]), Polygon: p}
	}
	return out
}

// Lines returns the lines that intersect b, simplified for a map of
// metresPerPixel (see BandFor); long lines come in pieces. The result is
// the caller's.
func (l *Layer) Lines(b orb.Bound, metresPerPixel float64) []Line {
	if l == nil {
		return nil
	}
	bd := &l.bands[BandFor(metresPerPixel)]
	var fs []int
	n := 0
	bd.query(b, bd.numAreas, len(bd.class), func(f int) {
		fs = append(fs, f)
		n += int(l.ringLen[bd.rings[bd.featRing[f]]])
	})
	if len(fs) == 0 {
		return nil
	}
	out := make([]Line, len(fs))
	ps := points{buf: make([]orb.Point, n)}
	for k, f := range fs {
		r := bd.rings[bd.featRing[f]]
		out[k] = Line{Class: Class(bd.class[f]), Line: orb.LineString(l.ring(r, &ps))}
	}
	return out
}

// Places returns the places inside b, larger kinds first, then by
// population (largest first) and name.
func (l *Layer) Places(b orb.Bound) []Place {
	if l == nil {
		return nil
	}
	// byLon lists the places by longitude: search the first in b's range.
	t := &l.places
	i := sort.Search(len(t.byLon), func(i int) bool { return t.xy[2*t.byLon[i]] >= b.Min[0] })
	var ranks []uint32
	for ; i < len(t.byLon); i++ {
		r := t.byLon[i]
		x, y := t.xy[2*r], t.xy[2*r+1]
		if x > b.Max[0] {
			break
		}
		if y >= b.Min[1] && y <= b.Max[1] {
			ranks = append(ranks, r)
		}
	}
	if len(ranks) == 0 {
		return nil
	}
	slices.Sort(ranks)
	out := make([]Place, len(ranks))
	for k, r := range ranks {
		out[k] = t.place(int(r))
	}
	return out
}

// sortPlaces orders places by kind, then population (largest first),
// then name.
func sortPlaces(ps []Place) {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Kind != ps[j].Kind {
			return ps[i].Kind < ps[j].Kind
		}
		if ps[i].Population != ps[j].Population {
			return ps[i].Population > ps[j].Population
		}
		return ps[i].Name < ps[j].Name
	})
}

// Stats are a layer's counts, for reports and tests.
type Stats struct {
	// Areas and Lines count the features of the finest band by class
	// (pieces of cut polygons count one each).
	Areas, Lines map[Class]int
	// Places counts the places.
	Places int
	// Points counts the stored points (shared between bands).
	Points int
	// BandFeatures counts the features of each band.
	BandFeatures [numBands]int
}

// Stats returns the layer's counts.
func (l *Layer) Stats() Stats {
	s := Stats{Areas: map[Class]int{}, Lines: map[Class]int{}, Places: l.places.len(), Points: len(l.coords) / 2}
	for i := range l.bands {
		s.BandFeatures[i] = len(l.bands[i].class)
	}
	for _, c := range l.bands[0].class {
		if Class(c).IsLine() {
			s.Lines[Class(c)]++
		} else {
			s.Areas[Class(c)]++
		}
	}
	return s
}

// fix converts degrees to the stored units of 1e-7 degree.
func fix(v float64) int32 {
	v = math.Round(v * 1e7)
	return int32(min(max(v, math.MinInt32), math.MaxInt32))
}

// unfix converts stored units back to degrees.
func unfix(v int32) float64 { return float64(v) / 1e7 }
