package soap

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// TestMapLegendOnImage: with WantLegend a MapSimple or Map image has the
// legend box in its top right corner (found here from the pixels: its
// grey outline), holding the swatch of the road type the answer's legend
// lists in the colour it lists (the request's Legend's when it gives
// one); without WantLegend those pixels are the map's.
func TestMapLegendOnImage(t *testing.T) {
	f := newFixture(t, false)
	g := tinyGraph(t)
	f.setGraph(g)
	const w, h = 500, 300
	size := map[string]string{"Width": "500", "Height": "300", "AreaX": "1200"}
	grey := color.RGBA{0x88, 0x88, 0x88, 255}
	drawImage := func(op string, fields map[string]string, inner string) (*image.RGBA, mapData) {
		t.Helper()
		all := map[string]string{}
		for k, v := range size {
			all[k] = v
		}
		for k, v := range fields {
			all[k] = v
		}
		rec := f.post("text/xml", envelope11(mapBody(op, f.key, all, inner)))
		if code, reason := faultOf(t, rec.Body.String()); code != "" {
			t.Fatalf("fault %s %s", code, reason)
		}
		md := mapResult(t, rec.Body.Bytes(), op)
		raw, _ := base64.StdEncoding.DecodeString(md.ImageData)
		img, err := png.Decode(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		rgba, ok := img.(*image.RGBA)
		if !ok {
			t.Fatalf("image is a %T", img)
		}
		return rgba, md
	}
	cases := []struct {
		name, op, legend string
		// road is the colour expected of the road swatch ("" the
		// answer's legend's).
		road string
	}{
		{name: "MapSimple default style", op: "MapSimple"},
		{name: "Map with a Legend", op: "Map", road: "#00FF00",
			legend: `<Legend><RoadLegend><RoadLegendItem><Name>LocalRoad</Name><Inner Color="#00FF00" Width="3"/></RoadLegendItem>` +
				`<RoadLegendItem><Name>LocalRoadCity</Name><Inner Color="#00FF00" Width="3"/></RoadLegendItem>` +
				`<RoadLegendItem><Name>OtherRoad</Name><Inner Color="#00FF00" Width="3"/></RoadLegendItem>` +
				`<RoadLegendItem><Name>OtherRoadCity</Name><Inner Color="#00FF00" Width="3"/></RoadLegendItem></RoadLegend></Legend>`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			with, md := drawImage(tc.op, nil, tc.legend)
			plain, _ := drawImage(tc.op, map[string]string{"WantLegend": "false"}, tc.legend)
			if md.RoadLegend == nil || len(md.RoadLegend.Items) == 0 {
				t.Fatalf("no road legend: %+v", md)
			}
			road := md.RoadLegend.Items[0]
			want, err := parseHexColor(road.Inner.Color)
			if err != nil {
				t.Fatal(err)
			}
			if tc.road != "" && road.Inner.Color != tc.road {
				t.Fatalf("legend answers %s %s, the request gave %s", road.Name, road.Inner.Color, tc.road)
			}
			// The box: its outline from the top right corner (8 px
			// margins), leftwards and downwards.
			x1, y0 := w-9, 8
			if with.RGBAAt(x1, y0) != grey {
				t.Fatalf("corner pixel %v, want the legend's outline %v", with.RGBAAt(x1, y0), grey)
			}
			if plain.RGBAAt(x1, y0) == grey {
				t.Errorf("without WantLegend the corner pixel is the outline's grey")
			}
			x0, y1 := x1, y0
			for x0 > 0 && with.RGBAAt(x0-1, y0) == grey {
				x0--
			}
			for y1 < h-1 && with.RGBAAt(x1, y1+1) == grey {
				y1++
			}
			box := image.Rect(x0, y0, x1+1, y1+1)
			if box.Dx() < 60 || box.Dx() > w/2 || box.Dy() < 30 {
				t.Fatalf("legend box %v", box)
			}
			// Inside: the box's white over the map, and the road swatch:
			// a run of the road colour the map without legend has not
			// there.
			swatch, whiteish, inner := 0, 0, 0
			for y := box.Min.Y + 1; y < box.Max.Y-1; y++ {
				run := 0
				for x := box.Min.X + 1; x < box.Max.X-1; x++ {
					p, q := with.RGBAAt(x, y), plain.RGBAAt(x, y)
					inner++
					if p.R >= 216 && p.G >= 216 && p.B >= 216 {
						whiteish++
					}
					if p == want && q != want {
						run++
					} else {
						run = 0
					}
					if run == 16 {
						swatch++
					}
				}
			}
			if swatch == 0 {
				t.Errorf("no swatch of %s %v in the legend box %v", road.Name, want, box)
			}
			if whiteish < inner/2 {
				t.Errorf("%d of %d pixels in the box are its white", whiteish, inner)
			}
		})
	}
}
