package api

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"
	"go.yaml.in/yaml/v3"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/configs"
	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/covid"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
	"github.com/geosvc/geosvc/geo/timezone"
	"github.com/geosvc/geosvc/internal/redistest"
	"github.com/geosvc/geosvc/keys"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// oaFixture is the fully wired server: every interface registered the
// way cmd/geosvc does, on the tdmv1 fixture's keys and queue, with the
// lookup layers settable.
type oaFixture struct {
	*tdmFixture
}

func newOAFixture(t *testing.T) *oaFixture {
	t.Helper()
	return newOAFixtureWith(t, 2, StripeOptions{})
}

// newOAFixtureWith is newOAFixture with chunkRows origin rows per chunk
// and the payment provider stripe (none when zero).
func newOAFixtureWith(t *testing.T, chunkRows int, stripe StripeOptions) *oaFixture {
	t.Helper()
	f := &oaFixture{tdmFixture: newTDMFixture(t, chunkRows)}
	g := f.srv.Protected()
	log := slog.New(slog.DiscardHandler)
	RegisterZip4(g, Zip4Options{Bundle: &f.cur})
	RegisterGeocoder(g, GeocoderOptions{Bundle: &f.cur, Logger: log})
	RegisterTimezones(g, TimezonesOptions{Bundle: &f.cur, Logger: log})
	bo := BoundaryOptions{Bundle: &f.cur}
	RegisterAdmin(g, bo)
	RegisterGeoBoundaries(g, bo)
	RegisterCovid(g, CovidOptions{Bundle: &f.cur})
	RegisterRoute(g, RouteOptions{Bundle: &f.cur})
	RegisterOSRM(g, OSRMOptions{Bundle: &f.cur})
	RegisterMatch(g, MatchOptions{Bundle: &f.cur})
	RegisterIsochrone(g, IsochroneOptions{Bundle: &f.cur})
	RegisterStaticMaps(g, StaticMapOptions{Bundle: &f.cur})
	RegisterBatch(g, BatchOptions{Bundle: &f.cur, Logger: log})
	if err := RegisterTiles(f.srv, TileOptions{Render: func(ctx context.Context, z, x, y int) ([]byte, error) {
		if f.cur.Load() == nil {
			return nil, ErrNotReady
		}
		return plainTile(z, x, y)
	}, RenderVariant: func(ctx context.Context, z, x, y, scale int, webp bool) ([]byte, error) {
		if f.cur.Load() == nil {
			return nil, ErrNotReady
		}
		return variantTile(z, x, y, scale, webp)
	}, RenderMVT: func(ctx context.Context, z, x, y int) ([]byte, error) {
		if f.cur.Load() == nil {
			return nil, ErrNotReady
		}
		return []byte{}, nil // a tile of no layer
	}, Bounds: func() (orb.Bound, bool) {
		return orb.Bound{Min: orb.Point{-75.8, 38.4}, Max: orb.Point{-75, 39.9}}, f.cur.Load() != nil
	}}); err != nil {
		t.Fatal(err)
	}
	// The account interface, on the fixture's Redis and key prefix, with
	// the shipped plans and trials on; no payment provider.
	plans, err := keys.ParsePlans(configs.Plans())
	if err != nil {
		t.Fatal(err)
	}
	accounts := keys.NewStore(f.env.Client, keys.Options{Prefix: f.store.Prefix(), Plans: plans, Trials: keys.TrialPolicy{Enabled: true, PerIPPerDay: 2}})
	RegisterKeys(f.srv, KeysOptions{Store: accounts, Logger: log, Stripe: stripe})
	return f
}

// load gives the fixture a bundle of every layer: the test ZIP+4
// layer, the time zones tz, the tiny gazetteer, Delaware's boundaries
// and covid data, and the roundabout fixture's graph.
func (f *oaFixture) load(t *testing.T, tz *timezone.Index, delaware *boundary.Layer, cv *covid.Layer) {
	f.cur.Store(&bundle.Bundle{
		Manifest: bundle.Manifest{Source: bundle.Source{File: "delaware-latest.osm.pbf"}, BundleVersion: "1",
			Nodes: 10, Edges: 20, Layers: []bundle.Layer{{Name: "routing"}}},
		Zip4: zip4TestLayer(), TimeZones: tz, Geocoder: tinyGeocode, Boundaries: delaware, Covid: cv,
		Graph: routingtest.Graph(t, "roundabout.osm"),
	})
}

// oaPathOf maps the routes whose document path Echo cannot write: a
// parameter followed by a suffix in one segment ({y}.png) is a parameter
// of its own in Echo, which cuts the suffix itself.
var oaPathOf = map[string]string{tilePath: "/tilesv1/{z}/{x}/{y}.png", fontsPath: "/tilesv1/fonts/{fontstack}/{range}.pbf",
	osrmRoutePath(osrmRoute): "/osrm/route/v1/{profile}/{coordinates}", osrmRoutePath(osrmTable): "/osrm/table/v1/{profile}/{coordinates}",
	osrmRoutePath(osrmNearest): "/osrm/nearest/v1/{profile}/{coordinates}", osrmRoutePath(osrmTrip): "/osrm/trip/v1/{profile}/{coordinates}",
	osrmRoutePath(osrmMatch): "/osrm/match/v1/{profile}/{coordinates}"}

// oaTileVariants are the document's paths of the tile route besides
// oaPathOf's: Echo serves the variants (cutTileVariant) on the one route.
var oaTileVariants = []string{"/tilesv1/{z}/{x}/{y}@2x.png", "/tilesv1/{z}/{x}/{y}.webp", "/tilesv1/{z}/{x}/{y}@2x.webp"}

// oaRoutePath returns the route of a document path oaPathOf maps ("" for
// another).
func oaRoutePath(doc string) string {
	for route, d := range oaPathOf {
		if d == doc {
			return route
		}
	}
	return ""
}

// oaRoutes returns the server's routes as OpenAPI "METHOD /path" keys,
// without Echo's internal catch-all routes.
func oaRoutes(srv *Server) map[string]*echo.Route {
	out := map[string]*echo.Route{}
	for _, r := range srv.Echo().Routes() {
		// The OSRM API's catch-all serves the key-in-path form of its four
		// documented operations and OSRM's answers to malformed URLs.
		if r.Method == echo.RouteNotFound || r.Path == "" || r.Path == "/*" || r.Path == osrmMount+"/*" {
			continue
		}
		if doc, ok := oaPathOf[r.Path]; ok {
			out[r.Method+" "+doc] = r
			if r.Path == tilePath && r.Method == http.MethodGet {
				for _, v := range oaTileVariants {
					out[r.Method+" "+v] = r
				}
			}
			if r.Path == tilePath { // the one route serves both kinds of tiles
				out[r.Method+" /tilesv1/{z}/{x}/{y}.mvt"] = r
			}
			continue
		}
		parts := strings.Split(r.Path, "/")
		for i, p := range parts {
			if name, ok := strings.CutPrefix(p, ":"); ok {
				parts[i] = "{" + name + "}"
			}
		}
		out[r.Method+" "+strings.Join(parts, "/")] = r
	}
	return out
}

// TestOpenAPIMatchesRoutes: the document lists exactly the routes the
// server registers, both ways.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	d := loadOpenAPI(t)
	f := newOAFixture(t)
	routes := oaRoutes(f.srv)
	ops := d.operations()
	if len(routes) < 19 {
		t.Fatalf("the server registers %d routes, want the 9 REST and 4 public ones at least: %v", len(routes), routes)
	}
	for key := range routes {
		if _, ok := ops[key]; !ok {
			t.Errorf("route %s is not in openapi.yaml", key)
		}
	}
	for key := range ops {
		if _, ok := routes[key]; !ok {
			t.Errorf("openapi.yaml documents %s, which the server does not register", key)
		}
	}
}

// TestOpenAPISecurity: REST operations inherit the x-api-key scheme and
// document its 403 and 429; public ones opt out with security: [].
func TestOpenAPISecurity(t *testing.T) {
	d := loadOpenAPI(t)
	f := newOAFixture(t)
	scheme := oaObj(oaObj(oaObj(d["components"])["securitySchemes"])["apiKey"])
	if scheme["type"] != "apiKey" || scheme["in"] != "header" || scheme["name"] != headerAPIKey {
		t.Errorf("securitySchemes.apiKey = %v, want an apiKey in header %s", scheme, headerAPIKey)
	}
	if desc, _ := scheme["description"].(string); !strings.Contains(desc, fmt.Sprintf("%d to %d characters", keys.MinLen, keys.MaxLen)) {
		t.Errorf("securitySchemes.apiKey.description does not give the key length %d to %d", keys.MinLen, keys.MaxLen)
	}
	global := oaList(d["security"])
	if len(global) != 1 || len(oaObj(global[0])) != 1 || oaObj(global[0])["apiKey"] == nil || len(oaList(oaObj(global[0])["apiKey"])) != 0 {
		t.Errorf("top-level security = %v, want [{apiKey: []}]", global)
	}
	public := 0
	for key, op := range d.operations() {
		path := strings.SplitN(key, " ", 2)[1]
		sec, has := op["security"]
		resp := oaObj(op["responses"])
		t.Run(key, func(t *testing.T) {
			if f.srv.IsPublic(path) || f.srv.IsPublic(oaRoutePath(path)) {
				public++
				// [] needs no key; [{}, {apiKey: []}] takes one optionally
				// (a checkout upgrading the key it is given) and may then
				// answer the shared 403.
				s, ok := sec.([]any)
				optional := ok && len(s) == 2 && len(oaObj(s[0])) == 0 && oaObj(s[1])["apiKey"] != nil
				if !has || !ok || (len(s) != 0 && !optional) {
					t.Errorf("public, but security = %v (present %v), want [] or [{}, {apiKey: []}]", sec, has)
				}
				if got, _ := oaObj(resp["403"])["$ref"].(string); resp["403"] != nil && (!optional || got != "#/components/responses/Forbidden") {
					t.Errorf("public, but documents 403 %v", resp["403"])
				}
				return
			}
			if has && (path == oaPathOf[tilePath] || slices.Contains(oaTileVariants, path) || path == "/tilesv1/{z}/{x}/{y}.mvt") {
				if fmt.Sprint(sec) != "[map[apiKey:[]] map[tileToken:[]]]" {
					t.Errorf("tiles: security = %v, want the key or a tile token", sec)
				}
			} else if has {
				t.Errorf("protected, but overrides security with %v: leave it out to inherit apiKey", sec)
			}
			for code, ref := range map[string]string{"403": "Forbidden", "429": "TooManyRequests"} {
				if got, _ := oaObj(resp[code])["$ref"].(string); got != "#/components/responses/"+ref {
					t.Errorf("response %s = %v, want the shared %s", code, resp[code], ref)
				}
			}
		})
	}
	if public != 16 {
		t.Errorf("%d public operations, want 16 (/healthz, /readyz, /v1/info, %s, /signup, /pricing, the trial, the checkout, the webhook, the vector tiles' TileJSON, style, sprite (4) and fonts)", public, openAPIPath)
	}
}

func TestOpenAPIServed(t *testing.T) {
	f := newFixture(t, nil)
	onDisk, err := os.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, key string }{
		{"no key", ""},
		{"wrong key", strings.Repeat("w", 43)},
		{"good key", f.key},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.do(http.MethodGet, openAPIPath, tc.key, "", nil)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d %s, want 200", rec.Code, rec.Body)
			}
			if ct := rec.Header().Get(echo.HeaderContentType); ct != "application/yaml" {
				t.Errorf("Content-Type %q, want application/yaml", ct)
			}
			if !bytes.Equal(rec.Body.Bytes(), openAPIDoc) || !bytes.Equal(openAPIDoc, onDisk) {
				t.Errorf("body (%d bytes) differs from openapi.yaml (%d bytes embedded, %d on disk)", rec.Body.Len(), len(openAPIDoc), len(onDisk))
			}
		})
	}
	if slices.Contains(f.srv.Interfaces(), strings.TrimPrefix(openAPIPath, "/")) {
		t.Errorf("/v1/info lists %s as an interface: %v", openAPIPath, f.srv.Interfaces())
	}
}

// check checks a real answer of the server to method route against the
// document: a documented status, content type, headers and body schema.
// Answers of undocumented routes must be 403 or 404, and of undocumented
// methods of a documented path 405 with the documented methods in Allow.
func (d oaDoc) check(t *testing.T, method, route string, rec *httptest.ResponseRecorder) {
	t.Helper()
	body := rec.Body.Bytes()
	if rec.Header().Get(echo.HeaderContentEncoding) == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("gzip: %v", err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			t.Fatalf("gzip: %v", err)
		}
	}
	msg, _ := d.resolve("#/components/schemas/Message")
	op := oaObj(oaObj(oaObj(d["paths"])[route])[strings.ToLower(method)])
	if op == nil {
		want := http.StatusNotFound
		if oaObj(oaObj(d["paths"])[route]) != nil {
			want = http.StatusMethodNotAllowed
		}
		switch {
		case rec.Code == http.StatusForbidden:
		case rec.Code != want:
			t.Errorf("%s %s is not documented: answered %d, want %d or 403", method, route, rec.Code, want)
		case want == http.StatusMethodNotAllowed:
			var allow []string
			for _, m := range strings.Split(rec.Header().Get(echo.HeaderAllow), ",") {
				if m = strings.TrimSpace(m); m != http.MethodOptions {
					allow = append(allow, m)
				}
			}
			sort.Strings(allow)
			if doc := d.methodsAt(route); !slices.Equal(allow, doc) {
				t.Errorf("405 Allow lists %v, the document %v", allow, doc)
			}
		}
		d.checkJSON(t, msg, body)
		return
	}
	r := d.deref(oaObj(oaObj(op["responses"])[fmt.Sprint(rec.Code)]))
	if r == nil {
		t.Errorf("%s %s answered %d, which the document does not list (%s)", method, route, rec.Code, body)
		return
	}
	for _, h := range []string{"Retry-After", headerIANAZone, echo.HeaderContentEncoding, "ETag"} {
		if h == "Retry-After" && rec.Code == http.StatusTooManyRequests && oaObj(r["headers"])[h] == nil {
			t.Errorf("%s %s 429 does not document Retry-After", method, route)
		}
		if rec.Header().Get(h) != "" && oaObj(r["headers"])[h] == nil {
			t.Errorf("%s %s %d: header %s is sent but not documented", method, route, rec.Code, h)
		}
	}
	if r["content"] == nil {
		if len(body) != 0 {
			t.Errorf("%s %s %d: the document gives no body, the answer has %d bytes", method, route, rec.Code, len(body))
		}
		return
	}
	mt, _, err := mime.ParseMediaType(rec.Header().Get(echo.HeaderContentType))
	if err != nil {
		t.Fatalf("Content-Type %q: %v", rec.Header().Get(echo.HeaderContentType), err)
	}
	media := oaObj(oaObj(r["content"])[mt])
	if media == nil {
		t.Errorf("%s %s %d: content type %s is not documented", method, route, rec.Code, mt)
		return
	}
	schema := d.deref(oaObj(media["schema"]))
	switch mt {
	case echo.MIMEApplicationJSON:
		d.checkJSON(t, schema, body)
	case echo.MIMEApplicationXML:
		var root struct{ XMLName xml.Name }
		if err := xml.Unmarshal(body, &root); err != nil {
			t.Errorf("XML body: %v", err)
		} else if want := oaObj(schema["xml"])["name"]; root.XMLName.Local != want {
			t.Errorf("XML root <%s>, the document says <%v>", root.XMLName.Local, want)
		}
	}
}

// checkJSON validates a JSON body against schema.
func (d oaDoc) checkJSON(t *testing.T, schema map[string]any, body []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Errorf("body is not JSON: %v: %s", err, body)
		return
	}
	for _, p := range d.validate(schema, v, "body") {
		t.Errorf("%s (in %.300s)", p, body)
	}
}

// TestOpenAPIDescribesAnswers sends requests of every kind to the fully
// wired server and checks each answer against the document.
func TestOpenAPIDescribesAnswers(t *testing.T) {
	d := loadOpenAPI(t)
	f := newOAFixture(t)
	geocoderServer(t, true) // builds tinyGeocode
	tz := newTZFixture(t).ix
	delaware, bndErr := bndDelaware()
	needDelaware := func(t *testing.T) {
		extracts.Need(t, bndErr)
	}
	covid, covidErr := covidDelaware()
	needCovid := func(t *testing.T) {
		extracts.Need(t, bndErr)
		extracts.Need(t, covidErr)
	}
	load := func() {
		f.load(t, tz, delaware, covid)
	}
	job := func(body string) string { return f.order(t, body) }
	tileDoc := oaPathOf[tilePath]
	two := orderJSON(nil, addresses(2), addresses(2))
	queued, toCancel, done, gone := job(two), job(two), job(orderJSON([]string{"distance"}, addresses(3), addresses(2))), job(two)
	f.complete(t, done)
	f.env.Expire(t, gone)
	uuidBody := func(id string) string { return `{"uuid":"` + id + `"}` }

	type req struct {
		name, method, target, key, body, ctype string
		route                                  string // the documented path, when target's is concrete
		hdr                                    map[string]string
		status                                 int
		before                                 func()
		needs                                  func(*testing.T)
	}
	k := f.key
	cases := []req{
		{name: "healthz", method: "GET", target: "/healthz", status: 200},
		{name: "readyz before the bundle", method: "GET", target: "/readyz", status: 503},
		{name: "info before the bundle", method: "GET", target: "/v1/info", status: 200},
		{name: "openapi", method: "GET", target: openAPIPath, status: 200},
		{name: "POST to a public GET", method: "POST", target: "/healthz", body: "{}", status: 405},
		{name: "unknown path with key", method: "GET", target: "/nope", key: k, status: 404},
		{name: "unknown path without key", method: "GET", target: "/nope", status: 403},
		{name: "wrong key", method: "GET", target: "/zip4v1/xy2zip?zip9=199010001", key: f.other[:20], status: 403},
		{name: "order as text/plain", method: "POST", target: "/tdmv1/order", key: k, body: two, ctype: "text/plain", status: 415},
		{name: "order over the body limit", method: "POST", target: "/tdmv1/order", key: k, body: `{"x":"` + strings.Repeat("x", defaultBodyLimit) + `"}`, status: 413},
		{name: "zip4 loading", method: "GET", target: "/zip4v1/xy2zip?x=39.165&y=-75.525", key: k, status: 503},
		{name: "tz loading", method: "GET", target: "/timezonesv1/xy2tzdata?x=-75.5&y=39.1", key: k, status: 503},
		{name: "admin loading", method: "GET", target: "/adminv1/xy2admininfo?x=-75.5&y=39.1&type=admin0", key: k, status: 503},
		{name: "geoboundaries loading", method: "GET", target: "/geoboundariesv1/xy2bounddata?x=-75.5&y=39.1", key: k, status: 503},
		{name: "geocoder loading", method: "GET", target: "/geocoderv1/geocoder?address=main", key: k, status: 503},
		{name: "geocoder loading, xml", method: "GET", target: "/geocoderv1/geocoder?address=main&format=xml", key: k, status: 503},
		{name: "rev-geocoder loading", method: "GET", target: "/geocoderv1/rev-geocoder?x=-75.4998&y=39.00019", key: k, status: 503},
		{name: "admin bad type", method: "GET", target: "/adminv1/xy2admininfo?x=-75.5&y=39.1&type=Admin9", key: k, status: 400},
		{name: "geoboundaries bad category", method: "GET", target: "/geoboundariesv1/xy2bounddata?x=-75.5&y=39.1&geo_boundary=abc", key: k, status: 400},
		{name: "tz bad y", method: "GET", target: "/timezonesv1/xy2tzdata?x=-75.5&y=99", key: k, status: 400},
		{name: "zip4 bad x", method: "GET", target: "/zip4v1/xy2zip?x=95&y=-75.5", key: k, status: 400},
		{name: "covid loading", method: "GET", target: "/covidv1/countries/list", key: k, status: 503},
		{name: "route loading", method: "GET", target: "/routev1/route?from=10.002,0.000&to=10.004,0.002", key: k, status: 503},
		{name: "route bad from", method: "GET", target: "/routev1/route?to=10.004,0.002", key: k, status: 400},
		{name: "match loading", method: "POST", target: "/matchv1/match", key: k, body: `{"points": ` + roundaboutTrace + `}`, status: 503},
		{name: "match bad lat", method: "POST", target: "/matchv1/match", key: k, body: `{"points": [{"lon": 10.002, "lat": 0}, {"lon": 10.002}]}`, status: 400},
		{name: "static map loading", method: "GET", target: "/mapsv1/static?size=64x64&center=10.002,0.002&zoom=16", key: k, status: 503},
		{name: "tile loading", method: "GET", target: "/tilesv1/0/0/0.png", route: tileDoc, key: k, status: 503},
		{name: "tile bad zoom", method: "GET", target: "/tilesv1/21/0/0.png", route: tileDoc, key: k, status: 400},
		{name: "tile token", method: "POST", target: "/tilesv1/token", key: k, status: 200},
		{name: "osrm route loading", method: "GET", target: "/osrm/route/v1/driving/10.002,0.000;10.004,0.002", route: "/osrm/route/v1/{profile}/{coordinates}", key: k, status: 503},
		{name: "osrm route bad coordinates", method: "GET", target: "/osrm/route/v1/driving/10.002;10.004,0.002", route: "/osrm/route/v1/{profile}/{coordinates}", key: k, status: 400},
		{name: "covid bad zoom", method: "GET", target: "/covidv1/xy2tile?x=-75.5&y=39.1&zoom=21", key: k, status: 400},

		{name: "readyz", method: "GET", target: "/readyz", status: 200, before: load},
		{name: "info", method: "GET", target: "/v1/info", status: 200},
		{name: "zip4 point", method: "GET", target: "/zip4v1/xy2zip?x=39.165&y=-75.525", key: k, status: 200},
		{name: "zip4 code", method: "GET", target: "/zip4v1/xy2zip?zip9=199010002", key: k, status: 200},
		{name: "zip4 nothing", method: "GET", target: "/zip4v1/xy2zip?x=39.5&y=-75.525", key: k, status: 200},
		{name: "zip4 zip9 with x", method: "GET", target: "/zip4v1/xy2zip?zip9=199010002&x=39", key: k, status: 400},
		{name: "tz Dover", method: "GET", target: "/timezonesv1/xy2tzdata?x=-75.5244&y=39.1582", key: k, status: 200},
		{name: "tz Tokyo, no area", method: "GET", target: "/timezonesv1/xy2tzdata?x=139.6917&y=35.6895", key: k, status: 200},
		{name: "admin Dover", method: "GET", target: "/adminv1/xy2admininfo?x=-75.5244&y=39.1582&type=admin8", key: k, status: 200, needs: needDelaware},
		{name: "admin at sea", method: "GET", target: "/adminv1/xy2admininfo?x=-74&y=38&type=admin0", key: k, status: 200, needs: needDelaware},
		{name: "geoboundaries", method: "GET", target: "/geoboundariesv1/xy2bounddata?x=-75.0667&y=38.6097", key: k, status: 200, needs: needDelaware},
		{name: "geoboundaries national park", method: "GET", target: "/geoboundariesv1/xy2bounddata?x=-75.4667&y=39.25&geo_boundary=922", key: k, status: 200, needs: needDelaware},
		{name: "geoboundaries unknown category", method: "GET", target: "/geoboundariesv1/xy2bounddata?x=-75.5&y=39.1&geo_boundary=1", key: k, status: 400, needs: needDelaware},
		{name: "tile", method: "GET", target: "/tilesv1/14/4754/6252.png", route: tileDoc, key: k, status: 200},
		{name: "static map", method: "GET", target: "/mapsv1/static?size=64x64&center=10.002,0.002&zoom=16&route=10.002,0.000;10.000,0.002", key: k, status: 200},
		{name: "static map gif", method: "GET", target: "/mapsv1/static?size=64x64&bbox=9.9995,-0.0005,10.0045,0.0045&format=gif", key: k, status: 200},
		{name: "static map by ?key=", method: "GET", target: "/mapsv1/static?size=64x64&center=10.002,0.002&zoom=16&key=" + k, status: 200},
		{name: "static map no road", method: "GET", target: "/mapsv1/static?size=64x64&center=10.002,0.002&zoom=16&route=10.5,0.5;10.000,0.002", key: k, status: 404},
		{name: "tile not modified", method: "GET", target: "/tilesv1/14/4754/6252.png", route: tileDoc, key: k, hdr: map[string]string{"If-None-Match": "*"}, status: 304},
		{name: "tile bad token", method: "GET", target: "/tilesv1/14/4754/6252.png?token=x.1.y", route: tileDoc, status: 403},
		{name: "tile @2x", method: "GET", target: "/tilesv1/14/4754/6252@2x.png", route: oaTileVariants[0], key: k, status: 200},
		{name: "tile webp", method: "GET", target: "/tilesv1/14/4754/6252.webp", route: oaTileVariants[1], key: k, status: 200},
		{name: "tile @2x webp", method: "GET", target: "/tilesv1/14/4754/6252@2x.webp", route: oaTileVariants[2], key: k, status: 200},
		{name: "tile @2x not modified", method: "GET", target: "/tilesv1/14/4754/6252@2x.png", route: oaTileVariants[0], key: k, hdr: map[string]string{"If-None-Match": "*"}, status: 304},
		{name: "static map bad size", method: "GET", target: "/mapsv1/static?size=4000x64&center=10.002,0.002&zoom=16", key: k, status: 400},
		{name: "tile @2x bad zoom", method: "GET", target: "/tilesv1/21/0/0@2x.png", route: oaTileVariants[0], key: k, status: 400},
		{name: "route", method: "GET", target: "/routev1/route?from=10.002,0.000&to=10.004,0.002", key: k, status: 200},
		{name: "osrm route", method: "GET", target: "/osrm/route/v1/driving/10.002,0.000;10.004,0.002?steps=true&annotations=true&alternatives=true", route: "/osrm/route/v1/{profile}/{coordinates}", key: k, status: 200},
		{name: "osrm route geojson", method: "GET", target: "/osrm/route/v1/car/10.002,0.000;10.004,0.002.json?steps=true&geometries=geojson&overview=full", route: "/osrm/route/v1/{profile}/{coordinates}", key: k, status: 200},
		{name: "osrm route no segment", method: "GET", target: "/osrm/route/v1/driving/0,10;10.004,0.002", route: "/osrm/route/v1/{profile}/{coordinates}", key: k, status: 400},
		{name: "osrm table", method: "GET", target: "/osrm/table/v1/driving/10.002,0.000;10.004,0.002;10.000,0.002?annotations=duration,distance&sources=0", route: "/osrm/table/v1/{profile}/{coordinates}", key: k, status: 200},
		{name: "osrm table bad sources", method: "GET", target: "/osrm/table/v1/driving/10.002,0.000;10.004,0.002?sources=7", route: "/osrm/table/v1/{profile}/{coordinates}", key: k, status: 400},
		{name: "osrm nearest", method: "GET", target: "/osrm/nearest/v1/driving/10.002,0.0005?number=2", route: "/osrm/nearest/v1/{profile}/{coordinates}", key: k, status: 200},
		{name: "osrm trip", method: "GET", target: "/osrm/trip/v1/driving/10.002,0.000;10.004,0.002;10.000,0.002?steps=true", route: "/osrm/trip/v1/{profile}/{coordinates}", key: k, status: 200},
		{name: "osrm match", method: "GET", target: "/osrm/match/v1/driving/10.002,0.0001;10.0025,0.0015;10.0039,0.002?timestamps=0;30;60&steps=true", route: "/osrm/match/v1/{profile}/{coordinates}", key: k, status: 200},
		{name: "osrm trip, key in the path", method: "GET", target: "/osrm/" + k + "/trip/v1/driving/10.002,0.000;10.004,0.002", route: "/osrm/trip/v1/{profile}/{coordinates}", status: 200},
		{name: "route shortest", method: "GET", target: "/routev1/route?from=10.002,0.000&to=10.000,0.002&routing=shortest", key: k, status: 200},
		{name: "route no road", method: "GET", target: "/routev1/route?from=0.000,10.002&to=10.004,0.002", key: k, status: 404},
		{name: "match", method: "POST", target: "/matchv1/match", key: k, body: `{"points": ` + roundaboutTrace + `, "tidy": 20}`, status: 200},
		{name: "match in the sea", method: "POST", target: "/matchv1/match", key: k, body: `{"points": [{"lon": 11, "lat": 1}, {"lon": 11.001, "lat": 1}]}`, status: 404},
		{name: "covid countries", method: "GET", target: "/covidv1/countries/list", key: k, status: 200, needs: needCovid},
		{name: "covid country2data", method: "GET", target: "/covidv1/country2data?country=PRT&admin=0", key: k, status: 200, needs: needCovid},
		{name: "covid country2data US counties", method: "GET", target: "/covidv1/country2data?country=USA&admin=admin2&date=2020-06-01", key: k, status: 200, needs: needCovid},
		{name: "covid country2data unknown", method: "GET", target: "/covidv1/country2data?country=ZZZ&admin=0", key: k, status: 404, needs: needCovid},
		{name: "covid country2data bad date", method: "GET", target: "/covidv1/country2data?country=PRT&admin=0&date=1999-01-01", key: k, status: 400, needs: needCovid},
		{name: "covid xy2data Dover", method: "GET", target: "/covidv1/xy2data?x=-75.5244&y=39.1582&admin=2", key: k, status: 200, needs: needCovid},
		{name: "covid xy2data at sea", method: "GET", target: "/covidv1/xy2data?x=-40&y=30&admin=0", key: k, status: 200, needs: needCovid},
		{name: "covid xy2tile Dover", method: "GET", target: "/covidv1/xy2tile?x=-75.5244&y=39.1582&zoom=16", key: k, status: 200, needs: needCovid},
		{name: "covid index2tile", method: "GET", target: "/covidv1/index2tile?x=0&y=0", key: k, status: 200, needs: needCovid},
		{name: "covid index2tile out of range", method: "GET", target: "/covidv1/index2tile?x=0&y=65536", key: k, status: 400, needs: needCovid},
		{name: "geocoder OK", method: "GET", target: "/geocoderv1/geocoder?address=10+North+Main+Street,+Testville,+DE", key: k, status: 200},
		{name: "geocoder OK, xml", method: "GET", target: "/geocoderv1/geocoder?address=testville&format=xml", key: k, status: 200},
		{name: "geocoder zero results", method: "GET", target: "/geocoderv1/geocoder?address=qqqq+zzzz", key: k, status: 200},
		{name: "geocoder invalid", method: "GET", target: "/geocoderv1/geocoder?format=csv", key: k, status: 200},
		{name: "rev-geocoder OK", method: "GET", target: "/geocoderv1/rev-geocoder?x=-75.4998&y=39.00019", key: k, status: 200},
		{name: "rev-geocoder xml", method: "GET", target: "/geocoderv1/rev-geocoder?x=-75.4998&y=39.00019&format=xml&result_type=route", key: k, status: 200},
		{name: "rev-geocoder invalid", method: "GET", target: "/geocoderv1/rev-geocoder?x=-75.4998&y=39.00019&location_type=EXACT", key: k, status: 200},

		{name: "order", method: "POST", target: "/tdmv1/order", key: k, body: two, status: 200},
		{name: "order invalid", method: "POST", target: "/tdmv1/order", key: k, body: `{"results":["cost"],"origin_addresses":["39.74,-75.55"]}`, status: 400},
		{name: "fetch malformed", method: "POST", target: "/tdmv1/fetch", key: k, body: `{"uuid":`, status: 400},
		{name: "fetch unknown", method: "POST", target: "/tdmv1/fetch", key: k, body: uuidBody("bd9288e5-ebe8-425c-846e-a7efcad1daac"), status: 404},
		{name: "fetch another key's job", method: "POST", target: "/tdmv1/fetch", key: f.other, body: uuidBody(queued), status: 404},
		{name: "fetch queued", method: "POST", target: "/tdmv1/fetch", key: k, body: uuidBody(queued), status: 200},
		{name: "fetch finished", method: "POST", target: "/tdmv1/fetch", key: k, body: uuidBody(done), status: 200},
		{name: "fetch finished, gzip", method: "POST", target: "/tdmv1/fetch", key: k, body: uuidBody(done), hdr: map[string]string{"Accept-Encoding": "gzip"}, status: 200},
		{name: "fetch expired", method: "POST", target: "/tdmv1/fetch", key: k, body: uuidBody(gone), status: 410},
		{name: "cancel", method: "POST", target: "/tdmv1/cancel", key: k, body: uuidBody(toCancel), status: 200},
		{name: "cancel again", method: "POST", target: "/tdmv1/cancel", key: k, body: uuidBody(toCancel), status: 200},
		{name: "fetch cancelled", method: "POST", target: "/tdmv1/fetch", key: k, body: uuidBody(toCancel), status: 200},
		{name: "cancel finished", method: "POST", target: "/tdmv1/cancel", key: k, body: uuidBody(done), status: 409},
		{name: "cancel without uuid", method: "POST", target: "/tdmv1/cancel", key: k, body: `{}`, status: 400},

		{name: "signup page", method: "GET", target: signupPath, status: 200},
		{name: "pricing page", method: "GET", target: pricingPath + "?checkout=cancelled", status: 200},
		{name: "trial", method: "POST", target: trialPath, body: `{"name":"Ann","email":"ann@example.com","company":"Acme"}`, status: 201},
		{name: "trial again", method: "POST", target: trialPath, body: `{"email":"ann+2@example.com"}`, status: 409},
		{name: "trial bad e-mail", method: "POST", target: trialPath, body: `{"email":"ann"}`, status: 400},
		{name: "trial as text/plain", method: "POST", target: trialPath, body: `{}`, ctype: "text/plain", status: 415},
		{name: "trial, second address", method: "POST", target: trialPath, body: `{"email":"bob@example.com"}`, status: 201},
		{name: "trial, address limit", method: "POST", target: trialPath, body: `{"email":"carl@example.com"}`, status: 429},
		{name: "checkout without provider", method: "POST", target: checkoutPath, body: `{"plan":"starter","email":"a@example.com"}`, status: 404},
		{name: "webhook without provider", method: "POST", target: webhookPath, body: `{}`, status: 404},
		{name: "usage", method: "GET", target: usagePath, key: k, status: 200},
		{name: "usage csv", method: "GET", target: usagePath + "?format=csv", key: k, status: 200},
		{name: "usage bad month", method: "GET", target: usagePath + "?month=11-2026", key: k, status: 400},
		{name: "usage wrong key", method: "GET", target: usagePath, key: f.other[:20], status: 403},
	}
	// Every protected route refuses a request without a key, and every
	// documented path refuses a method it does not take.
	for key, rt := range oaRoutes(f.srv) {
		if !f.srv.IsPublic(rt.Path) {
			cases = append(cases, req{name: "no key " + key, method: rt.Method, target: rt.Path, body: "{}", status: 403})
		}
		cases = append(cases, req{name: "wrong method " + key, method: http.MethodDelete, target: rt.Path, key: k, status: 405})
	}
	for _, tc := range cases {
		if tc.before != nil {
			tc.before()
		}
		t.Run(tc.name, func(t *testing.T) {
			if tc.needs != nil {
				tc.needs(t)
			}
			var body io.Reader
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			r := httptest.NewRequest(tc.method, tc.target, body)
			if tc.body != "" {
				r.Header.Set(echo.HeaderContentType, cmp.Or(tc.ctype, echo.MIMEApplicationJSON))
			}
			if tc.key != "" {
				r.Header.Set(headerAPIKey, tc.key)
			}
			for h, v := range tc.hdr {
				r.Header.Set(h, v)
			}
			rec := httptest.NewRecorder()
			f.srv.ServeHTTP(rec, r)
			if rec.Code != tc.status {
				t.Errorf("status %d, want %d (%.300s)", rec.Code, tc.status, rec.Body)
			}
			route := cmp.Or(tc.route, strings.SplitN(tc.target, "?", 2)[0])
			if doc, ok := oaPathOf[route]; ok {
				route = doc
			}
			d.check(t, tc.method, route, rec)
		})
	}
}

// TestOpenAPIRateLimited: a 429 is documented with its Retry-After.
func TestOpenAPIRateLimited(t *testing.T) {
	d := loadOpenAPI(t)
	rd := redistest.New(t)
	store := keys.NewStore(rd.Client, keys.Options{Prefix: rd.Prefix})
	_, key, err := store.Create(context.Background(), keys.CreateOptions{Owner: "openapi"})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	srv := New(Options{Logger: slog.New(slog.DiscardHandler), Redis: rd.Client, Now: func() time.Time { return now },
		Gate: keys.NewGate(store, keys.GateOptions{RateLimit: keys.RateLimit{Rate: 1, Burst: 1}, Now: func() time.Time { return now }})})
	layer := zip4TestLayer()
	RegisterZip4(srv.Protected(), Zip4Options{Bundle: bundle.NewCurrent(&bundle.Bundle{Zip4: layer})})
	for i, want := range []int{200, 429} {
		r := httptest.NewRequest(http.MethodGet, "/zip4v1/xy2zip?zip9=199010001", nil)
		r.Header.Set(headerAPIKey, key)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		if rec.Code != want {
			t.Fatalf("request %d: %d %s, want %d", i, rec.Code, rec.Body, want)
		}
		if want == 429 && rec.Header().Get("Retry-After") == "" {
			t.Errorf("429 without Retry-After")
		}
		d.check(t, http.MethodGet, "/zip4v1/xy2zip", rec)
	}
}

// TestOpenAPIQuotaExceeded: a quota's 429 is documented, with its
// Retry-After and its body, by the shared TooManyRequests.
func TestOpenAPIQuotaExceeded(t *testing.T) {
	d := loadOpenAPI(t)
	rd := redistest.New(t)
	plans, err := keys.ParsePlans([]byte("currency: USD\ndefault_plan: one\nplans:\n  one:\n    metrics:\n      zip4v1: {quota: {day: 1}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	store := keys.NewStore(rd.Client, keys.Options{Prefix: rd.Prefix, Plans: plans, Now: func() time.Time { return now }})
	_, key, err := store.Create(context.Background(), keys.CreateOptions{Owner: "openapi"})
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Options{Logger: slog.New(slog.DiscardHandler), Redis: rd.Client, Gate: keys.NewGate(store, keys.GateOptions{}), Now: func() time.Time { return now }})
	layer := zip4TestLayer()
	RegisterZip4(srv.Protected(), Zip4Options{Bundle: bundle.NewCurrent(&bundle.Bundle{Zip4: layer})})
	for i, want := range []int{200, 429} {
		r := httptest.NewRequest(http.MethodGet, "/zip4v1/xy2zip?zip9=199010001", nil)
		r.Header.Set(headerAPIKey, key)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		if rec.Code != want {
			t.Fatalf("request %d: %d %s, want %d", i, rec.Code, rec.Body, want)
		}
		if want == 429 && (rec.Header().Get("Retry-After") != "43200" || !strings.Contains(rec.Body.String(), `"quota":{`)) {
			t.Errorf("quota 429: %s, Retry-After %q", rec.Body, rec.Header().Get("Retry-After"))
		}
		d.check(t, http.MethodGet, "/zip4v1/xy2zip", rec)
	}
}

// TestOpenAPIServedMaxLocations: a server whose tdm.max_locations is not
// the default serves the document with that maxItems on an order's
// origin_addresses and destination_addresses, and every other line as
// the file has it.
func TestOpenAPIServedMaxLocations(t *testing.T) {
	f := newFixture(t, nil)
	f.srv.SetMaxLocations(2500)
	rec := f.do(http.MethodGet, openAPIPath, "", "", nil)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d", rec.Code)
	}
	got, want := strings.Split(rec.Body.String(), "\n"), strings.Split(string(openAPIDoc), "\n")
	if len(got) != len(want) {
		t.Fatalf("%d lines served, the file has %d", len(got), len(want))
	}
	changed := 0
	for i := range got {
		if got[i] != want[i] {
			changed++
			if strings.TrimSpace(got[i]) != "maxItems: 2500" || strings.TrimSpace(want[i]) != fmt.Sprintf("maxItems: %d", DefaultMaxLocations) {
				t.Errorf("line %d: served %q, the file has %q", i+1, got[i], want[i])
			}
		}
	}
	if changed != 2 {
		t.Errorf("%d lines changed, want the 2 maxItems", changed)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	props := oaObj(oaObj(oaObj(oaObj(doc["components"])["schemas"])["TDMOrder"])["properties"])
	for _, name := range []string{"origin_addresses", "destination_addresses"} {
		if n := oaObj(props[name])["maxItems"]; n != 2500 {
			t.Errorf("%s.maxItems = %v, want 2500", name, n)
		}
	}
	f.srv.SetMaxLocations(0)
	if rec := f.do(http.MethodGet, openAPIPath, "", "", nil); !bytes.Equal(rec.Body.Bytes(), openAPIDoc) {
		t.Error("SetMaxLocations(0) does not serve the file as it is")
	}
}
