package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
	"github.com/geosvc/geosvc/internal/redistest"
	"github.com/geosvc/geosvc/keys"
)

// geocodeDelaware builds the gazetteer of the Delaware extract once (with
// its boundary layer's areas, as `geosvc build` does).
var geocodeDelaware = sync.OnceValues(func() (*geocode.Index, error) {
	path, err := extracts.Path("delaware")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "api-batch-geocode")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if _, err := boundary.Build(boundary.BuildOptions{OSMPath: path, Out: dir}); err != nil {
		return nil, err
	}
	bl, err := boundary.Load(dir)
	if err != nil {
		return nil, err
	}
	return geocode.Build(path, geocode.BuildOptions{Admins: geocode.BoundaryAdmins(bl)})
})

// batchFixture serves the batch endpoints and the single endpoints they
// answer like, on Delaware's gazetteer, boundaries and COVID data, the
// time-zone fixture's index and the test ZIP+4 layer.
type batchFixture struct {
	srv   *Server
	key   string
	keyID string
	store *keys.Store
	cur   bundle.Current
}

// batchTestPlans puts the fixture's key on a plan with small daily quotas.
const batchTestPlans = `currency: USD
default_plan: small
plans:
  small:
    metrics:
      geocoderv1: {quota: {day: 5000}}
      lookupsv1: {quota: {day: 30000}}
`

func newBatchFixture(t testing.TB) *batchFixture {
	t.Helper()
	return newBatchFixturePlans(t, batchTestPlans)
}

// batchBenchPlans is a plan without quotas, for the benchmarks.
const batchBenchPlans = `currency: USD
default_plan: unlimited
plans:
  unlimited: {}
`

// newBatchFixturePlans is newBatchFixture with the key on plans' default
// plan.
func newBatchFixturePlans(t testing.TB, plansYAML string) *batchFixture {
	t.Helper()
	gc, err := geocodeDelaware()
	extracts.Need(t, err)
	bl, err := bndDelaware()
	extracts.Need(t, err)
	cv, err := covidDelaware()
	extracts.Need(t, err)
	tz := newTZFixture(t).ix
	plans, err := keys.ParsePlans([]byte(plansYAML))
	if err != nil {
		t.Fatal(err)
	}
	rd := redistest.New(t)
	f := &batchFixture{store: keys.NewStore(rd.Client, keys.Options{Prefix: rd.Prefix, Plans: plans})}
	k, plain, err := f.store.Create(context.Background(), keys.CreateOptions{Owner: "batch test"})
	if err != nil {
		t.Fatal(err)
	}
	f.key, f.keyID = plain, k.ID
	log := slog.New(slog.DiscardHandler)
	f.srv = New(Options{Logger: log, Redis: rd.Client, Gate: keys.NewGate(f.store, keys.GateOptions{})})
	g := f.srv.Protected()
	now := func() time.Time { return bndNow }
	RegisterGeocoder(g, GeocoderOptions{Bundle: &f.cur, Logger: log})
	RegisterTimezones(g, TimezonesOptions{Bundle: &f.cur, Logger: log})
	bo := BoundaryOptions{Bundle: &f.cur, Now: now}
	RegisterAdmin(g, bo)
	RegisterGeoBoundaries(g, bo)
	RegisterZip4(g, Zip4Options{Bundle: &f.cur})
	RegisterCovid(g, CovidOptions{Bundle: &f.cur})
	RegisterBatch(g, BatchOptions{Bundle: &f.cur, Now: now, Logger: log})
	f.cur.Store(&bundle.Bundle{Geocoder: gc, Boundaries: bl, Covid: cv, TimeZones: tz, Zip4: zip4TestLayer()})
	return f
}

// get answers a GET of path.
func (f *batchFixture) get(t testing.TB, path string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set(headerAPIKey, f.key)
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, req)
	return rec
}

// post answers a POST of body to path, accept "" or the Accept header.
func (f *batchFixture) post(t testing.TB, path, body, accept string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set(headerAPIKey, f.key)
	req.Header.Set(echoContentType, "application/json")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, req)
	return rec
}

// batchResults reads {"results":[...]} or NDJSON lines into raw items.
func batchResults(t testing.TB, rec *httptest.ResponseRecorder, ndjson bool) []json.RawMessage {
	t.Helper()
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %.300s", rec.Code, rec.Body)
	}
	if !ndjson {
		var a struct{ Results []json.RawMessage }
		if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
			t.Fatalf("%v: %.300s", err, rec.Body)
		}
		return a.Results
	}
	if ct := rec.Header().Get("Content-Type"); ct != mimeNDJSON {
		t.Fatalf("content type %q", ct)
	}
	var out []json.RawMessage
	for line := range bytes.SplitSeq(bytes.TrimSuffix(rec.Body.Bytes(), []byte("\n")), []byte("\n")) {
		if !json.Valid(line) {
			t.Fatalf("line is not JSON: %.200s", line)
		}
		out = append(out, json.RawMessage(bytes.Clone(line)))
	}
	return out
}

// withoutIndex drops an NDJSON line's leading "index" member, checking it.
func withoutIndex(t testing.TB, line json.RawMessage, i int) json.RawMessage {
	t.Helper()
	prefix := `{"index":` + strconv.Itoa(i) + `,`
	if !bytes.HasPrefix(line, []byte(prefix)) {
		t.Fatalf("line %d does not begin %s: %.100s", i, prefix, line)
	}
	return append([]byte{'{'}, line[len(prefix):]...)
}

// batchPoints returns n seeded random points over Delaware's box.
func batchPoints(seed uint64, n int) [][2]float64 {
	rng := rand.New(rand.NewPCG(seed, 26))
	out := make([][2]float64, n)
	for i := range out {
		out[i] = [2]float64{-75.79 + rng.Float64()*0.74, 38.45 + rng.Float64()*1.39}
	}
	return out
}

// TestGeocoderBatchEqualsSingle: every item of a batch, forward and
// reverse, JSON and NDJSON, is byte for byte the GET geocoder's answer.
func TestGeocoderBatchEqualsSingle(t *testing.T) {
	f := newBatchFixture(t)
	pts := batchPoints(1, 300)
	var rev []string
	var addresses []string
	for i, p := range pts {
		x, y := strconv.FormatFloat(p[0], 'f', 6, 64), strconv.FormatFloat(p[1], 'f', 6, 64)
		rev = append(rev, `{"x":`+x+`,"y":`+y+`}`)
		if len(addresses) < 80 {
			// Addresses as a user would type them, taken from the data:
			// the formatted address of the reverse answer, lower-cased
			// every other time, with a typo every third.
			var r struct {
				Results []struct {
					FormattedAddress string `json:"formatted_address"`
				}
			}
			_ = json.Unmarshal(f.get(t, "/geocoderv1/rev-geocoder?x="+x+"&y="+y).Body.Bytes(), &r)
			if len(r.Results) > 0 {
				a := r.Results[0].FormattedAddress
				if i%2 == 0 {
					a = strings.ToLower(a)
				}
				if i%3 == 0 && len(a) > 6 {
					a = a[:3] + a[4:]
				}
				addresses = append(addresses, a)
			}
		}
	}
	addresses = append(addresses, "Loockerman Street, Dover", "Rehoboth Beach", "nowhere at all 99999", "Wilmington, DE 19801")
	if len(addresses) < 40 {
		t.Fatalf("only %d addresses", len(addresses))
	}
	addrJSON, _ := json.Marshal(addresses)
	for _, ndjson := range []bool{false, true} {
		accept := ""
		if ndjson {
			accept = mimeNDJSON
		}
		got := batchResults(t, f.post(t, "/geocoderv1/batch", `{"reverse":[`+strings.Join(rev, ",")+`]}`, accept), ndjson)
		if len(got) != len(pts) {
			t.Fatalf("%d reverse results for %d points", len(got), len(pts))
		}
		for i, p := range pts {
			want := f.get(t, fmt.Sprintf("/geocoderv1/rev-geocoder?x=%s&y=%s", strconv.FormatFloat(p[0], 'f', 6, 64), strconv.FormatFloat(p[1], 'f', 6, 64))).Body.Bytes()
			item := got[i]
			if ndjson {
				item = withoutIndex(t, item, i)
			}
			if !bytes.Equal(item, want) {
				t.Errorf("reverse[%d]: %.200s, single: %.200s", i, item, want)
			}
		}
		got = batchResults(t, f.post(t, "/geocoderv1/batch", `{"addresses":`+string(addrJSON)+`}`, accept), ndjson)
		if len(got) != len(addresses) {
			t.Fatalf("%d forward results for %d addresses", len(got), len(addresses))
		}
		ok := 0
		for i, a := range addresses {
			want := f.get(t, "/geocoderv1/geocoder?"+url.Values{"address": {a}}.Encode()).Body.Bytes()
			item := got[i]
			if ndjson {
				item = withoutIndex(t, item, i)
			}
			if !bytes.Equal(item, want) {
				t.Errorf("addresses[%d] %q: %.200s, single: %.200s", i, a, item, want)
			}
			if bytes.Contains(want, []byte(`"status":"OK"`)) {
				ok++
			}
		}
		if ok < len(addresses)/2 {
			t.Errorf("only %d of %d addresses found: the test's input is not from the data", ok, len(addresses))
		}
	}
}

// TestGeocoderBatchMixed: a batch of valid and invalid items answers
// every item in order; each invalid one INVALID_REQUEST naming its index
// and field; the batch counts its valid items in usage.
func TestGeocoderBatchMixed(t *testing.T) {
	f := newBatchFixture(t)
	pts := batchPoints(2, 1000)
	items := make([]string, len(pts))
	bad := map[int]string{}
	for i, p := range pts {
		items[i] = fmt.Sprintf(`{"x":%g,"y":%g}`, p[0], p[1])
		switch i % 7 {
		case 1:
			items[i], bad[i] = fmt.Sprintf(`{"x":%g,"y":99}`, p[0]), fmt.Sprintf("reverse[%d].y (latitude) must be between -90 and 90, got 99", i)
		case 3:
			items[i], bad[i] = `{"x":"-75.5","y":39}`, fmt.Sprintf(`reverse[%d].x must be a number`, i)
		case 5:
			items[i], bad[i] = `[-75.5,39]`, fmt.Sprintf("reverse[%d] must be an object", i)
		}
	}
	items[998], bad[998] = `{"x":-75.5}`, "reverse[998].y is required"
	items[999], bad[999] = `null`, "reverse[999] must be an object"
	got := batchResults(t, f.post(t, "/geocoderv1/batch", `{"reverse":[`+strings.Join(items, ",")+`]}`, ""), false)
	if len(got) != len(items) {
		t.Fatalf("%d results for %d items", len(got), len(items))
	}
	for i := range items {
		var r geocodeResponse
		if err := json.Unmarshal(got[i], &r); err != nil {
			t.Fatal(err)
		}
		if want, isBad := bad[i]; isBad {
			if r.Status != geocodeInvalidRequest || !strings.Contains(r.ErrorMessage, want) || r.Results == nil {
				t.Errorf("item %d: %s, want INVALID_REQUEST %q", i, got[i], want)
			}
		} else if r.Status != geocodeOK && r.Status != geocodeZeroResults {
			t.Errorf("item %d: %s", i, got[i])
		}
	}
	u, err := f.store.Usage(context.Background(), f.keyID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := u[0].Counts[keys.GeocoderV1]; n != int64(len(items)-len(bad)) {
		t.Errorf("usage %d, want %d valid items", n, len(items)-len(bad))
	}
	// Forward: the same, by index.
	got = batchResults(t, f.post(t, "/geocoderv1/batch", `{"addresses":["Dover", 7, "", "`+strings.Repeat("a", 1025)+`", null]}`, ""), false)
	for i, want := range []string{"", "addresses[1] must be a string, got 7", "addresses[2] is empty", "addresses[3] is longer than 1024 characters", "addresses[4] must be a string"} {
		if want == "" {
			continue
		}
		if !bytes.Contains(got[i], []byte(`"status":"INVALID_REQUEST","error_message":"`+want)) {
			t.Errorf("addresses[%d]: %s, want %q", i, got[i], want)
		}
	}
}

// TestBatchBadBody: a body that is not a batch, or a list over its limit,
// is a 400 naming the field; never a 5xx.
func TestBatchBadBody(t *testing.T) {
	f := newBatchFixture(t)
	many := func(n int, item string) string {
		return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
	}
	for _, tc := range []struct{ path, body, field, reason string }{
		{"/geocoderv1/batch", `{"addresses":` + many(1001, `"Dover"`) + `}`, "addresses", "has 1001 items: at most 1000"},
		{"/geocoderv1/batch", `{"reverse":` + many(1001, `{"x":1,"y":2}`) + `}`, "reverse", "has 1001 items: at most 1000"},
		{"/geocoderv1/batch", `{"addresses":["a"],"reverse":[{"x":1,"y":2}]}`, "reverse", "not both"},
		{"/geocoderv1/batch", `{}`, "addresses", "is required"},
		{"/geocoderv1/batch", `{"addresses":[]}`, "addresses", "is empty"},
		{"/geocoderv1/batch", `{"addresses":"Dover"}`, "addresses", "must be an array"},
		{"/geocoderv1/batch", `{"adresses":["Dover"]}`, "body", "unknown field"},
		{"/geocoderv1/batch", `{"addresses":["Dover"]`, "body", "malformed JSON"},
		{"/geocoderv1/batch", `["Dover"]`, "body", "must be a JSON object"},
		{"/lookupsv1/batch", `{"points":` + many(10001, `{"x":1,"y":2}`) + `,"layers":["timezone"]}`, "points", "has 10001 items: at most 10000"},
		{"/lookupsv1/batch", `{"layers":["timezone"]}`, "points", "is required"},
		{"/lookupsv1/batch", `{"points":[{"x":1,"y":2}]}`, "layers", "is required"},
		{"/lookupsv1/batch", `{"points":[{"x":1,"y":2}],"layers":[]}`, "layers", "is empty"},
		{"/lookupsv1/batch", `{"points":[{"x":1,"y":2}],"layers":["timezone","weather"]}`, "layers[1]", `"weather" is not a layer`},
		{"/lookupsv1/batch", `{"points":[{"x":1,"y":2}],"layers":"timezone"}`, "layers", "must be an array"},
		{"/lookupsv1/batch", `{"points":{},"layers":["admin"]}`, "points", "must be an array"},
		{"/lookupsv1/batch", `{"points":[{"x":1,"y":2}],"layers":["timezone"],"timestamp":"soon"}`, "timestamp", "is not a valid timestamp"},
		{"/lookupsv1/batch", `{"points":[{"x":1,"y":2}],"layers":["timezone"],"timestamp":1373889600}`, "timestamp", "must be a string"},
	} {
		rec := f.post(t, tc.path, tc.body, "")
		var v validationError
		_ = json.Unmarshal(rec.Body.Bytes(), &v)
		if rec.Code != http.StatusBadRequest || len(v.Errors) == 0 || v.Errors[0].Field != tc.field || !strings.Contains(v.Errors[0].Reason, tc.reason) {
			t.Errorf("%s %.60s: %d %.300s, want 400 on %s: %q", tc.path, tc.body, rec.Code, rec.Body, tc.field, tc.reason)
		}
	}
	// A body over the server's limit is a 413, as everywhere.
	rec := f.post(t, "/lookupsv1/batch", `{"points":`+many(40000, `{"x":-75.12345678,"y":39.12345678}`)+`,"layers":["timezone"]}`, "")
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("2 MB body: %d %.200s", rec.Code, rec.Body)
	}
}

// TestBatchQuota: a batch counts its valid items against the quota; one
// that would pass it is a 429 and takes nothing.
func TestBatchQuota(t *testing.T) {
	f := newBatchFixture(t)
	body := `{"reverse":` + "[" + strings.TrimSuffix(strings.Repeat(`{"x":-75.52,"y":39.16},`, 1000), ",") + "]}"
	for i := range 5 {
		if rec := f.post(t, "/geocoderv1/batch", body, ""); rec.Code != http.StatusOK {
			t.Fatalf("batch %d: %d %.200s", i, rec.Code, rec.Body)
		}
	}
	rec := f.post(t, "/geocoderv1/batch", `{"reverse":[{"x":-75.52,"y":39.16}]}`, "")
	if rec.Code != http.StatusTooManyRequests || !strings.Contains(rec.Body.String(), `"metric":"geocoderv1"`) {
		t.Errorf("over the quota of 5000: %d %s", rec.Code, rec.Body)
	}
	u, err := f.store.Usage(context.Background(), f.keyID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := u[0].Counts[keys.GeocoderV1]; n != 5000 {
		t.Errorf("usage %d, want 5000", n)
	}
}

// FuzzGeocodeBatchBody: any body is a list of items (each valid or with
// a message naming its index) or errors naming a field; never a panic.
func FuzzGeocodeBatchBody(f *testing.F) {
	for _, s := range []string{`{"addresses":["Dover","",7]}`, `{"reverse":[{"x":1,"y":2},{"x":"a"},null,[]]}`, `{}`, `{"addresses":[]}`,
		`{"reverse":{"x":1}}`, `{"addresses":["a"],"reverse":[]}`, `{"reverse":[{"x":1e400,"y":0}]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b geocodeBatchBody
		if strictUnmarshal([]byte(s), &b) != nil {
			return
		}
		items, _, errs := parseGeocodeBatch(b)
		if len(errs) > 0 {
			if items != nil || errs[0].Field == "" || errs[0].Reason == "" {
				t.Errorf("%q: items with errors %v", s, errs)
			}
			return
		}
		if len(items) == 0 || len(items) > maxGeocodeBatch {
			t.Errorf("%q: %d items", s, len(items))
		}
		for i, it := range items {
			if it.msg != "" && !strings.Contains(it.msg, "["+strconv.Itoa(i)+"]") {
				t.Errorf("%q: item %d message %q does not name it", s, i, it.msg)
			}
		}
	})
}

// drain reads a response body (for benchmarks).
func drain(r io.Reader) { _, _ = io.Copy(io.Discard, r) }

// townPoints returns n seeded random points within 0.02 degrees of ten
// Delaware towns (Dover, Wilmington, Newark, Georgetown, Lewes,
// Middletown, Smyrna, Milford, Seaford, Rehoboth Beach): where addresses
// are, so that most reverse geocodes find some (over Delaware's box most
// points are in fields, marshes or the bay and answer ZERO_RESULTS).
func townPoints(seed uint64, n int) [][2]float64 {
	towns := [][2]float64{{-75.5244, 39.1582}, {-75.5466, 39.7459}, {-75.7497, 39.6837}, {-75.3852, 38.6901}, {-75.1393, 38.7746},
		{-75.6, 39.57}, {-75.59, 39.45}, {-75.46, 38.91}, {-75.63, 38.67}, {-75.08, 38.72}}
	rng := rand.New(rand.NewPCG(seed, 27))
	out := make([][2]float64, n)
	for i := range out {
		t := towns[rng.IntN(len(towns))]
		out[i] = [2]float64{t[0] + rng.Float64()*0.04 - 0.02, t[1] + rng.Float64()*0.04 - 0.02}
	}
	return out
}

// BenchmarkGeocoderBatchReverse10000: 10,000 reverse geocodes of points
// near towns as 10 batches of 1,000 through the server (key gate, usage,
// JSON encoding included); reports ms per 10,000.
func BenchmarkGeocoderBatchReverse10000(b *testing.B) {
	f := newBatchFixturePlans(b, batchBenchPlans)
	pts := townPoints(5, 10000)
	bodies := make([]string, 10)
	for k := range bodies {
		items := make([]string, 1000)
		for i := range items {
			p := pts[k*1000+i]
			items[i] = fmt.Sprintf(`{"x":%.6f,"y":%.6f}`, p[0], p[1])
		}
		bodies[k] = `{"reverse":[` + strings.Join(items, ",") + `]}`
	}
	b.ResetTimer()
	for b.Loop() {
		for _, body := range bodies {
			rec := f.post(b, "/geocoderv1/batch", body, "")
			if rec.Code != http.StatusOK {
				b.Fatalf("%d %.200s", rec.Code, rec.Body)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/10000")
}

// BenchmarkLookupsBatch10000: one batch of 10,000 random Delaware points
// with every layer, streamed as NDJSON through the server.
func BenchmarkLookupsBatch10000(b *testing.B) {
	f := newBatchFixturePlans(b, batchBenchPlans)
	pts := batchPoints(6, 10000)
	items := make([]string, len(pts))
	for i, p := range pts {
		items[i] = fmt.Sprintf(`{"x":%.6f,"y":%.6f}`, p[0], p[1])
	}
	body := `{"points":[` + strings.Join(items, ",") + `],"layers":["timezone","admin","geoboundaries","zip4","covid"]}`
	b.ResetTimer()
	for b.Loop() {
		rec := f.post(b, "/lookupsv1/batch", body, mimeNDJSON)
		if rec.Code != http.StatusOK {
			b.Fatalf("%d %.200s", rec.Code, rec.Body)
		}
		drain(rec.Body)
	}
}
