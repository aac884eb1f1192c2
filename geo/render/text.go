package render

import (
	"fmt"
	"image"
	"image/color"
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
// italic), Size in pixels, a Halo (a one-pixel outline; alpha 0: none)
// and a Background box (alpha 0: none).
type TextStyle struct {
	Color        color.RGBA
	Size         float64
	Bold, Italic bool
	Halo         color.RGBA
	Background   color.RGBA
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
	if st.Halo.A > 0 {
		return r.Inset(-1), nil
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
	d := font.Drawer{Dst: c.Img, Face: f}
	if st.Halo.A > 0 && st.Background.A == 0 {
		d.Src = image.NewUniform(st.Halo)
		for _, o := range [][2]int{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}} {
			d.Dot = fixed.P(x+o[0], y+o[1])
			d.DrawString(s)
		}
	}
	d.Src = image.NewUniform(st.Color)
	d.Dot = fixed.P(x, y)
	d.DrawString(s)
	return box, nil
}
