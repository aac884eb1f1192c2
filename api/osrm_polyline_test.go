package api

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/paulmach/orb"
	"github.com/twpayne/go-polyline"
)

// TestPolylineGoogleExample: the worked example of Google's format
// description, both ways.
func TestPolylineGoogleExample(t *testing.T) {
	pts := []orb.Point{{-120.2, 38.5}, {-120.95, 40.7}, {-126.453, 43.252}}
	const enc = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
	if got := encodePolyline(pts, 5); got != enc {
		t.Errorf("encode = %q, want %q", got, enc)
	}
	got, err := decodePolyline(enc, 5)
	if err != nil || len(got) != 3 {
		t.Fatalf("decode = %v, %v", got, err)
	}
	for i := range pts {
		if math.Abs(got[i][0]-pts[i][0]) > 1e-9 || math.Abs(got[i][1]-pts[i][1]) > 1e-9 {
			t.Errorf("point %d = %v, want %v", i, got[i], pts[i])
		}
	}
}

// TestPolylineAgainstIndependentCodec: random lines encoded by
// twpayne/go-polyline (an independent implementation) decode to the same
// points here, and ours encode to the same text, at precision 1e5 and
// 1e6.
func TestPolylineAgainstIndependentCodec(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, digits := range []int{5, 6} {
		f := math.Pow10(digits)
		codec := polyline.Codec{Dim: 2, Scale: f}
		for trial := range 200 {
			n := 1 + trial%20
			pts := make([]orb.Point, n)
			coords := make([][]float64, n)
			for i := range pts {
				lat := math.Round((r.Float64()*180-90)*f) / f
				lon := math.Round((r.Float64()*360-180)*f) / f
				pts[i], coords[i] = orb.Point{lon, lat}, []float64{lat, lon}
			}
			want := string(codec.EncodeCoords(nil, coords))
			if got := encodePolyline(pts, digits); got != want {
				t.Fatalf("precision %d: encode(%v) = %q, independent codec %q", digits, pts, got, want)
			}
			back, err := decodePolyline(want, digits)
			if err != nil || len(back) != n {
				t.Fatalf("decode(%q) = %v, %v", want, back, err)
			}
			for i := range pts {
				if math.Abs(back[i][0]-pts[i][0]) > 0.5/f || math.Abs(back[i][1]-pts[i][1]) > 0.5/f {
					t.Fatalf("point %d = %v, want %v", i, back[i], pts[i])
				}
			}
		}
	}
}

// TestPolylineBad: text that is not of the encoding is an error, never a
// panic or a point.
func TestPolylineBad(t *testing.T) {
	for _, s := range []string{"_", "_p~iF", "_p~iF~ps|", " abc", "\x00\x01", strings.Repeat("~", 20)} {
		if pts, err := decodePolyline(s, 5); err == nil {
			t.Errorf("decode(%q) = %v, want an error", s, pts)
		}
	}
}

// FuzzOSRMCoordinates: the coordinates parser never panics; what it
// accepts is a non-empty list of points within the world's range; a
// polyline it accepts encodes back to text that decodes the same.
func FuzzOSRMCoordinates(f *testing.F) {
	for _, s := range []string{"13.388860,52.517037;13.397634,52.529407", "polyline(ofp_Ik_vpAilAyu@te@g`E)", "polyline6(_p~iF~ps|U)",
		"-75.5,39.7", "1,2;3", "polyline(", "polyline6(~)", ";", "1e3,2", "0x1,2", "NaN,1", "181,0", "0,-91"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pts, oe := parseOSRMCoordinates(s)
		if oe != nil {
			if oe.Code != "InvalidQuery" && oe.Code != "InvalidValue" {
				t.Fatalf("%q: code %s", s, oe.Code)
			}
			return
		}
		if len(pts) == 0 {
			t.Fatalf("%q: no point and no error", s)
		}
		for _, p := range pts {
			if !(p[0] >= -180 && p[0] <= 180 && p[1] >= -90 && p[1] <= 90) {
				t.Fatalf("%q: point %v out of range", s, p)
			}
		}
		for _, d := range []int{5, 6} {
			pre := map[int]string{5: "polyline(", 6: "polyline6("}[d]
			if strings.HasPrefix(s, pre) {
				again, oe := parseOSRMCoordinates(pre + encodePolyline(pts, d) + ")")
				if oe != nil || len(again) != len(pts) {
					t.Fatalf("%q: re-encoded polyline gives %v, %v", s, again, oe)
				}
				for i := range pts {
					if math.Abs(again[i][0]-pts[i][0]) > 1e-9 || math.Abs(again[i][1]-pts[i][1]) > 1e-9 {
						t.Fatalf("%q: point %d %v, again %v", s, i, pts[i], again[i])
					}
				}
			}
		}
	})
}

// FuzzOSRMURL: the whole request parser (path and query) never panics;
// it answers a request with every coordinate in range and one
// snapping option per coordinate, or one of OSRM's codes.
func FuzzOSRMURL(f *testing.F) {
	for _, s := range [][2]string{
		{"route/v1/driving/13.38,52.51;13.39,52.52.json", "steps=true&annotations=duration,speed&geometries=geojson&overview=full"},
		{"table/v1/car/polyline(ofp_Ik_vpAilAyu@te@g`E)", "sources=0&destinations=all&fallback_speed=10&scale_factor=1.5"},
		{"trip/v1/foot/1,2;3,4;5,6", "roundtrip=false&source=first&radiuses=5;unlimited;&bearings=;90,10;&approaches=curb;;"},
		{"nearest/v1/truck/1,2", "number=3&vehicle=height_m:4&exclude=toll,ferry&hints=x"},
		{"match/v2/x/y/z", "a=%zz&b"},
	} {
		f.Add(s[0], s[1])
	}
	codes := []string{"InvalidUrl", "InvalidService", "InvalidVersion", "InvalidQuery", "InvalidValue", "InvalidOptions"}
	f.Fuzz(func(t *testing.T, path, query string) {
		r, oe := parseOSRMURL(path, query, 6)
		if oe != nil {
			if !slices.Contains(codes, oe.Code) || oe.Message == "" {
				t.Fatalf("%q ? %q: %+v", path, query, oe)
			}
			return
		}
		if len(r.coords) == 0 || len(r.snap) != len(r.coords) {
			t.Fatalf("%q ? %q: %d coordinates, %d snapping options", path, query, len(r.coords), len(r.snap))
		}
		for _, p := range r.coords {
			if !(p[0] >= -180 && p[0] <= 180 && p[1] >= -90 && p[1] <= 90) {
				t.Fatalf("%q: point %v out of range", path, p)
			}
		}
	})
}
