package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// consolePage drives the console's page in a browser tab for a test.
type consolePage struct {
	t       *testing.T
	ctx     context.Context
	base    string
	fail    func(step string, err error)
	waitFor func(step, cond string)
}

// eval evaluates a JavaScript expression into a value of type T.
func evalJS[T any](p *consolePage, step, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.fail(step, err)
	}
	return v
}

// view centres the map on lat, lon at a zoom, at once.
func (p *consolePage) view(lat, lon float64, zoom int) {
	p.t.Helper()
	evalJS[bool](p, "set the view", fmt.Sprintf(`geosvcConsole.map.setView([%v, %v], %d, {animate: false}); true`, lat, lon, zoom))
}

// clickAt clicks the map at lat, lon (on a whole pixel), in the view.
func (p *consolePage) clickAt(step string, lat, lon float64, opts ...chromedp.MouseOption) {
	p.t.Helper()
	xy := evalJS[[]float64](p, step, fmt.Sprintf(`(() => { const p = geosvcConsole.map.latLngToContainerPoint([%v, %v]); const r = document.getElementById('map').getBoundingClientRect(); return [r.left + p.x, r.top + p.y]; })()`, lat, lon))
	if err := chromedp.Do(p.ctx, chromedp.MouseClickXY(math.Round(xy[0]), math.Round(xy[1]), opts...)); err != nil {
		p.fail(step, err)
	}
}

// mode picks the mode of a click on the map.
func (p *consolePage) mode(m string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`input[name=mode][value=`+m+`]`))); err != nil {
		p.fail("mode "+m, err)
	}
}

// route plans a route by two clicks and answers the routev1 URL the
// console asked and the route's GeoJSON positions (none when the server
// answered no route).
func (p *consolePage) route(from, to [2]float64) (string, [][]float64) {
	p.t.Helper()
	n := evalJS[int](p, "count routes", `geosvcConsole.requests.filter((r) => r.url.startsWith('/routev1/')).length`)
	p.view(from[1], from[0], 15)
	p.clickAt("route start", from[1], from[0])
	p.waitFor("route start", `document.getElementById('route-summary').textContent.startsWith('Now click')`)
	p.view(to[1], to[0], 15)
	p.clickAt("route end", to[1], to[0])
	p.waitFor("route asked", fmt.Sprintf(`geosvcConsole.requests.filter((r) => r.url.startsWith('/routev1/')).length > %d`, n))
	p.waitFor("route answered", `/ km, |^No route/.test(document.getElementById('route-summary').textContent)`)
	u := evalJS[string](p, "route request", `geosvcConsole.requests.filter((r) => r.url.startsWith('/routev1/')).pop().url`)
	summary := evalJS[string](p, "route summary", `document.getElementById('route-summary').textContent`)
	p.t.Logf("route %s: %s", u, summary)
	if strings.HasPrefix(summary, "No route") {
		p.t.Errorf("route %s: %s", u, summary)
		return u, nil
	}
	return u, evalJS[[][]float64](p, "route geometry", `geosvcConsole.lastRoute.geometry.coordinates`)
}

// The Roth Bridge (DE-1 over the Chesapeake and Delaware Canal), the box
// around it and the route across it of docs/routev1.md.
var (
	rothBox  = [][2]float64{{-75.66, 39.547}, {-75.653, 39.547}, {-75.653, 39.554}, {-75.66, 39.554}}
	rothFrom = [2]float64{-75.654, 39.614}
	rothTo   = [2]float64{-75.656, 39.457}
	// A triangle in Dover, far from that route: the second area.
	doverTriangle = [][2]float64{{-75.53, 39.158}, {-75.52, 39.158}, {-75.525, 39.165}}
)

// truckVehicle is routev1's vehicle of the console's truck with the height
// typed in (the other fields are the page's defaults), in the page's order.
const truckVehicle = "height_m:4.5,width_m:2.55,length_m:16.5,weight_t:40,axle_load_t:10,hazmat:false,max_speed_kmh:90"

// consoleOptionsInBrowser drives the options of routes and matrices: the
// profiles offered (from /v1/info), a car route across the Roth Bridge,
// two areas drawn by clicks (one closed by Finish, one by a double-click),
// the truck with a height typed in, the route the console then asks
// (profile, vehicle, avoid_polygons in its URL) and the answer of this
// server (the route avoids the box), and a matrix order with the same
// fields in its body. It answers whether the matrix order ended in the
// server's error (a 400 the page's log shows).
func consoleOptionsInBrowser(p *consolePage) (orderRefused bool) {
	t := p.t
	t.Helper()

	// The profiles: /v1/info's, else car; truck with car.
	want := []string{"car", "truck"}
	res, err := http.Get(p.base + "/v1/info")
	if err != nil {
		t.Fatal(err)
	}
	var info struct {
		Profiles []string `json:"profiles"`
	}
	err = json.NewDecoder(res.Body).Decode(&info)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Profiles) > 0 {
		want = nil
		for _, p := range []string{"car", "truck", "bicycle", "foot"} {
			if slices.Contains(info.Profiles, p) || p == "truck" && slices.Contains(info.Profiles, "car") {
				want = append(want, p)
			}
		}
	}
	p.mode("route")
	options := `[...document.getElementById('profile').options].map((o) => o.value)`
	if got := evalJS[[]string](p, "profiles", options); !slices.Equal(got, want) {
		t.Errorf("profiles offered %q, want %q (/v1/info's profiles: %q)", got, want, info.Profiles)
	}
	for _, tc := range []struct {
		info string
		want []string
	}{
		{`{"profiles": ["car", "bicycle", "foot"]}`, []string{"car", "truck", "bicycle", "foot"}},
		{`{"profiles": ["foot", "bicycle"]}`, []string{"bicycle", "foot"}},
		{`{}`, []string{"car", "truck"}},
	} {
		got := evalJS[[]string](p, "offer", `geosvcConsole.options.offer(`+tc.info+`); `+options)
		if !slices.Equal(got, tc.want) {
			t.Errorf("/v1/info %s: profiles offered %q, want %q", tc.info, got, tc.want)
		}
	}
	evalJS[bool](p, "offer", `geosvcConsole.options.offer(geosvcConsole.v1info); document.getElementById('profile').value === 'car'`)

	// A car route across the bridge: no option in its URL.
	u, line := p.route(rothFrom, rothTo)
	q := query(t, u)
	for _, k := range []string{"profile", "vehicle", "avoid_polygons"} {
		if q.Has(k) {
			t.Errorf("a car route without areas: %s in %s", k, u)
		}
	}
	if line != nil && !crosses(line, rothBox) {
		t.Errorf("the car route from %v to %v does not cross the Roth Bridge's box: the check below proves nothing", rothFrom, rothTo)
	}

	// Two areas: the box by four clicks and Finish, the triangle by two
	// clicks and a double-click on its third corner.
	p.mode("avoid")
	p.view(39.5505, -75.6565, 15)
	for i, c := range rothBox {
		p.clickAt(fmt.Sprintf("box corner %d", i), c[1], c[0])
	}
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("avoid-finish"))); err != nil {
		p.fail("finish the box", err)
	}
	p.view(39.161, -75.525, 15)
	p.clickAt("triangle corner 0", doverTriangle[0][1], doverTriangle[0][0])
	p.clickAt("triangle corner 1", doverTriangle[1][1], doverTriangle[1][0])
	p.clickAt("triangle corner 2", doverTriangle[2][1], doverTriangle[2][0])
	p.clickAt("triangle double-click", doverTriangle[2][1], doverTriangle[2][0], chromedp.ClickCount(2))
	p.waitFor("two areas", `geosvcConsole.options.polygons.length === 2 && geosvcConsole.options.corners.length === 0`)
	if s := evalJS[string](p, "areas", `document.getElementById('avoid-status').textContent`); !strings.HasPrefix(s, "2 areas, 9 of 2000 positions") {
		t.Errorf("areas' status %q, want 2 areas, 9 of 2000 positions", s)
	}

	// The truck, its height typed in.
	evalJS[bool](p, "truck", `(() => { const s = document.getElementById('profile'); s.value = 'truck'; s.dispatchEvent(new Event('change')); document.getElementById('vehicle-height').value = ''; return true; })()`)
	if err := chromedp.Do(p.ctx, chromedp.SendKeys(chromedp.ID("vehicle-height"), "4.5")); err != nil {
		p.fail("type the height", err)
	}
	if h := evalJS[float64](p, "height", `document.getElementById('vehicle').hidden ? -1 : document.getElementById('vehicle-height').valueAsNumber`); h != 4.5 {
		t.Errorf("the truck's height field holds %v, want 4.5 (-1: hidden)", h)
	}

	// The truck's route: its URL carries profile, vehicle and both areas;
	// this server's route goes round the box.
	p.mode("route")
	u, line = p.route(rothFrom, rothTo)
	q = query(t, u)
	if got := q.Get("profile"); got != "truck" {
		t.Errorf("routev1 profile=%q, want truck (%s)", got, u)
	}
	if got := q.Get("vehicle"); got != truckVehicle {
		t.Errorf("routev1 vehicle=%q, want %q", got, truckVehicle)
	}
	areas := checkAreas(t, "routev1 avoid_polygons", []byte(q.Get("avoid_polygons")))
	if line != nil && areas != nil && crosses(line, areas) {
		t.Errorf("the route with the areas %v crosses the box drawn", areas)
	}

	// A 2 x 2 matrix of the truck with the areas: the order's body.
	p.mode("matrix")
	orders := evalJS[int](p, "count orders", `geosvcConsole.requests.filter((r) => r.url === '/tdmv1/order').length`)
	points := fmt.Sprintf("%v,%v\n%v,%v", rothFrom[0], rothFrom[1], rothTo[0], rothTo[1])
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("matrix-clear")), chromedp.SetValue(chromedp.ID("matrix-points"), points),
		chromedp.Click(chromedp.ID("matrix-order"))); err != nil {
		p.fail("order a truck's matrix", err)
	}
	p.waitFor("order sent", fmt.Sprintf(`geosvcConsole.requests.filter((r) => r.url === '/tdmv1/order').length > %d`, orders))
	body := evalJS[string](p, "order body", `geosvcConsole.requests.filter((r) => r.url === '/tdmv1/order').pop().body`)
	var order struct {
		Profile       string          `json:"profile"`
		Vehicle       map[string]any  `json:"vehicle"`
		AvoidPolygons json.RawMessage `json:"avoid_polygons"`
	}
	if err := json.Unmarshal([]byte(body), &order); err != nil {
		t.Fatalf("order body %s: %v", body, err)
	}
	if order.Profile != "truck" {
		t.Errorf("tdmv1 profile %q, want truck", order.Profile)
	}
	wantVehicle := map[string]any{"height_m": 4.5, "width_m": 2.55, "length_m": 16.5, "weight_t": 40.0, "axle_load_t": 10.0, "hazmat": false, "max_speed_kmh": 90.0}
	if fmt.Sprint(order.Vehicle) != fmt.Sprint(wantVehicle) {
		t.Errorf("tdmv1 vehicle %v, want %v", order.Vehicle, wantVehicle)
	}
	checkAreas(t, "tdmv1 avoid_polygons", order.AvoidPolygons)
	// This server may not take profile and vehicle yet: a heat map, or the
	// server's refusal shown as it came.
	p.waitFor("matrix answered", `document.querySelectorAll('#heatmap td.cell').length === 4 || /^invalid order/.test(document.getElementById('matrix-status').textContent)`)
	st := evalJS[string](p, "matrix status", `document.getElementById('matrix-status').textContent`)
	t.Logf("the truck's matrix: %q", st)

	// The limits the console keeps: an outline that crosses itself does not
	// close, and corners stop at 2000 positions (1999 corners and the
	// closing position).
	p.mode("avoid")
	p.view(39.5505, -75.6565, 15)
	bowtie := evalJS[[]any](p, "a bow-tie", `(() => { const o = geosvcConsole.options; o.clear();
		for (const [lat, lon] of [[39.547, -75.66], [39.554, -75.653], [39.547, -75.653], [39.554, -75.66]]) o.click(L.latLng(lat, lon));
		o.finish(); return [o.polygons.length, o.corners.length, o.message]; })()`)
	if fmt.Sprint(bowtie) != "[0 4 the outline crosses itself: undo corners]" {
		t.Errorf("a bow-tie's Finish: [polygons corners message] %v, want it refused", bowtie)
	}
	limit := evalJS[[]any](p, "2000 positions", `(() => { const o = geosvcConsole.options; o.clear();
		for (let i = 0; i < 2100; i++) o.click(L.latLng(39.5 + (i % 2) * 0.01, -75.7 + i * 0.0005));
		const r = [o.positions(), o.corners.length, o.message]; o.clear(); return r; })()`)
	if fmt.Sprint(limit) != "[2000 1999 at most 2000 positions in all: finish or clear]" {
		t.Errorf("2100 corners clicked: [positions corners message] %v, want 2000 positions", limit)
	}
	return strings.HasPrefix(st, "invalid order")
}

// query parses the query of a URL the console asked.
func query(t *testing.T, u string) url.Values {
	t.Helper()
	pu, err := url.Parse(u)
	if err != nil {
		t.Fatalf("%s: %v", u, err)
	}
	return pu.Query()
}

// checkAreas checks the avoid_polygons the console sent: a MultiPolygon of
// the box then the triangle drawn, each one closed counter-clockwise ring
// within a pixel or two of the corners clicked. It answers the box's ring.
func checkAreas(t *testing.T, what string, raw []byte) [][2]float64 {
	t.Helper()
	var g struct {
		Type        string           `json:"type"`
		Coordinates [][][][2]float64 `json:"coordinates"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Errorf("%s %s: %v", what, raw, err)
		return nil
	}
	if g.Type != "MultiPolygon" || len(g.Coordinates) != 2 || len(g.Coordinates[0]) != 1 || len(g.Coordinates[1]) != 1 {
		t.Errorf("%s %s: want a MultiPolygon of two polygons of one ring", what, raw)
		return nil
	}
	for i, corners := range [][][2]float64{rothBox, doverTriangle} {
		ring := g.Coordinates[i][0]
		if len(ring) != len(corners)+1 || ring[0] != ring[len(ring)-1] {
			t.Errorf("%s polygon %d: ring %v, want %d corners closed", what, i, ring, len(corners))
			continue
		}
		for j, c := range corners {
			// A pixel at zoom 15 is about 4 m: 0.00005 degrees.
			if math.Abs(ring[j][0]-c[0]) > 1.5e-4 || math.Abs(ring[j][1]-c[1]) > 1.5e-4 {
				t.Errorf("%s polygon %d position %d: %v, want the corner clicked, %v", what, i, j, ring[j], c)
			}
		}
	}
	return g.Coordinates[0][0][:len(g.Coordinates[0][0])-1]
}

// crosses reports whether a line has a position inside the polygon of
// corners or a segment crossing its outline.
func crosses(line [][]float64, corners [][2]float64) bool {
	n := len(corners)
	for i, p := range line {
		pt := [2]float64{p[0], p[1]}
		if inside(pt, corners) {
			return true
		}
		if i == 0 {
			continue
		}
		prev := [2]float64{line[i-1][0], line[i-1][1]}
		for j := range n {
			if segmentsCross(prev, pt, corners[j], corners[(j+1)%n]) {
				return true
			}
		}
	}
	return false
}

// inside: the even-odd rule.
func inside(p [2]float64, corners [][2]float64) bool {
	in := false
	for i, j := 0, len(corners)-1; i < len(corners); j, i = i, i+1 {
		a, b := corners[i], corners[j]
		if (a[1] > p[1]) != (b[1] > p[1]) && p[0] < (b[0]-a[0])*(p[1]-a[1])/(b[1]-a[1])+a[0] {
			in = !in
		}
	}
	return in
}

func segmentsCross(a, b, c, d [2]float64) bool {
	orient := func(p, q, r [2]float64) float64 {
		return (q[0]-p[0])*(r[1]-p[1]) - (q[1]-p[1])*(r[0]-p[0])
	}
	return orient(a, b, c)*orient(a, b, d) <= 0 && orient(c, d, a)*orient(c, d, b) <= 0
}
