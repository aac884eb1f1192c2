package glyphs

import (
	"bytes"
	"testing"

	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
)

// TestGlyphH: the Go Regular "H" at 24 px: a bitmap of its size plus the
// border, the field over the cutoff (191) inside its left stem and under
// it in the gap between the stems and around the glyph, the metrics of
// the outline (above the baseline, less the ascent), and code points the
// font lacks left out.
func TestGlyphH(t *testing.T) {
	f, err := sfnt.Parse(goregular.TTF)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := glyphsOf(f, 'H', 'H')
	if err != nil || len(gs) != 1 {
		t.Fatalf("%v %v", gs, err)
	}
	g := gs[0]
	w, h := g.Width+2*Border, g.Height+2*Border
	if len(g.Bitmap) != w*h || g.Width < 12 || g.Width > 18 || g.Height < 16 || g.Height > 19 || g.Advance < 15 || g.Advance > 20 {
		t.Fatalf("H: %dx%d, %d bytes, advance %d", g.Width, g.Height, len(g.Bitmap), g.Advance)
	}
	// Top: the cap height (about 17 px) less the ascent (about 22 px).
	if g.Top > -2 || g.Top < -9 || g.Left < 0 || g.Left > 3 {
		t.Errorf("H: left %d top %d", g.Left, g.Top)
	}
	at := func(x, y int) byte { return g.Bitmap[(y+Border)*w+x+Border] }
	mid := g.Height / 4 // above the crossbar
	if v := at(1, mid); v <= 191 {
		t.Errorf("H's left stem: %d, want over 191", v)
	}
	if v := at(g.Width/2, mid); v >= 191 {
		t.Errorf("between the stems: %d, want under 191", v)
	}
	if v := g.Bitmap[0]; v >= 100 {
		t.Errorf("the border's corner: %d, want far outside (small)", v)
	}
	if gs, _ := glyphsOf(f, 0xE000, 0xE0FF); len(gs) != 0 { // a private-use range
		t.Errorf("%d glyphs of the private-use area", len(gs))
	}
}

// TestRange: a range names its stack and range; unknown fonts are
// ErrNoFont; the first known font of a stack is used.
func TestRange(t *testing.T) {
	b, err := Range("Noto Sans,Go Bold", 0, 255, "0-255")
	if err != nil || !bytes.Contains(b, []byte("Noto Sans,Go Bold")) || !bytes.Contains(b, []byte("0-255")) {
		t.Fatalf("%d bytes, %v", len(b), err)
	}
	if _, err := Range("Noto Sans", 0, 255, "0-255"); err != ErrNoFont {
		t.Errorf("unknown font: %v", err)
	}
	if _, err := Range("Go Regular", 0, 256, "0-256"); err == nil {
		t.Errorf("257 code points: no error")
	}
}

// TestRangeCut: a range across two blocks holds the glyphs of both, as
// the aligned ranges do.
func TestRangeCut(t *testing.T) {
	whole, err := Range("Go Regular", 0, 255, "0-255")
	if err != nil {
		t.Fatal(err)
	}
	cut, err := Range("Go Regular", 250, 260, "250-260")
	if err != nil {
		t.Fatal(err)
	}
	if len(cut) == 0 || len(cut) >= len(whole) || !bytes.Contains(cut, []byte("250-260")) {
		t.Errorf("250-260: %d bytes, 0-255: %d", len(cut), len(whole))
	}
	// 'ÿ' (255) and 'Ą' (260) are both in the cut.
	f, _ := sfnt.Parse(goregular.TTF)
	a, _ := glyphsOf(f, 255, 255)
	b, _ := glyphsOf(f, 260, 260)
	if len(a) != 1 || len(b) != 1 || !bytes.Contains(cut, a[0].Bitmap) || !bytes.Contains(cut, b[0].Bitmap) {
		t.Errorf("the cut lacks U+00FF or U+0104")
	}
}
