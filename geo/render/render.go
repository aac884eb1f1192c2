// Package render draws map images: lines and dots in web-mercator pixels
// on an RGBA canvas, encoded as PNG, GIF or WBMP. It knows nothing of
// roads or routes; callers give it styled lines and points.
package render

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"math"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// MaxSide is the largest width or height of an image in pixels.
const MaxSide = 2048

// View is the part of the world an image shows: a centre, the size of
// the area in metres (at the centre's latitude) and the image size.
type View struct {
	Center          orb.Point
	WidthM, HeightM float64
	W, H            int
}

// ViewOf returns the view of a bound at an image size (the bound's
// aspect kept: the area grows on one axis to fit the image's).
func ViewOf(b orb.Bound, w, h int) View {
	c := b.Center()
	wm := geo.HaversineM(orb.Point{b.Min[0], c[1]}, orb.Point{b.Max[0], c[1]})
	hm := geo.HaversineM(orb.Point{c[0], b.Min[1]}, orb.Point{c[0], b.Max[1]})
	v := View{Center: c, WidthM: math.Max(wm, 1), HeightM: math.Max(hm, 1), W: w, H: h}
	if w > 0 && h > 0 {
		// Square pixels: widen whichever side is short.
		if v.WidthM/float64(w) > v.HeightM/float64(h) {
			v.HeightM = v.WidthM * float64(h) / float64(w)
		} else {
			v.WidthM = v.HeightM * float64(w) / float64(h)
		}
	}
	return v
}

// MetresPerPixel is the view's scale.
func (v View) MetresPerPixel() float64 { return v.WidthM / float64(v.W) }

// Bound returns the lon/lat box the view shows.
func (v View) Bound() orb.Bound {
	lp := geo.NewLocalProjection(v.Center[1])
	x, y := lp.XY(v.Center)
	return orb.Bound{Min: lp.Point(x-v.WidthM/2, y-v.HeightM/2), Max: lp.Point(x+v.WidthM/2, y+v.HeightM/2)}
}

// Pixel returns where p falls on the image (x right, y down), on a local
// plane at the view's centre.
func (v View) Pixel(p orb.Point) (float64, float64) {
	lp := geo.NewLocalProjection(v.Center[1])
	cx, cy := lp.XY(v.Center)
	x, y := lp.XY(p)
	s := v.MetresPerPixel()
	return float64(v.W)/2 + (x-cx)/s, float64(v.H)/2 - (y-cy)/s
}

// Point returns the lon/lat of image pixel (x, y).
func (v View) Point(x, y float64) orb.Point {
	lp := geo.NewLocalProjection(v.Center[1])
	cx, cy := lp.XY(v.Center)
	s := v.MetresPerPixel()
	return lp.Point(cx+(x-float64(v.W)/2)*s, cy-(y-float64(v.H)/2)*s)
}

// Canvas is an image being drawn.
type Canvas struct {
	View View
	Img  *image.RGBA
}

// NewCanvas returns a canvas of the view filled with background.
func NewCanvas(v View, background color.RGBA) (*Canvas, error) {
	if v.W < 1 || v.H < 1 || v.W > MaxSide || v.H > MaxSide {
		return nil, errors.New("render: image size out of range")
	}
	img := image.NewRGBA(image.Rect(0, 0, v.W, v.H))
	draw.Draw(img, img.Bounds(), &image.Uniform{background}, image.Point{}, draw.Src)
	return &Canvas{View: v, Img: img}, nil
}

// Line draws a polyline width pixels wide.
func (c *Canvas) Line(pts []orb.Point, col color.RGBA, width float64) {
	for i := 1; i < len(pts); i++ {
		x0, y0 := c.View.Pixel(pts[i-1])
		x1, y1 := c.View.Pixel(pts[i])
		c.segment(x0, y0, x1, y1, col, width)
	}
}

// segment stamps discs of the width along a pixel segment, skipping
// segments wholly off the image.
func (c *Canvas) segment(x0, y0, x1, y1 float64, col color.RGBA, width float64) {
	r := math.Max(width/2, 0.71) // at least the pixel the point falls in
	w, h := float64(c.View.W), float64(c.View.H)
	if math.Max(x0, x1) < -r || math.Min(x0, x1) > w+r || math.Max(y0, y1) < -r || math.Min(y0, y1) > h+r {
		return
	}
	n := int(math.Ceil(math.Hypot(x1-x0, y1-y0)))
	for i := 0; i <= n; i++ {
		t := 0.0
		if n > 0 {
			t = float64(i) / float64(n)
		}
		c.disc(x0+t*(x1-x0), y0+t*(y1-y0), r, col)
	}
}

// Dot draws a filled circle of radius r pixels at p.
func (c *Canvas) Dot(p orb.Point, r float64, col color.RGBA) {
	x, y := c.View.Pixel(p)
	c.disc(x, y, r, col)
}

func (c *Canvas) disc(cx, cy, r float64, col color.RGBA) {
	for y := int(math.Floor(cy - r)); y <= int(math.Ceil(cy+r)); y++ {
		for x := int(math.Floor(cx - r)); x <= int(math.Ceil(cx+r)); x++ {
			if dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy; dx*dx+dy*dy <= r*r && image.Pt(x, y).In(c.Img.Rect) {
				c.Img.SetRGBA(x, y, col)
			}
		}
	}
}

// Rect fills a pixel rectangle.
func (c *Canvas) Rect(r image.Rectangle, col color.RGBA) {
	draw.Draw(c.Img, r.Intersect(c.Img.Rect), &image.Uniform{col}, image.Point{}, draw.Src)
}

// Format is an image encoding.
type Format int

// The encodings (the SOAP ImageType values).
const (
	PNG Format = iota
	GIF
	WBMP
)

// Encode writes the canvas in the format.
func (c *Canvas) Encode(f Format) ([]byte, error) {
	var b bytes.Buffer
	var err error
	switch f {
	case PNG:
		err = png.Encode(&b, c.Img)
	case GIF:
		err = gif.Encode(&b, c.Img, &gif.Options{NumColors: 256})
	case WBMP:
		writeWBMP(&b, c.Img)
	default:
		err = errors.New("render: unknown format")
	}
	return b.Bytes(), err
}

// writeWBMP writes a WAP bitmap (type 0): one bit a pixel, rows padded to
// a byte, 1 for light pixels and 0 for dark ones.
func writeWBMP(b *bytes.Buffer, img *image.RGBA) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	b.Write([]byte{0, 0})
	writeMultiByte(b, w)
	writeMultiByte(b, h)
	for y := 0; y < h; y++ {
		var cur byte
		for x := 0; x < w; x++ {
			p := img.RGBAAt(x, y)
			if 299*int(p.R)+587*int(p.G)+114*int(p.B) >= 128*1000 {
				cur |= 0x80 >> (x % 8)
			}
			if x%8 == 7 || x == w-1 {
				b.WriteByte(cur)
				cur = 0
			}
		}
	}
}

// writeMultiByte writes a WBMP multi-byte integer: 7 bits a byte, most
// significant first, the high bit set on all but the last.
func writeMultiByte(b *bytes.Buffer, v int) {
	var tmp [5]byte
	i := len(tmp) - 1
	tmp[i] = byte(v & 0x7f)
	for v >>= 7; v > 0; v >>= 7 {
		i--
		tmp[i] = byte(v&0x7f) | 0x80
	}
	b.Write(tmp[i:])
}
