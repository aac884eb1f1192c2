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
	c          *Canvas
	z          *vector.Rasterizer
	rasterized bool // polygons were added to z
	empty      bool
	bound      image.Rectangle
	buf        [][2]float64
	// cov is the coverage (0..255) of the lines added, nonzero only in
	// dirty.
	cov   []uint8
	dirty image.Rectangle
}

// Shape returns the canvas's (reset) shape buffer.
func (c *Canvas) Shape() *Shape {
	if c.shape == nil {
		c.shape = &Shape{c: c, z: vector.NewRasterizer(c.View.W, c.View.H)}
	} else if c.shape.rasterized {
		c.shape.z.Reset(c.View.W, c.View.H)
	}
	s := c.shape
	s.empty = true
	s.rasterized = false
	s.bound = image.Rectangle{}
	if !s.dirty.Empty() { // left unpainted
		w := c.View.W
		for y := s.dirty.Min.Y; y < s.dirty.Max.Y; y++ {
			clear(s.cov[y*w+s.dirty.Min.X : y*w+s.dirty.Max.X])
		}
		s.dirty = image.Rectangle{}
	}
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
	s.rasterized = true
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
// and ends (anti-aliased capsules along its segments, drawn straight into
// a coverage buffer: the cost follows the line's length, not the canvas).
func (s *Shape) Line(pts []orb.Point, width float64) {
	r := width / 2
	if r <= 0 || len(pts) == 0 {
		return
	}
	if s.cov == nil {
		s.cov = make([]uint8, s.c.View.W*s.c.View.H)
	}
	px, py := s.c.proj.Pixel(pts[0])
	if len(pts) == 1 {
		s.capsule(px, py, px, py, r)
	}
	for i := 1; i < len(pts); i++ {
		x, y := s.c.proj.Pixel(pts[i])
		s.capsule(px, py, x, y, r)
		px, py = x, y
	}
}

// capsule adds the pixels within r of segment (x0, y0)-(x1, y1) to the
// coverage buffer, with a one-pixel anti-aliased edge.
func (s *Shape) capsule(x0, y0, x1, y1, r float64) {
	w, h := s.c.View.W, s.c.View.H
	m := r + 1
	if math.Max(x0, x1) < -m || math.Min(x0, x1) > float64(w)+m || math.Max(y0, y1) < -m || math.Min(y0, y1) > float64(h)+m {
		return
	}
	if math.IsNaN(x0 + y0 + x1 + y1) {
		return
	}
	dx, dy := x1-x0, y1-y0
	ll := dx*dx + dy*dy
	ya := max(int(math.Floor(math.Min(y0, y1)-m)), 0)
	yb := min(int(math.Ceil(math.Max(y0, y1)+m)), h-1)
	for y := ya; y <= yb; y++ {
		cy := float64(y) + 0.5
		// The part of the segment within m rows of this one, and its x
		// extent widened by m.
		ta, tb := 0.0, 1.0
		if dy != 0 {
			ta, tb = (cy-m-y0)/dy, (cy+m-y0)/dy
			if ta > tb {
				ta, tb = tb, ta
			}
			ta, tb = math.Max(ta, 0), math.Min(tb, 1)
			if ta > tb {
				continue
			}
		}
		xa, xb := x0+ta*dx, x0+tb*dx
		if xa > xb {
			xa, xb = xb, xa
		}
		xs := max(int(math.Floor(xa-m)), 0)
		xe := min(int(math.Ceil(xb+m)), w-1)
		if xs > xe {
			continue
		}
		row := s.cov[y*w : (y+1)*w]
		for x := xs; x <= xe; x++ {
			cx := float64(x) + 0.5
			t := 0.0
			if ll > 0 {
				t = math.Max(0, math.Min(1, ((cx-x0)*dx+(cy-y0)*dy)/ll))
			}
			ex, ey := cx-(x0+t*dx), cy-(y0+t*dy)
			d := math.Sqrt(ex*ex + ey*ey)
			c := r + 0.5 - d
			if c <= 0 {
				continue
			}
			v := uint8(255)
			if c < 1 {
				v = uint8(c * 255)
			}
			if v > row[x] {
				row[x] = v
			}
		}
		s.grow(xs, y, xe, y)
	}
	s.empty = false
}

// grow extends the dirty rectangle of the coverage buffer.
func (s *Shape) grow(x0, y0, x1, y1 int) {
	r := image.Rect(x0, y0, x1+1, y1+1)
	if s.dirty.Empty() {
		s.dirty = r
	} else {
		s.dirty = s.dirty.Union(r)
	}
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
	if s.rasterized {
		s.z.Draw(s.c.Img, s.c.Img.Bounds(), src, image.Point{})
	}
	if s.dirty.Empty() {
		return
	}
	u, uniform := src.(*image.Uniform)
	var ur, ug, ub, ua uint32
	if uniform {
		ur, ug, ub, ua = u.RGBA()
	}
	img := s.c.Img
	w := s.c.View.W
	for y := s.dirty.Min.Y; y < s.dirty.Max.Y; y++ {
		row := s.cov[y*w : (y+1)*w]
		for x := s.dirty.Min.X; x < s.dirty.Max.X; x++ {
			c := uint32(row[x])
			if c == 0 {
				continue
			}
			row[x] = 0
			sr, sg, sb, sa := ur, ug, ub, ua
			if !uniform {
				sr, sg, sb, sa = src.At(x, y).RGBA()
			}
			// Source over, scaled by the coverage (16-bit colour, 8-bit coverage).
			a := sa * c / 255
			i := img.PixOffset(x, y)
			p := img.Pix[i : i+4 : i+4]
			inv := 0xffff - a
			p[0] = uint8((uint32(p[0])*0x101*inv/0xffff + sr*c/255) >> 8)
			p[1] = uint8((uint32(p[1])*0x101*inv/0xffff + sg*c/255) >> 8)
			p[2] = uint8((uint32(p[2])*0x101*inv/0xffff + sb*c/255) >> 8)
			p[3] = uint8((uint32(p[3])*0x101*inv/0xffff + a) >> 8)
		}
	}
	s.dirty = image.Rectangle{}
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
