package cartography

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/render"
)

// inkRows returns the height in pixels of the text-coloured ink inside
// box (first to last row holding a pixel near ink) and its width.
func inkRows(img *image.RGBA, box image.Rectangle, ink color.RGBA) (h, w int) {
	box = box.Intersect(img.Rect)
	top, bottom, left, right := -1, -1, math.MaxInt, -1
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			if near(img.RGBAAt(x, y), ink) {
				if top < 0 {
					top = y
				}
				bottom = y
				left, right = min(left, x), max(right, x)
			}
		}
	}
	if top < 0 {
		return 0, 0
	}
	return bottom - top + 1, right - left + 1
}

// TestTileHighDensity: an @2x tile is 512 px square, and its labels'
// glyphs and its roads are twice as tall and wide as the 256 px tile's,
// measured on the pixels: the ink of the label "Dover" (rows holding
// text-coloured pixels) and the motorway's run of road-coloured pixels
// across its line, at the pixel web-mercator math (tileOf) puts it.
func TestTileHighDensity(t *testing.T) {
	st := Default()
	src := doverSources()
	ink := st.Label["Capital"].Text.Color
	for _, z := range []int{12, 13, 14} {
		tx, ty, _, _ := tileOf(orb.Point{-75.5244, 39.1582}, z)
		draw := func(scale int) (*image.RGBA, Drawn) {
			c, d, err := Draw(src, Request{View: render.TileView(z, tx, ty, TileSize*scale), Style: st, Road: TileRoads(z), Labels: true, Scale: float64(scale)})
			if err != nil {
				t.Fatal(err)
			}
			return c.Img, d
		}
		img1, d1 := draw(1)
		img2, d2 := draw(2)
		find := func(d Drawn) (image.Rectangle, bool) {
			for _, p := range d.Placed {
				if p.Text == "Dover" {
					return p.Box, true
				}
			}
			return image.Rectangle{}, false
		}
		b1, ok1 := find(d1)
		b2, ok2 := find(d2)
		if !ok1 || !ok2 {
			t.Fatalf("z%d: Dover placed at 1x %v, at 2x %v", z, ok1, ok2)
		}
		h1, w1 := inkRows(img1, b1, ink)
		h2, w2 := inkRows(img2, b2, ink)
		t.Logf("z%d: Dover's ink %d x %d px at 1x, %d x %d px at 2x", z, w1, h1, w2, h2)
		if h1 < 8 || float64(h2) < 1.8*float64(h1) || float64(h2) > 2.2*float64(h1) {
			t.Errorf("z%d: glyph height %d px at 2x, %d px at 1x: want twice", z, h2, h1)
		}
		if float64(w2) < 1.8*float64(w1) || float64(w2) > 2.2*float64(w1) {
			t.Errorf("z%d: text width %d px at 2x, %d px at 1x: want twice", z, w2, w1)
		}
		// The label stays where it was, in pixels twice as far from the
		// corner.
		c1, c2 := b1.Min.Add(b1.Max), b2.Min.Add(b2.Max) // twice the centres
		if math.Hypot(float64(c2.X-2*c1.X), float64(c2.Y-2*c1.Y)) > 12 {
			t.Errorf("z%d: Dover at %v at 1x but %v at 2x", z, b1, b2)
		}
	}

	// The motorway at 39.1500: its width across the line (fill, casing
	// and edges) doubles.
	const z = 14
	p := orb.Point{-75.5400, 39.1500}
	tx, ty, px, py := tileOf(p, z)
	land := st.Background["Land"].Inner.Color
	// run is the length of the column of pixels through (x, y) that are
	// not land: the road, casing and anti-aliased edges included.
	run := func(img image.Image, x, y int) int {
		at := func(y int) color.RGBA { return color.RGBAModel.Convert(img.At(x, y)).(color.RGBA) }
		if at(y) != st.Road["Motorway"].Inner.Color {
			return 0
		}
		n := 1
		for d := 1; d < 40 && at(y-d) != land; d++ {
			n++
		}
		for d := 1; d < 40 && at(y+d) != land; d++ {
			n++
		}
		return n
	}
	var runs [3]int
	for _, scale := range []int{1, 2} {
		b, err := TileImage(src, z, tx, ty, scale, st, render.PNG)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if want := image.Rect(0, 0, TileSize*scale, TileSize*scale); img.Bounds() != want {
			t.Fatalf("@%dx tile bounds %v, want %v", scale, img.Bounds(), want)
		}
		// The motorway's pixel by tileOf's math, scaled; the middle of
		// the pixel at 2x.
		runs[scale] = run(img, px*scale+scale/2, py*scale+scale/2)
	}
	t.Logf("motorway %d px wide at 1x, %d px at 2x", runs[1], runs[2])
	if runs[1] < 3 || runs[2] < 2*runs[1]-2 || runs[2] > 2*runs[1]+2 {
		t.Errorf("motorway %d px wide at 2x, %d px at 1x: want twice", runs[2], runs[1])
	}
}
