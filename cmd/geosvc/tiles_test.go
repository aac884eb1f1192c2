package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/paulmach/orb"
	"golang.org/x/image/webp"

	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/profile"
)

// TestTilesServed: geosvc serve answers /tilesv1 from the loaded bundle:
// a tile over the roundabout fixture has its West Arm where web-mercator
// math, written out here, puts it, in the road's colour, with an ETag
// the second request (a 304) matches.
func TestTilesServed(t *testing.T) {
	const key = "gs_tiles_test_key_0123456789abcdefghij"
	data := roundaboutBundle(t)
	base := inProcessServer(t, data, key)

	// A point a tenth of the way along the West Arm (W2 10.000 -> W
	// 10.001 at latitude 0.002), away from the name written at its
	// middle.
	p := orb.Point{10.0001, 0.002}
	const z = 17
	n := math.Exp2(z)
	fx := (p[0] + 180) / 360 * n
	fy := (1 - math.Asinh(math.Tan(p[1]*math.Pi/180))/math.Pi) / 2 * n
	tx, ty := int(fx), int(fy)
	px, py := int((fx-float64(tx))*256), int((fy-float64(ty))*256)

	g, err := routing.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	roadType := ""
	g.MapRoads(orb.Bound{Min: p, Max: p}, func(_ []orb.Point, rt profile.RoadType, name string) {
		if name == "West Arm" {
			roadType = rt.String()
		}
	})
	if roadType == "" {
		t.Fatal("the West Arm is not in the graph")
	}
	want := cartography.Default().Road[roadType].Inner.Color

	get := func(path, etag string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		req.Header.Set("x-api-key", key)
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	path := "/tilesv1/" + strconv.Itoa(z) + "/" + strconv.Itoa(tx) + "/" + strconv.Itoa(ty) + ".png"
	var resp *http.Response
	var body []byte
	for deadline := time.Now().Add(30 * time.Second); ; {
		resp, body = get(path, "")
		if resp.StatusCode != http.StatusServiceUnavailable || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("GET %s: %d %s %s", path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	img, err := png.Decode(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if got := color.RGBAModel.Convert(img.At(px, py)).(color.RGBA); got != want {
		t.Errorf("tile %s pixel (%d, %d): %v, want the %s colour %v", path, px, py, got, roadType, want)
	}
	// Fifteen pixels north of the arm: not road.
	if got := color.RGBAModel.Convert(img.At(px, py-15)).(color.RGBA); got == want {
		t.Errorf("pixel (%d, %d) off the road is road-coloured", px, py-15)
	}
	if resp2, _ := get(path, resp.Header.Get("ETag")); resp2.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: %d, want 304", resp2.StatusCode)
	}
	if resp3, b := get("/tilesv1/21/0/0.png", ""); resp3.StatusCode != http.StatusBadRequest {
		t.Errorf("z 21: %d %s, want 400", resp3.StatusCode, b)
	}
	// The @2x tile, in PNG and in WebP (read by golang.org/x/image/webp):
	// 512 px, the arm at twice the pixel, the road's fill wider than at
	// 256 px; lossless, so both encodings hold the same pixels.
	base2x := "/tilesv1/" + strconv.Itoa(z) + "/" + strconv.Itoa(tx) + "/" + strconv.Itoa(ty) + "@2x"
	var imgs []image.Image
	for _, ext := range []string{".png", ".webp"} {
		resp, body := get(base2x+ext, "")
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/"+ext[1:] {
			t.Fatalf("GET %s: %d %s %s", base2x+ext, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		dec := png.Decode
		if ext == ".webp" {
			dec = webp.Decode
		}
		img, err := dec(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if img.Bounds() != image.Rect(0, 0, 512, 512) {
			t.Fatalf("%s: %v, want 512 x 512", base2x+ext, img.Bounds())
		}
		if got := color.RGBAModel.Convert(img.At(2*px+1, 2*py+1)).(color.RGBA); got != want {
			t.Errorf("%s pixel (%d, %d): %v, want the %s colour %v", base2x+ext, 2*px+1, 2*py+1, got, roadType, want)
		}
		imgs = append(imgs, img)
	}
	// The fill's run across the arm (which runs east-west): at 2x about
	// twice the 1x run.
	fill := func(img image.Image, x, y, scale int) int {
		n := 0
		for d := -12 * scale; d <= 12*scale; d++ {
			if color.RGBAModel.Convert(img.At(x, y+d)).(color.RGBA) == want {
				n++
			}
		}
		return n
	}
	r1, r2 := fill(img, px, py, 1), fill(imgs[0], 2*px+1, 2*py+1, 2)
	if r1 < 1 || r2 < 2*r1-1 || r2 > 2*r1+2 {
		t.Errorf("road fill %d px across at 2x, %d px at 1x: want twice", r2, r1)
	}
	for y := 0; y < 512; y++ {
		for x := 0; x < 512; x++ {
			if a, b := color.RGBAModel.Convert(imgs[0].At(x, y)), color.RGBAModel.Convert(imgs[1].At(x, y)); a != b {
				t.Fatalf("@2x.png and @2x.webp differ at (%d, %d): %v, %v", x, y, a, b)
			}
		}
	}
}
