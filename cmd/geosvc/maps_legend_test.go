package main

import (
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/geo/render"
)

// TestDelawareMapLegend draws maps of the Delaware bundle with the legend
// and checks it lists what the map drew, with swatches of the style's
// colours at the rectangles reported, and that no label lies under it.
func TestDelawareMapLegend(t *testing.T) {
	src := delawareSources(t)
	cases := []struct {
		name   string
		center orb.Point
		widthM float64
		w, h   int
		st     *cartography.Style
		// want: items whose swatch centre must be their Inner colour.
		want []string
	}{
		{"Newark 800 x 600", orb.Point{-75.7497, 39.6837}, 12000, 800, 600, cartography.Default(), []string{"Motorway", "Land"}},
		{"Bowers Beach and the bay", orb.Point{-75.3800, 39.0600}, 10000, 600, 400, cartography.Default(), []string{"Water"}},
		{"Newark 1-bit", orb.Point{-75.7497, 39.6837}, 12000, 800, 600, cartography.Mono(), []string{"Motorway"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := render.View{Center: tc.center, WidthM: tc.widthM, HeightM: tc.widthM * float64(tc.h) / float64(tc.w), W: tc.w, H: tc.h}
			c, d, err := cartography.Draw(src, cartography.Request{View: v, Style: tc.st, Labels: true, ScaleBar: true, Metric: true, Legend: true})
			if err != nil {
				t.Fatal(err)
			}
			if d.Legend == nil {
				t.Fatal("no legend drawn")
			}
			n := len(d.Background) + len(d.Road) + len(d.Label)
			if len(d.Legend.Items) != n {
				t.Errorf("legend has %d items, the map drew %d", len(d.Legend.Items), n)
			}
			for _, name := range tc.want {
				found := false
				for _, it := range d.Legend.Items {
					if it.Name != name {
						continue
					}
					found = true
					want := tc.st.Road[name].Inner.Color
					if it.Kind == "Background" {
						want = tc.st.Background[name].Inner.Color
					}
					mid := it.Swatch.Min.Add(it.Swatch.Max).Div(2)
					if got := c.Img.RGBAAt(mid.X, mid.Y); got != want {
						t.Errorf("%s swatch %v centre %v, want %v", name, it.Swatch, got, want)
					}
				}
				if !found {
					t.Errorf("legend %+v lacks %s", d.Legend.Items, name)
				}
			}
			for _, p := range d.Placed {
				if p.Box.Overlaps(d.Legend.Box) {
					t.Errorf("label %q %v under the legend %v", p.Text, p.Box, d.Legend.Box)
				}
			}
		})
	}
}
