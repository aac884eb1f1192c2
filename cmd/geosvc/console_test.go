package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/geosvc/geosvc/internal/testenv"
)

// chromiumPath finds a headless-capable Chromium or Chrome.
func chromiumPath() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no chromium on PATH (Debian: apt-get install chromium)")
}

// TestConsoleInBrowser drives the web console in headless Chromium against
// `geosvc serve` on the Delaware bundle: the key from the URL's fragment,
// geosvc's own vector tiles in MapLibre GL (and the raster tiles as the
// fallback base map), a search, a click's time zone and ZIP code, a 5 x 5
// matrix's heat map, a click's isochrone, the options of routes and matrices (profile, a
// truck's dimensions, areas drawn to avoid: consoleOptionsInBrowser), and
// a screenshot that is a map. Errors in the page's
// console (a Content-Security-Policy refusal among them) fail it.
func TestConsoleInBrowser(t *testing.T) {
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
	base, key, _, server := plainServe(t, data, "GEOSVC_ADMIN_ADDR=")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome), chromedp.NoSandbox, chromedp.WindowSize(1280, 800),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("no-proxy-server", true),
		// WebGL without a GPU (the vector base map): SwiftShader through ANGLE.
		chromedp.Flag("use-angle", "swiftshader"), chromedp.Flag("enable-unsafe-swiftshader", true), chromedp.Flag("ignore-gpu-blocklist", true))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()

	var mu sync.Mutex
	var pageErrors []chromedp.ConsoleMessage
	// Errors of the page: exceptions, console.error, and the browser log's
	// errors (a refusal of the Content-Security-Policy, a failed load).
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
		t.Fatalf("%s: %v\npage errors: %q\nserver log (tail):\n%s", step, err, messageTexts(pageErrors), tail(server.log(), 3000))
	}
	// waitFor polls a JavaScript condition until it holds.
	waitFor := func(step, cond string) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			ok, err := chromedp.Run(bctx, chromedp.Evaluate[bool](cond))
			if err != nil {
				fail(step, err)
			}
			if ok {
				return
			}
			if time.Now().After(deadline) {
				status, _ := chromedp.Run(bctx, chromedp.Text(chromedp.ID("status")))
				fail(step, fmt.Errorf("%s did not hold within 60 s (status line %q)", cond, status))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	// The page, with the key in the fragment; the map on geosvc's tiles.
	if err := chromedp.Do(bctx, chromedp.Navigate(base+"/#key="+key)); err != nil {
		fail("load the console", err)
	}
	// The base map: MapLibre GL on geosvc's vector tiles (WebGL by
	// SwiftShader), then the raster tiles, the fallback, chosen instead,
	// then the vector map again for the rest.
	const vectorLoaded = `(() => { const v = geosvcConsole.vector, m = v && v.getMaplibreMap(); return geosvcConsole.base === 'vector' && !!m && m.loaded() && m.areTilesLoaded() && m.queryRenderedFeatures().length > 0; })()`
	waitFor("vector base map", vectorLoaded)
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`geosvcConsole.map.removeLayer(geosvcConsole.vector); geosvcConsole.tiles.addTo(geosvcConsole.map); true`)); err != nil {
		fail("raster base map", err)
	}
	waitFor("raster tiles", `document.querySelectorAll('.leaflet-tile-loaded').length >= 6`)
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`geosvcConsole.map.removeLayer(geosvcConsole.tiles); geosvcConsole.vector.addTo(geosvcConsole.map); geosvcConsole.base = 'vector'; true`)); err != nil {
		fail("vector base map again", err)
	}
	waitFor("vector base map again", vectorLoaded)
	paint, err := chromedp.Run(bctx, chromedp.Evaluate[float64](`(performance.getEntriesByName('first-contentful-paint')[0] || performance.getEntriesByType('paint')[0] || {startTime: -1}).startTime`))
	if err != nil {
		fail("first paint", err)
	}
	t.Logf("first contentful paint: %.0f ms", paint)
	stored, err := chromedp.Run(bctx, chromedp.Evaluate[string](`localStorage.getItem('geosvc.key')`))
	if err != nil {
		fail("key", err)
	}
	hash, err := chromedp.Run(bctx, chromedp.Evaluate[string](`location.hash`))
	if err != nil {
		fail("key", err)
	}
	if stored != key || hash != "" {
		t.Errorf("the key from the fragment: stored %q, the fragment left %q", stored, hash)
	}

	// Search "Dover": a marker at Dover, Delaware's capital.
	// requestSubmit fires the form's submit event as the Enter key does
	// (chromedp.Submit calls form.submit(), which skips the page's handler
	// and reloads the page).
	if err := chromedp.Do(bctx, chromedp.SetValue(chromedp.ID("search-input"), "Dover")); err != nil {
		fail("search", err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`document.getElementById('search').requestSubmit(); true`)); err != nil {
		fail("search", err)
	}
	waitFor("search results", `geosvcConsole.search.getLayers().length > 0`)
	first, err := chromedp.Run(bctx, chromedp.Evaluate[[]float64](`(() => { const ll = geosvcConsole.search.getLayers()[0].getLatLng(); return [ll.lat, ll.lng]; })()`))
	if err != nil {
		fail("search marker", err)
	}
	// Dover, DE: 39.1582 N, 75.5244 W.
	if len(first) != 2 || math.Abs(first[0]-39.1582) > 0.02 || math.Abs(first[1]+75.5244) > 0.02 {
		t.Errorf("the first marker of \"Dover\" is at %v, want Dover, DE (39.158, -75.524)", first)
	}

	// A click in Dover: its time zone and ZIP code (the search's marker,
	// which would take the click, cleared first).
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`geosvcConsole.search.clearLayers(); geosvcConsole.map.setView([39.1582, -75.5244], 15, {animate: false}); true`)); err != nil {
		fail("position the click", err)
	}
	xy, err := chromedp.Run(bctx, chromedp.Evaluate[[]float64](`(() => { const p = geosvcConsole.map.latLngToContainerPoint([39.1582, -75.5244]); const r = document.getElementById('map').getBoundingClientRect(); return [r.left + p.x, r.top + p.y]; })()`))
	if err != nil {
		fail("position the click", err)
	}
	if err := chromedp.Do(bctx, chromedp.MouseClickXY(xy[0], xy[1])); err != nil {
		fail("click", err)
	}
	waitFor("point info", `['info-tz', 'info-zip', 'info-admin'].every((id) => !['', '…'].includes(document.getElementById(id).textContent))`)
	text := func(id string) string {
		v, err := chromedp.Run(bctx, chromedp.Text(chromedp.ID(id)))
		if err != nil {
			fail("read "+id, err)
		}
		return v
	}
	tz, zip, position := text("info-tz"), text("info-zip"), text("info-position")
	if !strings.Contains(tz, "UTC-05:00") || !strings.Contains(tz, "Eastern") {
		t.Errorf("time zone text %q, want UTC-05:00 Eastern ...", tz)
	}
	if !strings.HasPrefix(zip, "19901") && !strings.HasPrefix(zip, "19904") {
		t.Errorf("ZIP+4 text %q at %s, want 19901 or 19904", zip, position)
	}
	// The administrative areas, country first, from one xy2hierarchy
	// request.
	if admin := text("info-admin"); admin != "United States of America › Delaware › Kent County › Dover" {
		t.Errorf("administrative areas %q at %s, want United States of America › Delaware › Kent County › Dover", admin, position)
	}

	// A 5 x 5 matrix: 25 cells in the heat map.
	points := "-75.5244,39.1582\n-75.5466,39.7391\n-75.0789,38.7746\n-75.7527,39.6837\n-75.4244,38.9140"
	if err := chromedp.Do(bctx,
		chromedp.Click(chromedp.CSS(`input[name=mode][value=matrix]`)),
		chromedp.SetValue(chromedp.ID("matrix-points"), points),
		chromedp.Click(chromedp.ID("matrix-order"))); err != nil {
		fail("order a matrix", err)
	}
	waitFor("heat map", `document.querySelectorAll('#heatmap td.cell').length === 25`)
	diag, err := chromedp.Run(bctx, chromedp.Evaluate[[]float64](`[...document.querySelectorAll('#heatmap tbody tr')].map((tr, i) => Number(tr.querySelectorAll('td.cell')[i].dataset.seconds))`))
	if err != nil {
		fail("heat map", err)
	}
	for i, d := range diag {
		if d != 0 {
			t.Errorf("heat map cell %d,%d: %v s, want 0 (a point to itself)", i+1, i+1, d)
		}
	}

	// An isochrone from Dover: 5 and 10 minutes, two polygons drawn
	// beside the clicked point, the larger first.
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`geosvcConsole.map.setView([39.1582, -75.5244], 12, {animate: false}); true`)); err != nil {
		fail("position the isochrone click", err)
	}
	if err := chromedp.Do(bctx,
		chromedp.Click(chromedp.CSS(`input[name=mode][value=isochrone]`)),
		chromedp.SetValue(chromedp.ID("isochrone-contours"), "5,10")); err != nil {
		fail("isochrone mode", err)
	}
	xy, err = chromedp.Run(bctx, chromedp.Evaluate[[]float64](`(() => { const p = geosvcConsole.map.latLngToContainerPoint([39.1582, -75.5244]); const r = document.getElementById('map').getBoundingClientRect(); return [r.left + p.x, r.top + p.y]; })()`))
	if err != nil {
		fail("position the isochrone click", err)
	}
	if err := chromedp.Do(bctx, chromedp.MouseClickXY(xy[0], xy[1])); err != nil {
		fail("isochrone click", err)
	}
	waitFor("isochrone", `geosvcConsole.isochrone.getLayers().length === 3`)
	if got := text("isochrone-summary"); got != "5, 10 min from the point" {
		t.Errorf("isochrone summary %q, want \"5, 10 min from the point\"", got)
	}

	// The options of routes and matrices: profile, truck, areas to avoid.
	orderRefused := consoleOptionsInBrowser(&consolePage{t: t, ctx: bctx, base: base, fail: fail, waitFor: waitFor})

	// The view as a picture: a map has many colours.
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
	if n := countColors(img); n < 200 {
		t.Errorf("the screenshot has %d colours, want a map (200 or more)", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if orderRefused {
		// The browser logs the 400 of the truck's matrix order (a server
		// without profile and vehicle yet): expected.
		pageErrors = slices.DeleteFunc(pageErrors, func(m chromedp.ConsoleMessage) bool {
			return m.Source == "network" && strings.HasSuffix(m.URL, "/tdmv1/order") && strings.Contains(m.Text, "400")
		})
	}
	if len(pageErrors) > 0 {
		t.Errorf("errors in the page: %q", messageTexts(pageErrors))
	}
}

// messageTexts answers the messages of the page's console as text.
func messageTexts(ms []chromedp.ConsoleMessage) []string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = m.String()
		if m.URL != "" {
			s[i] += " (" + m.URL + ")"
		}
	}
	return s
}

// countColors counts the distinct colours of an image.
func countColors(img image.Image) int {
	seen := map[[3]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
		}
	}
	return len(seen)
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
