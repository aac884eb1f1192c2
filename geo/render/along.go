package render

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/math/f64"
	"golang.org/x/image/math/fixed"
)

// Along is a text laid out along a line (LayoutAlong), ready to be drawn
// (DrawAlong): each glyph upright on the line, turned with it.
type Along struct {
	st     TextStyle
	glyphs []alongGlyph
	// Box is the pixel box of every glyph, halo included.
	Box image.Rectangle
}

// alongGlyph is one glyph: its mask (halo margin included) and where it
// goes.
type alongGlyph struct {
	mask *image.Alpha
	s2d  f64.Aff3
}

// horizontal is the sine (the cosine) below which a glyph is set level
// (upright), on whole pixels: about a degree.
const horizontal = 0.02

// Limits of a line a text follows: the turn between two neighbouring
// glyphs, and over the whole text.
const (
	maxGlyphTurn = 25 * math.Pi / 180
	maxTextTurn  = 60 * math.Pi / 180
)

// LayoutAlong lays s out along the pixel polyline path, centred on the
// path's middle and on the line across it, reading left to right (the
// path is taken the other way when it runs leftwards). It reports false
// when the path is shorter than the text, or bends more than a text can
// follow and stay legible (25 degrees between neighbouring glyphs, 60 over
// the text).
func (c *Canvas) LayoutAlong(s string, path [][2]float64, st TextStyle) (Along, bool, error) {
	f, err := c.face(st)
	if err != nil {
		return Along{}, false, err
	}
	a := Along{st: st}
	total := pathLength(path)
	if total == 0 {
		return a, false, nil
	}
	if path[len(path)-1][0] < path[0][0] {
		rev := make([][2]float64, len(path))
		for i, p := range path {
			rev[len(path)-1-i] = p
		}
		path = rev
	}
	type run struct {
		r   rune
		x   float64 // advance before the glyph
		adv float64
	}
	var runs []run
	x := 0.0
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			x += fix(f.Kern(prev, r))
		}
		adv, ok := f.GlyphAdvance(r)
		if !ok {
			return a, false, nil
		}
		runs = append(runs, run{r, x, fix(adv)})
		x += fix(adv)
		prev = r
	}
	width := x
	if width+4 > total {
		return a, false, nil
	}
	m := f.Metrics()
	// The baseline lies so that the text's x-height middle is on the line.
	shift := (fix(m.Ascent) - fix(m.Descent)) / 2
	start := (total - width) / 2
	margin := st.haloWidth()
	var first float64
	prevAngle := math.NaN()
	for i, g := range runs {
		p, angle := pointAt(path, start+g.x+g.adv/2)
		if i == 0 {
			first = angle
		}
		if !math.IsNaN(prevAngle) && math.Abs(angleDiff(angle, prevAngle)) > maxGlyphTurn {
			return a, false, nil
		}
		if math.Abs(angleDiff(angle, first)) > maxTextTurn {
			return a, false, nil
		}
		prevAngle = angle
		dr, mask, mp, _, ok := f.Glyph(fixed.P(0, 0), g.r)
		if !ok || dr.Empty() {
			continue
		}
		// The glyph's mask with room for the halo around it.
		gm := image.NewAlpha(image.Rect(0, 0, dr.Dx()+2*margin, dr.Dy()+2*margin))
		draw.Draw(gm, image.Rect(margin, margin, margin+dr.Dx(), margin+dr.Dy()), mask, mp, draw.Src)
		// Source pixel (u, v) is at (dr.Min.X - margin + u, dr.Min.Y -
		// margin + v) from the glyph's origin, which goes adv/2 before
		// the point and shift below the line, turned by angle.
		ox := float64(dr.Min.X-margin) - g.adv/2
		oy := float64(dr.Min.Y-margin) + shift
		cos, sin := math.Cos(angle), math.Sin(angle)
		s2d := f64.Aff3{cos, -sin, p[0] + cos*ox - sin*oy, sin, cos, p[1] + sin*ox + cos*oy}
		switch {
		case math.Abs(sin) < horizontal && cos > 0:
			// Level: on whole pixels, as Text writes, and as crisp.
			s2d = f64.Aff3{1, 0, math.Round(p[0] + ox), 0, 1, math.Round(p[1] + oy)}
		case math.Abs(cos) < horizontal:
			// Upright: a quarter turn, on whole pixels too.
			sg := math.Copysign(1, sin)
			s2d = f64.Aff3{0, -sg, math.Round(p[0] - sg*oy), sg, 0, math.Round(p[1] + sg*ox)}
		}
		a.glyphs = append(a.glyphs, alongGlyph{mask: gm, s2d: s2d})
		a.Box = a.Box.Union(boxOf(s2d, gm.Bounds()))
	}
	return a, len(a.glyphs) > 0, nil
}

// DrawAlong draws a laid out text: the halo under every glyph first, then
// the glyphs.
func (c *Canvas) DrawAlong(a Along) {
	if a.st.Halo.A > 0 {
		for _, g := range a.glyphs {
			c.stampAlong(g, a.st.Halo, a.st.haloWidth())
		}
	}
	for _, g := range a.glyphs {
		c.stampAlong(g, a.st.Color, 0)
	}
}

// stampAlong draws a glyph's mask turned into place in col; a halo
// (halo > 0) is the mask grown by halo pixels in every direction.
func (c *Canvas) stampAlong(g alongGlyph, col color.RGBA, halo int) {
	src := g.mask
	if halo > 0 {
		grown := image.NewAlpha(src.Bounds())
		for _, o := range haloOffsets(halo, true) {
			draw.Draw(grown, src.Bounds(), src, image.Pt(o[0], o[1]), draw.Over)
		}
		src = grown
	}
	xdraw.BiLinear.Transform(c.Img, g.s2d, image.NewUniform(col), src.Bounds(), xdraw.Over, &xdraw.Options{SrcMask: src})
}

// boxOf returns the pixel box of rectangle r mapped by s2d.
func boxOf(s2d f64.Aff3, r image.Rectangle) image.Rectangle {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range [][2]float64{{float64(r.Min.X), float64(r.Min.Y)}, {float64(r.Max.X), float64(r.Min.Y)}, {float64(r.Min.X), float64(r.Max.Y)}, {float64(r.Max.X), float64(r.Max.Y)}} {
		x := s2d[0]*p[0] + s2d[1]*p[1] + s2d[2]
		y := s2d[3]*p[0] + s2d[4]*p[1] + s2d[5]
		minX, minY, maxX, maxY = math.Min(minX, x), math.Min(minY, y), math.Max(maxX, x), math.Max(maxY, y)
	}
	return image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY)))
}

// pathLength is the length of a pixel polyline.
func pathLength(path [][2]float64) float64 {
	l := 0.0
	for i := 1; i < len(path); i++ {
		l += math.Hypot(path[i][0]-path[i-1][0], path[i][1]-path[i-1][1])
	}
	return l
}

// pointAt returns the point at distance d along path and the direction of
// the path there (radians, y down).
func pointAt(path [][2]float64, d float64) ([2]float64, float64) {
	for i := 1; i < len(path); i++ {
		dx, dy := path[i][0]-path[i-1][0], path[i][1]-path[i-1][1]
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		if d <= l || i == len(path)-1 {
			t := math.Min(d/l, 1)
			return [2]float64{path[i-1][0] + t*dx, path[i-1][1] + t*dy}, math.Atan2(dy, dx)
		}
		d -= l
	}
	return path[len(path)-1], 0
}

// angleDiff is a - b in (-pi, pi].
func angleDiff(a, b float64) float64 {
	d := math.Mod(a-b, 2*math.Pi)
	if d > math.Pi {
		d -= 2 * math.Pi
	} else if d <= -math.Pi {
		d += 2 * math.Pi
	}
	return d
}

// fix converts 26.6 fixed point to float pixels.
func fix(v fixed.Int26_6) float64 { return float64(v) / 64 }
