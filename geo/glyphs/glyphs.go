// Package glyphs makes the glyph ranges MapLibre GL and Mapbox GL draw
// text with: the PBF "glyphs" messages of 256 code points as signed
// distance fields (24-pixel em, a 3-pixel border, as node-fontnik writes
// them), from the Go fonts (golang.org/x/image/font/gofont) that geosvc's
// raster maps use. Ranges are made on first use and kept.
package glyphs

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// Size is the em size in pixels the glyphs are drawn at; Border the
// pixels of distance field around each glyph; Radius the distance in
// pixels the field spans outside the outline.
const (
	Size   = 24
	Border = 3
	Radius = 8
	// cutoff is where the outline lies in the field: a byte of
	// 255*(1-cutoff) (191).
	cutoff = 0.25
	// over is the supersampling of the outline before the distance
	// transform.
	over = 4
)

// ErrNoFont is returned for a font stack that names none of Fonts.
var ErrNoFont = errors.New("glyphs: no such font")

var fontData = map[string][]byte{
	"Go Regular": goregular.TTF, "Go Bold": gobold.TTF, "Go Italic": goitalic.TTF, "Go Bold Italic": gobolditalic.TTF,
}

// Fonts are the fonts' names, as a style's text-font names them.
func Fonts() []string { return []string{"Go Regular", "Go Bold", "Go Italic", "Go Bold Italic"} }

var (
	mu    sync.Mutex
	cache = map[string][]Glyph{} // by font and range start
	fonts = map[string]*sfnt.Font{}
)

// Range returns the PBF of code points lo..hi (at most 256 of them;
// clients ask for 0-255, 256-511, ...), named name ("0-255"), of the
// first font of a comma-separated font stack that is one of Fonts; code
// points the font lacks are left out.
func Range(stack string, lo, hi rune, name string) ([]byte, error) {
	if lo < 0 || hi < lo || hi-lo >= 256 || hi > 0xFFFF {
		return nil, fmt.Errorf("glyphs: range %d-%d", lo, hi)
	}
	font := ""
	for _, n := range strings.Split(stack, ",") {
		if _, ok := fontData[strings.TrimSpace(n)]; ok {
			font = strings.TrimSpace(n)
			break
		}
	}
	if font == "" {
		return nil, ErrNoFont
	}
	mu.Lock()
	defer mu.Unlock()
	f := fonts[font]
	if f == nil {
		var err error
		if f, err = sfnt.Parse(fontData[font]); err != nil {
			return nil, err
		}
		fonts[font] = f
	}
	// The glyphs are made and kept by blocks of 256 code points from a
	// multiple of 256 (the ranges clients ask for; at most 256 blocks a
	// font, whatever stacks name them); another range is cut from its
	// one or two blocks.
	var gs []Glyph
	for b := lo &^ 255; b <= hi; b += 256 {
		key := fmt.Sprintf("%s/%d", font, b)
		block, ok := cache[key]
		if !ok {
			var err error
			if block, err = glyphsOf(f, b, b+255); err != nil {
				return nil, err
			}
			cache[key] = block
		}
		for _, g := range block {
			if g.ID >= lo && g.ID <= hi {
				gs = append(gs, g)
			}
		}
	}
	return encode(stack, name, gs), nil
}

// Glyph is one glyph of a range, as the PBF holds it.
type Glyph struct {
	ID            rune
	Bitmap        []byte // (Width+2*Border) x (Height+2*Border), row by row
	Width, Height int
	Left, Top     int // Top: the bitmap's top above the baseline, less the font's ascent
	Advance       int
}

// glyphsOf returns the glyphs of code points lo..hi that f has.
func glyphsOf(f *sfnt.Font, lo, hi rune) ([]Glyph, error) {
	var buf sfnt.Buffer
	ppem := fixed.I(Size)
	m, err := f.Metrics(&buf, ppem, font.HintingNone)
	if err != nil {
		return nil, err
	}
	ascent := int(math.Round(float64(m.Ascent) / 64))
	var gs []Glyph
	for r := lo; r <= hi; r++ {
		idx, err := f.GlyphIndex(&buf, r)
		if err != nil || idx == 0 {
			continue
		}
		adv, err := f.GlyphAdvance(&buf, idx, ppem, font.HintingNone)
		if err != nil {
			continue
		}
		g := Glyph{ID: r, Advance: int(math.Round(float64(adv) / 64))}
		segs, err := f.LoadGlyph(&buf, idx, ppem, nil)
		if err == nil && len(segs) > 0 {
			drawSDF(&g, segs, ascent)
		}
		gs = append(gs, g)
	}
	return gs, nil
}

// drawSDF sets g's bitmap and metrics from its outline (26.6 pixels, y
// down).
func drawSDF(g *Glyph, segs sfnt.Segments, ascent int) {
	b := segs.Bounds()
	x0, y0 := b.Min.X.Floor(), b.Min.Y.Floor()
	x1, y1 := b.Max.X.Ceil(), b.Max.Y.Ceil()
	if x1 <= x0 || y1 <= y0 {
		return
	}
	g.Width, g.Height = x1-x0, y1-y0
	g.Left, g.Top = x0, -y0-ascent
	w, h := g.Width+2*Border, g.Height+2*Border
	// The outline, supersampled, over the bitmap with its border.
	sw, sh := w*over, h*over
	r := vector.NewRasterizer(sw, sh)
	ox, oy := float32(Border-x0), float32(Border-y0)
	pt := func(p fixed.Point26_6) (float32, float32) {
		return (float32(p.X)/64 + ox) * over, (float32(p.Y)/64 + oy) * over
	}
	for _, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			r.MoveTo(pt(s.Args[0]))
		case sfnt.SegmentOpLineTo:
			r.LineTo(pt(s.Args[0]))
		case sfnt.SegmentOpQuadTo:
			ax, ay := pt(s.Args[0])
			bx, by := pt(s.Args[1])
			r.QuadTo(ax, ay, bx, by)
		case sfnt.SegmentOpCubeTo:
			ax, ay := pt(s.Args[0])
			bx, by := pt(s.Args[1])
			cx, cy := pt(s.Args[2])
			r.CubeTo(ax, ay, bx, by, cx, cy)
		}
	}
	r.ClosePath()
	mask := image.NewAlpha(image.Rect(0, 0, sw, sh))
	r.Draw(mask, mask.Bounds(), image.Opaque, image.Point{})
	inside := make([]bool, sw*sh)
	for i, a := range mask.Pix {
		inside[i] = a >= 128
	}
	toIn := edt(inside, sw, sh, true)   // squared distance to the nearest inside sample
	toOut := edt(inside, sw, sh, false) // to the nearest outside sample
	g.Bitmap = make([]byte, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := (y*over+over/2)*sw + x*over + over/2
			var d float64 // pixels, positive outside
			if inside[i] {
				d = -(math.Sqrt(toOut[i]) - 0.5) / over
			} else {
				d = (math.Sqrt(toIn[i]) - 0.5) / over
			}
			v := 255 - 255*(d/Radius+cutoff)
			g.Bitmap[y*w+x] = byte(math.Max(0, math.Min(255, math.Round(v))))
		}
	}
}

// edt returns the squared Euclidean distance of every sample of a w x h
// grid to the nearest sample whose inside flag is target (Felzenszwalb
// and Huttenlocher's two-pass transform).
func edt(inside []bool, w, h int, target bool) []float64 {
	const inf = 1e20
	d := make([]float64, w*h)
	for i, in := range inside {
		if in == target {
			d[i] = 0
		} else {
			d[i] = inf
		}
	}
	n := max(w, h)
	f := make([]float64, n)
	out := make([]float64, n)
	v := make([]int, n)
	z := make([]float64, n+1)
	for x := 0; x < w; x++ {
		for y := 0; y < h; y++ {
			f[y] = d[y*w+x]
		}
		edt1(f[:h], out[:h], v, z)
		for y := 0; y < h; y++ {
			d[y*w+x] = out[y]
		}
	}
	for y := 0; y < h; y++ {
		copy(f[:w], d[y*w:(y+1)*w])
		edt1(f[:w], out[:w], v, z)
		copy(d[y*w:(y+1)*w], out[:w])
	}
	return d
}

// edt1 is the one-dimensional transform of f into out.
func edt1(f, out []float64, v []int, z []float64) {
	n := len(f)
	k := 0
	v[0] = 0
	z[0], z[1] = math.Inf(-1), math.Inf(1)
	for q := 1; q < n; q++ {
		s := ((f[q] + float64(q*q)) - (f[v[k]] + float64(v[k]*v[k]))) / float64(2*q-2*v[k])
		for s <= z[k] {
			k--
			s = ((f[q] + float64(q*q)) - (f[v[k]] + float64(v[k]*v[k]))) / float64(2*q-2*v[k])
		}
		k++
		v[k] = q
		z[k], z[k+1] = s, math.Inf(1)
	}
	k = 0
	for q := 0; q < n; q++ {
		for z[k+1] < float64(q) {
			k++
		}
		dq := float64(q - v[k])
		out[q] = dq*dq + f[v[k]]
	}
}
