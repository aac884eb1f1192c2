package cartography

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"unicode/utf8"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/render"
)

// Marker is a pin drawn over a map (a static map's markers): a disc of
// Color in a white ring, on top of everything else. A Label of one or two
// characters is written inside the disc; a longer one beside it, as a
// place name is. Labels of the map keep clear of markers.
type Marker struct {
	Point orb.Point
	// Color is the disc's colour (alpha-premultiplied; alpha 0: the
	// default red).
	Color color.RGBA
	Label string
	// Radius is the disc's radius in pixels at density 1 (0: 9).
	Radius float64
}

// Path is a line drawn over a map's roads and route (a static map's
// paths): Weight pixels wide at density 1 (0: 5), in Color
// (alpha-premultiplied, so translucent colours blend).
type Path struct {
	Points []orb.Point
	Color  color.RGBA
	Weight float64
}

// DefaultMarkerColor is a marker's colour when it names none.
var DefaultMarkerColor = color.RGBA{0xd0, 0x10, 0x10, 255}

// defaultMarkerRadius is a marker's radius in pixels when it gives none.
const defaultMarkerRadius = 9

// markerGeom is a marker's disc and where its label goes, in pixels.
type markerGeom struct {
	x, y, r float64 // centre and radius of the colour disc
	ring    float64 // the white ring's width
	inside  bool    // the label is written inside the disc
	label   render.TextStyle
	box     image.Rectangle // the disc and label, reserved from labels
	lx, ly  int             // the label's baseline origin
}

// markerGeoms works out every marker's disc and label box.
func (m *mapDraw) markerGeoms() ([]markerGeom, error) {
	pr := m.c.View.Projector()
	out := make([]markerGeom, len(m.req.Markers))
	for i, mk := range m.req.Markers {
		r := mk.Radius
		if r <= 0 {
			r = defaultMarkerRadius
		}
		g := markerGeom{r: r * m.k, ring: 2 * m.k}
		g.x, g.y = pr.Pixel(mk.Point)
		outer := g.r + g.ring + m.k
		g.box = image.Rect(int(math.Floor(g.x-outer)), int(math.Floor(g.y-outer)), int(math.Ceil(g.x+outer)), int(math.Ceil(g.y+outer)))
		if mk.Label != "" {
			n := utf8.RuneCountInString(mk.Label)
			g.inside = n <= 2
			if g.inside {
				size := g.r * 1.25
				if n == 2 {
					size = g.r * 1.0
				}
				g.label = render.TextStyle{Color: color.RGBA{255, 255, 255, 255}, Size: size, Bold: true}
				if lum(markerColor(mk)) > 0.6 {
					g.label.Color = color.RGBA{0x22, 0x22, 0x22, 255}
				}
			} else {
				g.label = render.TextStyle{Color: color.RGBA{0x22, 0x22, 0x22, 255}, Size: 12 * m.k, Bold: true,
					Halo: color.RGBA{255, 255, 255, 255}, HaloWidth: max(1, int(math.Round(m.k)))}
			}
			b, err := m.c.TextBox(mk.Label, 0, 0, g.label)
			if err != nil {
				return nil, err
			}
			if g.inside {
				// Centred on the disc: the cap height's middle (about
				// 0.36 of the size above the baseline) on the centre.
				g.lx = int(math.Round(g.x - float64(b.Dx())/2 - float64(b.Min.X)))
				g.ly = int(math.Round(g.y + 0.36*g.label.Size))
			} else {
				g.lx = g.box.Max.X + int(math.Round(2*m.k))
				g.ly = int(math.Round(g.y - float64(b.Min.Y+b.Max.Y)/2))
				g.box = g.box.Union(b.Add(image.Pt(g.lx, g.ly)))
			}
		}
		out[i] = g
	}
	return out, nil
}

// markerColor is a marker's colour, the default when it has none.
func markerColor(mk Marker) color.RGBA {
	if mk.Color.A == 0 {
		return DefaultMarkerColor
	}
	return mk.Color
}

// lum is a colour's relative luminance (0 black, 1 white), roughly.
func lum(c color.RGBA) float64 {
	return (0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)) / 255
}

// paths draws the request's paths, in order, over the roads and route.
func (m *mapDraw) paths() {
	for _, p := range m.req.Paths {
		if len(p.Points) == 0 || p.Color.A == 0 {
			continue
		}
		w := p.Weight
		if w <= 0 {
			w = 5
		}
		s := m.c.Shape()
		s.Line(p.Points, math.Max(w*m.k, 1))
		s.Paint(p.Color)
	}
}

// markers draws the markers, in order (the last on top): a faint shadow
// ring, the white ring, the disc, the label.
func (m *mapDraw) markers(gs []markerGeom) error {
	for i, mk := range m.req.Markers {
		g := gs[i]
		p := m.c.View.Point(g.x, g.y)
		for _, d := range []struct {
			r   float64
			col color.RGBA
		}{{g.r + g.ring + m.k, color.RGBA{0, 0, 0, 90}}, {g.r + g.ring, color.RGBA{255, 255, 255, 255}}, {g.r, markerColor(mk)}} {
			s := m.c.Shape()
			s.Line([]orb.Point{p}, 2*d.r)
			s.Paint(d.col)
		}
		if mk.Label != "" {
			if _, err := m.c.Text(mk.Label, g.lx, g.ly, g.label); err != nil {
				return err
			}
		}
	}
	return nil
}

// attribution writes the request's attribution at the lower right corner
// on a translucent white box.
func (m *mapDraw) attribution() error {
	if m.req.Attribution == "" {
		return nil
	}
	st := render.TextStyle{Color: color.RGBA{0x33, 0x33, 0x33, 255}, Size: 10 * m.k}
	b, err := m.c.TextBox(m.req.Attribution, 0, 0, st)
	if err != nil {
		return err
	}
	pad := int(math.Round(3 * m.k))
	x := m.c.View.W - b.Max.X - pad
	y := m.c.View.H - b.Max.Y - pad
	bg := b.Add(image.Pt(x, y)).Inset(-pad)
	draw.Draw(m.c.Img, bg.Intersect(m.c.Img.Rect), image.NewUniform(color.RGBA{190, 190, 190, 190}), image.Point{}, draw.Over)
	_, err = m.c.Text(m.req.Attribution, x, y, st)
	return err
}
