package vectortile

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

	"golang.org/x/image/vector"

	"github.com/geosvc/geosvc/geo/cartography"
)

// icon is one icon of the sprite: its size in pixels at 1x and how to
// draw it on a rasterizer at a pixel ratio.
type icon struct {
	name string
	w, h int
	draw func(dst *image.RGBA, at image.Point, ratio float64)
}

// icons are the style's icons, drawn by geosvc itself in its
// cartography's colours: a place's dot, a capital's ringed dot, a
// one-way arrow.
func icons() []icon {
	st := cartography.Default()
	text := st.Label["City5K"].Text.Color
	white := color.RGBA{255, 255, 255, 255}
	arrow := st.Road["Motorway"].Border.Color
	return []icon{
		{"place", 10, 10, func(dst *image.RGBA, at image.Point, k float64) {
			disc(dst, at, 5*k, 5*k, 4.5*k, white)
			disc(dst, at, 5*k, 5*k, 3*k, text)
		}},
		{"capital", 14, 14, func(dst *image.RGBA, at image.Point, k float64) {
			disc(dst, at, 7*k, 7*k, 6.5*k, text)
			disc(dst, at, 7*k, 7*k, 5*k, white)
			disc(dst, at, 7*k, 7*k, 3*k, text)
		}},
		{"oneway", 16, 8, func(dst *image.RGBA, at image.Point, k float64) {
			// An arrow pointing east (the line's direction).
			poly(dst, at, k, arrow, [][2]float64{{1, 3}, {10, 3}, {10, 1}, {15, 4}, {10, 7}, {10, 5}, {1, 5}})
		}},
	}
}

func disc(dst *image.RGBA, at image.Point, cx, cy, r float64, c color.RGBA) {
	var pts [][2]float64
	for i := 0; i < 48; i++ {
		a := float64(i) / 48 * 2 * math.Pi
		pts = append(pts, [2]float64{cx + r*math.Cos(a), cy + r*math.Sin(a)})
	}
	poly(dst, at, 1, c, pts)
}

// poly fills a polygon (pixels times k) at an offset of dst.
func poly(dst *image.RGBA, at image.Point, k float64, c color.RGBA, pts [][2]float64) {
	b := dst.Bounds()
	r := vector.NewRasterizer(b.Dx(), b.Dy())
	for i, p := range pts {
		x, y := float32(float64(at.X)+p[0]*k), float32(float64(at.Y)+p[1]*k)
		if i == 0 {
			r.MoveTo(x, y)
		} else {
			r.LineTo(x, y)
		}
	}
	r.ClosePath()
	r.Draw(dst, b, image.NewUniform(c), image.Point{})
}

// spriteEntry is an icon's place in a sprite sheet (the sprite's JSON).
type spriteEntry struct {
	X          int `json:"x"`
	Y          int `json:"y"`
	Width      int `json:"width"`
	Height     int `json:"height"`
	PixelRatio int `json:"pixelRatio"`
}

// Sprites returns the style's sprite: sprite.json and sprite.png, and
// their @2x versions for high-density screens (drawn at twice the size,
// not scaled up).
func Sprites() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, ratio := range []int{1, 2} {
		is := icons()
		w, h := 0, 0
		for _, ic := range is {
			w += ic.w*ratio + 2
			h = max(h, ic.h*ratio)
		}
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(img, img.Bounds(), image.Transparent, image.Point{}, draw.Src)
		idx := map[string]spriteEntry{}
		x := 0
		for _, ic := range is {
			ic.draw(img, image.Point{x, 0}, float64(ratio))
			idx[ic.name] = spriteEntry{X: x, Y: 0, Width: ic.w * ratio, Height: ic.h * ratio, PixelRatio: ratio}
			x += ic.w*ratio + 2
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			return nil, err
		}
		js, err := json.Marshal(idx)
		if err != nil {
			return nil, err
		}
		suffix := ""
		if ratio == 2 {
			suffix = "@2x"
		}
		out["sprite"+suffix+".png"], out["sprite"+suffix+".json"] = buf.Bytes(), js
	}
	return out, nil
}
