package soap

import (
	"bytes"
	"encoding/base64"
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"go.yaml.in/yaml/v3"

	"github.com/geosvc/geosvc/geo/cartography"
)

var updateLegends = flag.Bool("update-legends", false, "rewrite configs/legends/default.yaml from cartography.Default()")

// legendYAML writes a style as a legend file.
func legendYAML(t *testing.T, st *cartography.Style) []byte {
	t.Helper()
	var doc legendFileDoc
	col := func(p cartography.Paint) *fileColor {
		if p.Color.A == 0 {
			return nil
		}
		return &fileColor{Color: hexColor(p.Color), Width: p.Width}
	}
	txt := func(it cartography.Item) *fileText {
		if it.Text.Size == 0 {
			return nil
		}
		ft := &fileText{Color: hexColor(it.Text.Color), Size: it.Text.Size, Bold: it.Text.Bold, Italic: it.Text.Italic}
		if it.Text.Background.A > 0 {
			ft.BackgroundColor = hexColor(it.Text.Background)
		}
		return ft
	}
	for _, n := range cartography.BackgroundTypes {
		it := st.Background[n]
		doc.Background = append(doc.Background, struct {
			Name          string     `yaml:"name"`
			Inner, Border *fileColor `yaml:",omitempty"`
		}{n, col(it.Inner), col(it.Border)})
	}
	for _, n := range cartography.RoadTypes {
		it := st.Road[n]
		doc.Road = append(doc.Road, struct {
			Name          string     `yaml:"name"`
			Inner, Border *fileColor `yaml:",omitempty"`
			Text          *fileText  `yaml:"text"`
		}{n, col(it.Inner), col(it.Border), txt(it)})
	}
	for _, n := range cartography.LabelTypes {
		doc.Label = append(doc.Label, struct {
			Name string    `yaml:"name"`
			Text *fileText `yaml:"text"`
		}{n, txt(st.Label[n])})
	}
	b, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	head := "# The default map legend (docs/soap.md, \"Legend files\"): every item of\n" +
		"# cartography.Default(). Regenerate: go test ./soap -run TestDefaultLegendFile -update-legends\n"
	return append([]byte(head), b...)
}

// TestDefaultLegendFile: the shipped default legend is the default style,
// item for item: applied to a style with every colour, width and text
// blanked, it gives back cartography.Default().
func TestDefaultLegendFile(t *testing.T) {
	path := filepath.Join("..", "configs", "legends", "default.yaml")
	if *updateLegends {
		if err := os.WriteFile(path, legendYAML(t, cartography.Default()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := New(Options{})
	l, err := s.legendFile("default")
	if err != nil {
		t.Fatal(err)
	}
	blank := cartography.Default()
	for _, m := range []map[string]cartography.Item{blank.Background, blank.Road, blank.Label} {
		for n, it := range m {
			m[n] = cartography.Item{Hatch: it.Hatch, Text: it.Text}
			it2 := m[n]
			it2.Text.Color, it2.Text.Size, it2.Text.Bold, it2.Text.Italic = color.RGBA{}, 0, false, false
			m[n] = it2
		}
	}
	if err := applyLegend(blank, l, true); err != nil {
		t.Fatal(err)
	}
	if want := cartography.Default(); !reflect.DeepEqual(blank, want) {
		for n, it := range want.Road {
			if !reflect.DeepEqual(blank.Road[n], it) {
				t.Errorf("road %s: %+v, want %+v", n, blank.Road[n], it)
			}
		}
		for n, it := range want.Background {
			if !reflect.DeepEqual(blank.Background[n], it) {
				t.Errorf("background %s: %+v, want %+v", n, blank.Background[n], it)
			}
		}
		for n, it := range want.Label {
			if !reflect.DeepEqual(blank.Label[n], it) {
				t.Errorf("label %s: %+v, want %+v", n, blank.Label[n], it)
			}
		}
		t.Errorf("default.yaml is not cartography.Default() (regenerate with -update-legends)")
	}
}

func TestLegendFileNames(t *testing.T) {
	s := New(Options{Legends: fstest.MapFS{
		"night.yaml":       {Data: []byte("background:\n  - name: Land\n    inner: {color: \"#202020\"}\n")},
		"broken.yaml":      {Data: []byte("background:\n  - name: Land\n    colour: red\n")},
		"sub/inner.yaml":   {Data: []byte("background: []\n")},
		"badname.yaml":     {Data: []byte("label:\n  - name: Metropolis\n    text: {size: 12}\n")},
		"../escape.yaml":   {Data: []byte("background: []\n")},
		"passwd":           {Data: []byte("root:x:0:0\n")},
		"night.yaml.extra": {Data: []byte("x")},
	}})
	for _, tc := range []struct {
		name, fault string
	}{
		{"night", ""},
		{"../escape", "not a legend name"},
		{"sub/inner", "not a legend name"},
		{"..", "not a legend name"},
		{"/etc/passwd", "not a legend name"},
		{"night.yaml", "not a legend name"},
		{"passwd", "no such legend"},
		{"nope", "no such legend"},
		{"broken", ""}, // an unreadable file is the server's error, not the request's
		{"badname", "Metropolis"},
	} {
		_, err := s.mapStyle(false, tc.name, nil)
		switch {
		case tc.name == "broken":
			if err == nil || strings.Contains(err.Error(), "not a legend") {
				t.Errorf("%s: %v, want a file error", tc.name, err)
			}
		case tc.fault == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.fault != "" && (err == nil || !strings.Contains(err.Error(), tc.fault)):
			t.Errorf("%s: %v, want a fault about %q", tc.name, err, tc.fault)
		}
	}
	st, _ := s.mapStyle(false, "night", nil)
	if st.Background["Land"].Inner.Color != (color.RGBA{0x20, 0x20, 0x20, 255}) {
		t.Errorf("night's Land is %v", st.Background["Land"].Inner.Color)
	}
}

// TestLegendOverrides: a Map request's Legend changes how roads and
// labels are drawn, and the legend answered says so.
func TestLegendOverrides(t *testing.T) {
	f := newFixture(t, false)
	g := tinyGraph(t)
	f.setGraph(g)
	first := mapResult(t, f.post("text/xml", envelope11(mapBody("MapSimple", f.key, map[string]string{"WantImageData": "false"}, ""))).Body.Bytes(), "MapSimple")
	if first.RoadLegend == nil || len(first.RoadLegend.Items) == 0 {
		t.Fatalf("no road legend: %+v", first)
	}
	rt := first.RoadLegend.Items[0].Name
	legend := `<Legend><BackgroundLegend><BackgroundLegendItem><Name>Land</Name><Inner Color="#102030"/><Border xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/></BackgroundLegendItem></BackgroundLegend>` +
		`<RoadLegend><RoadLegendItem><Name>` + rt + `</Name><Inner Color="#00FF00" Width="9"/><Border Color="#0000FF" Width="2"/></RoadLegendItem></RoadLegend>` +
		`<LabelLegend><LabelLegendItem><Name>City1K</Name><Text Color="#FF0000" Size="20" Bold="true" Italic="true"/></LabelLegendItem></LabelLegend></Legend>`
	rec := f.post("text/xml", envelope11(mapBody("Map", f.key, nil, legend)))
	if code, reason := faultOf(t, rec.Body.String()); code != "" {
		t.Fatalf("fault %s %s", code, reason)
	}
	md := mapResult(t, rec.Body.Bytes(), "Map")
	raw, _ := base64.StdEncoding.DecodeString(md.ImageData)
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	count := func(c color.RGBA) int {
		n := 0
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if color.RGBAModel.Convert(img.At(x, y)).(color.RGBA) == c {
					n++
				}
			}
		}
		return n
	}
	if n := count(color.RGBA{0x10, 0x20, 0x30, 255}); n < 200*100/4 {
		t.Errorf("%d land pixels of the legend's colour", n)
	}
	if n := count(color.RGBA{0, 255, 0, 255}); n < 200*4 {
		t.Errorf("%d road pixels of the legend's colour (a 9 px road across most of 200 px)", n)
	}
	if n := count(color.RGBA{0, 0, 255, 255}); n < 100 {
		t.Errorf("%d casing pixels of the legend's colour", n)
	}
	if n := count(color.RGBA{255, 0, 0, 255}); n < 30 {
		t.Errorf("%d label pixels of the legend's colour", n)
	}
	var road *roadLegendItem
	for i := range md.RoadLegend.Items {
		if md.RoadLegend.Items[i].Name == rt {
			road = &md.RoadLegend.Items[i]
		}
	}
	if road == nil || road.Inner.Color != "#00FF00" || road.Inner.Width != "9" || road.Border == nil || road.Border.Color != "#0000FF" {
		t.Errorf("road legend %+v", road)
	}
	for _, it := range md.LabelLegend.Items {
		if it.Name == "City1K" && (it.Text.Color != "#FF0000" || it.Text.Size != "20" || it.Text.Bold == nil || !*it.Text.Bold || !*it.Text.Italic) {
			t.Errorf("label legend %+v", it.Text)
		}
	}
	// Bad legends are the sender's fault, naming the item.
	for legend, want := range map[string]string{
		`<Legend><RoadLegend><RoadLegendItem><Name>Autobahn</Name></RoadLegendItem></RoadLegend></Legend>`:                                          "Autobahn",
		`<Legend><RoadLegend><RoadLegendItem><Name>Motorway</Name><Inner Color="pink"/></RoadLegendItem></RoadLegend></Legend>`:                     "Motorway Inner",
		`<Legend><LabelLegend><LabelLegendItem><Name>City1K</Name><Text Size="500"/></LabelLegendItem></LabelLegend></Legend>`:                      "Size",
		`<Legend><BackgroundLegend><BackgroundLegendItem><Name>Water</Name><Border Width="-1"/></BackgroundLegendItem></BackgroundLegend></Legend>`: "Water Border",
	} {
		rec := f.post("text/xml", envelope11(mapBody("Map", f.key, nil, legend)))
		if code, reason := faultOf(t, rec.Body.String()); code != "soap:Client" || !strings.Contains(reason, want) {
			t.Errorf("%s: fault %q %q, want one naming %s", legend, code, reason, want)
		}
	}
	_ = image.Rect
}

// FuzzLegendFile: any legend file either fails to parse or gives a legend
// that applies to the default style without a panic, its errors naming
// an item.
func FuzzLegendFile(f *testing.F) {
	f.Add([]byte("background:\n  - name: Land\n    inner: {color: \"#202020\"}\n"))
	f.Add([]byte("road:\n  - name: Motorway\n    inner: {color: \"#E892A2\", width: 5}\n    text: {size: 11, bold: true}\n"))
	f.Add([]byte("label:\n  - name: Capital\n    text: {color: \"#222222\", size: 16, background_color: \"#FFFFFF\"}\n"))
	f.Add([]byte("label: [{name: City1K, text: {size: 500}}]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := parseLegendFile(b)
		if err != nil {
			return
		}
		for _, colors := range []bool{true, false} {
			st := cartography.Default()
			if err := applyLegend(st, l, colors); err != nil && !strings.Contains(err.Error(), "LegendItem") {
				t.Fatalf("error %q names no item", err)
			}
		}
	})
}

// TestLegendOutMapBackgroundTypes: the answer's BackgroundLegend lists
// only values of the WSDL's MapBackgroundType (so that it validates),
// in the order drawn: railway lines, drawn and in the image's legend,
// have no such value and are left out.
func TestLegendOutMapBackgroundTypes(t *testing.T) {
	wsdl, err := os.ReadFile("location.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<s:simpleType name="MapBackgroundType">(.*?)</s:simpleType>`).FindSubmatch(wsdl)
	if m == nil {
		t.Fatal("no MapBackgroundType in location.wsdl")
	}
	var enum []string
	for _, v := range regexp.MustCompile(`value="([^"]+)"`).FindAllSubmatch(m[1], -1) {
		enum = append(enum, string(v[1]))
	}
	if !slices.Equal(enum, mapBackgroundTypes) {
		t.Errorf("WSDL MapBackgroundType %v, the code's %v", enum, mapBackgroundTypes)
	}
	d := cartography.Drawn{Background: []string{"Land", "Water", "Railway", "Park", "Province"}}
	bg, _, _ := legendOut(cartography.Default(), d)
	var got []string
	for _, it := range bg.Items {
		got = append(got, it.Name)
	}
	if want := []string{"Land", "Water", "Park", "Province"}; !slices.Equal(got, want) {
		t.Errorf("BackgroundLegend %v, want %v", got, want)
	}
}
