package main

import (
	"bytes"
	"context"
	"fmt"

	"image/color"
	"image/png"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/internal/testenv"
)

// TestVectorStyleInBrowser: /tilesv1/style.json loads in MapLibre GL JS
// (vendored, served by geosvc: /console/vector.html) in headless
// Chromium on the Delaware bundle's vector tiles, fonts and sprite, with
// no error in the page's console; MapLibre places labels (its rendered
// symbol features), and the screenshot shows the style's water, a road
// fill and label text in their colours (geo/cartography's palette).
func TestVectorStyleInBrowser(t *testing.T) {
	if testing.Short() && !testenv.Required() {
		t.Skip("-short: skipping the browser test")
	}
	chrome, err := chromiumPath()
	if err != nil {
		testenv.Skip(t, "%v", err)
	}
	data, err := delawareBundle(t)
	if err != nil {
		testenv.Skip(t, "no Delaware bundle: %v", err)
	}
	const key = "gs_mvt_style_key_0123456789abcdefghijk"
	base := inProcessServer(t, data, key)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome), chromedp.NoSandbox, chromedp.WindowSize(1024, 768),
		chromedp.Flag("no-proxy-server", true),
		// WebGL without a GPU: SwiftShader through ANGLE.
		chromedp.Flag("use-angle", "swiftshader"), chromedp.Flag("enable-unsafe-swiftshader", true), chromedp.Flag("ignore-gpu-blocklist", true))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	var mu sync.Mutex
	var pageErrors []chromedp.ConsoleMessage
	messages := chromedp.Console(bctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				mu.Lock()
				pageErrors = append(pageErrors, m)
				mu.Unlock()
			}
		}
	}()
	fail := func(step string, err error) {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("%s: %v\npage errors: %q", step, err, messageTexts(pageErrors))
	}
	// Bowers Beach on Delaware Bay at zoom 12: the bay, roads, towns.
	if err := chromedp.Do(bctx, chromedp.Navigate(base+"/console/vector.html#key="+key+"&lon=-75.45&lat=39.08&zoom=12")); err != nil {
		fail("load the page", err)
	}
	const loaded = `(() => { const m = window.geosvcVector && geosvcVector.map; return !!m && m.loaded() && m.areTilesLoaded() && m.isStyleLoaded(); })()`
	for deadline := time.Now().Add(90 * time.Second); ; {
		ok, err := chromedp.Run(bctx, chromedp.Evaluate[bool](loaded))
		if err != nil {
			fail("wait for the map", err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			st, _ := chromedp.Run(bctx, chromedp.Text(chromedp.ID("status")))
			fail("wait for the map", fmt.Errorf("not loaded within 90 s (status %q)", st))
		}
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(time.Second) // symbols fade in
	counts, err := chromedp.Run(bctx, chromedp.Evaluate[map[string]int](`(() => {
		const m = geosvcVector.map, out = {};
		for (const id of ['water', 'places', 'road-labels']) out[id] = m.queryRenderedFeatures({ layers: [id] }).length;
		out.roads = m.queryRenderedFeatures().filter((f) => f.sourceLayer === 'roads').length;
		return out; })()`))
	if err != nil {
		fail("rendered features", err)
	}
	t.Logf("rendered features: %v", counts)
	if counts["water"] == 0 || counts["roads"] == 0 || counts["places"] == 0 {
		t.Errorf("rendered features %v: want water, roads and placed place labels", counts)
	}
	shot, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
	if err != nil {
		fail("screenshot", err)
	}
	if p := os.Getenv("GEOSVC_SCREENSHOT"); p != "" { // to look at it
		_ = os.WriteFile(p, shot, 0o644)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	st := cartography.Default()
	near := func(a, b color.RGBA, tol int) bool {
		d := func(x, y uint8) int { return max(int(x)-int(y), int(y)-int(x)) }
		return d(a.R, b.R) <= tol && d(a.G, b.G) <= tol && d(a.B, b.B) <= tol
	}
	want := map[string]color.RGBA{
		"water": st.Background["Water"].Inner.Color,
		"road":  st.Road["RegionalRoad"].Inner.Color,
		"text":  st.Label["City1K"].Text.Color,
	}
	found := map[string]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			for n, w := range want {
				if near(c, w, 6) {
					found[n]++
				}
			}
		}
	}
	t.Logf("screenshot %dx%d: pixels by colour %v", b.Dx(), b.Dy(), found)
	if found["water"] < b.Dx()*b.Dy()/20 || found["road"] < 200 || found["text"] < 100 {
		p := t.TempDir() + "/vector.png"
		_ = os.WriteFile(p, shot, 0o644)
		t.Errorf("screenshot (saved %s): pixels %v, want water (5%% of the map), a regional road's fill (200) and label text (100)", p, found)
	}

	mu.Lock()
	defer mu.Unlock()
	if len(pageErrors) > 0 {
		t.Errorf("page errors: %q", messageTexts(pageErrors))
	}
}
