package render

import (
	"bytes"
	"image/color"
	"math/rand"
	"testing"

	"github.com/paulmach/orb"
	"golang.org/x/image/webp"
)

// TestWebPRoundTrip: golang.org/x/image/webp (another decoder than the
// encoder's package) reads a canvas encoded as WebP back to the very
// pixels drawn: the encoding is lossless.
func TestWebPRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, size := range [][2]int{{1, 1}, {37, 11}, {512, 512}} {
		v := TileView(3, 2, 3, size[0])
		v.W, v.H = size[0], size[1]
		c, err := NewCanvas(v, color.RGBA{0xaa, 0xd3, 0xdf, 255})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 200; i++ {
			p := c.View.Point(rng.Float64()*float64(v.W), rng.Float64()*float64(v.H))
			c.Dot(p, rng.Float64()*6, color.RGBA{uint8(rng.Intn(256)), uint8(rng.Intn(256)), uint8(rng.Intn(256)), 255})
		}
		c.Line([]orb.Point{c.View.Point(0, 0), c.View.Point(float64(v.W), float64(v.H))}, color.RGBA{0x22, 0x22, 0x22, 255}, 3)
		b, err := c.Encode(WebP)
		if err != nil {
			t.Fatal(err)
		}
		img, err := webp.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%v: %v", size, err)
		}
		if img.Bounds().Dx() != v.W || img.Bounds().Dy() != v.H {
			t.Fatalf("%v: bounds %v", size, img.Bounds())
		}
		for y := 0; y < v.H; y++ {
			for x := 0; x < v.W; x++ {
				if got, want := color.RGBAModel.Convert(img.At(x, y)), c.Img.RGBAAt(x, y); got != want {
					t.Fatalf("%v: pixel (%d, %d) %v, want %v", size, x, y, got, want)
				}
			}
		}
	}
}
