package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// TextStyle is how a text is written: the Go fonts (regular, bold,
// italic), Size in pixels, a Halo (an outline HaloWidth pixels thick, 0
// meaning 1; alpha 0: none) and a Background box (alpha 0: none).
type TextStyle struct {
	Color        color.RGBA
	Size         float64
	Bold, Italic bool
	Halo         color.RGBA
	HaloWidth    int
	Background   color.RGBA
}

// haloWidth is the halo's thickness in pixels: 0 without a halo.
func (st TextStyle) haloWidth() int {
	if st.Halo.A == 0 {
		return 0
	}
	return max(1, min(st.HaloWidth, 8))
}

// haloOffsets are the offsets a glyph's mask is stamped at to draw a halo
// of width w (a disc of radius w, the centre included when centre).
func haloOffsets(w int, centre bool) [][2]int {
	var out [][2]int
	for dy := -w; dy <= w; dy++ {
		for dx := -w; dx <= w; dx++ {
			if (dx != 0 || dy != 0 || centre) && dx*dx+dy*dy <= w*w+w {
				out = append(out, [2]int{dx, dy})
			}
		}
	}
	return out
}

// fonts are the parsed Go fonts by [bold][italic]; a parsed font is safe
// for concurrent use, its faces are not.
var fonts = sync.OnceValues(func() ([2][2]*opentype.Font, error) {
	var out [2][2]*opentype.Font
	for i, ttf := range [][]byte{goregular.TTF, goitalic.TTF, gobold.TTF, gobolditalic.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			return out, fmt.Errorf("render: font: %w", err)
		}
		out[i/2][i%2] = f
	}
	return out, nil
})

type faceKey struct {
	size         float64
	bold, italic bool
}

// face returns the canvas's face of a style (faces are made once per
// canvas, which one goroutine draws).
func (c *Canvas) face(st TextStyle) (font.Face, error) {
	k := faceKey{math.Max(4, math.Min(st.Size, 96)), st.Bold, st.Italic}
	if f, ok := c.faces[k]; ok {
		return f, nil
	}
	fs, err := fonts()
	if err != nil {
		return nil, err
	}
	b, i := 0, 0
	if k.bold {
		b = 1
	}
	if k.italic {
		i = 1
	}
	f, err := opentype.NewFace(fs[b][i], &opentype.FaceOptions{Size: k.size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	if c.faces == nil {
		c.faces = map[faceKey]font.Face{}
	}
	c.faces[k] = f
	return f, nil
}

// TextBox returns the pixel box text s takes when written with its
// baseline's left end at (x, y), its halo or background included.
func (c *Canvas) TextBox(s string, x, y int, st TextStyle) (image.Rectangle, error) {
	f, err := c.face(st)
	if err != nil {
		return image.Rectangle{}, err
	}
	m := f.Metrics()
	w := font.MeasureString(f, s).Ceil()
	r := image.Rect(x, y-m.Ascent.Ceil(), x+w, y+m.Descent.Ceil())
	if st.Background.A > 0 {
		return r.Inset(-2), nil
	}
	if hw := st.haloWidth(); hw > 0 {
		return r.Inset(-hw), nil
	}
	return r, nil
}

// Text writes s with its baseline's left end at (x, y) and returns its
// box (TextBox).
func (c *Canvas) Text(s string, x, y int, st TextStyle) (image.Rectangle, error) {
	box, err := c.TextBox(s, x, y, st)
	if err != nil {
		return box, err
	}
	f, _ := c.face(st)
	if st.Background.A > 0 {
		c.Rect(box, st.Background)
	}
	// Each glyph is rasterized once, then stamped at the halo's eight
	// offsets (under every glyph's ink) and once in the text's colour.
	type glyph struct {
		dr   image.Rectangle
		mask *image.Alpha
	}
	var gs []glyph
	dot := fixed.P(x, y)
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			dot.X += f.Kern(prev, r)
		}
		dr, mask, mp, adv, ok := f.Glyph(dot, r)
		if ok && !dr.Empty() {
			m := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
			draw.Draw(m, m.Bounds(), mask, mp, draw.Src)
			gs = append(gs, glyph{dr, m})
		}
		dot.X += adv
		prev = r
	}
	if st.Halo.A > 0 && st.Background.A == 0 {
		halo := image.NewUniform(st.Halo)
		for _, o := range haloOffsets(st.haloWidth(), false) {
			for _, g := range gs {
				draw.DrawMask(c.Img, g.dr.Add(image.Pt(o[0], o[1])), halo, image.Point{}, g.mask, image.Point{}, draw.Over)
			}
		}
	}
	ink := image.NewUniform(st.Color)
	for _, g := range gs {
		draw.DrawMask(c.Img, g.dr, ink, image.Point{}, g.mask, image.Point{}, draw.Over)
	}
	return box, nil
}
