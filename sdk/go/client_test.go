package geosvc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"math"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	geosvc "github.com/geosvc/geosvc/sdk/go"
	"github.com/geosvc/geosvc/sdk/go/openapi"
)

// dover is a point of Dover, Delaware (Kings Highway), the examples' point.
var dover = geosvc.Point{Lon: -75.5244, Lat: 39.1582}

// wilmington is a point of downtown Wilmington, Delaware.
var wilmington = geosvc.Point{Lon: -75.5466, Lat: 39.7447}

// bombayHook is a point in the Bombay Hook National Wildlife Refuge.
var bombayHook = geosvc.Point{Lon: -75.47, Lat: 39.26}

func newClient(t *testing.T, key string, opts ...geosvc.Option) *geosvc.Client {
	t.Helper()
	c, err := geosvc.New(testServer(t), key, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// rest sends a request by hand (not through the SDK) and decodes a 200's
// JSON into out; it returns the status.
func rest(t *testing.T, method, path, key string, body, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, testServer(t)+path, rd)
	req.Header.Set("x-api-key", key)
	if body != nil {
		req.Header.Set("content-type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v\n%.300s", path, err, b)
		}
	}
	return resp.StatusCode
}

// uniqueEmail is an address no trial of the server has used (one active
// trial per address; -count=2 reuses the server).
func uniqueEmail(name string) string {
	return fmt.Sprintf("%s-%d@example.com", name, time.Now().UnixNano())
}

// haversine is the great-circle distance in metres.
func haversine(a, b geosvc.Point) float64 {
	const r = 6371008.8
	rad := math.Pi / 180
	dLat, dLon := (b.Lat-a.Lat)*rad, (b.Lon-a.Lon)*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(a.Lat*rad)*math.Cos(b.Lat*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * r * math.Asin(math.Sqrt(h))
}

func contains(b *geosvc.Bounds, p geosvc.Point) bool {
	return b != nil && b.MinLon <= p.Lon && p.Lon <= b.MaxLon && b.MinLat <= p.Lat && p.Lat <= b.MaxLat
}

// slippy is the XYZ tile of p at zoom z, by the web-mercator formulas.
func slippy(p geosvc.Point, z int) (x, y int) {
	n := math.Exp2(float64(z))
	lat := p.Lat * math.Pi / 180
	return int((p.Lon + 180) / 360 * n), int((1 - math.Log(math.Tan(lat)+1/math.Cos(lat))/math.Pi) / 2 * n)
}

// TestInterfaces calls every interface once through the SDK and checks a
// value known of Delaware or computed independently.
func TestInterfaces(t *testing.T) {
	t.Parallel()
	c := newClient(t, demoKey)
	ctx := context.Background()
	info, err := c.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"info", func(t *testing.T) {
			for _, want := range []string{"adminv1", "covidv1", "geoboundariesv1", "geocoderv1", "keysv1", "routev1", "tdmv1", "tilesv1", "timezonesv1", "zip4v1"} {
				if !slices.Contains(info.Interfaces, want) {
					t.Errorf("interfaces %v lack %s", info.Interfaces, want)
				}
			}
			if info.Data == nil || info.Data.Name != "delaware-latest" {
				t.Errorf("bundle %+v, want delaware-latest", info.Data)
			}
		}},
		{"timezonesv1", func(t *testing.T) {
			tz, err := c.TimeZone(ctx, dover)
			if err != nil {
				t.Fatal(err)
			}
			if tz.Name != "America/New_York" || tz.TimeZone.TimeZone != "UTC-05:00" {
				t.Errorf("Dover: zone %q %q, want America/New_York UTC-05:00", tz.Name, tz.TimeZone.TimeZone)
			}
		}},
		{"adminv1", func(t *testing.T) {
			a, err := c.Admin(ctx, dover, geosvc.Admin5)
			if err != nil {
				t.Fatal(err)
			}
			if a.Area() == nil || a.Area().Properties.Name != "Kent County" {
				t.Fatalf("Dover admin5: %+v, want Kent County", a.Features)
			}
			// The top-level bbox is written latitude first: read the
			// other way round it would not hold Dover.
			if !contains(a.Bounds, dover) || !contains(a.AreaBounds(), dover) {
				t.Errorf("Kent County bounds %+v / %+v do not hold Dover %v", a.Bounds, a.AreaBounds(), dover)
			}
		}},
		{"zip4v1", func(t *testing.T) {
			z, err := c.ZIP4(ctx, dover) // sent x = latitude
			if err != nil {
				t.Fatal(err)
			}
			if len(z.Features) == 0 || z.Features[0].Properties.Zip9 != "199010936" || !contains(z.Bounds, dover) {
				t.Fatalf("Dover ZIP+4: %+v bounds %+v, want 199010936 around the point", z.Features, z.Bounds)
			}
			byCode, err := c.ZIP4Code(ctx, "199010936")
			if err != nil {
				t.Fatal(err)
			}
			if len(byCode.Features) == 0 || byCode.Features[0].Properties.Zip != "19901" {
				t.Errorf("199010936: %+v", byCode.Features)
			}
		}},
		{"geocoderv1", func(t *testing.T) {
			g, err := c.Geocode(ctx, "Dover, DE", nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Results) == 0 {
				t.Fatal("Dover, DE: no result")
			}
			loc := g.Results[0].Geometry.Location
			if d := haversine(dover, geosvc.Point{Lon: loc.Lng, Lat: loc.Lat}); d > 3000 {
				t.Errorf("Dover, DE at %+v, %.0f m from Dover", loc, d)
			}
			r, err := c.ReverseGeocode(ctx, dover, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Results) == 0 || !strings.Contains(r.Results[0].FormattedAddress, "Dover, DE") {
				t.Errorf("reverse Dover: %+v", r.Results)
			}
			// Dover's place node has name:ru=Довер (checked in the OSM
			// data): lang names the town in Russian; restricting to a box
			// around Wilmington leaves Dover out.
			ru, err := c.Geocode(ctx, "Dover, DE", &geosvc.GeocodeOptions{Lang: "ru"})
			if err != nil || len(ru.Results) == 0 || !strings.Contains(ru.Results[0].FormattedAddress, "Довер") {
				t.Errorf("Dover, DE in Russian: %v %+v", err, ru)
			}
			far, err := c.Geocode(ctx, "Dover, DE", &geosvc.GeocodeOptions{Bounds: "39.70,-75.60|39.80,-75.50", BoundsRestrict: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, res := range far.Results {
				if loc := res.Geometry.Location; loc.Lat < 39.70 || loc.Lat > 39.80 {
					t.Errorf("restricted to Wilmington's box: %s at %+v", res.FormattedAddress, loc)
				}
			}
			_, err = c.Geocode(ctx, "", nil)
			var apiErr *geosvc.APIError
			if !errors.As(err, &apiErr) || apiErr.Status != "INVALID_REQUEST" {
				t.Errorf("empty address: %v, want INVALID_REQUEST", err)
			}
		}},
		{"geocoderv1 autocomplete", func(t *testing.T) {
			// Rehoboth Beach's town node, before the streets named after it.
			a, err := c.Autocomplete(ctx, "Rehob", &geosvc.AutocompleteOptions{Limit: 5, Layers: []string{"place", "street"}})
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Results) == 0 || a.Results[0].AddressComponents[0].LongName != "Rehoboth Beach" {
				t.Errorf("Rehob: %+v", a.Results)
			}
			// Of the extract's 28 nodes and ways named Wawa, the POI
			// nearest Dover (4.4 km; a WaWa node nearer has no shop tag).
			w, err := c.Autocomplete(ctx, "Waw", &geosvc.AutocompleteOptions{Focus: &dover})
			if err != nil {
				t.Fatal(err)
			}
			if len(w.Results) == 0 || w.Results[0].PlaceId != "en2091657479" {
				t.Errorf("Waw near Dover: %+v", w.Results)
			}
			// Dover's place node has name:ru=Довер.
			ru, err := c.Autocomplete(ctx, "Dover", &geosvc.AutocompleteOptions{Lang: "ru", Layers: []string{"place"}})
			if err != nil {
				t.Fatal(err)
			}
			if len(ru.Results) == 0 || ru.Results[0].AddressComponents[0].LongName != "Довер" {
				t.Errorf("Dover in ru: %+v", ru.Results)
			}
			_, err = c.Autocomplete(ctx, "Dov", &geosvc.AutocompleteOptions{Limit: 21})
			var apiErr *geosvc.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || apiErr.Status != "INVALID_REQUEST" || !strings.Contains(apiErr.Message, "limit") {
				t.Errorf("limit 21: %v, want a 400 INVALID_REQUEST naming limit", err)
			}
		}},
		{"geoboundariesv1", func(t *testing.T) {
			bs, err := c.GeoBoundaries(ctx, bombayHook, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(bs) == 0 || bs[0].GeoBoundaryName == nil || *bs[0].GeoBoundaryName != "Bombay Hook National Wildlife Refuge" || bs[0].CategoryCode != 922 {
				t.Errorf("Bombay Hook: %+v", bs)
			}
			bs, err = c.GeoBoundaries(ctx, bombayHook, 921)
			if err != nil || len(bs) != 0 {
				t.Errorf("Bombay Hook protected_area: %+v, %v; want none", bs, err)
			}
		}},
		{"covidv1", func(t *testing.T) {
			h, err := c.CovidAt(ctx, dover, "admin2", time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if p0, ok := h.HierarchyData["p0"]; !ok || p0.Name != "Kent" {
				t.Errorf("Dover admin2: %+v, want Kent", h.HierarchyData)
			}
			cs, err := c.CovidCountries(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(cs.Codes, func(c struct {
				ISO3     string `json:"ISO3"`
				DialCode string `json:"dial_code"`
				Name     string `json:"name"`
			}) bool {
				return c.ISO3 == "USA"
			}) {
				t.Errorf("countries lack USA: %d codes", len(cs.Codes))
			}
			x, y := slippy(dover, 16)
			tile, err := c.CovidTileAt(ctx, dover, 16)
			if err != nil {
				t.Fatal(err)
			}
			if len(tile.Features) != 1 || tile.Features[0].Properties.XIndex != x || tile.Features[0].Properties.YIndex != y {
				t.Fatalf("tile of Dover: %+v, want %d/%d", tile.Features, x, y)
			}
			byIndex, err := c.CovidTile(ctx, x, y, 16)
			if err != nil {
				t.Fatal(err)
			}
			if len(byIndex.Features) != 1 || byIndex.Features[0].Id != tile.Features[0].Id {
				t.Errorf("index2tile %d/%d: %+v, want %s", x, y, byIndex.Features, tile.Features[0].Id)
			}
		}},
		{"routev1", func(t *testing.T) {
			r, err := c.Route(ctx, dover, wilmington, geosvc.Fastest)
			if err != nil {
				t.Fatal(err)
			}
			var want openapi.Route
			if st := rest(t, "GET", "/routev1/route?from=-75.5244,39.1582&to=-75.5466,39.7447", demoKey, nil, &want); st != 200 {
				t.Fatalf("REST route: %d", st)
			}
			if !reflect.DeepEqual(*r, want) {
				t.Errorf("SDK route %d m %d s differs from the REST answer %d m %d s", r.Distance, r.Duration, want.Distance, want.Duration)
			}
			if crow := haversine(dover, wilmington); float64(r.Distance) < crow || float64(r.Distance) > 2*crow {
				t.Errorf("Dover-Wilmington %d m, straight line %.0f m", r.Distance, crow)
			}
			if len(r.Steps) < 2 || r.Steps[0].Maneuver != "depart" || r.Steps[len(r.Steps)-1].Maneuver != "arrive" {
				t.Errorf("steps %+v", r.Steps)
			}
		}},
		{"matchv1", func(t *testing.T) {
			// docs/matching.md's trace: routev1's route from -75.56,39.73
			// to -75.545,39.746 (3065 m), six of its vertices moved ~5 m.
			pts := [][2]float64{{-75.56176, 39.73006}, {-75.56144, 39.73433}, {-75.55803, 39.73910}, {-75.55200, 39.73770}, {-75.54893, 39.73866}, {-75.54518, 39.74606}}
			body := openapi.MatchJSONRequestBody{}
			for _, p := range pts {
				body.Points = append(body.Points, openapi.TracePoint{Lon: p[0], Lat: p[1]})
			}
			m, err := c.Match(ctx, body)
			if err != nil {
				t.Fatal(err)
			}
			var want openapi.MatchAnswer
			if st := rest(t, "POST", "/matchv1/match", demoKey, body, &want); st != 200 {
				t.Fatalf("REST match: %d", st)
			}
			if !reflect.DeepEqual(*m, want) {
				t.Errorf("SDK match differs from the REST answer")
			}
			if len(m.Matchings) != 1 || m.Matchings[0].Distance < 3000 || m.Matchings[0].Distance > 3200 || len(m.Tracepoints) != len(pts) {
				t.Errorf("match: %+v, want one matching of about 3065 m", m.Matchings)
			}
		}},
		{"routev1 with options", func(t *testing.T) {
			newark, wilm := geosvc.Point{Lon: -75.75, Lat: 39.68}, geosvc.Point{Lon: -75.55, Lat: 39.74}
			r, err := c.RouteWith(ctx, newark, wilm, geosvc.RouteOptions{Routing: geosvc.Fastest,
				Speeds: map[string]float64{"Motorway": 80, "LocalRoadCity": 25}, Avoid: []string{"toll"}, Alternatives: 2})
			if err != nil {
				t.Fatal(err)
			}
			var want openapi.Route
			q := "/routev1/route?from=-75.75,39.68&to=-75.55,39.74&routing=fastest&speeds=LocalRoadCity:25,Motorway:80&avoid=toll&alternatives=2"
			if st := rest(t, "GET", q, demoKey, nil, &want); st != 200 {
				t.Fatalf("REST route: %d", st)
			}
			if !reflect.DeepEqual(*r, want) {
				t.Errorf("SDK route %d m %d s differs from the REST answer %d m %d s", r.Distance, r.Duration, want.Distance, want.Duration)
			}
			if r.Alternatives == nil || len(*r.Alternatives) == 0 {
				t.Fatalf("no alternatives between Newark and Wilmington: %v", r.Alternatives)
			}
			for _, a := range *r.Alternatives {
				if a.Duration < r.Duration || len(a.Steps) < 2 {
					t.Errorf("alternative %d s with %d steps, best %d s", a.Duration, len(a.Steps), r.Duration)
				}
			}
			if _, err := c.RouteWith(ctx, newark, wilm, geosvc.RouteOptions{Speeds: map[string]float64{"Autobahn": 120}}); err == nil || !strings.Contains(err.Error(), "RoadType") {
				t.Errorf("a speed of no RoadType: %v", err)
			}
		}},
		{"tilesv1", func(t *testing.T) {
			x, y := slippy(dover, 14)
			b, err := c.Tile(ctx, 14, x, y)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil || img.Bounds().Dx() != 256 || img.Bounds().Dy() != 256 {
				t.Errorf("tile 14/%d/%d: %v, %v", x, y, err, img)
			}
			tok, err := c.TileToken(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if tok.Token == "" || time.Until(tok.ExpiresAt) < 50*time.Minute {
				t.Errorf("tile token %+v", tok)
			}
			// The token opens the tile without the key, as a browser map uses it.
			resp, err := http.Get(fmt.Sprintf("%s/tilesv1/14/%d/%d.png?token=%s", testServer(t), x, y, url.QueryEscape(tok.Token)))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("tile by token: %d", resp.StatusCode)
			}
		}},
		{"tilesv1 @2x", func(t *testing.T) {
			x, y := slippy(dover, 14)
			b, err := c.Tile2x(ctx, 14, x, y)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil || img.Bounds().Dx() != 512 || img.Bounds().Dy() != 512 {
				t.Errorf("tile 14/%d/%d@2x: %v, %v", x, y, err, img)
			}
		}},
		{"mapsv1", func(t *testing.T) {
			b, err := c.StaticMap(ctx, geosvc.StaticMapOptions{Width: 300, Height: 200, Scale: 2, Route: []geosvc.Point{dover, {Lon: -75.55, Lat: 39.74}},
				Markers: []string{"color:blue|label:D|" + dover.String()}})
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil || img.Bounds().Dx() != 600 || img.Bounds().Dy() != 400 {
				t.Errorf("static map: %v, %v", err, img)
			}
			if _, err := c.StaticMap(ctx, geosvc.StaticMapOptions{Width: 300, Height: 200, Center: &dover, Zoom: 21}); err == nil || !strings.Contains(err.Error(), "zoom") {
				t.Errorf("zoom 21: %v, want a 400 naming zoom", err)
			}
		}},
		{"keysv1", func(t *testing.T) {
			s, err := c.Usage(ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			if s.Plan != "internal" || s.Month != time.Now().UTC().Format("2006-01") {
				t.Errorf("statement %+v, want plan internal of this month", s)
			}
			name := "SDK test"
			k, err := c.Trial(ctx, openapi.TrialRequest{Email: uniqueEmail("go-interfaces"), Name: &name})
			if err != nil {
				t.Fatal(err)
			}
			if k.Plan != "slow" || !strings.HasPrefix(k.ApiKey, "gs_") {
				t.Errorf("trial %+v, want a key on plan slow", k)
			}
			_, err = c.Checkout(ctx, openapi.CheckoutRequest{Plan: "slow"})
			var apiErr *geosvc.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusNotFound || !strings.Contains(apiErr.Message, "not sold online") {
				t.Errorf("checkout without a payment provider: %v, want 404 not sold online", err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

// TestMatrixEqualsREST orders a matrix through the SDK and the same one
// by hand (order, then fetch until Finished) and compares them.
func TestMatrixEqualsREST(t *testing.T) {
	t.Parallel()
	c := newClient(t, demoKey)
	origins := []geosvc.Point{dover, wilmington, {Lon: -75.7527, Lat: 39.6837}} // Newark
	dests := []geosvc.Point{{Lon: -75.1391, Lat: 38.7746}, dover, wilmington}   // Lewes
	var progress int
	got, err := c.Matrix(context.Background(), origins, dests, &geosvc.MatrixOptions{Wait: time.Second, OnProgress: func(openapi.JobStatus) { progress++ }})
	if err != nil {
		t.Fatal(err)
	}

	var accepted struct{ UUID string }
	order := map[string]any{
		"origin_addresses":      []string{"-75.5244,39.1582", "-75.5466,39.7447", "-75.7527,39.6837"},
		"destination_addresses": []string{"-75.1391,38.7746", "-75.5244,39.1582", "-75.5466,39.7447"},
	}
	if st := rest(t, "POST", "/tdmv1/order", demoKey, order, &accepted); st != 200 {
		t.Fatalf("REST order: %d", st)
	}
	var want openapi.MatrixResult
	for deadline := time.Now().Add(60 * time.Second); want.Status != "Finished"; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("REST matrix not Finished within 60 s")
		}
		if st := rest(t, "POST", "/tdmv1/fetch", demoKey, map[string]string{"uuid": accepted.UUID}, &want); st != 200 {
			t.Fatalf("REST fetch: %d", st)
		}
	}
	if got.Duration == nil || got.Distance == nil || !reflect.DeepEqual(got.Duration, want.Duration) || !reflect.DeepEqual(got.Distance, want.Distance) {
		t.Errorf("SDK matrix differs from the REST one:\n%s\n%s", dump(got), dump(&want))
	}
	if d := (*got.Distance)[0][1]; d == nil || *d > 50 {
		t.Errorf("Dover to Dover: %v m", d)
	}
	if got.OriginAddresses[0] != "-75.5244,39.1582" {
		t.Errorf("origin written %q, want lon,lat", got.OriginAddresses[0])
	}
	t.Logf("%d progress reports", progress)
}

func dump(m *geosvc.MatrixResult) string {
	b, _ := json.Marshal(struct{ Duration, Distance any }{m.Duration, m.Distance})
	return string(b)
}

// statusRecorder is a transport that records the status of every answer.
type statusRecorder struct {
	mu       sync.Mutex
	statuses []int
}

func (s *statusRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		s.mu.Lock()
		s.statuses = append(s.statuses, resp.StatusCode)
		s.mu.Unlock()
	}
	return resp, err
}

// TestRetry429 drains the rate limit of a key on the plan "slow" (one
// request a second, a burst of one) and checks that the SDK's next call
// is answered 429, waits the Retry-After and succeeds; with retries off it
// returns the 429 as an APIError with its Retry-After.
func TestRetry429(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	k, err := newClient(t, "").Trial(ctx, openapi.TrialRequest{Email: uniqueEmail("go-retry")})
	if err != nil {
		t.Fatal(err)
	}
	rec := &statusRecorder{}
	c := newClient(t, k.ApiKey, geosvc.WithHTTPClient(&http.Client{Transport: rec}))
	path := "/timezonesv1/xy2tzdata?x=-75.5244&y=39.1582"
	// The first attempt can miss the 429 only if a second passed between
	// the draining request and it; a few tries make that harmless.
	for try := 0; try < 3; try++ {
		rec.mu.Lock()
		rec.statuses = nil
		rec.mu.Unlock()
		rest(t, "GET", path, k.ApiKey, nil, nil)
		tz, err := c.TimeZone(ctx, dover)
		if err != nil {
			t.Fatal(err)
		}
		if tz.Name != "America/New_York" {
			t.Errorf("zone %q", tz.Name)
		}
		rec.mu.Lock()
		st := rec.statuses
		rec.mu.Unlock()
		if len(st) >= 2 && st[0] == http.StatusTooManyRequests && st[len(st)-1] == http.StatusOK {
			t.Logf("answers %v", st)
			break
		}
		if try == 2 {
			t.Fatalf("answers %v, want 429 then 200", st)
		}
	}

	noRetry := newClient(t, k.ApiKey, geosvc.WithRetries(0, 0))
	for try := 0; ; try++ {
		rest(t, "GET", path, k.ApiKey, nil, nil)
		_, err = noRetry.TimeZone(ctx, dover)
		var apiErr *geosvc.APIError
		if errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusTooManyRequests {
			if apiErr.RetryAfter < time.Second || !strings.Contains(apiErr.Message, "rate limit") {
				t.Errorf("429: %+v", apiErr)
			}
			break
		}
		if try == 2 {
			t.Fatalf("without retries: %v, want a 429 APIError", err)
		}
		time.Sleep(1100 * time.Millisecond)
	}
}

// TestForbidden checks that a bad key is a *ForbiddenError (and an
// *APIError of status 403, message "Forbidden") whatever the interface.
func TestForbidden(t *testing.T) {
	t.Parallel()
	c := newClient(t, "gs_not_a_key_of_this_server_0123456789")
	ctx := context.Background()
	calls := []struct {
		name string
		call func() error
	}{
		{"timezonesv1", func() error { _, err := c.TimeZone(ctx, dover); return err }},
		{"adminv1", func() error { _, err := c.Admin(ctx, dover, geosvc.Admin8); return err }},
		{"zip4v1", func() error { _, err := c.ZIP4(ctx, dover); return err }},
		{"tdmv1", func() error {
			_, err := c.Matrix(ctx, []geosvc.Point{dover}, []geosvc.Point{wilmington}, nil)
			return err
		}},
		{"keysv1", func() error { _, err := c.Usage(ctx, ""); return err }},
	}
	for _, tt := range calls {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			var fe *geosvc.ForbiddenError
			var apiErr *geosvc.APIError
			if !errors.As(err, &fe) || !errors.As(err, &apiErr) || apiErr.StatusCode != 403 || apiErr.Message != "Forbidden" {
				t.Errorf("bad key: %v (%T), want a ForbiddenError 403 Forbidden", err, err)
			}
		})
	}
}

// fetchCanceller is a transport that cancels a context shortly after a
// tdmv1/fetch request went out, while the server holds it (long poll).
type fetchCanceller struct {
	cancel context.CancelFunc
	once   sync.Once
}

func (f *fetchCanceller) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.URL.Path, "/tdmv1/fetch") {
		f.once.Do(func() { time.AfterFunc(20*time.Millisecond, f.cancel) })
	}
	return http.DefaultTransport.RoundTrip(req)
}

// TestMatrixCancel cancels the context while Matrix waits (a fetch held by
// the server) for a 1000 x 1000 job: Matrix returns the context's error at
// once and cancels the job on the server, which then says Cancelled
// before all its rows were done.
func TestMatrixCancel(t *testing.T) {
	t.Parallel()
	var pts []geosvc.Point
	for i := range 1000 {
		pts = append(pts, geosvc.Point{Lon: -75.75 + float64(i%40)*0.0125, Lat: 38.8 + float64(i/40)*0.035})
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := newClient(t, demoKey, geosvc.WithHTTPClient(&http.Client{Transport: &fetchCanceller{cancel: cancel}}))
	var uuid string
	_, err := c.Matrix(ctx, pts, pts, &geosvc.MatrixOptions{OnOrder: func(id string) { uuid = id }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Matrix after cancel: %v, want context.Canceled", err)
	}
	st, _, err := c.FetchMatrix(context.Background(), uuid, 0)
	var je *geosvc.JobError
	if !errors.As(err, &je) || je.Status != geosvc.JobCancelled {
		t.Fatalf("job %s after Matrix's cancel: %+v %v, want Cancelled", uuid, st, err)
	}
	if st.Progress.RowsDone >= st.Progress.RowsTotal {
		t.Errorf("cancelled job's progress %+v: every row done", st.Progress)
	}
}

// TestMatrixExpired fetches a finished job again after the server's
// retention (matrixRetention): a JobError Expired carrying the 410.
func TestMatrixExpired(t *testing.T) {
	t.Parallel()
	c := newClient(t, demoKey)
	ctx := context.Background()
	uuid, err := c.OrderMatrix(ctx, []geosvc.Point{dover}, []geosvc.Point{wilmington}, &geosvc.MatrixOptions{Distances: true})
	if err != nil {
		t.Fatal(err)
	}
	_, res, err := c.FetchMatrix(ctx, uuid, 4*time.Second)
	if err != nil || res == nil || res.Distance == nil || res.Duration != nil {
		t.Fatalf("fetch: %+v %v, want the distances alone", res, err)
	}
	time.Sleep(matrixRetention + 1500*time.Millisecond)
	_, _, err = c.FetchMatrix(ctx, uuid, 0)
	var je *geosvc.JobError
	var apiErr *geosvc.APIError
	if !errors.As(err, &je) || je.Status != geosvc.JobExpired || !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusGone {
		t.Errorf("fetch after the retention: %v, want JobError Expired (410)", err)
	}
}

// TestBadPoint checks a point out of range is refused before a request.
func TestBadPoint(t *testing.T) {
	c, err := geosvc.New("http://127.0.0.1:1", demoKey) // nothing listens: no request may go out
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []geosvc.Point{{Lon: 39.1582, Lat: -175.5244}, {Lon: math.NaN(), Lat: 0}, {Lon: 181, Lat: 0}} {
		if _, err := c.TimeZone(context.Background(), p); err == nil || !strings.Contains(err.Error(), "latitude in [-90, 90]") {
			t.Errorf("%v: %v", p, err)
		}
	}
}
