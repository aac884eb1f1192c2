package api

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"

	"golang.org/x/image/webp"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/internal/redistest"
	"github.com/geosvc/geosvc/keys"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// staticServer serves mapsv1 and routev1 on the roundabout fixture's
// graph (nil while not loaded).
type staticServer struct {
	srv   *Server
	key   string
	keyID string
	store *keys.Store
}

func newStaticServer(t *testing.T, loaded bool) *staticServer {
	t.Helper()
	rd := redistest.New(t)
	store := keys.NewStore(rd.Client, keys.Options{Prefix: rd.Prefix})
	k, key, err := store.Create(context.Background(), keys.CreateOptions{Owner: "static map test"})
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Redis: rd.Client, Gate: keys.NewGate(store, keys.GateOptions{})})
	cur := &bundle.Current{}
	if loaded {
		cur.Store(&bundle.Bundle{Graph: routingtest.Graph(t, "roundabout.osm")})
	}
	RegisterRoute(srv.Protected(), RouteOptions{Bundle: cur})
	RegisterStaticMaps(srv.Protected(), StaticMapOptions{Bundle: cur})
	return &staticServer{srv: srv, key: key, keyID: k.ID, store: store}
}

// get sends GET target with the server's key in the header (unless
// noKey) and returns the answer.
func (s *staticServer) get(target string, noKey bool) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, target, nil)
	if !noKey {
		req.Header.Set(headerAPIKey, s.key)
	}
	rec := httptest.NewRecorder()
	s.srv.ServeHTTP(rec, req)
	return rec
}

// image decodes a 200 answer of the media type.
func (s *staticServer) image(t *testing.T, target, ctype string) image.Image {
	t.Helper()
	rec := s.get(target, false)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != ctype {
		t.Fatalf("%s: %d %q %s", target, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	dec := map[string]func(io.Reader) (image.Image, error){"image/png": png.Decode, "image/gif": gif.Decode, "image/webp": webp.Decode}[ctype]
	img, err := dec(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// oracle is the test's own web mercator (the log-tan form; the code
// uses asinh): the pixel of a point on a map of bound b fitted to a
// w x h image at a scale, centred, at the zoom where b just fills one
// axis.
type oracle struct {
	cx, cy, world float64
	w, h          float64
}

func newOracle(minLon, minLat, maxLon, maxLat float64, w, h, scale int) oracle {
	x := func(lon float64) float64 { return (lon + 180) / 360 }
	y := func(lat float64) float64 {
		return (1 - math.Log(math.Tan(math.Pi/4+lat*math.Pi/360))/math.Pi) / 2
	}
	dx, dy := x(maxLon)-x(minLon), y(minLat)-y(maxLat)
	zoom := math.Log2(math.Min(float64(w)/(256*dx), float64(h)/(256*dy)))
	return oracle{cx: (x(minLon) + x(maxLon)) / 2, cy: (y(minLat) + y(maxLat)) / 2, world: 256 * float64(scale) * math.Exp2(zoom),
		w: float64(w * scale), h: float64(h * scale)}
}

func (o oracle) pixel(lon, lat float64) (float64, float64) {
	x := (lon + 180) / 360
	y := (1 - math.Log(math.Tan(math.Pi/4+lat*math.Pi/360))/math.Pi) / 2
	return (x-o.cx)*o.world + o.w/2, (y-o.cy)*o.world + o.h/2
}

func rgbaAt(img image.Image, x, y int) color.RGBA {
	return color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
}

// TestStaticMapMarkersAtPixels: on maps of a given bbox (wider than the
// image's aspect, and taller), at scale 1 and 2, each marker's centre
// pixel is its colour where the test's web-mercator math puts it, and a
// pixel 20 px (at scale 1) away is not; the image is size x scale.
func TestStaticMapMarkersAtPixels(t *testing.T) {
	s := newStaticServer(t, true)
	markers := []struct {
		lon, lat float64
		color    string
		want     color.RGBA
	}{
		{10.0000, 0.0000, "red", color.RGBA{0xD0, 0x10, 0x10, 255}},
		{10.0120, 0.0050, "0x00AA44", color.RGBA{0x00, 0xAA, 0x44, 255}},
		{9.9900, -0.0080, "blue", color.RGBA{0x10, 0x50, 0xD0, 255}},
		{10.0150, -0.0090, "0x802080", color.RGBA{0x80, 0x20, 0x80, 255}},
		{9.9870, 0.0085, "orange", color.RGBA{0xFF, 0x80, 0x00, 255}},
	}
	for _, tc := range []struct {
		bbox         [4]float64
		w, h, scale  int
		name, format string
	}{
		{[4]float64{9.985, -0.010, 10.020, 0.010}, 640, 480, 1, "wide bbox", "png"},
		{[4]float64{9.985, -0.010, 10.020, 0.010}, 640, 480, 2, "wide bbox at scale 2", "png"},
		{[4]float64{9.980, -0.012, 10.020, 0.012}, 300, 500, 1, "tall image", "webp"},
		{[4]float64{9.980, -0.012, 10.020, 0.012}, 300, 500, 2, "tall image at scale 2", "png"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := fmt.Sprintf("bbox=%g,%g,%g,%g&size=%dx%d&scale=%d&format=%s", tc.bbox[0], tc.bbox[1], tc.bbox[2], tc.bbox[3], tc.w, tc.h, tc.scale, tc.format)
			for _, m := range markers {
				q += fmt.Sprintf("&markers=color:%s|%g,%g", m.color, m.lon, m.lat)
			}
			img := s.image(t, "/mapsv1/static?"+q, "image/"+tc.format)
			if want := image.Rect(0, 0, tc.w*tc.scale, tc.h*tc.scale); img.Bounds() != want {
				t.Fatalf("image %v, want %v", img.Bounds(), want)
			}
			o := newOracle(tc.bbox[0], tc.bbox[1], tc.bbox[2], tc.bbox[3], tc.w, tc.h, tc.scale)
			for _, m := range markers {
				fx, fy := o.pixel(m.lon, m.lat)
				x, y := int(math.Floor(fx)), int(math.Floor(fy))
				if got := rgbaAt(img, x, y); got != m.want {
					t.Errorf("marker %s at (%g, %g): pixel (%d, %d) is %v, want %v", m.color, m.lon, m.lat, x, y, got, m.want)
				}
				// Off by a marker's size: not the marker.
				for _, d := range [][2]int{{20, 0}, {-20, 0}, {0, 20}, {0, -20}} {
					px, py := x+d[0]*tc.scale, y+d[1]*tc.scale
					if image.Pt(px, py).In(img.Bounds()) && rgbaAt(img, px, py) == m.want {
						t.Errorf("marker %s: pixel (%d, %d), 20 px away, is the marker's colour", m.color, px, py)
					}
				}
			}
		})
	}
}

// TestStaticMapRoute: route= draws routev1's route for the same points
// (fetched from /routev1/route) along its geometry, in the route's
// colour, and not the road it does not take; markers' labels are
// written (inside the disc for one character, beside it for a word).
func TestStaticMapRoute(t *testing.T) {
	s := newStaticServer(t, true)
	// S2 -> W2 round the one-way ring (TestRouteV1).
	rec := s.get("/routev1/route?from=10.002,0.000&to=10.000,0.002", false)
	if rec.Code != http.StatusOK {
		t.Fatalf("routev1: %d %s", rec.Code, rec.Body)
	}
	var r routeAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	bbox := [4]float64{9.9995, -0.0005, 10.0045, 0.0045}
	const w, h = 600, 600
	img := s.image(t, "/mapsv1/static?bbox=9.9995,-0.0005,10.0045,0.0045&size=600x600&route=10.002,0.000;10.000,0.002", "image/png")
	o := newOracle(bbox[0], bbox[1], bbox[2], bbox[3], w, h, 1)
	routeColor := cartography.Default().Road["PrimaryRoute"].Inner.Color
	hits, samples := 0, 0
	line := r.Geometry.Coordinates
	for i := 1; i < len(line); i++ {
		x0, y0 := o.pixel(line[i-1][0], line[i-1][1])
		x1, y1 := o.pixel(line[i][0], line[i][1])
		n := int(math.Hypot(x1-x0, y1-y0) / 4)
		for k := 1; k < n; k++ {
			x, y := x0+(x1-x0)*float64(k)/float64(n), y0+(y1-y0)*float64(k)/float64(n)
			samples++
			if rgbaAt(img, int(x), int(y)) == routeColor {
				hits++
			}
		}
	}
	t.Logf("%d of %d points along the route's %d-point geometry in the route's colour", hits, samples, len(line))
	if samples < 50 || float64(hits) < 0.9*float64(samples) {
		t.Errorf("%d of %d points along routev1's geometry are the route's colour %v", hits, samples, routeColor)
	}
	// The East Arm (10.003 -> 10.004 at 0.002) is not on the route.
	x, y := o.pixel(10.0035, 0.002)
	if got := rgbaAt(img, int(x), int(y)); got == routeColor {
		t.Errorf("the East Arm, off the route, is the route's colour")
	}

	// Labels: "A" in white inside a red disc; "Depot" in dark text right
	// of a blue one.
	img = s.image(t, "/mapsv1/static?bbox=9.9995,-0.0005,10.0045,0.0045&size=600x600&markers=label:A|10.001,0.001&markers=color:blue|10.003,0.003,Depot", "image/png")
	count := func(x0, y0, x1, y1 int, f func(color.RGBA) bool) int {
		n := 0
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				if f(rgbaAt(img, x, y)) {
					n++
				}
			}
		}
		return n
	}
	ax, ay := o.pixel(10.001, 0.001)
	white := count(int(ax)-6, int(ay)-6, int(ax)+7, int(ay)+7, func(c color.RGBA) bool { return c.R > 230 && c.G > 230 && c.B > 230 })
	if white < 8 {
		t.Errorf("label A: %d white pixels inside the marker, want the glyph's", white)
	}
	dx, dy := o.pixel(10.003, 0.003)
	dark := count(int(dx)+12, int(dy)-8, int(dx)+70, int(dy)+8, func(c color.RGBA) bool { return c.R < 90 && c.G < 90 && c.B < 90 })
	if dark < 30 {
		t.Errorf("label Depot: %d dark pixels right of the marker, want the text's", dark)
	}
}
