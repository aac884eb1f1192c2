package soap

import (
	"image"
	"math"
)

// iconSize returns the icon size in pixels (16 x 16 by default).
func iconSize(w, h int) (int, int) {
	if w <= 0 {
		w = 16
	}
	if h <= 0 {
		h = 16
	}
	return min(w, 256), min(h, 256)
}

// iconBox is the rectangle of an icon centred on (x, y).
func iconBox(x, y, w, h int) image.Rectangle {
	return image.Rect(x-w/2, y-h/2, x-w/2+w, y-h/2+h)
}

// freeSpot returns the pixel nearest (x, y), searched ring by ring out to
// 8 icon sizes, where an icon overlaps none of placed; (x, y) itself when
// there is none.
func freeSpot(placed []image.Rectangle, x, y, w, h int) image.Point {
	free := func(p image.Point) bool {
		b := iconBox(p.X, p.Y, w, h)
		for _, r := range placed {
			if b.Overlaps(r) {
				return false
			}
		}
		return true
	}
	if free(image.Pt(x, y)) {
		return image.Pt(x, y)
	}
	step := max(1, min(w, h)/4)
	for ring := 1; ring <= 32; ring++ {
		d := ring * step
		best, bestD := image.Point{}, math.Inf(1)
		for dx := -d; dx <= d; dx += step {
			for _, dy := range []int{-d, d} {
				for _, p := range []image.Point{{x + dx, y + dy}, {x + dy, y + dx}} {
					if dd := math.Hypot(float64(p.X-x), float64(p.Y-y)); dd < bestD && free(p) {
						best, bestD = p, dd
					}
				}
			}
		}
		if !math.IsInf(bestD, 1) {
			return best
		}
	}
	return image.Pt(x, y)
}
