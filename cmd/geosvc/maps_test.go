package main

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/geo/mapdata"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
	"github.com/geosvc/geosvc/geo/render"
	"github.com/geosvc/geosvc/internal/testenv"
)

// The Delaware bundle's map sources, loaded once per test binary.
var (
	delawareMapOnce sync.Once
	delawareMap     cartography.Sources
	delawareMapErr  error
)

// delawareSources returns the map sources of the Delaware bundle (its
// graph, layers and, once built with one, its map layer), as geosvc serve
// draws with.
func delawareSources(tb testing.TB) cartography.Sources {
	tb.Helper()
	dir, err := extractBundle(tb, "delaware")
	if err != nil {
		extracts.Need(tb, err)
		tb.Fatal(err)
	}
	delawareMapOnce.Do(func() {
		b, err := bundle.Open(dir)
		if err != nil {
			delawareMapErr = err
			return
		}
		delawareMap = b.MapSources()
	})
	if delawareMapErr != nil {
		tb.Fatal(delawareMapErr)
	}
	return delawareMap
}

// TestDelawareMapPixels: maps of the real bundle at known places. Delaware
// Bay is water (the map layer's sea); a park is park-coloured; Dover is
// written on a map of Dover, inside its box, no label overlapping
// another.
func TestDelawareMapPixels(t *testing.T) {
	src := delawareSources(t)
	st := cartography.Default()
	draw := func(center orb.Point, widthM float64, w, h int, style *cartography.Style) (*render.Canvas, cartography.Drawn) {
		t.Helper()
		v := render.View{Center: center, WidthM: widthM, HeightM: widthM * float64(h) / float64(w), W: w, H: h}
		c, d, err := cartography.Draw(src, cartography.Request{View: v, Style: style, Labels: true, ScaleBar: true, Metric: true})
		if err != nil {
			t.Fatal(err)
		}
		return c, d
	}
	t.Run("Delaware Bay is water", func(t *testing.T) {
		bay := orb.Point{-75.2000, 39.0500} // mid-bay, between Bowers Beach and the New Jersey shore
		inSea := false
		if src.Layer != nil {
			for _, a := range src.Layer.Areas(orb.Bound{Min: bay, Max: bay}, 20) {
				inSea = inSea || a.Class == mapdata.Water && planar.PolygonContains(a.Polygon, bay)
			}
		}
		if !inSea {
			t.Errorf("no water area of the map layer holds %v", bay)
		}
		c, _ := draw(bay, 4000, 200, 200, st)
		if got := c.Img.RGBAAt(100, 100); got != st.Background["Water"].Inner.Color {
			t.Errorf("Delaware Bay pixel %v, want the water colour %v", got, st.Background["Water"].Inner.Color)
		}
	})
	t.Run("a park is park-coloured", func(t *testing.T) {
		// In Rockford Park, Wilmington.
		park := orb.Point{-75.5641, 39.7841}
		if src.Layer == nil {
			testenv.Skip(t, "the bundle has no map layer")
			return
		}
		// The colour on top there: the last area class, in drawing order,
		// whose polygon holds the point (tested here with planar, not the
		// renderer).
		top := mapdata.Class(255)
		for _, a := range src.Layer.Areas(orb.Bound{Min: park, Max: park}, 1) {
			if planar.PolygonContains(a.Polygon, park) && (top == 255 || a.Class > top) {
				top = a.Class
			}
		}
		if top != mapdata.Park {
			t.Fatalf("the map layer's area on top at %v is %v, not a park", park, top)
		}
		want := st.Background["Park"].Inner.Color
		c, _ := draw(park, 500, 100, 100, st)
		found := false
		for y := 46; y <= 54; y += 2 { // a path or a label may cross the very centre
			for x := 46; x <= 54; x += 2 {
				found = found || c.Img.RGBAAt(x, y) == want
			}
		}
		if !found {
			t.Errorf("park pixels around %v: %v, want the colour %v", park, c.Img.RGBAAt(50, 50), want)
		}
	})
	t.Run("Dover labelled", func(t *testing.T) {
		c, d := draw(orb.Point{-75.5244, 39.1582}, 12000, 800, 600, st)
		var dover *cartography.Placed
		for i := range d.Placed {
			p := &d.Placed[i]
			if p.Text == "Dover" {
				dover = p
			}
			for _, q := range d.Placed[:i] {
				if p.Box.Overlaps(q.Box) {
					t.Errorf("labels %q %v and %q %v overlap", p.Text, p.Box, q.Text, q.Box)
				}
			}
		}
		if dover == nil {
			t.Fatalf("no Dover among the labels %+v", d.Placed)
		}
		ink := st.Label[dover.Type].Text.Color
		n := 0
		for y := dover.Box.Min.Y; y < dover.Box.Max.Y; y++ {
			for x := dover.Box.Min.X; x < dover.Box.Max.X; x++ {
				if near(c.Img.RGBAAt(x, y), ink) {
					n++
				}
			}
		}
		if n < dover.Box.Dx()*dover.Box.Dy()/20 {
			t.Errorf("Dover's box %v holds %d text pixels", dover.Box, n)
		}
		if len(d.Placed) < 5 {
			t.Errorf("only %d labels on a 12 km map of Dover: %+v", len(d.Placed), d.Placed)
		}
	})
}

// near reports whether a pixel is the ink's colour or close to it (the
// anti-aliased glyph edges blend it with the background).
func near(p, ink color.RGBA) bool {
	d := func(a, b uint8) int { return max(int(a)-int(b), int(b)-int(a)) }
	return d(p.R, ink.R)+d(p.G, ink.G)+d(p.B, ink.B) < 120
}

// soapMap posts a MapSimple to a server and returns its image.
func soapMap(tb testing.TB, base, key, imageType string, center orb.Point, areaX, w, h int) []byte {
	tb.Helper()
	body := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
		`<MapSimple xmlns="http://geosvc.org/LocationService/"><X>` + coordText(center[0]) + `</X><Y>` + coordText(center[1]) + `</Y><Encoding>EPGS4326</Encoding>` +
		`<ZoomFactor>2</ZoomFactor><AreaX>` + itoa(areaX) + `</AreaX><AreaY>0</AreaY><PanX>0</PanX><PanY>0</PanY><Action>None</Action>` +
		`<ImageType>` + imageType + `</ImageType><LevelOfDetail>0</LevelOfDetail><Width>` + itoa(w) + `</Width><Height>` + itoa(h) + `</Height>` +
		`<Metrics>Meters</Metrics><UseDbSet>false</UseDbSet><WantImageData>true</WantImageData><WantLegend>true</WantLegend>` +
		`<SubscriptionKey>` + key + `</SubscriptionKey></MapSimple></soap:Body></soap:Envelope>`
	resp, err := http.Post(base+"/soap", "text/xml", strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var env struct {
		Data string `xml:"Body>MapSimpleResponse>MapSimpleResult>ImageData"`
	}
	if err := xml.Unmarshal(raw, &env); err != nil || env.Data == "" {
		tb.Fatalf("MapSimple: %d %v %.500s", resp.StatusCode, err, raw)
	}
	img, err := base64.StdEncoding.DecodeString(env.Data)
	if err != nil {
		tb.Fatal(err)
	}
	return img
}

func itoa(v int) string { return strconv.Itoa(v) }

func coordText(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }

// wbmpDarkShare decodes a type 0 WBMP and returns its share of black
// (0) pixels.
func wbmpDarkShare(tb testing.TB, b []byte) float64 {
	tb.Helper()
	i := 2
	read := func() int {
		v := 0
		for {
			c := b[i]
			i++
			v = v<<7 | int(c&0x7f)
			if c&0x80 == 0 {
				return v
			}
		}
	}
	w, h := read(), read()
	stride := (w + 7) / 8
	if len(b) != i+stride*h {
		tb.Fatalf("WBMP of %d x %d has %d bytes", w, h, len(b))
	}
	dark := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if b[i+y*stride+x/8]&(0x80>>(x%8)) == 0 {
				dark++
			}
		}
	}
	return float64(dark) / float64(w*h)
}

// TestNewarkWBMP: the WBMP of Newark keeps the roads: its dark-pixel
// share is at least half the share of road pixels in the PNG of the same
// view (SOAP MapSimple through geosvc serve on the Delaware bundle).
func TestNewarkWBMP(t *testing.T) {
	const key = "gs_maps_test_key_0123456789abcdefghijk"
	dir, err := extractBundle(t, "delaware")
	if err != nil {
		extracts.Need(t, err)
		t.Fatal(err)
	}
	base := inProcessServer(t, dir, key)
	newark := orb.Point{-75.7497, 39.6837}
	pngData := soapMap(t, base, key, "Png", newark, 12000, 800, 600)
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		t.Fatal(err)
	}
	st := cartography.Default()
	roadColors := map[color.RGBA]bool{}
	for _, it := range st.Road {
		roadColors[it.Inner.Color] = true
		if it.Border.Color.A > 0 {
			roadColors[it.Border.Color] = true
		}
	}
	roads := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if roadColors[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)] {
				roads++
			}
		}
	}
	roadShare := float64(roads) / float64(b.Dx()*b.Dy())
	dark := wbmpDarkShare(t, soapMap(t, base, key, "Wbmp", newark, 12000, 800, 600))
	t.Logf("Newark 800 x 600, 12 km: PNG road pixels %.1f %%, WBMP dark pixels %.1f %%", 100*roadShare, 100*dark)
	if roadShare < 0.03 {
		t.Fatalf("the PNG of Newark has %.1f %% road pixels", 100*roadShare)
	}
	if dark < roadShare/2 {
		t.Errorf("WBMP dark share %.2f %% < half the PNG's road share %.2f %%", 100*dark, 100*roadShare)
	}
}

// TestBundleBBox: /v1/info's bbox is the graph's extent at OSM's 7
// decimals (float32 coordinates widened to float64 would print with 17
// digits), and it holds Delaware.
func TestBundleBBox(t *testing.T) {
	dir, err := extractBundle(t, "delaware")
	if err != nil {
		extracts.Need(t, err)
		t.Fatal(err)
	}
	b, err := bundle.OpenRouting(dir)
	if err != nil {
		t.Fatal(err)
	}
	bb := b.BBox()
	if bb == nil {
		t.Fatal("no bbox")
	}
	for i, v := range bb {
		if s := strconv.FormatFloat(v, 'f', -1, 64); len(s) > len(strconv.FormatFloat(v, 'f', 0, 64))+8 {
			t.Errorf("bbox[%d] = %s: more than 7 decimals", i, s)
		}
	}
	// Dover and Wilmington lie inside; the extract reaches into the
	// neighbouring states but not past them.
	if !(bb[0] < -75.55 && bb[2] > -75.52 && bb[1] < 39.15 && bb[3] > 39.74 && bb[0] > -76.5 && bb[2] < -74.5) {
		t.Errorf("bbox %v does not frame Delaware", *bb)
	}
}
