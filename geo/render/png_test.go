package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand"
	"testing"
)

// TestPNGRoundTrip: image/png decodes writePNG's files to the very
// pixels written, opaque (RGB) and translucent (RGBA), of odd sizes and
// of a sub-image.
func TestPNGRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, tc := range []struct {
		w, h   int
		opaque bool
		sub    bool
	}{{1, 1, true, false}, {13, 7, true, false}, {256, 256, true, false}, {31, 17, false, false}, {40, 30, true, true}, {40, 30, false, true}} {
		img := image.NewRGBA(image.Rect(0, 0, tc.w, tc.h))
		for y := 0; y < tc.h; y++ {
			for x := 0; x < tc.w; x++ {
				a := uint8(255)
				if !tc.opaque {
					a = uint8(rng.Intn(256))
				}
				// Premultiplied: channels at most alpha.
				c := color.RGBA{uint8(rng.Intn(int(a) + 1)), uint8(rng.Intn(int(a) + 1)), uint8(rng.Intn(int(a) + 1)), a}
				if !tc.opaque && rng.Intn(3) == 0 {
					c = color.RGBA{a, a / 2, 0, a}
				}
				img.SetRGBA(x, y, c)
			}
		}
		var src *image.RGBA = img
		if tc.sub {
			src = img.SubImage(image.Rect(5, 3, 25, 20)).(*image.RGBA)
		}
		var b bytes.Buffer
		if err := writePNG(&b, src); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&b)
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		if got.Bounds().Dx() != src.Rect.Dx() || got.Bounds().Dy() != src.Rect.Dy() {
			t.Fatalf("%+v: bounds %v", tc, got.Bounds())
		}
		for y := 0; y < src.Rect.Dy(); y++ {
			for x := 0; x < src.Rect.Dx(); x++ {
				want := src.RGBAAt(src.Rect.Min.X+x, src.Rect.Min.Y+y)
				g := color.NRGBAModel.Convert(got.At(got.Bounds().Min.X+x, got.Bounds().Min.Y+y)).(color.NRGBA)
				w := color.NRGBAModel.Convert(want).(color.NRGBA)
				if w.A == 0 {
					w, g = color.NRGBA{}, color.NRGBA{A: g.A}
				}
				if g != w {
					t.Fatalf("%+v: pixel (%d, %d) %v, want %v", tc, x, y, g, w)
				}
			}
		}
	}
}

func BenchmarkPNG(b *testing.B) {
	v := View{W: 800, H: 600, WidthM: 12000, HeightM: 9000}
	c, _ := NewCanvas(v, color.RGBA{242, 239, 233, 255})
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 400; i++ {
		x, y := rng.Intn(800), rng.Intn(600)
		c.Rect(image.Rect(x, y, x+rng.Intn(200), y+3), color.RGBA{uint8(rng.Intn(256)), 200, 100, 255})
	}
	b.Run("writePNG", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			writePNG(&bytes.Buffer{}, c.Img)
		}
	})
	b.Run("image/png", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			(&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&bytes.Buffer{}, c.Img)
		}
	})
}
