package api

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

func TestParseGlyphRange(t *testing.T) {
	for _, tc := range []struct {
		in     string
		lo, hi int
		ok     bool
	}{
		{"0-255.pbf", 0, 255, true}, {"65280-65535.pbf", 65280, 65535, true}, {"255-0.pbf", 0, 255, true},
		{"0-256.pbf", 0, 0, false}, {"65280-65536.pbf", 0, 0, false}, {"-1-2.pbf", 0, 0, false},
		{"0-255", 0, 0, false}, {"a-b.pbf", 0, 0, false}, {"0.pbf", 0, 0, false},
	} {
		lo, hi, ok := parseGlyphRange(tc.in)
		if ok != tc.ok || (ok && (lo != tc.lo || hi != tc.hi)) {
			t.Errorf("%q: %d %d %v", tc.in, lo, hi, ok)
		}
	}
}

func FuzzGlyphRange(f *testing.F) {
	for _, s := range []string{"0-255.pbf", "255-0.pbf", "-1-2.pbf", "1--2.pbf", "99999999999999999999-0.pbf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lo, hi, ok := parseGlyphRange(s)
		if ok && (lo < 0 || hi > 0xFFFF || hi < lo || hi-lo >= 256) {
			t.Errorf("%q: accepted %d-%d", s, lo, hi)
		}
	})
}

// TestVectorTileAnswers: gzip as the client accepts it, the same ETag
// rule as PNG tiles, the documents public and the glyphs' 400s.
func TestVectorTileAnswers(t *testing.T) {
	tf := &tileFixture{fixture: newFixture(t, nil)}
	renders := 0
	err := RegisterTiles(tf.srv, TileOptions{Render: func(_ context.Context, z, x, y int) ([]byte, error) { return plainTile(z, x, y) },
		RenderMVT: func(_ context.Context, z, x, y int) ([]byte, error) {
			renders++
			return []byte(strings.Repeat("mvt", 100)), nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		enc  string
		gzip bool
	}{{"", false}, {"gzip", true}, {"gzip;q=0", false}, {"br, gzip;q=0.5", true}, {"identity", false}} {
		rec := tf.do(http.MethodGet, "/tilesv1/3/2/5.mvt", tf.key, "", map[string]string{"Accept-Encoding": tc.enc})
		if rec.Code != http.StatusOK || (rec.Header().Get("Content-Encoding") == "gzip") != tc.gzip || rec.Header().Get("Content-Type") != mvtType {
			t.Errorf("Accept-Encoding %q: %d %q %q", tc.enc, rec.Code, rec.Header().Get("Content-Encoding"), rec.Header().Get("Content-Type"))
		}
		if !strings.Contains(strings.Join(rec.Header().Values("Vary"), ","), "Accept-Encoding") {
			t.Errorf("no Vary: Accept-Encoding")
		}
		if nm := tf.do(http.MethodGet, "/tilesv1/3/2/5.mvt", tf.key, "", map[string]string{"Accept-Encoding": tc.enc, "If-None-Match": rec.Header().Get("ETag")}); nm.Code != http.StatusNotModified {
			t.Errorf("If-None-Match: %d", nm.Code)
		}
	}
	if renders != 1 {
		t.Errorf("encoded %d times, want 1 (cached, the gzip form from the cached plain one)", renders)
	}
	for path, code := range map[string]int{
		"/tilesv1/style.json": 200, "/tilesv1/sprite.png": 200, "/tilesv1/sprite@2x.json": 200,
		"/tilesv1/fonts/Go%20Regular/0-255.pbf": 200, "/tilesv1/fonts/Go%20Regular,Noto/256-511.pbf": 200,
		"/tilesv1/fonts/Arial/0-255.pbf": 400, "/tilesv1/fonts/Go%20Regular/0-1000.pbf": 400,
		"/tilesv1/tiles.json": 503, // no bundle: no bounds yet
	} {
		if rec := tf.do(http.MethodGet, path, "", "", nil); rec.Code != code {
			t.Errorf("%s without a key: %d %s, want %d", path, rec.Code, rec.Body, code)
		}
	}
}
