package cartography

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/geosvc/geosvc/geo/render"
)

// Legend is the legend box drawn on a map (Request.Legend): its pixel
// box and one entry per item listed.
type Legend struct {
	Box   image.Rectangle
	Items []LegendItem
}

// LegendItem is one row of a drawn legend.
type LegendItem struct {
	// Kind is "Background", "Road" or "Label"; Name the item's
	// MapBackgroundType, MapRoadType or MapLabelType.
	Kind, Name string
	// Swatch is the pixel box of its sample: an area's fill (its
	// outline on the edge pixels), a line's or road's stroke (casing
	// above and below), a label type's "Aa" in its text style.
	Swatch image.Rectangle
	// text is where its name is written: the baseline's left end.
	text image.Point
}

// The legend's look: text size and colours, the box's opacity, its
// margin from the image's edges, padding, swatch size.
const (
	legendTextSize = 10
	// legendAlpha is the opacity of the legend box's white over the map
	// (the 1-bit style's box is opaque).
	legendAlpha  = 0.85
	legendMargin = 8
	legendPad    = 4
	legendSwatch = 18 // swatch width
	legendGap    = 5  // between swatch and name
	legendColGap = 10 // between two columns
)

var (
	// legendBorder is the colour of the legend box's outline (black in
	// the 1-bit style).
	legendBorder = color.RGBA{0x88, 0x88, 0x88, 255}
	legendText   = color.RGBA{0x22, 0x22, 0x22, 255}
)

// legendLine are the background types drawn as lines.
var legendLine = []string{"Railway", "Border", "Province"}

// drawnOf returns the names of a list drawn so far, in list order.
func (m *mapDraw) drawnOf(prefix string, names []string) []string {
	var out []string
	for _, n := range names {
		if m.drawn[prefix+n] {
			out = append(out, n)
		}
	}
	return out
}

// orderedLabels returns label types in LabelTypes order.
func orderedLabels(types []string) []string {
	var out []string
	for _, n := range LabelTypes {
		if slices.Contains(types, n) {
			out = append(out, n)
		}
	}
	return out
}

// legendName writes an item's name as words: "DualCarriageWayCity" is
// "Dual Carriage Way City", "City500K" "City 500K".
func legendName(n string) string {
	var b strings.Builder
	rs := []rune(n)
	for i, r := range rs {
		if i > 0 && (unicode.IsUpper(r) && !unicode.IsDigit(rs[i-1]) && !unicode.IsUpper(rs[i-1]) ||
			unicode.IsDigit(r) && !unicode.IsDigit(rs[i-1])) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// legendTextStyle is the style of the legend's names.
func (m *mapDraw) legendTextStyle() render.TextStyle {
	st := render.TextStyle{Color: legendText, Size: legendTextSize}
	if m.st.Mono {
		st.Color = color.RGBA{0, 0, 0, 255}
	}
	return st
}

// legendLayout lays out a legend listing the items at the map's top
// right corner (the scale bar is at the lower left). It returns nil when
// there is nothing to list or the box would be wider than half the image
// or taller than the image less its margins.
func (m *mapDraw) legendLayout(bg, road, label []string) (*Legend, error) {
	n := len(bg) + len(road) + len(label)
	if n == 0 {
		return nil, nil
	}
	ts := m.legendTextStyle()
	probe, err := m.c.TextBox("Ag", 0, 0, ts)
	if err != nil {
		return nil, err
	}
	rowH := probe.Dy() + 2
	textW := 0
	for _, l := range [][]string{bg, road, label} {
		for _, name := range l {
			b, err := m.c.TextBox(legendName(name), 0, 0, ts)
			if err != nil {
				return nil, err
			}
			textW = max(textW, b.Dx())
		}
	}
	// As many rows a column as the image's height holds, in as few
	// columns as that takes, the rows shared evenly between them.
	colW := legendSwatch + legendGap + textW
	W, H := m.c.View.W, m.c.View.H
	perCol := (H - 2*legendMargin - 2*legendPad) / rowH
	if perCol < 1 {
		return nil, nil
	}
	cols := (n + perCol - 1) / perCol
	rows := (n + cols - 1) / cols
	w := 2*legendPad + cols*colW + (cols-1)*legendColGap
	h := 2*legendPad + rows*rowH
	if w > W/2 || h > H-2*legendMargin {
		return nil, nil
	}
	box := image.Rect(W-legendMargin-w, legendMargin, W-legendMargin, legendMargin+h)
	lg := &Legend{Box: box}
	k := 0
	for _, l := range []struct {
		kind  string
		names []string
	}{{"Background", bg}, {"Road", road}, {"Label", label}} {
		for _, name := range l.names {
			x := box.Min.X + legendPad + k/rows*(colW+legendColGap)
			y := box.Min.Y + legendPad + k%rows*rowH
			row := image.Rect(x, y, x+legendSwatch, y+rowH)
			// The name's baseline: one pixel under the row's top, plus
			// the text's ascent.
			lg.Items = append(lg.Items, LegendItem{Kind: l.kind, Name: name, Swatch: m.swatchBox(l.kind, name, row),
				text: image.Pt(x+legendSwatch+legendGap, y+1-probe.Min.Y)})
			k++
		}
	}
	return lg, nil
}

// swatchBox is the box of an item's swatch in its row's swatch column.
func (m *mapDraw) swatchBox(kind, name string, row image.Rectangle) image.Rectangle {
	cy := (row.Min.Y + row.Max.Y) / 2
	line := func(w int) image.Rectangle {
		return image.Rect(row.Min.X, cy-w/2, row.Max.X, cy-w/2+w)
	}
	switch {
	case kind == "Background" && slices.Contains(legendLine, name):
		return line(legendWidth(m.st.Background[name].Inner.Width, row.Dy()-2))
	case kind == "Background":
		return image.Rect(row.Min.X, row.Min.Y+2, row.Max.X, row.Max.Y-2)
	case kind == "Road":
		w, b := m.roadSwatch(m.st.Road[name], row.Dy()-2)
		return line(w + 2*b)
	case name == "ScaleBar":
		return image.Rect(row.Min.X, cy-2, row.Max.X, cy+2)
	default:
		return row
	}
}

// legendWidth rounds a stroke width to whole pixels, 1 to most.
func legendWidth(w float64, most int) int {
	return min(max(int(math.Round(w)), 1), most)
}

// roadSwatch returns the widths in pixels of a road swatch's fill and of
// its casing on each side (0: none), together at most most pixels.
func (m *mapDraw) roadSwatch(it Item, most int) (fill, casing int) {
	fill = legendWidth(it.Inner.Width, most)
	if it.Border.Color.A == 0 || it.Border.Width <= 0 || fill < 2 {
		return fill, 0
	}
	fill = min(fill, most-2)
	return fill, max(min(int(math.Round(it.Border.Width)), (most-fill)/2), 1)
}

// drawLegend draws the legend box of the items drawn (in the corner
// reserved for it before the labels were placed) and returns it.
func (m *mapDraw) drawLegend(bg, road, label []string) (*Legend, error) {
	lg, err := m.legendLayout(bg, road, label)
	if err != nil || lg == nil {
		return nil, err
	}
	white := color.RGBA{255, 255, 255, 255}
	border := legendBorder
	if m.st.Mono {
		m.c.Rect(lg.Box, white)
		border = color.RGBA{0, 0, 0, 255}
	} else {
		blendWhite(m.c.Img, lg.Box, legendAlpha)
	}
	b := lg.Box
	for _, r := range []image.Rectangle{{b.Min, image.Pt(b.Max.X, b.Min.Y+1)}, {image.Pt(b.Min.X, b.Max.Y-1), b.Max},
		{b.Min, image.Pt(b.Min.X+1, b.Max.Y)}, {image.Pt(b.Max.X-1, b.Min.Y), b.Max}} {
		m.c.Rect(r, border)
	}
	ts := m.legendTextStyle()
	for _, it := range lg.Items {
		if err := m.swatch(it, border); err != nil {
			return nil, err
		}
		if _, err := m.c.Text(legendName(it.Name), it.text.X, it.text.Y, ts); err != nil {
			return nil, err
		}
	}
	return lg, nil
}

// swatch draws an item's sample in its box.
func (m *mapDraw) swatch(it LegendItem, outline color.RGBA) error {
	s := it.Swatch
	switch it.Kind {
	case "Background":
		item := m.st.Background[it.Name]
		if slices.Contains(legendLine, it.Name) {
			m.c.Rect(s, item.Inner.Color)
			return nil
		}
		if item.Hatch > 0 {
			m.c.Rect(s, color.RGBA{255, 255, 255, 255})
			draw.Draw(m.c.Img, s, render.Hatch{Ink: item.Inner.Color, Every: item.Hatch}, image.Point{}, draw.Over)
		} else {
			m.c.Rect(s, item.Inner.Color)
		}
		edge := item.Border.Color
		if item.Border.Width <= 0 || edge.A == 0 {
			edge = outline
		}
		for _, r := range []image.Rectangle{{s.Min, image.Pt(s.Max.X, s.Min.Y+1)}, {image.Pt(s.Min.X, s.Max.Y-1), s.Max},
			{s.Min, image.Pt(s.Min.X+1, s.Max.Y)}, {image.Pt(s.Max.X-1, s.Min.Y), s.Max}} {
			m.c.Rect(r, edge)
		}
	case "Road":
		item := m.st.Road[it.Name]
		if _, b := m.roadSwatch(item, s.Dy()); b > 0 && s.Dy() > 2*b {
			m.c.Rect(s, item.Border.Color)
			s = image.Rect(s.Min.X, s.Min.Y+b, s.Max.X, s.Max.Y-b)
		}
		m.c.Rect(s, item.Inner.Color)
	default:
		st := m.st.Label[it.Name].Text
		if it.Name == "ScaleBar" {
			m.c.Rect(image.Rect(s.Min.X, s.Min.Y+1, s.Max.X, s.Min.Y+3), st.Color)
			m.c.Rect(image.Rect(s.Min.X, s.Min.Y, s.Min.X+1, s.Max.Y), st.Color)
			m.c.Rect(image.Rect(s.Max.X-1, s.Min.Y, s.Max.X, s.Max.Y), st.Color)
			return nil
		}
		st.Size, st.Halo = legendTextSize+1, color.RGBA{}
		b, err := m.c.TextBox("Aa", 0, 0, st)
		if err != nil {
			return err
		}
		_, err = m.c.Text("Aa", s.Min.X+(s.Dx()-b.Dx())/2-b.Min.X, s.Min.Y+(s.Dy()-b.Dy())/2-b.Min.Y, st)
		return err
	}
	return nil
}

// blendWhite lays white of opacity a over the pixels of r.
func blendWhite(img *image.RGBA, r image.Rectangle, a float64) {
	r = r.Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			i := img.PixOffset(x, y)
			for k := 0; k < 3; k++ {
				img.Pix[i+k] = uint8(math.Round(255*a + float64(img.Pix[i+k])*(1-a)))
			}
		}
	}
}
