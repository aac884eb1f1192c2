package cartography

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/render"
)

func TestLegendName(t *testing.T) {
	for in, want := range map[string]string{"Water": "Water", "DualCarriageWayCity": "Dual Carriage Way City", "City500K": "City 500K",
		"RailroadArea": "Railroad Area", "ScaleBar": "Scale Bar", "District1K": "District 1K"} {
		if got := legendName(in); got != want {
			t.Errorf("legendName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLegendPixels draws maps around Dover with and without the legend
// and looks at the pixels of the legend box the drawing reports.
func TestLegendPixels(t *testing.T) {
	black := color.RGBA{0, 0, 0, 255}
	grey := color.RGBA{0x88, 0x88, 0x88, 255} // the box's outline
	def, mono := Default(), Mono()
	// A request's Legend may make a road 40 px wide with 10 px casings:
	// its swatch stays in its row.
	wide := Default()
	mw := wide.Road["Motorway"]
	mw.Inner, mw.Border = Paint{Color: color.RGBA{0, 255, 0, 255}, Width: 40}, Paint{Color: color.RGBA{0, 0, 255, 255}, Width: 10}
	wide.Road["Motorway"] = mw
	dover := orb.Point{-75.5244, 39.1400}
	// Dover's label (lon -75.5244, lat 39.1582) near the top right
	// corner: 240 px east and 160 px north of the centre at 20 m a pixel.
	corner := orb.Point{-75.5244 - 4800/(111_320*math.Cos(39.15*math.Pi/180)), 39.1582 - 3200/111_320.0}
	cases := []struct {
		name   string
		st     *Style
		center orb.Point
		w, h   int
		labels bool
		// swatches: item name -> the colour of its swatch's centre.
		swatches map[string]color.RGBA
		border   color.RGBA
		// overlapWithout: a label of the map without legend lies where
		// the legend goes (so that keeping clear of it is tested).
		overlapWithout bool
		tooSmall       bool
		// columns: how many columns the legend needs (0: one).
		columns int
		// mpp is the scale in metres a pixel (0: 20).
		mpp float64
	}{
		{name: "colour, no labels", st: def, center: dover, w: 600, h: 400, border: grey,
			swatches: map[string]color.RGBA{"Water": def.Background["Water"].Inner.Color, "Park": def.Background["Park"].Inner.Color,
				"Motorway": def.Road["Motorway"].Inner.Color, "RegionalRoad": def.Road["RegionalRoad"].Inner.Color}},
		{name: "colour, labels", st: def, center: dover, w: 600, h: 400, labels: true, border: grey,
			swatches: map[string]color.RGBA{"Water": def.Background["Water"].Inner.Color, "Motorway": def.Road["Motorway"].Inner.Color}},
		{name: "colour, Dover under the legend", st: def, center: corner, w: 600, h: 400, labels: true, border: grey, overlapWithout: true,
			swatches: map[string]color.RGBA{"Motorway": def.Road["Motorway"].Inner.Color}},
		{name: "1-bit", st: mono, center: dover, w: 600, h: 400, labels: true, border: black,
			swatches: map[string]color.RGBA{"Motorway": black, "Railway": black, "Park": {255, 255, 255, 255}}},
		{name: "colour, a wide road's legend", st: wide, center: dover, w: 600, h: 400, labels: true, border: grey,
			swatches: map[string]color.RGBA{"Motorway": {0, 255, 0, 255}}},
		{name: "too small", st: def, center: dover, w: 160, h: 100, labels: true, tooSmall: true},
		{name: "short and wide: the rows in columns", st: def, center: dover, w: 1000, h: 110, mpp: 150, labels: true, border: grey, columns: 2,
			swatches: map[string]color.RGBA{"Motorway": def.Road["Motorway"].Inner.Color}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mpp := 20.0
			if tc.mpp > 0 {
				mpp = tc.mpp
			}
			v := render.View{Center: tc.center, WidthM: mpp * float64(tc.w), HeightM: mpp * float64(tc.h), W: tc.w, H: tc.h}
			draw := func(legend bool) (*render.Canvas, Drawn) {
				c, d, err := Draw(doverSources(), Request{View: v, Style: tc.st, Labels: tc.labels, ScaleBar: true, Metric: true, Legend: legend})
				if err != nil {
					t.Fatal(err)
				}
				return c, d
			}
			with, dw := draw(true)
			plain, dp := draw(false)
			if dp.Legend != nil {
				t.Fatalf("legend %+v drawn without Request.Legend", dp.Legend)
			}
			if tc.tooSmall {
				if dw.Legend != nil {
					t.Errorf("legend %v drawn on a %d x %d image", dw.Legend.Box, tc.w, tc.h)
				}
				return
			}
			lg := dw.Legend
			if lg == nil {
				t.Fatal("no legend drawn")
			}
			b := lg.Box
			if b.Max.X != tc.w-8 || b.Min.Y != 8 || b.Dx() > tc.w/2 || b.Dy() > tc.h-16 {
				t.Errorf("legend box %v is not in the top right corner of %d x %d", b, tc.w, tc.h)
			}
			// Exactly the items drawn (WantLegend's list), in its order.
			var want, got []string
			for _, l := range [][]string{dw.Background, dw.Road, dw.Label} {
				want = append(want, l...)
			}
			for i, it := range lg.Items {
				got = append(got, it.Name)
				if !it.Swatch.In(b) {
					t.Errorf("%s swatch %v outside the box %v", it.Name, it.Swatch, b)
				}
				for _, prev := range lg.Items[:i] {
					if it.Swatch.Overlaps(prev.Swatch) {
						t.Errorf("swatches of %s %v and %s %v overlap", prev.Name, prev.Swatch, it.Name, it.Swatch)
					}
				}
			}
			if len(got) != len(want) || len(got) == 0 {
				t.Fatalf("legend lists %v, the map drew %v", got, want)
			}
			cols := map[int]bool{}
			for _, it := range lg.Items {
				cols[it.Swatch.Min.X] = true
			}
			if tc.columns > 0 && len(cols) < tc.columns {
				t.Errorf("%d items in %d column(s) on a %d px high image, want %d or more", len(lg.Items), len(cols), tc.h, tc.columns)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("legend lists %v, the map drew %v", got, want)
				}
			}
			// The outline, in the box's border colour, with and only with
			// the legend.
			ring, ringPlain := 0, 0
			n := 0
			for x := b.Min.X; x < b.Max.X; x++ {
				for _, y := range []int{b.Min.Y, b.Max.Y - 1} {
					n++
					if with.Img.RGBAAt(x, y) == tc.border {
						ring++
					}
					if plain.Img.RGBAAt(x, y) == tc.border {
						ringPlain++
					}
				}
			}
			if ring != n {
				t.Errorf("%d of %d outline pixels are %v", ring, n, tc.border)
			}
			if ringPlain > n/4 {
				t.Errorf("without the legend %d of %d outline pixels are its border colour", ringPlain, n)
			}
			// The padding column inside the left edge: white over the map
			// (85 % opaque; opaque in the 1-bit style). Without labels
			// the map under it is the plain map's pixel.
			changed := 0
			for y := b.Min.Y + 1; y < b.Max.Y-1; y++ {
				for x := b.Min.X + 1; x < b.Min.X+4; x++ {
					p, q := with.Img.RGBAAt(x, y), plain.Img.RGBAAt(x, y)
					if p != q {
						changed++
					}
					for k, ch := range [3][2]uint8{{p.R, q.R}, {p.G, q.G}, {p.B, q.B}} {
						exp := uint8(math.Round(0.85*255 + 0.15*float64(ch[1])))
						switch {
						case tc.st.Mono && ch[0] != 255:
							t.Fatalf("1-bit legend pixel (%d,%d) %v is not white", x, y, p)
						case !tc.st.Mono && !tc.labels && ch[0] != exp:
							t.Fatalf("pixel (%d,%d) channel %d = %d, want %d (white at 85 %% over %d)", x, y, k, ch[0], exp, ch[1])
						case !tc.st.Mono && ch[0] < 216:
							t.Fatalf("pixel (%d,%d) %v is not under the box's white", x, y, p)
						}
					}
				}
			}
			if changed == 0 {
				t.Error("the box's padding is the map's pixels")
			}
			// Swatches: their centre is the item's colour.
			seen := 0
			for _, it := range lg.Items {
				c, ok := tc.swatches[it.Name]
				if !ok {
					continue
				}
				seen++
				mid := image.Pt((it.Swatch.Min.X+it.Swatch.Max.X)/2, (it.Swatch.Min.Y+it.Swatch.Max.Y)/2)
				if p := with.Img.RGBAAt(mid.X, mid.Y); p != c {
					t.Errorf("%s swatch %v centre %v is %v, want %v", it.Name, it.Swatch, mid, p, c)
				}
				if p := plain.Img.RGBAAt(mid.X, mid.Y); p == c && it.Kind == "Road" {
					t.Errorf("without the legend %v is %s's colour already", mid, it.Name)
				}
			}
			if seen != len(tc.swatches) {
				t.Errorf("legend %+v lacks some of %v", lg.Items, tc.swatches)
			}
			// No label in the legend's box; without the legend one was.
			for _, p := range dw.Placed {
				if p.Box.Overlaps(b) {
					t.Errorf("label %q %v overlaps the legend %v", p.Text, p.Box, b)
				}
			}
			over := false
			for _, p := range dp.Placed {
				over = over || p.Box.Overlaps(b)
			}
			if over != tc.overlapWithout {
				t.Errorf("without legend a label overlaps its box: %v, want %v (%+v)", over, tc.overlapWithout, dp.Placed)
			}
		})
	}
}
