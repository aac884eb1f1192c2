// Package vectortile encodes Mapbox Vector Tiles (MVT 2.1) of a bundle's
// map: the same sources the raster tiles and SOAP maps are drawn from
// (geo/cartography's Sources: the map layer, the routing graph's roads,
// the world base layer outside the extract), generalised per zoom. It
// also writes the TileJSON and the MapLibre style that describe them,
// and the sprite of the style's icons.
package vectortile

import (
	"sort"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/clip"
	"github.com/paulmach/orb/encoding/mvt"
	"github.com/paulmach/orb/geojson"
	"github.com/paulmach/orb/planar"
	"github.com/paulmach/orb/simplify"

	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/geo/mapdata"
	"github.com/geosvc/geosvc/geo/render"
	"github.com/geosvc/geosvc/geo/world"
)

// Extent is the side of a tile in tile units.
const Extent = 4096

// buffer is how far, in tile units, features reach beyond the tile's
// edge (so that lines and labels join across tiles).
const buffer = 128

// MaxZoom is the deepest zoom with data of its own: deeper tiles are the
// same features (clients overzoom MaxZoom's tiles instead).
const MaxZoom = 14

// Tile returns the MVT (not compressed) of tile z/x/y of src. A tile with
// no feature is a valid MVT of no layer (zero bytes).
func Tile(src cartography.Sources, z, x, y int) ([]byte, error) {
	t := newTileBuilder(src, z, x, y)
	ls := mvt.Layers{}
	for _, l := range []*mvt.Layer{t.land(), t.water(), t.landuse(), t.buildings(), t.railways(), t.boundaries(), t.roads(), t.places()} {
		if len(l.Features) > 0 {
			ls = append(ls, l)
		}
	}
	if len(ls) == 0 {
		return []byte{}, nil
	}
	return mvt.Marshal(ls)
}

// tileBuilder holds one tile's view and generalisation.
type tileBuilder struct {
	src     cartography.Sources
	z, x, y int
	view    render.View // the tile in tile units (Extent pixels)
	b       orb.Bound   // the tile with its buffer, lon/lat
	mpp     float64     // metres per pixel as a client draws it (512 px)
	tol     float64     // simplification tolerance, tile units
	minArea float64     // smallest area kept, tile units squared
	// minLength is the shortest line kept, tile units.
	minLength float64
	box       orb.Bound // the clip box, tile units
}

func newTileBuilder(src cartography.Sources, z, x, y int) *tileBuilder {
	t := &tileBuilder{src: src, z: z, x: x, y: y, view: render.TileView(z, x, y, Extent)}
	t.box = orb.Bound{Min: orb.Point{-buffer, -buffer}, Max: orb.Point{Extent + buffer, Extent + buffer}}
	t.b = orb.Bound{Min: t.view.Point(-buffer, Extent+buffer), Max: t.view.Point(Extent+buffer, -buffer)}
	t.mpp = t.view.WidthM / 512
	// Half a pixel of a 512-pixel tile (8 tile units a pixel), and
	// features under two pixels square dropped; finer at MaxZoom, whose
	// tiles clients magnify.
	px := float64(Extent) / 512
	t.tol, t.minArea, t.minLength = px/2, 2*px*px, px
	if z >= MaxZoom {
		t.tol, t.minArea, t.minLength = px/4, px*px/4, 0
	}
	return t
}

// project returns pts in tile units.
func (t *tileBuilder) project(pts []orb.Point) []orb.Point {
	out := make([]orb.Point, len(pts))
	for i, p := range pts {
		x, y := t.view.Pixel(p)
		out[i] = orb.Point{x, y}
	}
	return out
}

func (t *tileBuilder) polygon(p orb.Polygon) orb.Polygon {
	out := make(orb.Polygon, 0, len(p))
	for _, r := range p {
		out = append(out, orb.Ring(t.project(r)))
	}
	return out
}

// layer returns a new MVT layer.
func layer(name string) *mvt.Layer {
	return &mvt.Layer{Name: name, Version: 2, Extent: Extent}
}

// add clips, simplifies and rounds g (tile units) and adds it to l with
// props unless nothing of it is left.
func (t *tileBuilder) add(l *mvt.Layer, g orb.Geometry, props geojson.Properties) {
	g = clip.Geometry(t.box, g)
	if g == nil {
		return
	}
	if g.Dimensions() > 0 {
		g = simplify.DouglasPeucker(t.tol).Simplify(g)
	}
	g = round(g, t.minArea)
	if g == nil || (g.Dimensions() == 1 && planar.Length(g) < t.minLength) {
		return
	}
	f := geojson.NewFeature(g)
	f.Properties = props
	l.Features = append(l.Features, f)
}

// land is the world base layer's countries (Natural Earth) and the
// extract's land: the sea is what no land covers (the style's
// background).
func (t *tileBuilder) land() *mvt.Layer {
	l := layer("land")
	if fs, err := world.Features(); err == nil && !t.insideExtract() {
		for i := range fs {
			f := &fs[i]
			if f.Kind != world.Country || len(f.Geometry) == 0 || !f.BBox.Intersects(t.b) {
				continue
			}
			var mp orb.MultiPolygon
			for _, p := range f.Geometry {
				if p.Bound().Intersects(t.b) {
					mp = append(mp, t.polygon(p))
				}
			}
			if len(mp) > 0 {
				t.add(l, mp, geojson.Properties{"class": "country", "iso2": f.ISO2})
			}
		}
	}
	for _, a := range t.areas(mapdata.Land) {
		t.add(l, t.polygon(a.Polygon), geojson.Properties{"class": "extract"})
	}
	return l
}

// insideExtract reports whether the tile and its buffer lie inside the
// extract's box, where the map layer's land and borders are the map's
// and the world base layer adds nothing.
func (t *tileBuilder) insideExtract() bool {
	if t.src.Layer == nil {
		return false
	}
	e := t.src.Layer.Bound()
	return e.Contains(t.b.Min) && e.Contains(t.b.Max)
}

// areas returns the map layer's areas of a class in the tile.
func (t *tileBuilder) areas(cls ...mapdata.Class) []mapdata.Area {
	if t.src.Layer == nil {
		return nil
	}
	var out []mapdata.Area
	for _, a := range t.src.Layer.Areas(t.b, t.mpp) {
		for _, c := range cls {
			if a.Class == c {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

func (t *tileBuilder) water() *mvt.Layer {
	l := layer("water")
	for _, a := range t.areas(mapdata.Water) {
		t.add(l, t.polygon(a.Polygon), geojson.Properties{"class": "water"})
	}
	return l
}

// landuseClasses are the landuse layer's class values by map class.
var landuseClasses = map[mapdata.Class]string{mapdata.Park: "park", mapdata.Woodland: "wood", mapdata.Moor: "moor", mapdata.Sand: "sand",
	mapdata.Industry: "industrial", mapdata.Community: "community", mapdata.RailroadArea: "railway"}

func (t *tileBuilder) landuse() *mvt.Layer {
	l := layer("landuse")
	for _, a := range t.areas(mapdata.Park, mapdata.Woodland, mapdata.Moor, mapdata.Sand, mapdata.Industry, mapdata.Community, mapdata.RailroadArea) {
		t.add(l, t.polygon(a.Polygon), geojson.Properties{"class": landuseClasses[a.Class]})
	}
	return l
}

// buildingsMinZoom is the first zoom with buildings.
const buildingsMinZoom = 13

func (t *tileBuilder) buildings() *mvt.Layer {
	l := layer("buildings")
	if t.z < buildingsMinZoom {
		return l
	}
	for _, a := range t.areas(mapdata.Buildings) {
		t.add(l, t.polygon(a.Polygon), nil)
	}
	return l
}

func (t *tileBuilder) lines(c mapdata.Class) [][]orb.Point {
	if t.src.Layer == nil {
		return nil
	}
	var out [][]orb.Point
	for _, ln := range t.src.Layer.Lines(t.b, t.mpp) {
		if ln.Class == c {
			out = append(out, ln.Line)
		}
	}
	return out
}

// railwaysMinZoom is the first zoom with railways.
const railwaysMinZoom = 8

func (t *tileBuilder) railways() *mvt.Layer {
	l := layer("railways")
	if t.z < railwaysMinZoom {
		return l
	}
	lns := t.lines(mapdata.Railway)
	lns, _ = mergeLines(lns, make([]int, len(lns)))
	for _, ln := range lns {
		t.add(l, orb.LineString(t.project(ln)), geojson.Properties{"class": "rail"})
	}
	return l
}

// boundaries are the map layer's borders (admin_level 2 and 4) and the
// world base layer's outside the extract.
func (t *tileBuilder) boundaries() *mvt.Layer {
	l := layer("boundaries")
	levels := map[mapdata.Class]int{mapdata.Border: 2, mapdata.Province: 4}
	var lns [][]orb.Point
	var keys []int
	for _, c := range []mapdata.Class{mapdata.Border, mapdata.Province} {
		for _, ln := range t.lines(c) {
			lns, keys = append(lns, ln), append(keys, levels[c])
		}
	}
	// The world's borders, found on a 256-pixel view of the tile (as the
	// raster tile finds them).
	if !t.insideExtract() {
		for c, ws := range cartography.WorldBorders(render.TileView(t.z, t.x, t.y, 256), t.src) {
			for _, ln := range ws {
				lns, keys = append(lns, ln), append(keys, levels[c])
			}
		}
	}
	lns, keys = mergeLines(lns, keys)
	for i, ln := range lns {
		t.add(l, orb.LineString(t.project(ln)), geojson.Properties{"admin_level": keys[i]})
	}
	return l
}

// roads are the routing graph's roads: the classes of the zoom, merged
// where consecutive edges share every attribute.
func (t *tileBuilder) roads() *mvt.Layer {
	l := layer("roads")
	if t.src.Roads == nil {
		return l
	}
	// A 512-pixel tile of zoom z shows what a 256-pixel raster tile of
	// z+1 does.
	keep := cartography.TileRoads(min(t.z, MaxZoom) + 1)
	var rs []cartography.Road
	t.src.Roads(t.b, func(r cartography.Road) {
		if keep(r.Type) {
			rs = append(rs, r)
		}
	})
	for _, m := range mergeRoads(rs) {
		props := geojson.Properties{"class": m.Class, "type": m.Type}
		if m.Name != "" {
			props["name"] = m.Name
		}
		if m.Ref != "" {
			props["ref"] = m.Ref
		}
		if m.Oneway != 0 {
			props["oneway"] = 1
		}
		switch {
		case m.Bridge:
			props["brunnel"] = "bridge"
		case m.Tunnel:
			props["brunnel"] = "tunnel"
		}
		if m.Layer != 0 {
			props["layer"] = int(m.Layer)
		}
		t.add(l, orb.LineString(t.project(m.Shape)), props)
	}
	sort.SliceStable(l.Features, func(i, j int) bool {
		return roadRank(l.Features[i].Properties) < roadRank(l.Features[j].Properties)
	})
	return l
}

// roadRank orders roads minor first (drawing order).
func roadRank(p geojson.Properties) int {
	rt, _ := p["type"].(string)
	for i, n := range cartography.RoadTypes {
		if n == rt {
			return i
		}
	}
	return -1
}
