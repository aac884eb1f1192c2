package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/geosvc/geosvc/keys"
)

// tileFixture is a server with tiles drawn by draw (a plain tile whose
// colour encodes z/x/y unless a test sets its own), counting the renders.
type tileFixture struct {
	*fixture
	renders atomic.Int64
	draw    func(ctx context.Context, z, x, y int) ([]byte, error)
}

// plainTile is a white tile whose top-left pixel encodes z, x and y, the
// low bytes of each: tests of the interface need no map data.
func plainTile(z, x, y int) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, 256, 256))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	img.Set(0, 0, color.RGBA{uint8(z), uint8(x), uint8(y), 255})
	var b bytes.Buffer
	err := png.Encode(&b, img)
	return b.Bytes(), err
}

func newTileFixture(t *testing.T) *tileFixture {
	t.Helper()
	tf := &tileFixture{fixture: newFixture(t, nil)}
	tf.draw = func(_ context.Context, z, x, y int) ([]byte, error) { return plainTile(z, x, y) }
	err := RegisterTiles(tf.srv, TileOptions{Render: func(ctx context.Context, z, x, y int) ([]byte, error) {
		tf.renders.Add(1)
		return tf.draw(ctx, z, x, y)
	}})
	if err != nil {
		t.Fatal(err)
	}
	return tf
}

// token asks for a tile token with key.
func (tf *tileFixture) token(t *testing.T, key string) tokenAnswer {
	t.Helper()
	rec := tf.do(http.MethodPost, "/tilesv1/token", key, "", nil)
	if rec.Code != http.StatusOK {
		t.Fatalf("token: %d %s", rec.Code, rec.Body)
	}
	var a tokenAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestTileByKey(t *testing.T) {
	tf := newTileFixture(t)
	rec := tf.do(http.MethodGet, "/tilesv1/14/4779/6230.png", tf.key, "", nil)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/png" {
		t.Fatalf("tile: %d %q %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	img, err := png.Decode(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := color.RGBAModel.Convert(img.At(0, 0)), (color.RGBA{14, uint8(4779 & 255), uint8(6230 & 255), 255}); got != want {
		t.Errorf("tile drawn for the wrong z/x/y: %v, want %v", got, want)
	}
	etag := rec.Header().Get("ETag")
	if !strings.HasPrefix(etag, `"`) || rec.Header().Get("Cache-Control") != "private, max-age=3600" {
		t.Errorf("ETag %q, Cache-Control %q", etag, rec.Header().Get("Cache-Control"))
	}
	// The second fetch comes from the cache; a conditional one is a 304.
	again := tf.do(http.MethodGet, "/tilesv1/14/4779/6230.png", tf.key, "", nil)
	if again.Code != http.StatusOK || again.Header().Get("ETag") != etag {
		t.Errorf("second fetch: %d %q", again.Code, again.Header().Get("ETag"))
	}
	if n := tf.renders.Load(); n != 1 {
		t.Errorf("rendered %d times, want 1 (cached)", n)
	}
	for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag, "*"} {
		nm := tf.do(http.MethodGet, "/tilesv1/14/4779/6230.png", tf.key, "", map[string]string{"If-None-Match": inm})
		if nm.Code != http.StatusNotModified || nm.Body.Len() != 0 {
			t.Errorf("If-None-Match %s: %d, %d bytes", inm, nm.Code, nm.Body.Len())
		}
	}
	if nm := tf.do(http.MethodGet, "/tilesv1/14/4779/6230.png", tf.key, "", map[string]string{"If-None-Match": `"other"`}); nm.Code != http.StatusOK {
		t.Errorf("a stale ETag: %d, want 200", nm.Code)
	}
	u, err := tf.store.Usage(context.Background(), tf.keyID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(u) != 1 || u[0].Counts[keys.TilesV1] != 3 { // two 200s and the stale ETag's
		t.Errorf("usage %+v, want 3 tilesv1 (304s are not counted)", u)
	}
}

// tileShapes is the 400 of a tile path of no known suffix.
const tileShapes = "a tile is {z}/{x}/{y}.png, {z}/{x}/{y}@2x.png, {z}/{x}/{y}.webp, {z}/{x}/{y}@2x.webp or {z}/{x}/{y}.mvt"

func TestTileBadPaths(t *testing.T) {
	tf := newTileFixture(t)
	for _, tc := range []struct{ path, msg string }{
		{"/tilesv1/21/0/0.png", "z must be an integer in 0..20"},
		{"/tilesv1/-1/0/0.png", "z must be an integer in 0..20"},
		{"/tilesv1/a/0/0.png", "z must be an integer in 0..20"},
		{"/tilesv1/2/4/0.png", "x must be an integer in 0..3 at zoom 2"},
		{"/tilesv1/2/0/4.png", "y must be an integer in 0..3 at zoom 2"},
		{"/tilesv1/0/0/0", tileShapes},
		{"/tilesv1/0/0/0.jpg", tileShapes},
		{"/tilesv1/0/0/0@2x", tileShapes},
		{"/tilesv1/0/0/0@2x.jpg", tileShapes},
		{"/tilesv1/0/0/0@3x.png", tileShapes},
		{"/tilesv1/0/0/0@2x.mvt", tileShapes},
		{"/tilesv1/21/0/0@2x.png", "z must be an integer in 0..20"},
		{"/tilesv1/2/0/4@2x.webp", "y must be an integer in 0..3 at zoom 2"},
		{"/tilesv1/2/1/x.png", "y must be an integer in 0..3 at zoom 2"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			rec := tf.do(http.MethodGet, tc.path, tf.key, "", nil)
			var body messageBody
			_ = json.Unmarshal(rec.Body.Bytes(), &body)
			if rec.Code != http.StatusBadRequest || body.Message != tc.msg {
				t.Errorf("%d %s, want 400 %q", rec.Code, rec.Body, tc.msg)
			}
		})
	}
	if n := tf.renders.Load(); n != 0 {
		t.Errorf("%d renders for bad paths", n)
	}
}

func TestTileToken(t *testing.T) {
	tf := newTileFixture(t)
	a := tf.token(t, tf.key)
	if want := tf.clock().Add(time.Hour); !a.ExpiresAt.Equal(want) {
		t.Errorf("expires_at %v, want %v", a.ExpiresAt, want)
	}
	get := func(path string) (int, string) {
		rec := tf.do(http.MethodGet, path, "", "", nil)
		return rec.Code, rec.Body.String()
	}
	const tilePath = "/tilesv1/3/2/5.png?token="
	if code, body := get(tilePath + a.Token); code != http.StatusOK {
		t.Fatalf("tile by token: %d %s", code, body)
	}
	forged := []string{
		"",
		"nonsense",
		a.Token + "x",
		a.Token[:len(a.Token)-2],
		strings.Replace(a.Token, tf.keyID, "00000000-0000-0000-0000-000000000000", 1),
		strings.Replace(a.Token, fmt.Sprint(a.ExpiresAt.Unix()), fmt.Sprint(a.ExpiresAt.Unix()+86400), 1),
	}
	for _, tok := range forged {
		if code, body := get(tilePath + tok); code != http.StatusForbidden || body != `{"message":"Forbidden"}`+"\n" {
			t.Errorf("token %q: %d %s, want 403 Forbidden", tok, code, body)
		}
	}
	// A token opens tiles only, not the token endpoint or another interface.
	if code, _ := get("/testv1/item/1?token=" + a.Token); code != http.StatusForbidden {
		t.Errorf("token on another interface: %d, want 403", code)
	}
	if rec := tf.do(http.MethodPost, "/tilesv1/token?token="+a.Token, "", "", nil); rec.Code != http.StatusForbidden {
		t.Errorf("token asking for a token: %d, want 403", rec.Code)
	}
	// A key limited to other interfaces gets no token.
	if rec := tf.do(http.MethodPost, "/tilesv1/token", tf.restricted, "", nil); rec.Code != http.StatusForbidden {
		t.Errorf("soap-only key: %d, want 403", rec.Code)
	}
	// An hour later the token has expired.
	tf.advance(time.Hour)
	if code, _ := get(tilePath + a.Token); code != http.StatusForbidden {
		t.Errorf("expired token: %d, want 403", code)
	}
	// A revoked key's fresh token stops working.
	b := tf.token(t, tf.key)
	if code, _ := get(tilePath + b.Token); code != http.StatusOK {
		t.Fatalf("fresh token: %d", code)
	}
	if _, err := tf.store.Revoke(context.Background(), tf.keyID); err != nil {
		t.Fatal(err)
	}
	if code, _ := get(tilePath + b.Token); code != http.StatusForbidden {
		t.Errorf("revoked key's token: %d, want 403", code)
	}
}

// Two servers on one Redis share the token secret: a token of one opens
// the other's tiles.
func TestTileTokenSharedSecret(t *testing.T) {
	tf := newTileFixture(t)
	other := New(Options{Logger: tf.srv.log, Redis: tf.redis.Client, Gate: keys.NewGate(tf.store, keys.GateOptions{}), Now: tf.clock})
	if err := RegisterTiles(other, TileOptions{Render: tf.draw}); err != nil {
		t.Fatal(err)
	}
	a := tf.token(t, tf.key)
	req, _ := http.NewRequest(http.MethodGet, "/tilesv1/0/0/0.png?token="+a.Token, nil)
	rec := &recorder{header: http.Header{}}
	other.ServeHTTP(rec, req)
	if rec.code != http.StatusOK {
		t.Errorf("token of another process: %d", rec.code)
	}
}

type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(p []byte) (int, error) { return r.body.Write(p) }
func (r *recorder) WriteHeader(code int)        { r.code = code }

func TestTileRenderedOnceForConcurrentCallers(t *testing.T) {
	tf := newTileFixture(t)
	release := make(chan struct{})
	draw := tf.draw
	tf.draw = func(ctx context.Context, z, x, y int) ([]byte, error) {
		<-release
		return draw(ctx, z, x, y)
	}
	var wg sync.WaitGroup
	codes := make([]int, 8)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = tf.do(http.MethodGet, "/tilesv1/5/9/12.png", tf.key, "", nil).Code
		}()
	}
	// Let the callers line up behind the first render, then finish it.
	for tf.renders.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusOK {
			t.Errorf("caller %d: %d", i, c)
		}
	}
	if n := tf.renders.Load(); n != 1 {
		t.Errorf("rendered %d times, want 1", n)
	}
}

func TestTileNotReady(t *testing.T) {
	tf := newTileFixture(t)
	tf.draw = func(context.Context, int, int, int) ([]byte, error) {
		return nil, fmt.Errorf("tiles: %w", ErrNotReady)
	}
	rec := tf.do(http.MethodGet, "/tilesv1/0/0/0.png", tf.key, "", nil)
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "not ready") {
		t.Errorf("%d %s, want 503 not ready", rec.Code, rec.Body)
	}
	// Errors are not cached: the tile is drawn once the data is there.
	tf.draw = func(context.Context, int, int, int) ([]byte, error) { return []byte("\x89PNG"), nil }
	if rec := tf.do(http.MethodGet, "/tilesv1/0/0/0.png", tf.key, "", nil); rec.Code != http.StatusOK {
		t.Errorf("after load: %d", rec.Code)
	}
}
