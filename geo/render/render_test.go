package render

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"math"
	"testing"

	"github.com/paulmach/orb"
)

var (
	white = color.RGBA{255, 255, 255, 255}
	black = color.RGBA{0, 0, 0, 255}
	red   = color.RGBA{255, 0, 0, 255}
)

func TestViewRoundTrip(t *testing.T) {
	v := ViewOf(orb.Bound{Min: orb.Point{-75.60, 39.70}, Max: orb.Point{-75.50, 39.78}}, 400, 300)
	if math.Abs(v.WidthM/float64(v.W)-v.HeightM/float64(v.H)) > 1e-9 {
		t.Fatalf("pixels not square: %+v", v)
	}
	for _, p := range []orb.Point{{-75.55, 39.74}, {-75.60, 39.70}, {-75.51, 39.77}} {
		x, y := v.Pixel(p)
		if q := v.Point(x, y); math.Abs(q[0]-p[0]) > 1e-9 || math.Abs(q[1]-p[1]) > 1e-9 {
			t.Errorf("%v -> (%.1f, %.1f) -> %v", p, x, y, q)
		}
	}
	if x, y := v.Pixel(v.Center); x != 200 || y != 150 {
		t.Errorf("centre at (%v, %v)", x, y)
	}
	// North is up, east is right.
	if x, y := v.Pixel(orb.Point{-75.51, 39.77}); x <= 200 || y >= 150 {
		t.Errorf("north-east point at (%v, %v)", x, y)
	}
	b := v.Bound()
	if !b.Contains(orb.Point{-75.60, 39.70}) || !b.Contains(orb.Point{-75.50, 39.78}) {
		t.Errorf("bound %v lost the corners", b)
	}
}

func TestDrawAndEncode(t *testing.T) {
	v := View{Center: orb.Point{10, 0}, WidthM: 1000, HeightM: 500, W: 20, H: 10}
	c, err := NewCanvas(v, white)
	if err != nil {
		t.Fatal(err)
	}
	// A line through the middle, west to east, 1 pixel wide.
	c.Line([]orb.Point{v.Point(0, 5), v.Point(20, 5)}, black, 1)
	c.Dot(v.Point(3.5, 1.5), 1, red)
	if c.Img.RGBAAt(10, 5) != black || c.Img.RGBAAt(10, 0) != white || c.Img.RGBAAt(3, 1) != red {
		t.Errorf("pixels: %v %v %v", c.Img.RGBAAt(10, 5), c.Img.RGBAAt(10, 0), c.Img.RGBAAt(3, 1))
	}
	for _, f := range []Format{PNG, GIF} {
		b, err := c.Encode(f)
		if err != nil {
			t.Fatal(err)
		}
		var img image.Image
		if f == PNG {
			img, err = png.Decode(bytes.NewReader(b))
		} else {
			img, err = gif.Decode(bytes.NewReader(b))
		}
		if err != nil || img.Bounds().Dx() != 20 || img.Bounds().Dy() != 10 {
			t.Errorf("format %d: %v %v", f, err, img.Bounds())
		}
		if r, g, bb, _ := img.At(10, 5).RGBA(); r > 0x1000 || g > 0x1000 || bb > 0x1000 {
			t.Errorf("format %d: the line is not black", f)
		}
	}
	w, err := c.Encode(WBMP)
	if err != nil {
		t.Fatal(err)
	}
	// Header 0 0, width 20, height 10, then 10 rows of 3 bytes.
	if len(w) != 4+30 || w[0] != 0 || w[1] != 0 || w[2] != 20 || w[3] != 10 {
		t.Fatalf("WBMP header % x (len %d)", w[:4], len(w))
	}
	if row5 := w[4+5*3 : 4+6*3]; row5[0] != 0 || row5[1] != 0 || row5[2] != 0 {
		t.Errorf("row 5 (the black line) % x, want all dark", row5)
	}
	if row9 := w[4+9*3:]; row9[0] != 0xff || row9[1] != 0xff || row9[2] != 0xf0 {
		t.Errorf("row 9 % x, want light, padded", row9)
	}
	var mb bytes.Buffer
	writeMultiByte(&mb, 300)
	if got := mb.Bytes(); len(got) != 2 || got[0] != 0x82 || got[1] != 0x2c {
		t.Errorf("multi-byte 300 = % x, want 82 2c", got)
	}
	if _, err := NewCanvas(View{W: 0, H: 10}, white); err == nil {
		t.Error("a 0-wide canvas")
	}
}
