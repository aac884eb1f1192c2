package soap

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/geosvc/geosvc/configs"
	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/geo/render"
)

// mapStyle returns the style of a map request: the colour style (the
// 1-bit style for Wbmp), changed by the legend file the request names,
// then by its Legend. In a Wbmp map only widths, sizes, bold and italic
// of a legend apply; its colours do not (the image has two).
func (s *Service) mapStyle(mono bool, legendFile string, l *legend) (*cartography.Style, error) {
	var st *cartography.Style
	if mono {
		st = cartography.Mono()
	} else {
		st = cartography.Default()
	}
	if name := strings.TrimSpace(legendFile); name != "" {
		fl, err := s.legendFile(name)
		if err != nil {
			return nil, err
		}
		if err := applyLegend(st, fl, !mono); err != nil {
			return nil, senderFault("LegendFile %q: %s", name, err.Error())
		}
	}
	if l != nil {
		if err := applyLegend(st, l, !mono); err != nil {
			return nil, senderFault("Legend: %s", err.Error())
		}
	}
	return st, nil
}

// legendName is what a LegendFile may be: a file name without a path.
var legendName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// legends returns the server's legend files: Options.Legends, else the
// ones shipped in configs/legends.
func (s *Service) legends() fs.FS {
	if s.opts.Legends != nil {
		return s.opts.Legends
	}
	sub, err := fs.Sub(configs.LegendsFS, "legends")
	if err != nil {
		panic(err) // the embedded folder exists
	}
	return sub
}

// legendFile reads the legend NAME.yaml of the server's legends; a name
// with a path, a dot or another character than letters, digits, - and _
// is refused before any file is opened.
func (s *Service) legendFile(name string) (*legend, error) {
	if !legendName.MatchString(name) {
		return nil, senderFault("LegendFile %q is not a legend name (letters, digits, - and _, without .yaml)", name)
	}
	b, err := fs.ReadFile(s.legends(), name+".yaml")
	if errors.Is(err, fs.ErrNotExist) {
		var names []string
		entries, _ := fs.ReadDir(s.legends(), ".")
		for _, e := range entries {
			if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
				names = append(names, n)
			}
		}
		return nil, senderFault("LegendFile %q: no such legend on this server (it has %s)", name, strings.Join(names, ", "))
	}
	if err != nil {
		return nil, err
	}
	l, err := parseLegendFile(b)
	if err != nil {
		return nil, fmt.Errorf("legend file %s.yaml: %w", name, err)
	}
	return l, nil
}

// legendFileDoc is a legend file (docs/soap.md, "Legend files"): the
// items of a SOAP Legend in YAML.
type legendFileDoc struct {
	Background []struct {
		Name          string     `yaml:"name"`
		Inner, Border *fileColor `yaml:",omitempty"`
	} `yaml:"background"`
	Road []struct {
		Name          string     `yaml:"name"`
		Inner, Border *fileColor `yaml:",omitempty"`
		Text          *fileText  `yaml:"text"`
	} `yaml:"road"`
	Label []struct {
		Name string    `yaml:"name"`
		Text *fileText `yaml:"text"`
	} `yaml:"label"`
}

type fileColor struct {
	Color string  `yaml:"color"`
	Width float64 `yaml:"width,omitempty"`
}

type fileText struct {
	Color           string  `yaml:"color"`
	Size            float64 `yaml:"size"`
	Bold            bool    `yaml:"bold"`
	Italic          bool    `yaml:"italic"`
	BackgroundColor string  `yaml:"background_color"`
}

// parseLegendFile reads a legend file into a Legend (unknown keys are
// errors).
func parseLegendFile(b []byte) (*legend, error) {
	var doc legendFileDoc
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	col := func(c *fileColor) *legendColor {
		if c == nil {
			return nil
		}
		lc := &legendColor{Color: c.Color}
		if c.Width != 0 {
			lc.Width = strconv.FormatFloat(c.Width, 'f', -1, 64)
		}
		return lc
	}
	txt := func(t *fileText) *legendText {
		if t == nil {
			return nil
		}
		lt := &legendText{Color: t.Color, Bold: &t.Bold, Italic: &t.Italic, BackgroundColor: t.BackgroundColor}
		if t.Size != 0 {
			lt.Size = strconv.FormatFloat(t.Size, 'f', -1, 64)
		}
		return lt
	}
	l := &legend{Background: &backgroundLegend{}, Road: &roadLegend{}, Label: &labelLegend{}}
	for _, it := range doc.Background {
		l.Background.Items = append(l.Background.Items, backgroundLegendItem{Name: it.Name, Inner: col(it.Inner), Border: col(it.Border)})
	}
	for _, it := range doc.Road {
		l.Road.Items = append(l.Road.Items, roadLegendItem{Name: it.Name, Inner: col(it.Inner), Border: col(it.Border), Text: txt(it.Text)})
	}
	for _, it := range doc.Label {
		l.Label.Items = append(l.Label.Items, labelLegendItem{Name: it.Name, Text: txt(it.Text)})
	}
	return l, nil
}

// mapBackgroundTypes are the values of the specification's (and the
// WSDL's) MapBackgroundType.
var mapBackgroundTypes = []string{"Land", "Buildings", "Water", "RailroadArea", "Park", "Border", "Province", "Woodland", "Moor", "Sand", "Industry", "Community"}

// applyLegend changes st by a legend's items: a background's Inner
// (colour; width for the Railway, Border and Province lines) and Border
// (outline colour and width); a road's Inner (colour, width), Border
// (casing colour and width) and Text; a label's Text (Color, Size, Bold,
// Italic, BackgroundColor). Colours apply only when colors is set. Other
// elements and attributes are read and ignored.
func applyLegend(st *cartography.Style, l *legend, colors bool) error {
	if l.Background != nil {
		for i, it := range l.Background.Items {
			cur, ok := st.Background[it.Name]
			if !ok {
				return fmt.Errorf("BackgroundLegendItem %d: Name %q is not a MapBackgroundType", i+1, it.Name)
			}
			var err error
			if cur.Inner, err = applyColor(cur.Inner, it.Inner, colors); err != nil {
				return fmt.Errorf("BackgroundLegendItem %s Inner: %w", it.Name, err)
			}
			if cur.Border, err = applyColor(cur.Border, it.Border, colors); err != nil {
				return fmt.Errorf("BackgroundLegendItem %s Border: %w", it.Name, err)
			}
			st.Background[it.Name] = cur
		}
	}
	if l.Road != nil {
		for i, it := range l.Road.Items {
			cur, ok := st.Road[it.Name]
			if !ok {
				return fmt.Errorf("RoadLegendItem %d: Name %q is not a MapRoadType", i+1, it.Name)
			}
			var err error
			if cur.Inner, err = applyColor(cur.Inner, it.Inner, colors); err != nil {
				return fmt.Errorf("RoadLegendItem %s Inner: %w", it.Name, err)
			}
			if cur.Border, err = applyColor(cur.Border, it.Border, colors); err != nil {
				return fmt.Errorf("RoadLegendItem %s Border: %w", it.Name, err)
			}
			if cur.Text, err = applyText(cur.Text, it.Text, colors); err != nil {
				return fmt.Errorf("RoadLegendItem %s Text: %w", it.Name, err)
			}
			st.Road[it.Name] = cur
		}
	}
	if l.Label != nil {
		for i, it := range l.Label.Items {
			cur, ok := st.Label[it.Name]
			if !ok {
				return fmt.Errorf("LabelLegendItem %d: Name %q is not a MapLabelType", i+1, it.Name)
			}
			var err error
			if cur.Text, err = applyText(cur.Text, it.Text, colors); err != nil {
				return fmt.Errorf("LabelLegendItem %s Text: %w", it.Name, err)
			}
			st.Label[it.Name] = cur
		}
	}
	return nil
}

// maxLegendWidth bounds a legend's widths in pixels.
const maxLegendWidth = 40

func applyColor(cur cartography.Paint, c *legendColor, colors bool) (cartography.Paint, error) {
	if c == nil || c.isNil() {
		return cur, nil
	}
	if v := strings.TrimSpace(c.Color); v != "" && colors {
		col, err := parseHexColor(v)
		if err != nil {
			return cur, err
		}
		cur.Color = col
	}
	if v := strings.TrimSpace(c.Width); v != "" {
		w, err := strconv.ParseFloat(v, 64)
		if err != nil || w < 0 || w > maxLegendWidth {
			return cur, fmt.Errorf("attribute Width %q is not a number of pixels 0 to %d", v, maxLegendWidth)
		}
		cur.Width = w
	}
	return cur, nil
}

func applyText(cur render.TextStyle, t *legendText, colors bool) (render.TextStyle, error) {
	if t == nil || t.isNil() {
		return cur, nil
	}
	if v := strings.TrimSpace(t.Color); v != "" && colors {
		col, err := parseHexColor(v)
		if err != nil {
			return cur, err
		}
		cur.Color = col
	}
	if v := strings.TrimSpace(t.Size); v != "" {
		sz, err := strconv.ParseFloat(v, 64)
		if err != nil || sz < 4 || sz > 72 {
			return cur, fmt.Errorf("attribute Size %q is not a text size of 4 to 72 pixels", v)
		}
		cur.Size = sz
	}
	if t.Bold != nil {
		cur.Bold = *t.Bold
	}
	if t.Italic != nil {
		cur.Italic = *t.Italic
	}
	if v := strings.TrimSpace(t.BackgroundColor); v != "" && colors {
		col, err := parseHexColor(v)
		if err != nil {
			return cur, fmt.Errorf("BackgroundColor: %w", err)
		}
		cur.Background = col
	}
	return cur, nil
}

// parseHexColor reads "#RRGGBB" (the # optional).
func parseHexColor(s string) (color.RGBA, error) {
	h := strings.TrimPrefix(strings.TrimSpace(s), "#")
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil || len(h) != 6 {
		return color.RGBA{}, fmt.Errorf("attribute Color %q is not #RRGGBB", s)
	}
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}, nil
}

func hexColor(c color.RGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }

func widthText(w float64) string { return strconv.FormatFloat(w, 'f', -1, 64) }

// colorOut is a paint as a LegendColor, nil when it is not drawn.
func colorOut(p cartography.Paint, withWidth bool) *legendColor {
	if p.Color.A == 0 {
		return nil
	}
	lc := &legendColor{Color: hexColor(p.Color)}
	if withWidth && p.Width > 0 {
		lc.Width = widthText(p.Width)
	}
	return lc
}

func textOut(t render.TextStyle) *legendText {
	if t.Color.A == 0 || t.Size <= 0 {
		return nil
	}
	bold, italic := t.Bold, t.Italic
	lt := &legendText{Color: hexColor(t.Color), Size: widthText(t.Size), Bold: &bold, Italic: &italic}
	if t.Background.A > 0 {
		lt.BackgroundColor = hexColor(t.Background)
	}
	return lt
}

// legendOut returns the legend of a drawn map: exactly the items drawn,
// as the style drew them; a road's Text when its names were written.
func legendOut(st *cartography.Style, d cartography.Drawn) (*backgroundLegend, *roadLegend, *labelLegend) {
	bg := &backgroundLegend{}
	lines := []string{"Railway", "Border", "Province"}
	for _, n := range d.Background {
		if !slices.Contains(mapBackgroundTypes, n) {
			// Railway lines are drawn (and in the image's legend), but
			// the specification's MapBackgroundType has no value for
			// them: the answer would not validate.
			continue
		}
		it := st.Background[n]
		item := backgroundLegendItem{Name: n, Inner: colorOut(it.Inner, slices.Contains(lines, n)), Border: colorOut(it.Border, true)}
		if item.Inner == nil {
			item.Inner = nilColor()
		}
		if item.Border == nil || it.Border.Width <= 0 {
			item.Border = nilColor()
		}
		bg.Items = append(bg.Items, item)
	}
	named := map[string]bool{}
	for _, p := range d.Placed {
		if rt, ok := strings.CutPrefix(p.Type, "road:"); ok {
			named[rt] = true
		}
	}
	rd := &roadLegend{}
	for _, n := range d.Road {
		it := st.Road[n]
		item := roadLegendItem{Name: n, Inner: colorOut(it.Inner, true)}
		if it.Border.Width > 0 {
			item.Border = colorOut(it.Border, true)
		}
		if named[n] {
			item.Text = textOut(it.Text)
		}
		rd.Items = append(rd.Items, item)
	}
	lb := &labelLegend{}
	for _, n := range d.Label {
		item := labelLegendItem{Name: n, Text: textOut(st.Label[n].Text)}
		if item.Text == nil {
			item.Text = nilText()
		}
		lb.Items = append(lb.Items, item)
	}
	return bg, rd, lb
}
