package render

import (
	"image"
	"image/color"
	"math"

	"github.com/paulmach/orb"
	"golang.org/x/image/vector"
)

// Shape gathers filled polygons and stroked lines in pixel space, to be
// painted at once with one colour or pattern (anti-aliased, overlaps
// merged). A canvas has one shape buffer: paint a shape before starting
// the next.
type Shape struct {
	c     *Canvas
	z     *vector.Rasterizer
	empty bool
	bound image.Rectangle
	buf   [][2]float64
}

// Shape returns the canvas's (reset) shape buffer.
func (c *Canvas) Shape() *Shape {
	if c.shape == nil {
		c.shape = &Shape{c: c, z: vector.NewRasterizer(c.View.W, c.View.H)}
	} else {
		c.shape.z.Reset(c.View.W, c.View.H)
	}
	s := c.shape
	s.empty = true
	s.bound = image.Rectangle{}
	return s
}

// Empty reports whether nothing was added since the shape was reset.
func (s *Shape) Empty() bool { return s.empty }

// Polygon adds a lon/lat polygon (outer ring, then holes); holes are cut
// out whatever the rings' orientation.
func (s *Shape) Polygon(p orb.Polygon) {
	for i, r := range p {
		s.ring(r, i > 0)
	}
}

// ring adds a ring, oriented so that outer rings add coverage and holes
// remove it.
func (s *Shape) ring(r orb.Ring, hole bool) {
	if len(r) < 3 {
		return
	}
	pts := s.buf[:0]
	for _, p := range r {
		x, y := s.c.proj.Pixel(p)
		pts = append(pts, [2]float64{x, y})
	}
	s.buf = pts
	pts = s.clipRect(pts)
	if len(pts) < 3 {
		return
	}
	if (area2(pts) < 0) != hole {
		s.path(pts, true)
	} else {
		s.path(pts, false)
	}
}

// area2 is twice the signed area of a pixel ring (positive: clockwise on
// the screen, y down).
func area2(pts [][2]float64) float64 {
	a := 0.0
	for i := range pts {
		j := (i + 1) % len(pts)
		a += pts[i][0]*pts[j][1] - pts[j][0]*pts[i][1]
	}
	return a
}

// path adds a closed path, reversed or not.
func (s *Shape) path(pts [][2]float64, reverse bool) {
	at := func(i int) [2]float64 {
		if reverse {
			return pts[len(pts)-1-i]
		}
		return pts[i]
	}
	p := at(0)
	s.z.MoveTo(float32(p[0]), float32(p[1]))
	for i := 1; i < len(pts); i++ {
		q := at(i)
		s.z.LineTo(float32(q[0]), float32(q[1]))
	}
	s.z.ClosePath()
	s.empty = false
	for _, q := range pts {
		s.bound = s.bound.Union(image.Rect(int(math.Floor(q[0])), int(math.Floor(q[1])), int(math.Ceil(q[0]))+1, int(math.Ceil(q[1]))+1))
	}
}

// clipRect clips a pixel ring to the canvas (a margin around it) with
// Sutherland-Hodgman, so that huge rings cost only their visible part.
func (s *Shape) clipRect(pts [][2]float64) [][2]float64 {
	const m = 4.0
	x0, y0, x1, y1 := -m, -m, float64(s.c.View.W)+m, float64(s.c.View.H)+m
	inside := true
	for _, p := range pts {
		if p[0] < x0 || p[0] > x1 || p[1] < y0 || p[1] > y1 {
			inside = false
			break
		}
	}
	if inside {
		return pts
	}
	in := pts
	var out [][2]float64
	for edge := 0; edge < 4; edge++ {
		out = nil
		keep := func(p [2]float64) bool {
			switch edge {
			case 0:
				return p[0] >= x0
			case 1:
				return p[0] <= x1
			case 2:
				return p[1] >= y0
			default:
				return p[1] <= y1
			}
		}
		cross := func(a, b [2]float64) [2]float64 {
			var t float64
			switch edge {
			case 0:
				t = (x0 - a[0]) / (b[0] - a[0])
			case 1:
				t = (x1 - a[0]) / (b[0] - a[0])
			case 2:
				t = (y0 - a[1]) / (b[1] - a[1])
			default:
				t = (y1 - a[1]) / (b[1] - a[1])
			}
			return [2]float64{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1])}
		}
		for i := range in {
			cur, prev := in[i], in[(i+len(in)-1)%len(in)]
			switch ci, pi := keep(cur), keep(prev); {
			case ci && pi:
				out = append(out, cur)
			case ci && !pi:
				out = append(out, cross(prev, cur), cur)
			case !ci && pi:
				out = append(out, cross(prev, cur))
			}
		}
		if len(out) < 3 {
			return nil
		}
		in = out // the next edge reads what this one wrote
	}
	return in
}

// Line adds a lon/lat polyline stroked width pixels wide with round joins
// and ends.
func (s *Shape) Line(pts []orb.Point, width float64) {
	r := width / 2
	if r <= 0 || len(pts) == 0 {
		return
	}
	w, h := float64(s.c.View.W), float64(s.c.View.H)
	px, py := s.c.proj.Pixel(pts[0])
	off := func(x, y float64) bool { return x < -r || y < -r || x > w+r || y > h+r }
	prevOff := off(px, py)
	if !prevOff {
		s.cap(px, py, r)
	}
	for i := 1; i < len(pts); i++ {
		x, y := s.c.proj.Pixel(pts[i])
		curOff := off(x, y)
		visible := !(prevOff && curOff) ||
			!(math.Max(px, x) < -r || math.Min(px, x) > w+r || math.Max(py, y) < -r || math.Min(py, y) > h+r)
		if visible {
			s.segment(px, py, x, y, r)
			if !curOff {
				s.cap(x, y, r)
			}
		}
		px, py, prevOff = x, y, curOff
	}
}

// segment adds the rectangle of a segment, clockwise on the screen.
func (s *Shape) segment(x0, y0, x1, y1, r float64) {
	dx, dy := x1-x0, y1-y0
	l := math.Hypot(dx, dy)
	if l < 1e-9 {
		return
	}
	nx, ny := -dy/l*r, dx/l*r
	q := [][2]float64{{x0 + nx, y0 + ny}, {x1 + nx, y1 + ny}, {x1 - nx, y1 - ny}, {x0 - nx, y0 - ny}}
	s.path(q, area2(q) < 0)
}

// cap adds a disc of radius r (a polygon) at a line's vertex.
func (s *Shape) cap(x, y, r float64) {
	if r < 1 {
		return
	}
	n := 8
	if r > 4 {
		n = 12
	}
	q := make([][2]float64, n)
	for i := range q {
		a := 2 * math.Pi * float64(i) / float64(n)
		q[i] = [2]float64{x + r*math.Cos(a), y + r*math.Sin(a)}
	}
	s.path(q, false) // clockwise on the screen, as segments are
}

// Paint draws the shape with a colour.
func (s *Shape) Paint(col color.RGBA) {
	s.PaintWith(image.NewUniform(col))
}

// PaintWith draws the shape with a pattern (an image of the canvas's
// coordinates, such as Hatch).
func (s *Shape) PaintWith(src image.Image) {
	if s.empty {
		return
	}
	s.z.Draw(s.c.Img, s.c.Img.Bounds(), src, image.Point{})
}

// Hatch is an endless pattern of diagonal lines: Ink on every Every-th
// diagonal, Paper elsewhere (alpha 0: left as it is).
type Hatch struct {
	Ink, Paper color.RGBA
	Every      int
	Cross      bool // both diagonals
}

// ColorModel implements image.Image.
func (h Hatch) ColorModel() color.Model { return color.RGBAModel }

// Bounds implements image.Image: the pattern is endless.
func (h Hatch) Bounds() image.Rectangle {
	return image.Rect(-1e9, -1e9, 1e9, 1e9)
}

// At implements image.Image.
func (h Hatch) At(x, y int) color.Color {
	n := max(h.Every, 2)
	if ((x+y)%n+n)%n == 0 || h.Cross && ((x-y)%n+n)%n == 0 {
		return h.Ink
	}
	return h.Paper
}
