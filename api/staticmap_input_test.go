package api

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/geosvc/geosvc/keys"
)

// TestStaticMapBadInput: each malformed or out-of-range parameter is a
// 400 whose message names it (and the list index), before the bundle is
// needed: the server here has none loaded, so a request that passed the
// checks would be a 503.
func TestStaticMapBadInput(t *testing.T) {
	s := newStaticServer(t, false)
	const ok = "size=600x400&center=-75.5244,39.1582&zoom=13"
	for _, tc := range []struct{ q, msg string }{
		{"center=-75.5,39.1&zoom=13", "size is required"},
		{"size=600&center=-75.5,39.1&zoom=13", "size \"600\" must be WIDTHxHEIGHT"},
		{"size=0x400&center=-75.5,39.1&zoom=13", "size \"0x400\" must be WIDTHxHEIGHT in pixels, each 1 to 2048"},
		{"size=2049x400&center=-75.5,39.1&zoom=13", "size \"2049x400\""},
		{"size=1025x600&scale=2&center=-75.5,39.1&zoom=13", "size 1025x600 at scale 2 is a 2050x1200 image"},
		{"size=600x400&scale=3&center=-75.5,39.1&zoom=13", "scale \"3\" must be 1 or 2"},
		{"size=600x400&format=jpg&center=-75.5,39.1&zoom=13", "format \"jpg\" must be png, gif or webp"},
		{"size=600x400", "center and zoom, or bbox, are required"},
		{"size=600x400&center=-75.5,39.1", "zoom is required with center"},
		{"size=600x400&zoom=3", "center is required with zoom"},
		{"size=600x400&center=39.1,-86&zoom=3", "center: latitude -86 is beyond web mercator"},
		{"size=600x400&center=-75.5,95&zoom=3", "center: latitude 95 is out of range"},
		{"size=600x400&center=-75.5&zoom=3", "center: \"-75.5\" is not \"lon,lat\""},
		{"size=600x400&center=-75.5,39.1&zoom=21", "zoom \"21\" must be an integer 0 to 20"},
		{"size=600x400&center=-75.5,39.1&zoom=-1", "zoom \"-1\" must be an integer 0 to 20"},
		{"size=600x400&center=-75.5,39.1&zoom=1.5", "zoom \"1.5\" must be an integer 0 to 20"},
		{"size=600x400&center=-75.5,39.1&zoom=3&bbox=-76,39,-75,40", "bbox: give center and zoom, or bbox, not both"},
		{"size=600x400&bbox=-76,39,-75", "bbox \"-76,39,-75\" must be minlon,minlat,maxlon,maxlat"},
		{"size=600x400&bbox=-75,39,-76,40", "bbox: minlon must be less than maxlon"},
		{"size=600x400&bbox=-76,39,-75,x", "bbox: \"x\" is not a decimal number"},
		{"size=600x400&bbox=-76,39,-75,89", "bbox: latitudes must be within web mercator"},
		{"size=600x400&bbox=-181,39,-75,40", "bbox: longitudes must be in [-180, 180]"},
		{ok + "&markers=color:red", "markers[0]: no location"},
		{ok + "&markers=-75.5,39.1&markers=color:red|-75.5", "markers[1][1]: \"-75.5\" is not a location"},
		{ok + "&markers=color:pink|-75.5,39.1", "markers[0][0]: color \"pink\" is not a colour"},
		{ok + "&markers=color:0x12345|-75.5,39.1", "markers[0][0]: color \"0x12345\" is not a colour"},
		{ok + "&markers=size:huge|-75.5,39.1", "markers[0][0]: size \"huge\" is not tiny, small or mid"},
		{ok + "&markers=shape:pin|-75.5,39.1", "markers[0][0]: \"shape\" is not a marker style"},
		{ok + "&markers=-75.5,39.1||-75.4,39.1", "markers[0][1]: an empty item"},
		{ok + "&markers=-75.5,39.1,", "markers[0][0]: label \"\" must be 1 to 30 characters"},
		{ok + "&markers=-75.5,39.1," + strings.Repeat("x", 31), "markers[0][0]: label"},
		{ok + "&markers=200,39.1", "markers[0][0]: longitude 200 is out of range"},
		{ok + "&markers=" + strings.Repeat("-75.5,39.1|", 100) + "-75.5,39.1", "markers[0]: more than 100 markers in all"},
		{ok + "&path=-75.5,39.1", "path[0]: a path needs 2 points or more"},
		{ok + "&path=weight:0|-75.5,39.1|-75.4,39.2", "path[0][0]: weight \"0\" must be a number of pixels above 0 and at most 20"},
		{ok + "&path=weight:21|-75.5,39.1|-75.4,39.2", "path[0][0]: weight \"21\""},
		{ok + "&path=-75.5,39.1|-75.4,39.2&path=color:red|-75.5,39.1|enc:_p~iF~ps|U_ulLnnqC", "path[1][2]: an encoded polyline must be the path's only points"},
		{ok + "&path=enc:_p~iF~ps", "path[0][0]: enc: is not an encoded polyline"},
		{ok + "&path=enc:_p~iF~ps|U_ulLnnqC_mqNvxq`@|weight:3", "path[0][0]: enc: is not an encoded polyline"},
		{ok + "&path=-75.5,39.1|-75.4,39.2|enc:_p~iF~ps%7CU_ulLnnqC", "path[0][2]: an encoded polyline must be the path's only points"},
		{ok + "&path=fill:red|-75.5,39.1|-75.4,39.2", "path[0][0]: \"fill\" is not a path style"},
		{ok + "&path=-75.5,39.1|-75.4,91", "path[0][1]: latitude 91 is out of range"},
		{ok + strings.Repeat("&path=-75.5,39.1|-75.4,39.2", 21), "path: at most 20 paths, got 21"},
		{ok + "&route=-75.5,39.1", "route must be 2 to 10 points"},
		{ok + "&route=-75.5,39.1;" + strings.Repeat("-75.5,39.1;", 9) + "-75.5,39.1", "route must be 2 to 10 points lon,lat separated by ;, got 11"},
		{ok + "&route=-75.5,39.1;x,39.1", "route[1]: longitude \"x\" is not a decimal number"},
	} {
		t.Run(tc.q, func(t *testing.T) {
			rec := s.get("/mapsv1/static?"+tc.q, false)
			var body messageBody
			_ = json.Unmarshal(rec.Body.Bytes(), &body)
			if rec.Code != http.StatusBadRequest || !strings.Contains(body.Message, tc.msg) {
				t.Errorf("%d %s, want 400 containing %q", rec.Code, rec.Body, tc.msg)
			}
		})
	}
	// Valid requests pass the checks and meet the unloaded bundle (503).
	for _, q := range []string{ok, "size=1024x1024&scale=2&bbox=-76,39,-75,40&format=gif",
		"size=100x100&markers=size:tiny|color:0xff000080|label:1|-75.5,39.1|-75.4,39.2,Stop%202&path=enc:_p~iF~ps%7CU_ulLnnqC_mqNvxq%60%40",
		"size=100x100&route=-75.5,39.1;-75.4,39.2"} {
		if rec := s.get("/mapsv1/static?"+q, false); rec.Code != http.StatusServiceUnavailable {
			t.Errorf("%s: %d %s, want 503 (no bundle)", q, rec.Code, rec.Body)
		}
	}
}

// TestStaticMapKeys: the key in x-api-key or in ?key= (for an <img>);
// a bad one, or two, is exactly 403 Forbidden; a map is one mapsv1
// request in the key's usage.
func TestStaticMapKeys(t *testing.T) {
	s := newStaticServer(t, true)
	const q = "/mapsv1/static?size=64x64&center=10.002,0.002&zoom=16"
	if rec := s.get(q, false); rec.Code != http.StatusOK {
		t.Fatalf("by header: %d %s", rec.Code, rec.Body)
	}
	if rec := s.get(q+"&key="+url.QueryEscape(s.key), true); rec.Code != http.StatusOK {
		t.Fatalf("by ?key=: %d %s", rec.Code, rec.Body)
	}
	for name, target := range map[string]string{
		"no key":         q,
		"bad key":        q + "&key=" + strings.Repeat("w", 43),
		"two keys":       q + "&key=" + url.QueryEscape(s.key) + "&key=" + url.QueryEscape(s.key),
		"key on tilesv1": "/tilesv1/0/0/0.png?key=" + url.QueryEscape(s.key),
	} {
		rec := s.get(target, true)
		if rec.Code != http.StatusForbidden || rec.Body.String() != `{"message":"Forbidden"}`+"\n" {
			t.Errorf("%s: %d %s, want 403 Forbidden", name, rec.Code, rec.Body)
		}
	}
	u, err := s.store.Usage(context.Background(), s.keyID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(u) != 1 || u[0].Counts[keys.MapsV1] != 2 {
		t.Errorf("usage %+v, want 2 mapsv1", u)
	}
}

// FuzzStaticOverlays: the markers and path parsers never panic; what
// they accept holds points on the globe within web mercator's
// latitudes, labels of 1 to 30 printable characters, weights in (0, 20]
// and paths of 2 points or more; what they refuse is named by parameter
// and index.
func FuzzStaticOverlays(f *testing.F) {
	for _, s := range []string{"-75.5,39.1", "color:red|label:A|-75.5,39.1|-75.4,39.2,Depot", "size:tiny|0,0", "color:0xff000080|weight:3|-75.5,39.1|-75.4,39.2",
		"enc:_p~iF~ps|U_ulLnnqC_mqNvxq`@", "weight:2.5|enc:??", "||", "label:|1,2", "1,2,3,4", "color:|", "1e3,2", "-0,-0|0,0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		ms, msg := parseMarkers(3, v)
		if msg != "" && !strings.HasPrefix(msg, "markers[3]") {
			t.Errorf("markers %q: message %q does not name markers[3]", v, msg)
		}
		for _, m := range ms {
			if math.IsNaN(m.Point[0]) || math.Abs(m.Point[0]) > 180 || math.Abs(m.Point[1]) > maxMercatorLat {
				t.Errorf("markers %q: accepted point %v", v, m.Point)
			}
			if n := utf8.RuneCountInString(m.Label); m.Label != "" && (n > maxStaticLabel || !utf8.ValidString(m.Label)) {
				t.Errorf("markers %q: accepted label %q", v, m.Label)
			}
		}
		p, msg := parsePath(4, v)
		if msg != "" {
			if !strings.HasPrefix(msg, "path[4]") {
				t.Errorf("path %q: message %q does not name path[4]", v, msg)
			}
			return
		}
		if len(p.Points) < 2 || len(p.Points) > maxStaticPathPoints || p.Weight < 0 || p.Weight > maxStaticWeight {
			t.Errorf("path %q: accepted %d points, weight %g", v, len(p.Points), p.Weight)
		}
		for _, q := range p.Points {
			if math.IsNaN(q[0]) || math.Abs(q[0]) > 180 || math.Abs(q[1]) > maxMercatorLat {
				t.Errorf("path %q: accepted point %v", v, q)
			}
		}
	})
}
