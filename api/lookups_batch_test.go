package api

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/keys"
)

// lookupsItem is one result of a lookups batch.
type lookupsItem struct {
	Index   int                        `json:"index"`
	Status  int                        `json:"status"`
	Message string                     `json:"message"`
	Layers  map[string]json.RawMessage `json:"-"`
}

func decodeLookupsItem(t testing.TB, raw json.RawMessage) lookupsItem {
	t.Helper()
	var it lookupsItem
	if err := json.Unmarshal(raw, &it); err != nil {
		t.Fatalf("%v: %.200s", err, raw)
	}
	if err := json.Unmarshal(raw, &it.Layers); err != nil {
		t.Fatal(err)
	}
	return it
}

// TestLookupsBatchEqualsSingle: for points over Delaware (and a few
// elsewhere), every layer of every item is byte for byte the answer of
// its GET endpoint at that point, in JSON and NDJSON, with and without a
// timestamp.
func TestLookupsBatchEqualsSingle(t *testing.T) {
	f := newBatchFixture(t)
	pts := batchPoints(3, 200)
	pts = append(pts, [2]float64{-75.525, 39.165}, [2]float64{-75.5244, 39.1582}, [2]float64{-74.0059, 40.7128}, [2]float64{2.3522, 48.8566}, [2]float64{-40, 30})
	var items []string
	for _, p := range pts {
		items = append(items, fmt.Sprintf(`{"x":%s,"y":%s}`, strconv.FormatFloat(p[0], 'f', 6, 64), strconv.FormatFloat(p[1], 'f', 6, 64)))
	}
	all := `["covid","zip4","geoboundaries","admin","timezone"]`
	for _, tc := range []struct {
		ndjson bool
		ts     string // body member, "" for none
		tsq    string // the same as a query parameter
	}{{false, "", ""}, {true, "", ""}, {false, `,"timestamp":"2013-07-15T12:00:00Z"`, "&timestamp=2013-07-15T12:00:00Z"}, {true, `,"timestamp":"1373889600"`, "&timestamp=1373889600"}} {
		accept := ""
		if tc.ndjson {
			accept = mimeNDJSON
		}
		got := batchResults(t, f.post(t, "/lookupsv1/batch", `{"points":[`+strings.Join(items, ",")+`],"layers":`+all+tc.ts+`}`, accept), tc.ndjson)
		if len(got) != len(pts) {
			t.Fatalf("%d results for %d points", len(got), len(pts))
		}
		zips := 0
		for i, p := range pts {
			it := decodeLookupsItem(t, got[i])
			if it.Index != i || it.Status != http.StatusOK {
				t.Fatalf("item %d: %.200s", i, got[i])
			}
			if tc.ndjson && !bytes.HasPrefix(got[i], []byte(`{"index":`+strconv.Itoa(i)+`,`)) {
				t.Errorf("line %d: %.60s", i, got[i])
			}
			x, y := strconv.FormatFloat(p[0], 'f', 6, 64), strconv.FormatFloat(p[1], 'f', 6, 64)
			for layer, path := range map[string]string{
				layerTimezone:      "/timezonesv1/xy2tzdata?x=" + x + "&y=" + y + tc.tsq,
				layerAdmin:         "/adminv1/xy2hierarchy?x=" + x + "&y=" + y,
				layerGeoBoundaries: "/geoboundariesv1/xy2bounddata?x=" + x + "&y=" + y,
				layerZip4:          "/zip4v1/xy2zip?x=" + y + "&y=" + x, // zip4v1: x is the latitude
				layerCovid:         "/covidv1/xy2data?admin=8&x=" + x + "&y=" + y,
			} {
				rec := f.get(t, path)
				if rec.Code != http.StatusOK {
					t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
				}
				want := bytes.TrimSuffix(rec.Body.Bytes(), []byte("\n"))
				if !bytes.Equal(it.Layers[layer], want) {
					t.Errorf("points[%d] %s: %.300s\nsingle %s: %.300s", i, layer, it.Layers[layer], path, want)
				}
			}
			if bytes.Contains(it.Layers[layerZip4], []byte(`"zip9"`)) {
				zips++
			}
		}
		if zips != 2 {
			t.Errorf("%d points in the ZIP+4 test layer, want 2", zips)
		}
	}
	// Only the layers asked for, in the answer's order.
	got := batchResults(t, f.post(t, "/lookupsv1/batch", `{"points":[{"x":-75.5244,"y":39.1582}],"layers":["admin"]}`, ""), false)
	if it := decodeLookupsItem(t, got[0]); len(it.Layers) != 3 || it.Layers[layerAdmin] == nil {
		t.Errorf("admin only: %.200s", got[0])
	}
}

// TestLookupsBatchMixed10000: 10,000 points, every seventh invalid in
// one way or another: each answered in order, the invalid ones with
// status 400 and a message naming points[i] and the field; the batch
// counts the valid points as lookupsv1 usage. JSON and NDJSON.
func TestLookupsBatchMixed10000(t *testing.T) {
	f := newBatchFixture(t)
	pts := batchPoints(4, 10000)
	items := make([]string, len(pts))
	bad := map[int]string{}
	for i, p := range pts {
		items[i] = fmt.Sprintf(`{"x":%.6f,"y":%.6f}`, p[0], p[1])
		switch i % 7 {
		case 2:
			items[i], bad[i] = fmt.Sprintf(`{"x":181,"y":%.6f}`, p[1]), fmt.Sprintf("points[%d].x (longitude) must be between -180 and 180, got 181", i)
		case 4:
			items[i], bad[i] = `{"y":39.1}`, fmt.Sprintf("points[%d].x is required", i)
		case 6:
			items[i], bad[i] = `"-75.5,39.1"`, fmt.Sprintf("points[%d] must be an object", i)
		}
	}
	body := `{"points":[` + strings.Join(items, ",") + `],"layers":["timezone","admin","geoboundaries","zip4","covid"]}`
	for _, ndjson := range []bool{false, true} {
		accept := ""
		if ndjson {
			accept = mimeNDJSON
		}
		got := batchResults(t, f.post(t, "/lookupsv1/batch", body, accept), ndjson)
		if len(got) != len(items) {
			t.Fatalf("%d results for %d points", len(got), len(items))
		}
		for i := range items {
			it := decodeLookupsItem(t, got[i])
			want, isBad := bad[i]
			switch {
			case it.Index != i:
				t.Fatalf("result %d has index %d", i, it.Index)
			case isBad && (it.Status != http.StatusBadRequest || !strings.HasPrefix(it.Message, want) || len(it.Layers) != 3):
				t.Errorf("points[%d]: %.200s, want 400 %q", i, got[i], want)
			case !isBad && (it.Status != http.StatusOK || len(it.Layers) != 7):
				t.Errorf("points[%d]: %.200s", i, got[i])
			}
		}
	}
	u, err := f.store.Usage(context.Background(), f.keyID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n, want := u[0].Counts[keys.LookupsV1], 2*int64(len(items)-len(bad)); n != want {
		t.Errorf("usage %d, want %d (the valid points of two batches)", n, want)
	}
}

// FuzzLookupsBatchBody: any body is points (each valid or with a message
// naming its index) and layers, or errors naming fields; never a panic.
func FuzzLookupsBatchBody(f *testing.F) {
	for _, s := range []string{`{"points":[{"x":1,"y":2},{"x":"a"},null],"layers":["timezone","zip4"]}`, `{}`, `{"points":[],"layers":[]}`,
		`{"points":[{"x":1,"y":2}],"layers":["x",7],"timestamp":"2013-07-15T12:00:00Z"}`, `{"points":[{"x":-180,"y":90}],"layers":["covid"],"timestamp":"-1"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b lookupsBatchBody
		if strictUnmarshal([]byte(s), &b) != nil {
			return
		}
		r, errs := parseLookupsBatch(b)
		for _, e := range errs {
			if e.Field == "" || e.Reason == "" {
				t.Errorf("%q: error without field or reason: %v", s, e)
			}
		}
		if len(errs) > 0 {
			return
		}
		if len(r.points) == 0 || len(r.points) > maxLookupsBatch || len(r.layers) == 0 || len(r.msgs) != len(r.points) {
			t.Errorf("%q: %d points, %d layers", s, len(r.points), len(r.layers))
		}
		for i, m := range r.msgs {
			if m != "" && !strings.HasPrefix(m, "points["+strconv.Itoa(i)+"]") {
				t.Errorf("%q: message %q does not name points[%d]", s, m, i)
			}
		}
	})
}

// TestBatchGzip: a client that accepts gzip gets the same answer, JSON or
// NDJSON, compressed.
func TestBatchGzip(t *testing.T) {
	f := newBatchFixture(t)
	for _, tc := range []struct{ path, body, accept string }{
		{"/lookupsv1/batch", `{"points":[{"x":-75.5244,"y":39.1582},{"x":-75.5466,"y":39.7459},{"x":200,"y":0}],"layers":["timezone","admin","zip4"]}`, ""},
		{"/lookupsv1/batch", `{"points":[{"x":-75.5244,"y":39.1582},{"x":-75.5466,"y":39.7459}],"layers":["covid","geoboundaries"]}`, mimeNDJSON},
		{"/geocoderv1/batch", `{"reverse":[{"x":-75.5244,"y":39.1582},{"x":-75.5466,"y":39.7459}]}`, mimeNDJSON},
	} {
		plain := f.post(t, tc.path, tc.body, tc.accept)
		req := httptest.NewRequest(http.MethodPost, tc.path, strings.NewReader(tc.body))
		req.Header.Set(headerAPIKey, f.key)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept-Encoding", "gzip")
		if tc.accept != "" {
			req.Header.Set("Accept", tc.accept)
		}
		rec := httptest.NewRecorder()
		f.srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: %d, Content-Encoding %q", tc.path, rec.Code, rec.Header().Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(rec.Body)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, plain.Body.Bytes()) || plain.Header().Get("Content-Encoding") != "" {
			t.Errorf("%s %s: gzip answer differs from the plain one", tc.path, tc.accept)
		}
	}
}
