package render

import (
	"image/color"
	"math"
	"testing"

	"github.com/paulmach/orb"
)

// TestLayoutAlong: a text along a straight or gently bending line is
// drawn on it (every pixel of its ink within the text's size of the line,
// inside the returned box, left to right whichever way the line runs); a
// line shorter than the text or bending sharply is refused.
func TestLayoutAlong(t *testing.T) {
	red := color.RGBA{200, 0, 0, 255}
	st := TextStyle{Color: red, Size: 12, Halo: color.RGBA{255, 255, 255, 255}}
	tests := []struct {
		name string
		path [][2]float64
		ok   bool
	}{
		{"diagonal down-right", [][2]float64{{20, 20}, {220, 180}}, true},
		{"diagonal drawn right to left", [][2]float64{{220, 20}, {20, 180}}, true},
		{"horizontal", [][2]float64{{10, 100}, {240, 100}}, true},
		{"gentle bend", [][2]float64{{10, 150}, {80, 130}, {150, 120}, {240, 125}}, true},
		{"too short", [][2]float64{{100, 100}, {130, 100}}, false},
		{"hairpin", [][2]float64{{60, 60}, {180, 60}, {60, 70}}, false},
		{"right angle in the middle", [][2]float64{{20, 140}, {128, 140}, {128, 40}}, false},
		{"vertical part of a right angle", [][2]float64{{20, 40}, {128, 40}, {128, 240}}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewCanvas(View{Center: orb.Point{0, 0}, WidthM: 1000, HeightM: 1000, W: 256, H: 256}, color.RGBA{255, 255, 255, 255})
			if err != nil {
				t.Fatal(err)
			}
			a, ok, err := c.LayoutAlong("Christiana Road", tc.path, st)
			if err != nil || ok != tc.ok {
				t.Fatalf("ok %v, %v; want %v", ok, err, tc.ok)
			}
			if !ok {
				return
			}
			// Glyph origins advance left to right.
			if first, last := a.glyphs[0].s2d[2], a.glyphs[len(a.glyphs)-1].s2d[2]; first >= last {
				t.Errorf("glyphs run right to left: first at x %.1f, last at %.1f", first, last)
			}
			c.DrawAlong(a)
			ink := 0
			for y := 0; y < 256; y++ {
				for x := 0; x < 256; x++ {
					p := c.Img.RGBAAt(x, y)
					if p.R < 150 || p.G > 100 { // not text ink
						continue
					}
					ink++
					if d := distToPath(tc.path, float64(x)+0.5, float64(y)+0.5); d > st.Size {
						t.Fatalf("ink at (%d, %d), %.1f px from the line", x, y, d)
					}
					if x < a.Box.Min.X || x >= a.Box.Max.X || y < a.Box.Min.Y || y >= a.Box.Max.Y {
						t.Fatalf("ink at (%d, %d) outside the box %v", x, y, a.Box)
					}
				}
			}
			if ink < 100 {
				t.Errorf("%d ink pixels: the text is not drawn", ink)
			}
		})
	}
}

// distToPath is the distance from (x, y) to a polyline.
func distToPath(path [][2]float64, x, y float64) float64 {
	best := math.Inf(1)
	for i := 1; i < len(path); i++ {
		ax, ay, bx, by := path[i-1][0], path[i-1][1], path[i][0], path[i][1]
		dx, dy := bx-ax, by-ay
		t := math.Max(0, math.Min(1, ((x-ax)*dx+(y-ay)*dy)/(dx*dx+dy*dy)))
		best = math.Min(best, math.Hypot(x-ax-t*dx, y-ay-t*dy))
	}
	return best
}
