package cartography

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/mapdata"
	"github.com/geosvc/geosvc/geo/render"
)

// tileOf returns the XYZ tile holding p at zoom z and p's pixel in it,
// by the web-mercator formulas written out here (the asinh form, not the
// renderer's log-tan one).
func tileOf(p orb.Point, z int) (tx, ty, px, py int) {
	n := math.Exp2(float64(z))
	fx := (p[0] + 180) / 360 * n
	lat := p[1] * math.Pi / 180
	fy := (1 - math.Asinh(math.Tan(lat))/math.Pi) / 2 * n
	tx, ty = int(math.Floor(fx)), int(math.Floor(fy))
	return tx, ty, int(math.Floor((fx - float64(tx)) * TileSize)), int(math.Floor((fy - float64(ty)) * TileSize))
}

// box is a lon/lat rectangle polygon.
func box(x0, y0, x1, y1 float64) orb.Polygon {
	return orb.Polygon{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}}}
}

// doverSources are hand-made features around Dover, Delaware: a motorway
// running east-west at 39.1500, a water body (a stand-in for Silver
// Lake) with an island, a park, and the town.
func doverSources() Sources {
	water := box(-75.5300, 39.1600, -75.5200, 39.1700)
	water = append(water, box(-75.5260, 39.1640, -75.5240, 39.1660)[0]) // an island
	// Delaware Bay off Bowers Beach: the sea as the map layer's coastline
	// assembly gives it (here by hand), with a strip of shore land.
	bay := orb.Polygon{{{-75.4050, 39.0000}, {-75.2000, 39.0000}, {-75.2000, 39.1200}, {-75.4050, 39.1200}, {-75.4050, 39.0000}}}
	shore := box(-75.4300, 39.0000, -75.4050, 39.1200)
	layer := mapdata.New(
		[]mapdata.Area{{Class: mapdata.Land, Polygon: shore}, {Class: mapdata.Water, Polygon: bay}, {Class: mapdata.Water, Polygon: water}, {Class: mapdata.Park, Polygon: box(-75.5100, 39.1600, -75.5000, 39.1700)}},
		[]mapdata.Line{{Class: mapdata.Railway, Line: orb.LineString{{-75.56, 39.17}, {-75.48, 39.17}}}},
		[]mapdata.Place{
			{Name: "Dover", Kind: mapdata.City, Population: 39403, Capital: true, Point: orb.Point{-75.5244, 39.1582}},
			{Name: "Camden", Kind: mapdata.Town, Population: 3464, Point: orb.Point{-75.5430, 39.1134}},
			{Name: "Wyoming", Kind: mapdata.Town, Population: 1680, Point: orb.Point{-75.5588, 39.1184}},
			{Name: "Rodney Village", Kind: mapdata.Village, Population: 1602, Point: orb.Point{-75.5382, 39.1307}},
			{Name: "Dover Base Housing", Kind: mapdata.Village, Population: 3394, Point: orb.Point{-75.4870, 39.1130}},
			{Name: "Kent Acres", Kind: mapdata.Suburb, Population: 1890, Point: orb.Point{-75.5150, 39.1300}},
		})
	roads := []Road{
		{Shape: []orb.Point{{-75.60, 39.1500}, {-75.45, 39.1500}}, Type: "Motorway", Name: "Korean War Veterans Memorial Highway"},
		{Shape: []orb.Point{{-75.5244, 39.10}, {-75.5244, 39.20}}, Type: "RegionalRoad", Name: "State Street"},
	}
	return Sources{
		Layer:  layer,
		Extent: orb.Bound{Min: orb.Point{-75.8, 38.4}, Max: orb.Point{-75.0, 39.9}},
		Roads: func(b orb.Bound, fn func(Road)) {
			for _, r := range roads {
				if orb.LineString(r.Shape).Bound().Intersects(b) {
					fn(r)
				}
			}
		},
	}
}

func TestTilePixels(t *testing.T) {
	st := Default()
	src := doverSources()
	cases := []struct {
		name string
		p    orb.Point
		z    int
		want color.RGBA
	}{
		{"motorway z14", orb.Point{-75.5400, 39.1500}, 14, st.Road["Motorway"].Inner.Color},
		{"motorway z16", orb.Point{-75.5700, 39.1500}, 16, st.Road["Motorway"].Inner.Color},
		{"water z15", orb.Point{-75.5290, 39.1690}, 15, st.Background["Water"].Inner.Color},
		{"island is land z16", orb.Point{-75.5250, 39.1650}, 16, st.Background["Land"].Inner.Color},
		{"park z15", orb.Point{-75.5030, 39.1620}, 15, st.Background["Park"].Inner.Color},
		{"land z15", orb.Point{-75.5700, 39.1300}, 15, st.Background["Land"].Inner.Color},
		{"ocean z10", orb.Point{-74.5000, 38.5000}, 10, st.Background["Water"].Inner.Color},
		{"Paris, outside the extract, z8", orb.Point{2.3500, 48.8600}, 8, st.Background["Land"].Inner.Color},
		{"mid-Atlantic z3", orb.Point{-40.0000, 35.0000}, 3, st.Background["Water"].Inner.Color},
		{"Delaware Bay z13", orb.Point{-75.3900, 39.0600}, 13, st.Background["Water"].Inner.Color},
		{"Delaware Bay z16", orb.Point{-75.4040, 39.0600}, 16, st.Background["Water"].Inner.Color},
		{"bay shore z16", orb.Point{-75.4060, 39.0600}, 16, st.Background["Land"].Inner.Color},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tx, ty, px, py := tileOf(tc.p, tc.z)
			b, err := Tile(src, tc.z, tx, ty, st)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if img.Bounds() != image.Rect(0, 0, TileSize, TileSize) {
				t.Fatalf("tile bounds %v", img.Bounds())
			}
			if got := color.RGBAModel.Convert(img.At(px, py)).(color.RGBA); got != tc.want {
				t.Errorf("tile %d/%d/%d pixel (%d, %d) of %v: %v, want %v", tc.z, tx, ty, px, py, tc.p, got, tc.want)
			}
		})
	}
	// A pixel 12 px north of the motorway is not road.
	tx, ty, px, py := tileOf(orb.Point{-75.5400, 39.1500}, 14)
	b, _ := Tile(src, 14, tx, ty, st)
	img, _ := png.Decode(bytes.NewReader(b))
	if got := color.RGBAModel.Convert(img.At(px, py-12)).(color.RGBA); got == st.Road["Motorway"].Inner.Color || got == st.Road["Motorway"].Border.Color {
		t.Errorf("pixel 12 px off the motorway is road-coloured %v", got)
	}
}

// doverMap draws a 600 x 400 map of Dover, 12 km wide.
func doverMap(t testing.TB, st *Style) (*render.Canvas, Drawn) {
	t.Helper()
	v := render.View{Center: orb.Point{-75.5244, 39.1400}, WidthM: 12000, HeightM: 8000, W: 600, H: 400}
	c, d, err := Draw(doverSources(), Request{View: v, Style: st, Labels: true, ScaleBar: true, Metric: true})
	if err != nil {
		t.Fatal(err)
	}
	return c, d
}

// near reports whether a pixel is the ink's colour or close to it (the
// anti-aliased glyph edges blend it with the background).
func near(p, ink color.RGBA) bool {
	d := func(a, b uint8) int { return max(int(a)-int(b), int(b)-int(a)) }
	return d(p.R, ink.R)+d(p.G, ink.G)+d(p.B, ink.B) < 120
}

func TestLabels(t *testing.T) {
	st := Default()
	c, d := doverMap(t, st)
	var dover *Placed
	for i := range d.Placed {
		p := &d.Placed[i]
		if p.Text == "Dover" {
			dover = p
		}
		for j := range d.Placed[:i] {
			if q := d.Placed[j]; p.Box.Overlaps(q.Box) {
				t.Errorf("labels %q %v and %q %v overlap", p.Text, p.Box, q.Text, q.Box)
			}
		}
	}
	if dover == nil {
		t.Fatalf("no Dover label among %+v", d.Placed)
	}
	if dover.Type != "Capital" {
		t.Errorf("Dover is a %s label, want Capital", dover.Type)
	}
	// Text pixels (the label's colour) inside its box, none a few pixels
	// around it in the same colour more than elsewhere.
	ink := st.Label["Capital"].Text.Color
	n := 0
	for y := dover.Box.Min.Y; y < dover.Box.Max.Y; y++ {
		for x := dover.Box.Min.X; x < dover.Box.Max.X; x++ {
			if near(c.Img.RGBAAt(x, y), ink) {
				n++
			}
		}
	}
	if area := dover.Box.Dx() * dover.Box.Dy(); n < area/20 {
		t.Errorf("Dover's box %v has %d text pixels of %d", dover.Box, n, area)
	}
	if dover.Box.Dx() < 30 || dover.Box.Dy() < 10 {
		t.Errorf("Dover's box %v too small for 16 px text", dover.Box)
	}
	want := map[string]bool{"ScaleBar": true, "Capital": true}
	for _, l := range d.Label {
		delete(want, l)
	}
	if len(want) > 0 {
		t.Errorf("legend labels %v lack %v", d.Label, want)
	}
	for _, n := range []string{"Land", "Water", "Park", "Railway"} {
		found := false
		for _, b := range d.Background {
			found = found || b == n
		}
		if !found {
			t.Errorf("background legend %v lacks %s", d.Background, n)
		}
	}
	if len(d.Road) != 2 || d.Road[0] != "RegionalRoad" || d.Road[1] != "Motorway" {
		t.Errorf("road legend %v, want [RegionalRoad Motorway]", d.Road)
	}
}

// darkShare is the share of pixels of img darker than mid-grey.
func darkShare(img image.Image) float64 {
	b := img.Bounds()
	dark := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, _ := img.At(x, y).RGBA()
			if 299*r+587*g+114*bb < 128*257*1000 {
				dark++
			}
		}
	}
	return float64(dark) / float64(b.Dx()*b.Dy())
}

func TestMonoStyle(t *testing.T) {
	c, _ := doverMap(t, Mono())
	for y := 0; y < c.View.H; y++ {
		for x := 0; x < c.View.W; x++ {
			p := c.Img.RGBAAt(x, y)
			if !(p.R == p.G && p.G == p.B) {
				t.Fatalf("pixel (%d, %d) %v is coloured in the 1-bit style", x, y, p)
			}
		}
	}
	// The motorway is black across the map (but where its name is
	// written on it).
	_, yy := c.View.Pixel(orb.Point{-75.5, 39.15})
	dark := 0
	for x := 0; x < c.View.W; x++ {
		if c.Img.RGBAAt(x, int(yy)).R < 128 {
			dark++
		}
	}
	if dark < c.View.W*2/3 {
		t.Errorf("motorway dark on %d of %d pixels of its row in the 1-bit map", dark, c.View.W)
	}
	// Water hatched: between a quarter and a half of its pixels black.
	x0, y0 := c.View.Pixel(orb.Point{-75.5295, 39.1695})
	x1, y1 := c.View.Pixel(orb.Point{-75.5265, 39.1615})
	sub := c.Img.SubImage(image.Rect(int(x0), int(y0), int(x1), int(y1)))
	if s := darkShare(sub); s < 0.2 || s > 0.5 {
		t.Errorf("hatched water dark share %.2f, want 0.2..0.5", s)
	}
}

func TestScaleLength(t *testing.T) {
	cases := []struct {
		maxM   float64
		metric bool
		want   float64
		text   string
	}{
		{3000, true, 2000, "2 km"},
		{999, true, 500, "500 m"},
		{1000, true, 1000, "1 km"},
		{75, true, 50, "50 m"},
		{12000, true, 10000, "10 km"},
		{3000, false, 1609.344, "1 mi"},
		{800, false, 2000 * 0.3048, "2000 ft"},
		{100, false, 200 * 0.3048, "200 ft"},
		{50000, false, 20 * 1609.344, "20 mi"},
	}
	for _, tc := range cases {
		l, s := scaleLength(tc.maxM, tc.metric)
		if math.Abs(l-tc.want) > 1e-6 || s != tc.text {
			t.Errorf("scaleLength(%v, %v) = %v %q, want %v %q", tc.maxM, tc.metric, l, s, tc.want, tc.text)
		}
	}
}

func TestLabelType(t *testing.T) {
	cases := []struct {
		p    mapdata.Place
		want string
	}{
		{mapdata.Place{Name: "Dover", Kind: mapdata.City, Population: 39403, Capital: true}, "Capital"},
		{mapdata.Place{Name: "Philadelphia", Kind: mapdata.City, Population: 1603797}, "City500K"},
		{mapdata.Place{Name: "Wilmington", Kind: mapdata.City, Population: 70898}, "City50K"},
		{mapdata.Place{Name: "Newark", Kind: mapdata.City, Population: 30601}, "City20K"},
		{mapdata.Place{Name: "Camden", Kind: mapdata.Town, Population: 3464}, "City1K"},
		{mapdata.Place{Name: "Smyrna", Kind: mapdata.Town}, "City5K"},
		{mapdata.Place{Name: "Leipsic", Kind: mapdata.Village, Population: 183}, "CitySmall"},
		{mapdata.Place{Name: "Little Italy", Kind: mapdata.Neighbourhood}, "DistrictSmall"},
		{mapdata.Place{Name: "Brandywine Hills", Kind: mapdata.Suburb, Population: 23000}, "District20K"},
		{mapdata.Place{Name: "3rd Ward", Kind: mapdata.Suburb, Population: 23000}, "DistrictNumbered"},
		{mapdata.Place{Name: "Capital District", Kind: mapdata.Suburb, Capital: true}, "District5K"},
	}
	for _, tc := range cases {
		if got := LabelType(tc.p); got != tc.want {
			t.Errorf("LabelType(%+v) = %s, want %s", tc.p, got, tc.want)
		}
	}
}

func TestNumberedName(t *testing.T) {
	for name, want := range map[string]bool{
		"16": true, "District 5": true, "3rd Ward": true, "1st District": true, "Second District": true, "7e arrondissement": true,
		"Ward 12": true, "Fifth Avenue Heights": false, "Little Italy": false, "Route 9 Estates": false, "": false, "District": false,
		"Bezirk 10": true, "10th": true, "4H Farms": false,
	} {
		if got := NumberedName(name); got != want {
			t.Errorf("NumberedName(%q) = %v, want %v", name, got, want)
		}
	}
}
