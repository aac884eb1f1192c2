package api

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/geosvc/geosvc/keys"
)

// variantTile is a white tile of scale x 256 px whose top-left pixel
// encodes z, x and y, and the next one the scale and the encoding asked
// for (the interface's tests need no map data).
func variantTile(z, x, y, scale int, webp bool) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, 256*scale, 256*scale))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	img.Set(0, 0, color.RGBA{uint8(z), uint8(x), uint8(y), 255})
	w := uint8(0)
	if webp {
		w = 1
	}
	img.Set(1, 0, color.RGBA{uint8(scale), w, 0, 255})
	var b bytes.Buffer
	err := png.Encode(&b, img)
	return b.Bytes(), err
}

// TestTileVariants: {y}@2x.png, {y}.webp and {y}@2x.webp reach the
// variant renderer with their scale and encoding, answer their media
// type, are cached apart from the 256 px PNG and each other, open to a
// tile token, and are counted as tilesv1 requests.
func TestTileVariants(t *testing.T) {
	f := newFixture(t, nil)
	var renders atomic.Int64
	err := RegisterTiles(f.srv, TileOptions{
		Render: func(_ context.Context, z, x, y int) ([]byte, error) { renders.Add(1); return plainTile(z, x, y) },
		RenderVariant: func(_ context.Context, z, x, y, scale int, webp bool) ([]byte, error) {
			renders.Add(1)
			return variantTile(z, x, y, scale, webp)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		suffix string
		scale  int
		webp   bool
		ctype  string
	}{
		{".png", 1, false, "image/png"},
		{"@2x.png", 2, false, "image/png"},
		{".webp", 1, true, "image/webp"},
		{"@2x.webp", 2, true, "image/webp"},
	}
	for round := 0; round < 2; round++ { // the second round comes from the cache
		for _, tc := range cases {
			path := "/tilesv1/14/4754/6252" + tc.suffix
			rec := f.do(http.MethodGet, path, f.key, "", nil)
			if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != tc.ctype {
				t.Fatalf("%s: %d %q %s", path, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
			}
			img, err := png.Decode(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			if side := 256 * tc.scale; img.Bounds() != image.Rect(0, 0, side, side) {
				t.Errorf("%s: %v, want %d px square", path, img.Bounds(), side)
			}
			want := color.RGBA{14, uint8(4754 & 255), uint8(6252 & 255), 255}
			if got := color.RGBAModel.Convert(img.At(0, 0)); got != want {
				t.Errorf("%s drawn for the wrong tile: %v, want %v", path, got, want)
			}
			if tc.suffix != ".png" {
				w := uint8(0)
				if tc.webp {
					w = 1
				}
				if got, want := color.RGBAModel.Convert(img.At(1, 0)), (color.RGBA{uint8(tc.scale), w, 0, 255}); got != want {
					t.Errorf("%s drawn as %v, want %v (scale, webp)", path, got, want)
				}
			}
		}
	}
	if n := renders.Load(); n != int64(len(cases)) {
		t.Errorf("%d renders for %d variants fetched twice, want one each", n, len(cases))
	}
	// A tile token opens the variants as it opens the PNG.
	tok := newTileTokenOf(t, f)
	if rec := f.do(http.MethodGet, "/tilesv1/14/4754/6252@2x.png?token="+tok, "", "", nil); rec.Code != http.StatusOK {
		t.Errorf("@2x by token: %d %s", rec.Code, rec.Body)
	}
	if rec := f.do(http.MethodGet, "/tilesv1/14/4754/6252@2x.png?token=forged.1.x", "", "", nil); rec.Code != http.StatusForbidden {
		t.Errorf("@2x by a forged token: %d %s, want 403", rec.Code, rec.Body)
	}
	u, err := f.store.Usage(context.Background(), f.keyID, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Eight tiles, the token and the tile by token.
	if len(u) != 1 || u[0].Counts[keys.TilesV1] != int64(2*len(cases)+2) {
		t.Errorf("usage %+v, want %d tilesv1", u, 2*len(cases)+2)
	}
}

// newTileTokenOf asks f's server for a tile token of f's key.
func newTileTokenOf(t *testing.T, f *fixture) string {
	t.Helper()
	tf := &tileFixture{fixture: f}
	return tf.token(t, f.key).Token
}

// TestTileVariantsNotServed: a server given only a 256 px PNG renderer
// answers the variants 404, naming what it draws, after checking the
// path (a bad index is still a 400).
func TestTileVariantsNotServed(t *testing.T) {
	tf := newTileFixture(t)
	for _, tc := range []struct {
		path string
		code int
	}{{"/tilesv1/1/0/0@2x.png", 404}, {"/tilesv1/1/0/0.webp", 404}, {"/tilesv1/1/0/2@2x.png", 400}} {
		rec := tf.do(http.MethodGet, tc.path, tf.key, "", nil)
		if rec.Code != tc.code {
			t.Errorf("%s: %d %s, want %d", tc.path, rec.Code, rec.Body, tc.code)
		}
	}
	if n := tf.renders.Load(); n != 0 {
		t.Errorf("%d renders", n)
	}
}
