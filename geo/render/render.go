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
	"math"

	"github.com/HugoSmits86/nativewebp"
	"github.com/paulmach/orb"
	"golang.org/x/image/font"

	"github.com/geosvc/geosvc/geo"
)

// MaxSide is the largest width or height of an image in pixels.
const MaxSide = 2048

// View is the part of the world an image shows: a centre, the size of
// the area in metres (at the centre's latitude) and the image size. A
// view made by ViewOf or as a literal projects on a local plane at its
// centre (equirectangular); one made by TileView projects in web
// mercator, as XYZ map tiles do.
type View struct {
	Center          orb.Point
	WidthM, HeightM float64
	W, H            int

	// merc is set for a web-mercator tile view.
	merc *mercator
}

// mercator places a tile in the web-mercator world of 2^z tiles.
type mercator struct {
	world  float64 // the world's side in pixels at the tile's zoom
	x0, y0 float64 // the tile's top left corner in world pixels
}

// TileView returns the view of XYZ web-mercator tile z/x/y, size pixels
// square.
func TileView(z, x, y, size int) View {
	n := float64(uint64(1) << uint(z))
	m := &mercator{world: n * float64(size), x0: float64(x * size), y0: float64(y * size)}
	v := View{W: size, H: size, merc: m}
	v.Center = m.point(m.x0+float64(size)/2, m.y0+float64(size)/2)
	// Ground size at the centre's latitude.
	side := 2 * math.Pi * geo.EarthRadiusM * math.Cos(v.Center[1]*math.Pi/180) / n
	v.WidthM, v.HeightM = side, side
	return v
}

// MercatorView returns the web-mercator view w x h pixels centred on c
// at zoom z (a fraction allowed), with tileSize pixels a tile's side: 256
// for a standard map, 512 for one of double pixel density (the same area
// drawn with twice the pixels).
func MercatorView(c orb.Point, z float64, w, h, tileSize int) View {
	m := &mercator{world: math.Exp2(z) * float64(tileSize)}
	cx, cy := m.pixel(c)
	m.x0, m.y0 = cx-float64(w)/2, cy-float64(h)/2
	v := View{W: w, H: h, merc: m}
	v.Center = m.point(cx, cy)
	mpp := 2 * math.Pi * geo.EarthRadiusM * math.Cos(v.Center[1]*math.Pi/180) / m.world
	v.WidthM, v.HeightM = mpp*float64(w), mpp*float64(h)
	return v
}

// pixel returns p in web-mercator world pixels.
func (m *mercator) pixel(p orb.Point) (float64, float64) {
	lat := math.Max(-85.0511287798, math.Min(85.0511287798, p[1])) * math.Pi / 180
	x := (p[0] + 180) / 360 * m.world
	y := (1 - math.Log(math.Tan(lat)+1/math.Cos(lat))/math.Pi) / 2 * m.world
	return x, y
}

// point is the inverse of pixel.
func (m *mercator) point(x, y float64) orb.Point {
	lon := x/m.world*360 - 180
	lat := math.Atan(math.Sinh(math.Pi*(1-2*y/m.world))) * 180 / math.Pi
	return orb.Point{lon, lat}
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

// MetresPerPixel is the view's scale (at its centre).
func (v View) MetresPerPixel() float64 { return v.WidthM / float64(v.W) }

// Bound returns the lon/lat box the view shows.
func (v View) Bound() orb.Bound {
	a, b := v.Point(0, float64(v.H)), v.Point(float64(v.W), 0)
	return orb.Bound{Min: a, Max: b}
}

// Pixel returns where p falls on the image (x right, y down).
func (v View) Pixel(p orb.Point) (float64, float64) { return v.Projector().Pixel(p) }

// Point returns the lon/lat of image pixel (x, y).
func (v View) Point(x, y float64) orb.Point {
	if v.merc != nil {
		return v.merc.point(v.merc.x0+x, v.merc.y0+y)
	}
	lp := geo.NewLocalProjection(v.Center[1])
	cx, cy := lp.XY(v.Center)
	s := v.MetresPerPixel()
	return lp.Point(cx+(x-float64(v.W)/2)*s, cy-(y-float64(v.H)/2)*s)
}

// Projector is a view's lon/lat to pixel mapping with its constants
// worked out once, for drawing many points.
type Projector struct {
	merc         *mercator
	kx, ky       float64 // pixels per degree (local plane)
	lon0, lat0   float64
	halfW, halfH float64
}

// Projector returns the view's projector.
func (v View) Projector() Projector {
	if v.merc != nil {
		return Projector{merc: v.merc}
	}
	lp := geo.NewLocalProjection(v.Center[1])
	x1, y1 := lp.XY(orb.Point{1, 1})
	s := v.MetresPerPixel()
	return Projector{kx: x1 / s, ky: y1 / s, lon0: v.Center[0], lat0: v.Center[1], halfW: float64(v.W) / 2, halfH: float64(v.H) / 2}
}

// Pixel returns where p falls on the image (x right, y down).
func (pr Projector) Pixel(p orb.Point) (float64, float64) {
	if pr.merc != nil {
		x, y := pr.merc.pixel(p)
		return x - pr.merc.x0, y - pr.merc.y0
	}
	return pr.halfW + (p[0]-pr.lon0)*pr.kx, pr.halfH - (p[1]-pr.lat0)*pr.ky
}

// Canvas is an image being drawn.
type Canvas struct {
	View View
	Img  *image.RGBA
	proj Projector

	shape *Shape
	faces map[faceKey]font.Face
}

// NewCanvas returns a canvas of the view filled with background.
func NewCanvas(v View, background color.RGBA) (*Canvas, error) {
	if v.W < 1 || v.H < 1 || v.W > MaxSide || v.H > MaxSide {
		return nil, errors.New("render: image size out of range")
	}
	img := image.NewRGBA(image.Rect(0, 0, v.W, v.H))
	draw.Draw(img, img.Bounds(), &image.Uniform{background}, image.Point{}, draw.Src)
	return &Canvas{View: v, Img: img, proj: v.Projector()}, nil
}

// Line draws a polyline width pixels wide.
func (c *Canvas) Line(pts []orb.Point, col color.RGBA, width float64) {
	for i := 1; i < len(pts); i++ {
		x0, y0 := c.proj.Pixel(pts[i-1])
		x1, y1 := c.proj.Pixel(pts[i])
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
	x, y := c.proj.Pixel(p)
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

// The encodings: the SOAP ImageType values, and WebP (lossless, for
// the tiles).
const (
	PNG Format = iota
	GIF
	WBMP
	WebP
)

// Encode writes the canvas in the format.
func (c *Canvas) Encode(f Format) ([]byte, error) {
	var b bytes.Buffer
	var err error
	switch f {
	case PNG:
		err = writePNG(&b, c.Img)
	case GIF:
		err = gif.Encode(&b, c.Img, &gif.Options{NumColors: 256})
	case WBMP:
		writeWBMP(&b, c.Img)
	case WebP:
		err = nativewebp.Encode(&b, c.Img, &nativewebp.Options{CompressionLevel: nativewebp.BestSpeed})
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
