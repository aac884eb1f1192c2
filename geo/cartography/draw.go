// Package cartography draws readable maps: the world base layer's land
// and borders, a bundle's map layer (areas by class, railways, borders),
// the roads by class with casings, a route, place and road labels placed
// without overlaps, and a scale bar, in a Style that a request's legend
// may change. It also renders the web-mercator tiles of /tilesv1. The
// canvas, fonts and encodings are geo/render's.
package cartography

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/mapdata"
	"github.com/geosvc/geosvc/geo/render"
	"github.com/geosvc/geosvc/geo/world"
)

// Road is a road to draw: its shape (lon/lat), MapRoadType name and
// display name ("" when it has none).
type Road struct {
	Shape []orb.Point
	Type  string
	Name  string
	// Class (the OSM highway value), Ref (route numbers) and Oneway (1
	// along Shape only, -1 against it only, 0 both ways) are for vector
	// tiles; the raster maps do not use them.
	Class, Ref string
	Oneway     int8
	// Bridge, Tunnel and Layer (OSM layer=*) are for vector tiles too.
	Bridge, Tunnel bool
	Layer          int8
}

// Sources is the data a map is drawn from; every part may be missing.
type Sources struct {
	// Layer is the bundle's map layer (nil: none).
	Layer *mapdata.Layer
	// Roads calls fn with every road whose shape may cross b (nil: no
	// roads).
	Roads func(b orb.Bound, fn func(Road))
	// Places are places to label besides the layer's (a gazetteer's
	// towns when the layer has none).
	Places func(b orb.Bound) []mapdata.Place
	// Extent is where the bundle has data: outside it, and everywhere
	// when Layer is nil, the world base layer's borders are drawn.
	Extent orb.Bound
}

// Request is what to draw.
type Request struct {
	View  render.View
	Style *Style
	// Road reports whether roads of a MapRoadType are drawn (nil: all).
	Road func(roadType string) bool
	// Route is drawn over the roads in the RouteType item
	// ("PrimaryRoute" when empty).
	Route     []orb.Point
	RouteType string
	// Labels writes place and road names; ScaleBar draws the scale bar,
	// in kilometres/metres when Metric, miles/feet otherwise.
	Labels, ScaleBar, Metric bool
	// Reserved are pixel boxes labels keep clear of (markers the caller
	// draws after).
	Reserved []image.Rectangle
	// Legend draws a legend box at the top right corner listing the
	// items drawn (Drawn's lists), when the image can hold it; labels
	// keep clear of it.
	Legend bool
	// Paths are drawn over the roads and the route, Markers on top of
	// everything (labels keep clear of them), and Attribution (a
	// data source's credit, "" for none) at the lower right corner.
	Paths       []Path
	Markers     []Marker
	Attribution string
	// Scale is the pixel density (0 meaning 1): 2 draws the view's area
	// with line widths, text, symbols and spacing twice as large, for a
	// high-density screen; what is drawn at which scale (roads, labels)
	// follows the view's metres per pixel times Scale, so that a 512 px
	// tile drawn at Scale 2 shows what the 256 px tile shows, sharper.
	Scale float64
}

// Drawn lists the legend items a map used, in legend order.
type Drawn struct {
	Background, Road, Label []string
	// Placed are the labels written, in the order they were placed.
	Placed []Placed
	// Legend is the legend drawn on the image (nil: none, as
	// Request.Legend was false, nothing was drawn or the image is too
	// small to hold it).
	Legend *Legend
}

// Draw draws a map.
func Draw(src Sources, req Request) (*render.Canvas, Drawn, error) {
	st := req.Style
	if st == nil {
		st = Default()
	}
	k := req.Scale
	if k <= 0 {
		k = 1
	}
	if k != 1 {
		st = st.scaled(k)
	}
	v := req.View
	var d Drawn
	// The sea first: what no land covers.
	seaItem := st.Background["Water"]
	paper := seaItem.Inner.Color
	if seaItem.Hatch > 0 || paper.A == 0 {
		paper = color.RGBA{255, 255, 255, 255}
	}
	c, err := render.NewCanvas(v, paper)
	if err != nil {
		return nil, d, err
	}
	if seaItem.Hatch > 0 {
		draw.Draw(c.Img, c.Img.Bounds(), render.Hatch{Ink: seaItem.Inner.Color, Every: seaItem.Hatch}, image.Point{}, draw.Over)
	}
	m := &mapDraw{c: c, st: st, src: src, req: req, b: v.Bound(), mpp: v.MetresPerPixel(), k: k, drawn: map[string]bool{}}
	m.lmpp = m.mpp * k
	if err := m.land(); err != nil {
		return nil, d, err
	}
	m.areas()
	m.lines()
	m.roads()
	m.route()
	m.paths()
	gs, err := m.markerGeoms()
	if err != nil {
		return nil, d, err
	}
	if len(gs) > 0 {
		m.req.Reserved = slices.Clone(m.req.Reserved)
		for _, g := range gs {
			m.req.Reserved = append(m.req.Reserved, g.box)
		}
	}
	if err := m.labels(); err != nil {
		return nil, d, err
	}
	if err := m.markers(gs); err != nil {
		return nil, d, err
	}
	if err := m.attribution(); err != nil {
		return nil, d, err
	}
	if !m.legendBox.Empty() {
		lg, err := m.drawLegend(m.drawnOf("bg:", BackgroundTypes), m.drawnOf("road:", RoadTypes), m.drawnOf("label:", LabelTypes))
		if err != nil {
			return nil, d, err
		}
		d.Legend = lg
	}
	for _, n := range BackgroundTypes {
		if m.drawn["bg:"+n] {
			d.Background = append(d.Background, n)
		}
	}
	for _, n := range RoadTypes {
		if m.drawn["road:"+n] {
			d.Road = append(d.Road, n)
		}
	}
	for _, n := range LabelTypes {
		if m.drawn["label:"+n] {
			d.Label = append(d.Label, n)
		}
	}
	d.Placed = m.placed
	return c, d, nil
}

type mapDraw struct {
	c   *render.Canvas
	st  *Style
	src Sources
	req Request
	b   orb.Bound
	mpp float64
	// k is the pixel density (Request.Scale) and lmpp the metres per
	// pixel of the map at density 1 (mpp times k), which decides what
	// is drawn.
	k, lmpp float64
	drawn   map[string]bool
	byType  map[string][]Road
	placed  []Placed
	// legendBox is the box reserved for the legend (empty: none).
	legendBox image.Rectangle
}

// paint fills a shape with an item's Inner (as a hatch when the item
// says so) and reports whether anything was painted.
func (m *mapDraw) paint(s *render.Shape, it Item) bool {
	if s.Empty() || it.Inner.Color.A == 0 {
		return false
	}
	if it.Hatch > 0 {
		s.PaintWith(render.Hatch{Ink: it.Inner.Color, Every: it.Hatch})
	} else {
		s.Paint(it.Inner.Color)
	}
	return true
}

// land paints the world's countries (Land) over the sea and notes
// whether sea is left in view.
func (m *mapDraw) land() error {
	fs, err := world.Features()
	if err != nil {
		return err
	}
	land := m.st.Background["Land"]
	s := m.c.Shape()
	for i := range fs {
		f := &fs[i]
		if f.Kind != world.Country || len(f.Geometry) == 0 || !f.BBox.Intersects(m.b) {
			continue
		}
		for _, p := range f.Geometry {
			if p.Bound().Intersects(m.b) {
				s.Polygon(p)
			}
		}
	}
	if land.Hatch > 0 {
		s.Paint(color.RGBA{255, 255, 255, 255})
	}
	m.paint(s, land)
	m.drawn["bg:Land"] = true
	// Sea in view: a point of a grid over the view in no country.
	if ix, err := world.Lookup(); err == nil {
		for i := 0; i < 8 && !m.drawn["bg:Water"]; i++ {
			for j := 0; j < 8; j++ {
				p := m.c.View.Point((float64(i)+0.5)*float64(m.c.View.W)/8, (float64(j)+0.5)*float64(m.c.View.H)/8)
				if _, ok := ix.CountryAt(p); !ok {
					m.drawn["bg:Water"] = true
					break
				}
			}
		}
	}
	return nil
}

// areaClasses are the layer's area classes in drawing order.
var areaClasses = []mapdata.Class{mapdata.Land, mapdata.Water, mapdata.Park, mapdata.Woodland, mapdata.Moor, mapdata.Sand,
	mapdata.Industry, mapdata.Community, mapdata.RailroadArea, mapdata.Buildings}

// areas paints the map layer's areas, class by class.
func (m *mapDraw) areas() {
	if m.src.Layer == nil {
		return
	}
	byClass := map[mapdata.Class][]mapdata.Area{}
	for _, a := range m.src.Layer.Areas(m.b, m.mpp) {
		byClass[a.Class] = append(byClass[a.Class], a)
	}
	for _, cl := range areaClasses {
		as := byClass[cl]
		if len(as) == 0 {
			continue
		}
		it := m.st.Background[cl.String()]
		s := m.c.Shape()
		for _, a := range as {
			s.Polygon(a.Polygon)
		}
		if it.Hatch > 0 { // white under the hatch, so that what lies below does not show
			s.Paint(color.RGBA{255, 255, 255, 255})
		}
		painted := m.paint(s, it)
		if it.Border.Color.A > 0 && it.Border.Width > 0 && m.lmpp < 20 {
			s := m.c.Shape()
			for _, a := range as {
				for _, r := range a.Polygon {
					s.Line(r, it.Border.Width)
				}
			}
			s.Paint(it.Border.Color)
			painted = painted || !s.Empty()
		}
		if painted {
			m.drawn["bg:"+cl.String()] = true
		}
	}
}

// lines draws railways, then borders: the layer's, and the world base
// layer's outside the extent (everywhere without a layer).
func (m *mapDraw) lines() {
	byClass := map[mapdata.Class][]orb.LineString{}
	if m.src.Layer != nil {
		for _, l := range m.src.Layer.Lines(m.b, m.mpp) {
			byClass[l.Class] = append(byClass[l.Class], l.Line)
		}
	}
	worldBorders(m.c.View, m.src, byClass)
	for _, cl := range []mapdata.Class{mapdata.Railway, mapdata.Province, mapdata.Border} {
		ls := byClass[cl]
		it := m.st.Background[cl.String()]
		if len(ls) == 0 || it.Inner.Color.A == 0 || it.Inner.Width <= 0 {
			continue
		}
		s := m.c.Shape()
		for _, l := range ls {
			s.Line(l, it.Inner.Width)
		}
		if !s.Empty() {
			s.Paint(it.Inner.Color)
			m.drawn["bg:"+cl.String()] = true
		}
	}
}

// worldBorders adds the world base layer's country (Border) and state
// (Province) borders in view: the rings' segments that have land on both
// sides, outside the extent when there is a map layer.
func worldBorders(v render.View, src Sources, byClass map[mapdata.Class][]orb.LineString) {
	fs, err := world.Features()
	if err != nil {
		return
	}
	ix, err := world.Lookup()
	if err != nil {
		return
	}
	pr := v.Projector()
	inExtent := func(p orb.Point) bool { return src.Layer != nil && src.Extent.Contains(p) }
	// A segment is a border when points a few pixels to either side of
	// its middle both lie in a country.
	border := func(a, b orb.Point) bool {
		ax, ay := pr.Pixel(a)
		bx, by := pr.Pixel(b)
		l := math.Hypot(bx-ax, by-ay)
		if l < 1e-9 {
			return false
		}
		mx, my := (ax+bx)/2, (ay+by)/2
		nx, ny := -(by-ay)/l*3, (bx-ax)/l*3
		_, ok1 := ix.CountryAt(v.Point(mx+nx, my+ny))
		_, ok2 := ix.CountryAt(v.Point(mx-nx, my-ny))
		return ok1 && ok2
	}
	grow := v.Bound().Pad(v.MetresPerPixel() * 4 / 111_000)
	for i := range fs {
		f := &fs[i]
		var cl mapdata.Class
		switch f.Kind {
		case world.Country:
			cl = mapdata.Border
		case world.State:
			cl = mapdata.Province
		default:
			continue
		}
		if len(f.Geometry) == 0 || !f.BBox.Intersects(grow) {
			continue
		}
		for _, p := range f.Geometry {
			for _, r := range p {
				var cur orb.LineString
				for k := 1; k < len(r); k++ {
					a, b := r[k-1], r[k]
					sb := orb.Bound{Min: a, Max: a}.Extend(b)
					keep := sb.Intersects(grow) && !(inExtent(a) && inExtent(b)) && border(a, b)
					if keep {
						if len(cur) == 0 {
							cur = append(cur, a)
						}
						cur = append(cur, b)
					} else if len(cur) > 0 {
						byClass[cl] = append(byClass[cl], cur)
						cur = nil
					}
				}
				if len(cur) > 0 {
					byClass[cl] = append(byClass[cl], cur)
				}
			}
		}
	}
}

// widthScale shrinks lines on maps of large areas.
func widthScale(mpp float64) float64 {
	switch {
	case mpp <= 1.5:
		return 1.8
	case mpp <= 4:
		return 1.4
	case mpp <= 12:
		return 1
	case mpp <= 40:
		return 0.7
	default:
		return 0.45
	}
}

// roads draws the roads by type, minor first: every casing of a type,
// then its fill.
func (m *mapDraw) roads() {
	if m.src.Roads == nil {
		return
	}
	m.byType = map[string][]Road{}
	m.src.Roads(m.b, func(r Road) {
		if m.req.Road == nil || m.req.Road(r.Type) {
			m.byType[r.Type] = append(m.byType[r.Type], r)
		}
	})
	k := widthScale(m.lmpp)
	for _, rt := range RoadTypes {
		rs := m.byType[rt]
		it, ok := m.st.Road[rt]
		if len(rs) == 0 || !ok || it.Inner.Color.A == 0 {
			continue
		}
		w := math.Max(it.Inner.Width*k, m.k)
		if it.Border.Color.A > 0 && it.Border.Width > 0 && w >= 2*m.k {
			s := m.c.Shape()
			for _, r := range rs {
				s.Line(r.Shape, w+2*it.Border.Width)
			}
			s.Paint(it.Border.Color)
		}
		s := m.c.Shape()
		for _, r := range rs {
			s.Line(r.Shape, w)
		}
		if !s.Empty() {
			s.Paint(it.Inner.Color)
			m.drawn["road:"+rt] = true
		}
	}
}

// route draws the route over the roads.
func (m *mapDraw) route() {
	if len(m.req.Route) < 2 {
		return
	}
	rt := m.req.RouteType
	if rt == "" {
		rt = "PrimaryRoute"
	}
	it := m.st.Road[rt]
	if it.Inner.Color.A == 0 {
		return
	}
	s := m.c.Shape()
	s.Line(m.req.Route, math.Max(it.Inner.Width, m.k))
	s.Paint(it.Inner.Color)
	m.drawn["road:"+rt] = true
}

// WorldBorders returns the world base layer's country (Border) and state
// (Province) borders a map of view v draws: outside src's extent when
// src has a map layer, everywhere otherwise.
func WorldBorders(v render.View, src Sources) map[mapdata.Class][]orb.LineString {
	byClass := map[mapdata.Class][]orb.LineString{}
	worldBorders(v, src, byClass)
	return byClass
}
