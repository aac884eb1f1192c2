package api

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/keys"
	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/queue/queuetest"
	"github.com/geosvc/geosvc/routing"
)

// tdmFixture is a server with the tdmv1 routes on a test Redis, two keys,
// and no workers: tests write chunk results themselves.
type tdmFixture struct {
	srv        *Server
	q          *queue.Queue
	env        *queuetest.Env
	store      *keys.Store
	key, other string
	keyID      string
	// cur is the server's bundle (none: the tdmv1 tests need no layer).
	cur bundle.Current
}

func newTDMFixture(t testing.TB, chunkRows int) *tdmFixture {
	t.Helper()
	return newTDMFixtureWith(t, chunkRows, TDMOptions{})
}

// newTDMFixtureWith is newTDMFixture with options (Queue, Usage and
// Logger are the fixture's).
func newTDMFixtureWith(t testing.TB, chunkRows int, opts TDMOptions) *tdmFixture {
	t.Helper()
	env := queuetest.New(t)
	cfg := env.Config
	cfg.ChunkRows = chunkRows
	q, err := queue.New(env.Client, cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := &tdmFixture{q: q, env: env}
	f.store = keys.NewStore(env.Client, keys.Options{Prefix: cfg.Prefix + ":keys:"})
	ctx := context.Background()
	k, plain, err := f.store.Create(ctx, keys.CreateOptions{Owner: "tdm test"})
	if err != nil {
		t.Fatal(err)
	}
	f.key, f.keyID = plain, k.ID
	if _, f.other, err = f.store.Create(ctx, keys.CreateOptions{Owner: "someone else"}); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	f.srv = New(Options{Logger: log, Redis: env.Client, Gate: keys.NewGate(f.store, keys.GateOptions{}), Bundle: &f.cur})
	opts.Queue, opts.Usage, opts.Logger, opts.Closing = q, f.store, log, f.srv.Closing()
	RegisterTDM(f.srv.Protected(), opts)
	return f
}

// post sends a JSON body to /tdmv1/<op> with key.
func (f *tdmFixture) post(op, key, body string, hdr ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/tdmv1/"+op, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(headerAPIKey, key)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, req)
	return rec
}

// order places an order and returns its uuid.
func (f *tdmFixture) order(t *testing.T, body string) string {
	t.Helper()
	rec := f.post("order", f.key, body)
	if rec.Code != http.StatusOK {
		t.Fatalf("order: %d %s", rec.Code, rec.Body)
	}
	var a map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil || len(a) != 1 {
		t.Fatalf("order answer %s: want exactly {uuid}", rec.Body)
	}
	return a["uuid"].(string)
}

// complete writes every chunk of job id: cell (i, j) has duration
// 100*i+j and distance 1000*i+j, except that column 1 has no route; origin
// i moved i/4 metres, destination 0 could not be snapped.
func (f *tdmFixture) complete(t *testing.T, id string) {
	t.Helper()
	ctx := context.Background()
	j, err := f.q.Get(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	for c := range j.Chunks {
		lo, hi := queue.ChunkRange(j.Rows, j.ChunkRows, c)
		r := queue.ChunkResult{DestinationSnaps: make([]float32, j.Cols)}
		r.DestinationSnaps[0] = queue.NotSnapped
		if j.Cols > 2 {
			r.DestinationSnaps[2] = queue.NotSnappedSwapped
		}
		for i := lo; i < hi; i++ {
			r.OriginSnaps = append(r.OriginSnaps, float32(i)/4)
			for k := range j.Cols {
				d, m := int32(100*i+k), int32(1000*i+k)
				if k == 1 {
					d, m = -1, -1
				}
				r.Durations = append(r.Durations, d)
				r.Distances = append(r.Distances, m)
			}
		}
		if !j.Outputs.Has(queue.OutDuration) {
			r.Durations = nil
		}
		if !j.Outputs.Has(queue.OutDistance) {
			r.Distances = nil
		}
		if _, _, err := f.q.PutChunk(ctx, id, c, r); err != nil {
			t.Fatal(err)
		}
	}
}

// pending is the number of chunk tasks waiting in the queue.
func (f *tdmFixture) pending(t *testing.T) int {
	t.Helper()
	tasks, err := asynq.NewInspectorFromRedisClient(f.env.Client).ListPendingTasks(f.env.Config.QueueName)
	if err != nil && !strings.Contains(err.Error(), "not found") {
		t.Fatal(err)
	}
	return len(tasks)
}

// addresses returns n "lon,lat" strings around Wilmington, Delaware.
func addresses(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("-75.%04d,39.7%d", 5000+i, i%10)
	}
	return out
}

// orderJSON builds an order body.
func orderJSON(result any, origins, destinations []string) string {
	m := map[string]any{"origin_addresses": origins, "destination_addresses": destinations}
	if result != nil {
		m["result"] = result
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func TestTDMOrderValidation(t *testing.T) {
	f := newTDMFixture(t, 2)
	ok := []string{"-75.55,39.74", " -75.5 ,  39.7 "}
	tests := []struct {
		name   string
		body   string
		field  string // of the first error
		reason string // part of its reason
	}{
		{"not JSON", `{"origin_addresses":`, "body", "malformed JSON"},
		{"not an object", `["-75,39"]`, "body", "must be a JSON object"},
		{"empty body", ``, "body", "malformed JSON"},
		{"null body", `null`, "body", "must be a JSON object"},
		{"typo in a field name", `{"results":["distance"],"origin_addresses":["-75,39"],"destination_addresses":["-75,39"]}`, "results", "unknown field"},
		{"field in another case", `{"Origin_Addresses":["-75,39"],"destination_addresses":["-75,39"]}`, "Origin_Addresses", "unknown field"},
		{"origins missing", `{"destination_addresses":["-75,39"]}`, "origin_addresses", "is required"},
		{"origins null", `{"origin_addresses":null,"destination_addresses":["-75,39"]}`, "origin_addresses", "is required"},
		{"destinations missing", `{"origin_addresses":["-75,39"]}`, "destination_addresses", "is required"},
		{"origins not an array", `{"origin_addresses":"-75,39","destination_addresses":["-75,39"]}`, "origin_addresses", "must be an array"},
		{"origins empty", orderJSON(nil, []string{}, ok), "origin_addresses", "is empty: an order needs 1 to 1000 origins"},
		{"destinations empty", orderJSON(nil, ok, []string{}), "destination_addresses", "is empty: an order needs 1 to 1000 destinations"},
		{"1001 origins", orderJSON(nil, addresses(1001), ok), "origin_addresses", "holds 1001 origins: the limit is 1000"},
		{"1001 destinations", orderJSON(nil, ok, addresses(1001)), "destination_addresses", "holds 1001 destinations: the limit is 1000"},
		{"address not a string", `{"origin_addresses":[[-75,39]],"destination_addresses":["-75,39"]}`, "origin_addresses[0]", `must be a string "lon,lat"`},
		{"address number", `{"origin_addresses":["-75,39", 12],"destination_addresses":["-75,39"]}`, "origin_addresses[1]", `must be a string`},
		{"no comma", orderJSON(nil, []string{"-75.5 39.7"}, ok), "origin_addresses[0]", `is not "lon,lat"`},
		{"three numbers", orderJSON(nil, ok, []string{"-75.5,39.7,3"}), "destination_addresses[0]", `is not "lon,lat"`},
		{"empty address", orderJSON(nil, ok, []string{"-75,39", ""}), "destination_addresses[1]", `is not "lon,lat"`},
		{"empty longitude", orderJSON(nil, []string{" ,39"}, ok), "origin_addresses[0]", `longitude "" is not a decimal number`},
		{"word", orderJSON(nil, []string{"west,39"}, ok), "origin_addresses[0]", `longitude "west" is not a decimal number`},
		{"NaN", orderJSON(nil, []string{"NaN,39"}, ok), "origin_addresses[0]", `longitude "NaN" is not a decimal number`},
		{"Inf", orderJSON(nil, []string{"-75,+Inf"}, ok), "origin_addresses[0]", `latitude "+Inf" is not a decimal number`},
		{"hex", orderJSON(nil, []string{"0x1p4,39"}, ok), "origin_addresses[0]", `is not a decimal number`},
		{"overflow", orderJSON(nil, []string{"1e999,39"}, ok), "origin_addresses[0]", `longitude "1e999" is not a finite number`},
		{"longitude range", orderJSON(nil, []string{"180.5,39"}, ok), "origin_addresses[0]", "longitude 180.5 is out of range [-180, 180]"},
		{"latitude range", orderJSON(nil, ok, []string{"-120,-90.01"}), "destination_addresses[0]", "latitude -90.01 is out of range [-90, 90]"},
		{"swapped", orderJSON(nil, []string{"39.7,-75.5", "39.7,-175.5"}, ok), "origin_addresses[1]", `longitude first`},
		{"result not an array", orderJSON("cost", ok, ok), "result", "must be an array of strings"},
		{"result empty", orderJSON([]string{}, ok, ok), "result", "is empty"},
		{"result unknown", orderJSON([]string{"distance", "time"}, ok, ok), "result[1]", `unknown output "time"`},
		{"result not strings", orderJSON([]any{1}, ok, ok), "result[0]", "must be a string"},
		{"routing unknown", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"routing":"quickest"}`, "routing", `unknown routing "quickest"`},
		{"speeds not an object", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"speeds":[80]}`, "speeds", "must be an object"},
		{"speed not a number", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"speeds":{"Motorway":"fast"}}`, "speeds.Motorway", "must be a number of km/h"},
		{"speed zero", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"speeds":{"Motorway":0}}`, "speeds.Motorway", "0 km/h is out of range"},
		{"speed too high", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"speeds":{"LocalRoadCity":251}}`, "speeds.LocalRoadCity", "251 km/h is out of range"},
		{"speed unknown type", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"speeds":{"Autobahn":120}}`, "speeds.Autobahn", `"Autobahn" is not a RoadType`},
		{"avoid not an array", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"avoid":"toll"}`, "avoid", "must be an array of strings"},
		{"avoid unknown", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"avoid":["toll","bridges"]}`, "avoid[1]", `"bridges" is not an avoid option`},
		{"routing not a string", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"routing":1}`, "routing", "must be a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := f.post("order", f.key, tt.body)
			if rec.Code != http.StatusBadRequest {
				t.Fatalf("status %d %s, want 400", rec.Code, rec.Body)
			}
			var v validationError
			if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil || len(v.Errors) == 0 {
				t.Fatalf("body %s: want {message, errors}", rec.Body)
			}
			if v.Errors[0].Field != tt.field || !strings.Contains(v.Errors[0].Reason, tt.reason) {
				t.Errorf("first error %+v, want field %q reason containing %q", v.Errors[0], tt.field, tt.reason)
			}
			if !strings.Contains(v.Message, tt.field) {
				t.Errorf("message %q does not name %q", v.Message, tt.field)
			}
		})
	}
	if n := f.pending(t); n != 0 {
		t.Errorf("%d chunk tasks enqueued by rejected orders", n)
	}
	if n := f.env.Client.Keys(context.Background(), f.env.Config.Prefix+":{*").Val(); len(n) != 0 {
		t.Errorf("rejected orders left job keys %v", n)
	}
}

func TestTDMOrderListsEveryProblem(t *testing.T) {
	f := newTDMFixture(t, 2)
	origins := addresses(60)
	for i := range origins {
		origins[i] = "x,y"
	}
	rec := f.post("order", f.key, orderJSON([]string{"speed"}, origins, []string{"1,2", "500,2"}))
	var v validationError
	json.Unmarshal(rec.Body.Bytes(), &v)
	if rec.Code != http.StatusBadRequest || len(v.Errors) != maxListedErrors {
		t.Fatalf("status %d, %d errors listed; want 400 and %d", rec.Code, len(v.Errors), maxListedErrors)
	}
	if v.Errors[0].Field != "result[0]" || v.Errors[1].Field != "origin_addresses[0]" || v.Errors[49].Field != "origin_addresses[48]" {
		t.Errorf("errors %v ... %v", v.Errors[:2], v.Errors[49])
	}
	if !strings.Contains(v.Message, "and 61 more problems; the first 50 are listed") {
		t.Errorf("message %q", v.Message)
	}
}

func TestTDMOrderRefusedByTheServer(t *testing.T) {
	f := newTDMFixture(t, 2)
	body := orderJSON(nil, []string{"-75,39"}, []string{"-75,39"})
	tests := []struct {
		name string
		rec  *httptest.ResponseRecorder
		code int
	}{
		{"no key", f.post("order", "", body), http.StatusForbidden},
		{"wrong key", f.post("order", strings.Repeat("k", 40), body), http.StatusForbidden},
		{"not JSON content", f.post("order", f.key, body, "Content-Type", "text/plain"), http.StatusUnsupportedMediaType},
		{"too large", f.post("order", f.key, orderJSON(nil, addresses(1000), addresses(60000))), http.StatusRequestEntityTooLarge},
	}
	for _, tt := range tests {
		if tt.rec.Code != tt.code {
			t.Errorf("%s: %d %s, want %d", tt.name, tt.rec.Code, tt.rec.Body, tt.code)
		}
	}
	if n := f.pending(t); n != 0 {
		t.Errorf("%d chunk tasks enqueued by refused orders", n)
	}
}

func TestTDMOrderAccepted(t *testing.T) {
	tests := []struct {
		name   string
		result any
		want   queue.Outputs
	}{
		{"result missing", nil, queue.OutBoth},
		{"cost and distance", []string{"cost", "distance"}, queue.OutBoth},
		{"duration", []string{"duration"}, queue.OutDuration},
		{"distance", []string{" Distance "}, queue.OutDistance},
		{"cost alias", []string{"cost", "duration"}, queue.OutDuration},
	}
	f := newTDMFixture(t, 2)
	cells := int64(0)
	for _, tt := range tests {
		id := f.order(t, orderJSON(tt.result, addresses(3), addresses(5)))
		cells += 15
		j, err := f.q.Get(context.Background(), id, f.keyID)
		if err != nil {
			t.Fatal(err)
		}
		if j.Outputs != tt.want || j.Rows != 3 || j.Cols != 5 || j.Chunks != 2 || j.Status != queue.StatusQueued {
			t.Errorf("%s: job %+v", tt.name, j)
		}
	}
	if n := f.pending(t); n != 2*len(tests) {
		t.Errorf("%d chunk tasks pending, want %d", n, 2*len(tests))
	}
	for _, tc := range []struct{ body, want string }{
		{`"routing":"shortest"`, "shortest"},
		{`"routing":"most_efficient","avoid":["toll","ferry"]`, "efficient;avoid=ferry,toll"},
		{`"routing":"safest","speeds":{"Motorway":80,"Defaultspeed":30.5},"avoid":null`, "safest;speeds=Defaultspeed:30.5,Motorway:80"},
		{`"speeds":{"LocalRoadCity":20},"avoid":["unpaved","motorway"]`, "fastest;speeds=LocalRoadCity:20;avoid=motorway,unpaved"},
	} {
		id := f.order(t, `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],`+tc.body+`}`)
		cells++
		if j, _ := f.q.Get(context.Background(), id, ""); j.Routing != tc.want {
			t.Errorf("%s stored as %q, want %q", tc.body, j.Routing, tc.want)
		}
	}
	u, err := f.store.Usage(context.Background(), f.keyID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := u[0].Counts["tdmv1"+keys.CellsSuffix]; got != cells {
		t.Errorf("cells counted %d, want %d", got, cells)
	}
}

// fetchJSON fetches id and decodes the answer.
func (f *tdmFixture) fetchJSON(t *testing.T, key, id string) (int, map[string]any) {
	t.Helper()
	rec := f.post("fetch", key, `{"uuid":"`+id+`"}`)
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("fetch answer %q: %v", rec.Body, err)
	}
	return rec.Code, m
}

func TestTDMFetchAnswers(t *testing.T) {
	f := newTDMFixture(t, 2)
	id := f.order(t, orderJSON(nil, addresses(3), addresses(2)))
	expired := f.order(t, orderJSON(nil, addresses(1), addresses(1)))
	f.env.Expire(t, expired)
	tests := []struct {
		name, key, body string
		code            int
		message         string
	}{
		{"malformed body", f.key, `{"uuid":`, 400, "malformed JSON"},
		{"uuid missing", f.key, `{}`, 400, "uuid: is required"},
		{"uuid not a string", f.key, `{"uuid":5}`, 400, "uuid: must be a string"},
		{"not a uuid", f.key, `{"uuid":"job-1"}`, 400, `"job-1" is not a uuid`},
		{"unknown", f.key, `{"uuid":"1b4e28ba-2fa1-11d2-883f-0016d3cca427"}`, 404, "no job 1b4e28ba-2fa1-11d2-883f-0016d3cca427"},
		{"another key's job", f.other, `{"uuid":"` + id + `"}`, 404, "no job " + id},
		{"expired", f.key, `{"uuid":"` + expired + `"}`, 410, "has expired"},
		{"expired, another key", f.other, `{"uuid":"` + expired + `"}`, 404, "no job"},
		{"no key", "", `{"uuid":"` + id + `"}`, 403, "Forbidden"},
	}
	for _, tt := range tests {
		for _, op := range []string{"fetch", "cancel"} {
			rec := f.post(op, tt.key, tt.body)
			var m map[string]any
			json.Unmarshal(rec.Body.Bytes(), &m)
			msg, _ := m["message"].(string)
			if rec.Code != tt.code || !strings.Contains(msg, tt.message) {
				t.Errorf("%s %s: %d %s, want %d with message containing %q", op, tt.name, rec.Code, rec.Body, tt.code, tt.message)
			}
		}
	}
	code, m := f.fetchJSON(t, f.key, id)
	want := map[string]any{"uuid": id, "status": "Queued", "progress": map[string]any{"rows_done": 0.0, "rows_total": 3.0}}
	if code != 200 || fmt.Sprint(m) != fmt.Sprint(want) {
		t.Errorf("queued job: %d %v, want %v", code, m, want)
	}
	// The uuid in braces or upper case names the same job.
	if code, m := f.fetchJSON(t, f.key, "{"+strings.ToUpper(id)+"}"); code != 200 || m["uuid"] != id {
		t.Errorf("fetch of the braced uuid: %d %v", code, m)
	}
	ctx := context.Background()
	if _, _, err := f.q.PutChunk(ctx, id, 1, queue.ChunkResult{Durations: []int32{1, 2}, Distances: []int32{3, 4},
		OriginSnaps: []float32{0}, DestinationSnaps: []float32{0, 0}}); err != nil {
		t.Fatal(err)
	}
	_, m = f.fetchJSON(t, f.key, id)
	if m["status"] != "Processing" || fmt.Sprint(m["progress"]) != "map[rows_done:1 rows_total:3]" {
		t.Errorf("processing job: %v", m)
	}
	failed := f.order(t, orderJSON(nil, addresses(1), addresses(1)))
	f.q.Fail(ctx, failed, "chunk 0 failed after 5 retries: boom")
	_, m = f.fetchJSON(t, f.key, failed)
	if m["status"] != "Failed" || m["message"] != "chunk 0 failed after 5 retries: boom" {
		t.Errorf("failed job: %v", m)
	}
}

func TestTDMFetchFinished(t *testing.T) {
	f := newTDMFixture(t, 2)
	origins := []string{" -75.5 , 39.7", "-75.6,39.8", "-75.7,39.9"}
	destinations := []string{"-75.1,39.1", "-75.2, 39.2"}
	id := f.order(t, orderJSON([]string{"cost", "distance"}, origins, destinations))
	f.complete(t, id)
	rec := f.post("fetch", f.key, `{"uuid":"`+id+`"}`)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("fetch: %d %v", rec.Code, rec.Header())
	}
	want := `{"uuid":"` + id + `","status":"Finished","routing":"fastest",` +
		`"origin_addresses":[" -75.5 , 39.7","-75.6,39.8","-75.7,39.9"],` +
		`"destination_addresses":["-75.1,39.1","-75.2, 39.2"],` +
		`"distance":[[0,null],[1000,null],[2000,null]],` +
		`"duration":[[0,null],[100,null],[200,null]],` +
		`"snapping":{"origins":[{"snapped":true,"moved_m":0},{"snapped":true,"moved_m":0.25},{"snapped":true,"moved_m":0.5}],` +
		`"destinations":[{"snapped":false},{"snapped":true,"moved_m":0}]}}`
	if rec.Body.String() != want {
		t.Errorf("body\n%s\nwant\n%s", rec.Body, want)
	}

	only := f.order(t, orderJSON([]string{"distance"}, origins, destinations))
	f.complete(t, only)
	_, m := f.fetchJSON(t, f.key, only)
	if _, ok := m["duration"]; ok || fmt.Sprint(m["distance"]) != "[[0 <nil>] [1000 <nil>] [2000 <nil>]]" {
		t.Errorf("distance-only job: %v", m)
	}
}

// plainResult is the finished body encoded the ordinary way, for comparison
// with the stream.
type plainResult struct {
	UUID         string   `json:"uuid"`
	Status       string   `json:"status"`
	Routing      string   `json:"routing"`
	Origins      []string `json:"origin_addresses"`
	Destinations []string `json:"destination_addresses"`
	Distance     [][]*int `json:"distance,omitempty"`
	Duration     [][]*int `json:"duration,omitempty"`
	Snapping     struct {
		Origins      []snapReport `json:"origins"`
		Destinations []snapReport `json:"destinations"`
	} `json:"snapping"`
}

func TestTDMFetchStreamEqualsPlainEncoding(t *testing.T) {
	defer func(b int) { resultWindowBytes = b }(resultWindowBytes)
	resultWindowBytes = 1 // one chunk per read: many windows
	f := newTDMFixture(t, 7)
	origins, destinations := addresses(50), addresses(40)
	origins[3] = `-75.1,39.1 "quoted" <tag> & ünïcode`[:10]
	id := f.order(t, orderJSON(nil, origins, destinations))
	f.complete(t, id)

	want := plainResult{UUID: id, Status: "Finished", Routing: "fastest", Origins: origins, Destinations: destinations}
	cell := func(v int) *int {
		if v < 0 {
			return nil
		}
		return &v
	}
	for i := range origins {
		var dist, dur []*int
		for k := range destinations {
			if k == 1 {
				dist, dur = append(dist, nil), append(dur, nil)
				continue
			}
			dist, dur = append(dist, cell(1000*i+k)), append(dur, cell(100*i+k))
		}
		want.Distance, want.Duration = append(want.Distance, dist), append(want.Duration, dur)
		want.Snapping.Origins = append(want.Snapping.Origins, newSnapReport(float32(i)/4))
	}
	for k := range destinations {
		m := float32(0)
		switch k {
		case 0:
			m = queue.NotSnapped
		case 2:
			m = queue.NotSnappedSwapped
		}
		want.Snapping.Destinations = append(want.Snapping.Destinations, newSnapReport(m))
	}
	plain, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	rec := f.post("fetch", f.key, `{"uuid":"`+id+`"}`)
	if !bytes.Equal(rec.Body.Bytes(), plain) {
		t.Errorf("streamed body (%d bytes) differs from the plain encoding (%d bytes)\n%.300s\n%.300s",
			rec.Body.Len(), len(plain), rec.Body, plain)
	}

	gz := f.post("fetch", f.key, `{"uuid":"`+id+`"}`, "Accept-Encoding", "br, gzip;q=0.8")
	if gz.Header().Get("Content-Encoding") != "gzip" || !slices.Contains(gz.Header().Values("Vary"), "Accept-Encoding") {
		t.Fatalf("gzip answer headers %v", gz.Header())
	}
	zr, err := gzip.NewReader(gz.Body)
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(unzipped, plain) {
		t.Errorf("gunzipped body differs from the plain encoding (err %v)", err)
	}
	if gz.Body.Len() >= len(plain) {
		t.Errorf("gzip body %d bytes, plain %d", gz.Body.Len(), len(plain))
	}
}

func TestAcceptsGzip(t *testing.T) {
	tests := map[string]bool{
		"":                   false,
		"gzip":               true,
		"GZIP":               true,
		"deflate, gzip":      true,
		"gzip;q=0":           false,
		"gzip; q=0.5":        true,
		"br":                 false,
		"*":                  true,
		"identity, *;q=0":    false,
		"x-gzip-not, br;q=1": false,
	}
	for h, want := range tests {
		if got := acceptsGzip(h); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", h, got, want)
		}
	}
}

func TestTDMCancel(t *testing.T) {
	f := newTDMFixture(t, 2)
	id := f.order(t, orderJSON(nil, addresses(6), addresses(2)))
	rec := f.post("cancel", f.key, `{"uuid":"`+id+`"}`)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"status":"Cancelled"`) {
		t.Fatalf("cancel: %d %s", rec.Code, rec.Body)
	}
	if n := f.pending(t); n != 0 {
		t.Errorf("%d chunk tasks still pending after cancel", n)
	}
	if _, m := f.fetchJSON(t, f.key, id); m["status"] != "Cancelled" {
		t.Errorf("fetch after cancel: %v", m)
	}
	if rec := f.post("cancel", f.key, `{"uuid":"`+id+`"}`); rec.Code != 200 {
		t.Errorf("second cancel: %d %s", rec.Code, rec.Body)
	}
	done := f.order(t, orderJSON(nil, addresses(1), addresses(1)))
	f.complete(t, done)
	rec = f.post("cancel", f.key, `{"uuid":"`+done+`"}`)
	if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), "already Finished") {
		t.Errorf("cancel of a finished job: %d %s", rec.Code, rec.Body)
	}
	if _, m := f.fetchJSON(t, f.key, done); m["status"] != "Finished" {
		t.Errorf("finished job after a refused cancel: %v", m["status"])
	}
}

// TestTDMExpiredAfterRetention lets a finished job's keys expire: by the
// embedded Redis's clock, or on a real Redis (whose clock cannot be moved)
// by Expire, which first asserts the keys' PTTLs.
func TestTDMExpiredAfterRetention(t *testing.T) {
	f := newTDMFixture(t, 2)
	id := f.order(t, orderJSON(nil, addresses(2), addresses(2)))
	f.complete(t, id)
	if f.env.Mini != nil {
		f.env.Mini.FastForward(queue.DefaultRetention + time.Minute)
	} else {
		f.env.Expire(t, id)
	}
	code, m := f.fetchJSON(t, f.key, id)
	if code != http.StatusGone || !strings.Contains(m["message"].(string), "kept for 24h after the order") {
		t.Errorf("fetch after retention: %d %v", code, m)
	}
}

func TestShortDuration(t *testing.T) {
	tests := map[time.Duration]string{
		24 * time.Hour:                "24h",
		90 * time.Minute:              "1h30m",
		time.Hour + time.Second:       "1h0m1s",
		45 * time.Second:              "45s",
		2*time.Minute + 0*time.Second: "2m",
	}
	for d, want := range tests {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestIsDecimal(t *testing.T) {
	good := []string{"0", "-0", "+1", "1.", ".5", "-75.123456", "1e3", "1E-3", "39.7e+0"}
	bad := []string{"", "-", ".", "e3", "1e", "1e+", "1.2.3", "0x10", "1_000", "NaN", "Inf", "1,5", " 1", "--1"}
	for _, s := range good {
		if !isDecimal(s) {
			t.Errorf("isDecimal(%q) = false", s)
		}
	}
	for _, s := range bad {
		if isDecimal(s) {
			t.Errorf("isDecimal(%q) = true", s)
		}
	}
}

// failingWriter fails every write after the first n bytes.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, io.ErrClosedPipe
	}
	return len(p), nil
}

func TestWriteGzip(t *testing.T) {
	payload := bytes.Repeat([]byte("[1,22,333,null],"), 50000)
	produce := func(w io.Writer) error {
		for i := 0; i < len(payload); i += 1000 {
			w.Write(payload[i:min(len(payload), i+1000)])
		}
		return nil
	}
	var buf bytes.Buffer
	if err := writeGzip(&buf, gzip.HuffmanOnly, produce); err != nil {
		t.Fatal(err)
	}
	zr, _ := gzip.NewReader(&buf)
	got, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(got, payload) {
		t.Errorf("round trip: %d bytes, %v; want %d bytes", len(got), err, len(payload))
	}
	if err := writeGzip(&failingWriter{n: 100}, gzip.HuffmanOnly, produce); err == nil {
		t.Error("writeGzip to a failing writer reported no error")
	}
	boom := errors.New("boom")
	if err := writeGzip(io.Discard, gzip.HuffmanOnly, func(io.Writer) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("producer error: %v", err)
	}
}

// TestTDMFetchWaits: a fetch with "wait" answers as soon as the job ends,
// without polling (the job is completed while the fetch waits; the answer
// is Finished long before the 30 s wait runs out), answers the current
// status when the wait runs out first, and returns when its client goes
// away, leaving no subscription behind.
func TestTDMFetchWaits(t *testing.T) {
	f := newTDMFixture(t, 2)
	id := f.order(t, orderJSON(nil, addresses(3), addresses(2)))
	type answer struct {
		rec  *httptest.ResponseRecorder
		took time.Duration
	}
	got := make(chan answer, 1)
	start := time.Now()
	go func() {
		rec := f.post("fetch", f.key, `{"uuid":"`+id+`","wait":30}`)
		got <- answer{rec, time.Since(start)}
	}()
	// The fetch is waiting on the job's end channel before it completes.
	ch := f.q.Config().Prefix + ":{" + id + "}:end"
	for deadline := time.Now().Add(10 * time.Second); ; {
		n, err := f.env.Client.PubSubNumSub(context.Background(), ch).Result()
		if err == nil && n[ch] == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the fetch never subscribed to the job's end")
		}
		time.Sleep(time.Millisecond)
	}
	f.complete(t, id)
	a := <-got
	var m map[string]any
	json.Unmarshal(a.rec.Body.Bytes(), &m)
	if a.rec.Code != 200 || m["status"] != "Finished" || m["duration"] == nil || a.took >= 30*time.Second {
		t.Errorf("waiting fetch: %d %v after %v; want the Finished result before the wait ran out", a.rec.Code, m["status"], a.took)
	}

	// The wait runs out: the current status.
	queued := f.order(t, orderJSON(nil, addresses(1), addresses(1)))
	rec := f.post("fetch", f.key, `{"uuid":"`+queued+`","wait":0.05}`)
	json.Unmarshal(rec.Body.Bytes(), &m)
	if rec.Code != 200 || m["status"] != "Queued" {
		t.Errorf("fetch after its wait: %d %s", rec.Code, rec.Body)
	}

	// The client goes away while waiting.
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequest(http.MethodPost, "/tdmv1/fetch", strings.NewReader(`{"uuid":"`+queued+`","wait":30}`)).WithContext(ctx)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(headerAPIKey, f.key)
	done := make(chan struct{})
	go func() {
		f.srv.ServeHTTP(httptest.NewRecorder(), req)
		close(done)
	}()
	qch := f.q.Config().Prefix + ":{" + queued + "}:end"
	for f.env.Client.PubSubNumSub(context.Background(), qch).Val()[qch] != 1 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done
	// The subscription's connection is closed as the handler returns; the
	// server notices it a moment later.
	for deadline := time.Now().Add(10 * time.Second); f.env.Client.PubSubNumSub(context.Background(), qch).Val()[qch] != 0; {
		if time.Now().After(deadline) {
			t.Fatal("a subscription is left after the client went away")
		}
		time.Sleep(5 * time.Millisecond)
	}

	for _, w := range []string{`31`, `-1`, `"5"`, `true`} {
		rec := f.post("fetch", f.key, `{"uuid":"`+queued+`","wait":`+w+`}`)
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), "wait") {
			t.Errorf("wait %s: %d %s", w, rec.Code, rec.Body)
		}
	}
}

// TestTDMFetchWaitEndsAtShutdown: a fetch waiting for a job answers its
// current status as soon as the server begins to shut down, so that the
// shutdown is not held up for the rest of the wait.
func TestTDMFetchWaitEndsAtShutdown(t *testing.T) {
	f := newTDMFixture(t, 2)
	queued := f.order(t, orderJSON(nil, addresses(1), addresses(1)))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- f.srv.Serve(ln) }()
	type answer struct {
		code int
		body string
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, "http://"+ln.Addr().String()+"/tdmv1/fetch", strings.NewReader(`{"uuid":"`+queued+`","wait":30}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(headerAPIKey, f.key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		got <- answer{code: resp.StatusCode, body: string(b)}
	}()
	ch := f.q.Config().Prefix + ":{" + queued + "}:end"
	for deadline := time.Now().Add(10 * time.Second); f.env.Client.PubSubNumSub(context.Background(), ch).Val()[ch] != 1; {
		if time.Now().After(deadline) {
			t.Fatal("the fetch never began to wait")
		}
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	if err := f.srv.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v (the waiting fetch held it up)", err)
	}
	a := <-got
	if a.err != nil || a.code != 200 || !strings.Contains(a.body, `"status":"Queued"`) {
		t.Errorf("waiting fetch at shutdown: %d %s %v; want 200 with the job Queued", a.code, a.body, a.err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve: %v", err)
	}
}

// FuzzOrderMetric: any routing, speeds and avoid values either give
// errors naming one of those fields or a canonical key that routing
// parses back into the same key.
func FuzzOrderMetric(f *testing.F) {
	f.Add(`"safest"`, `{"Motorway":80,"Defaultspeed":30.5}`, `["toll","ferry"]`)
	f.Add(`"most_efficient"`, `null`, `[]`)
	f.Add(`1`, `{"Autobahn":1e9}`, `"toll"`)
	f.Fuzz(func(t *testing.T, r, speeds, avoid string) {
		b := orderBody{Routing: json.RawMessage(r), Speeds: json.RawMessage(speeds), Avoid: json.RawMessage(avoid)}
		key, errs := parseMetric(b, nil)
		if len(errs) > 0 {
			for _, e := range errs {
				if !strings.HasPrefix(e.Field, "routing") && !strings.HasPrefix(e.Field, "speeds") && !strings.HasPrefix(e.Field, "avoid") {
					t.Fatalf("error of field %q", e.Field)
				}
			}
			return
		}
		spec, err := routing.ParseMetric(key)
		if err != nil || spec.String() != key {
			t.Fatalf("key %q parsed back as %q, %v", key, spec.String(), err)
		}
	})
}

func TestTDMMaxLocations(t *testing.T) {
	f := newTDMFixtureWith(t, 50, TDMOptions{MaxLocations: 1200})
	for _, tt := range []struct {
		origins, destinations, code int
		reason                      string
	}{
		{1200, 3, http.StatusOK, ""},
		{3, 1200, http.StatusOK, ""},
		{1201, 3, http.StatusBadRequest, "holds 1201 origins: the limit is 1200"},
		{3, 1201, http.StatusBadRequest, "holds 1201 destinations: the limit is 1200"},
	} {
		rec := f.post("order", f.key, orderJSON(nil, addresses(tt.origins), addresses(tt.destinations)))
		if rec.Code != tt.code || !strings.Contains(rec.Body.String(), tt.reason) {
			t.Errorf("%d x %d: %d %.200s; want %d %q", tt.origins, tt.destinations, rec.Code, rec.Body, tt.code, tt.reason)
		}
	}
}

// ndjsonLines splits an ndjson body into its lines, each decoded.
func ndjsonLines(t *testing.T, body []byte) []map[string]json.RawMessage {
	t.Helper()
	if len(body) == 0 || body[len(body)-1] != '\n' {
		t.Fatalf("ndjson body does not end with a newline: %.100q", body)
	}
	var out []map[string]json.RawMessage
	for line := range bytes.SplitSeq(body[:len(body)-1], []byte("\n")) {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("line %d %.100q: %v", len(out), line, err)
		}
		out = append(out, m)
	}
	return out
}

func TestTDMFetchNDJSON(t *testing.T) {
	defer func(b int) { resultWindowBytes = b }(resultWindowBytes)
	resultWindowBytes = 1 // one chunk per read: many windows
	f := newTDMFixture(t, 7)
	origins, destinations := addresses(23), addresses(5)
	for _, result := range [][]string{nil, {"distance"}, {"duration"}} {
		id := f.order(t, orderJSON(result, origins, destinations))
		f.complete(t, id)
		_, plain := f.fetchJSON(t, f.key, id)
		rec := f.post("fetch", f.key, `{"uuid":"`+id+`"}`, "Accept", "application/x-ndjson")
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/x-ndjson" {
			t.Fatalf("ndjson fetch: %d %v", rec.Code, rec.Header())
		}
		lines := ndjsonLines(t, rec.Body.Bytes())
		if len(lines) != 1+len(origins) {
			t.Fatalf("%v: %d lines, want 1 + %d rows", result, len(lines), len(origins))
		}
		// The first line: every member of the plain answer but the
		// matrices, equal to it.
		head := lines[0]
		for k, v := range plain {
			if k == "duration" || k == "distance" {
				if _, ok := head[k]; ok {
					t.Errorf("first line holds %s", k)
				}
				continue
			}
			want, _ := json.Marshal(v)
			var got any
			json.Unmarshal(head[k], &got)
			if g, _ := json.Marshal(got); !bytes.Equal(g, want) {
				t.Errorf("first line %s = %s, want %s", k, g, want)
			}
		}
		matrices := 2
		if result != nil {
			matrices = 1
		}
		if len(head) != len(plain)-matrices {
			t.Errorf("first line has %d members, the plain answer %d with %d matrices", len(head), len(plain), matrices)
		}
		// Then row i of each wanted matrix, equal to the plain answer's.
		for i, line := range lines[1:] {
			if string(line["row"]) != fmt.Sprint(i) {
				t.Errorf("line %d: row %s", i+1, line["row"])
			}
			for _, name := range []string{"duration", "distance"} {
				want, asked := plain[name]
				got, there := line[name]
				if asked != there {
					t.Errorf("line %d: %s there %v, asked %v", i+1, name, there, asked)
					continue
				}
				if !asked {
					continue
				}
				w, _ := json.Marshal(want.([]any)[i])
				if string(got) != string(w) {
					t.Errorf("line %d: %s %s, want %s", i+1, name, got, w)
				}
			}
			if matrices := len(plain) - len(head); len(line) != 1+matrices {
				t.Errorf("line %d: %d members, want row and %d matrices", i+1, len(line), matrices)
			}
		}
	}
	// Gzip works for ndjson too.
	id := f.order(t, orderJSON(nil, origins, destinations))
	f.complete(t, id)
	plain := f.post("fetch", f.key, `{"uuid":"`+id+`"}`, "Accept", "application/x-ndjson")
	gz := f.post("fetch", f.key, `{"uuid":"`+id+`"}`, "Accept", "application/x-ndjson", "Accept-Encoding", "gzip")
	zr, err := gzip.NewReader(gz.Body)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(zr); err != nil || !bytes.Equal(b, plain.Body.Bytes()) {
		t.Errorf("gzipped ndjson differs from the plain ndjson (%v)", err)
	}
}

func TestAcceptsNDJSON(t *testing.T) {
	for _, tt := range []struct {
		header string
		want   bool
	}{
		{"application/x-ndjson", true},
		{"Application/X-NDJSON; q=0.9", true},
		{"text/plain, application/x-ndjson", true},
		{"application/json, application/x-ndjson", false},
		{"application/x-ndjson;q=0", false},
		{"*/*", false},
		{"", false},
		{"application/json", false},
	} {
		if got := acceptsNDJSON(tt.header); got != tt.want {
			t.Errorf("acceptsNDJSON(%q) = %v, want %v", tt.header, got, tt.want)
		}
	}
}

// fixtureComputer computes, inline, the cells tdmFixture.complete writes.
type fixtureComputer struct {
	ready bool
	err   error
	calls int
}

func (c *fixtureComputer) Ready() bool { return c.ready }

func (c *fixtureComputer) ComputeAll(_ context.Context, spec *queue.Spec) ([]queue.ChunkResult, error) {
	c.calls++
	if c.err != nil {
		return nil, c.err
	}
	cols := len(spec.Destinations)
	var out []queue.ChunkResult
	for ch := range spec.Chunks {
		lo, hi := spec.ChunkRange(ch)
		r := queue.ChunkResult{DestinationSnaps: make([]float32, cols)}
		r.DestinationSnaps[0] = queue.NotSnapped
		if cols > 2 {
			r.DestinationSnaps[2] = queue.NotSnappedSwapped
		}
		for i := lo; i < hi; i++ {
			r.OriginSnaps = append(r.OriginSnaps, float32(i)/4)
			for k := range cols {
				d, m := int32(100*i+k), int32(1000*i+k)
				if k == 1 {
					d, m = -1, -1
				}
				r.Durations = append(r.Durations, d)
				r.Distances = append(r.Distances, m)
			}
		}
		if !spec.Outputs.Has(queue.OutDuration) {
			r.Durations = nil
		}
		if !spec.Outputs.Has(queue.OutDistance) {
			r.Distances = nil
		}
		out = append(out, r)
	}
	return out, nil
}

func TestTDMInlineOrders(t *testing.T) {
	c := &fixtureComputer{ready: true}
	f := newTDMFixtureWith(t, 3, TDMOptions{Inline: c, InlineCells: 40})
	origins, destinations := addresses(8), addresses(5)

	// 40 cells: computed before the order answers, no task queued, the
	// first fetch Finished, its body that of the same job done by workers.
	inline := f.order(t, orderJSON(nil, origins, destinations))
	if c.calls != 1 || f.pending(t) != 0 {
		t.Fatalf("inline order: %d computations, %d tasks queued", c.calls, f.pending(t))
	}
	a := f.post("fetch", f.key, `{"uuid":"`+inline+`"}`)
	j, err := f.q.Get(context.Background(), inline, "")
	if err != nil || j.Status != queue.StatusFinished || j.RowsDone != 8 || j.Started.IsZero() || j.Finished.IsZero() {
		t.Fatalf("inline job %+v, %v", j, err)
	}

	// 41 cells: queued for the workers.
	big := f.order(t, orderJSON(nil, addresses(8), addresses(6)))
	if c.calls != 1 || f.pending(t) != 3 {
		t.Fatalf("41-cell order: %d computations, %d tasks queued; want 1, 3", c.calls, f.pending(t))
	}
	f.complete(t, big)

	// Not ready (no graph yet): queued.
	c.ready = false
	queued := f.order(t, orderJSON(nil, origins, destinations))
	if c.calls != 1 {
		t.Fatal("computed inline while not ready")
	}
	f.complete(t, queued)
	b := f.post("fetch", f.key, `{"uuid":"`+queued+`"}`)
	if got := strings.ReplaceAll(b.Body.String(), queued, inline); got != a.Body.String() {
		t.Errorf("queued body\n%s\ninline body\n%s", got, a.Body)
	}

	// A computation that fails: the order answers its uuid, the job is
	// Failed with the reason.
	c.ready, c.err = true, errors.New("graph exploded")
	failed := f.order(t, orderJSON(nil, origins, destinations))
	code, m := f.fetchJSON(t, f.key, failed)
	if code != 200 || m["status"] != "Failed" || !strings.Contains(fmt.Sprint(m["message"]), "graph exploded") {
		t.Errorf("failed inline job: %d %v", code, m)
	}

	// Usage counts the cells either way: 40 + 48 + 40 + 40.
	days, err := f.store.Usage(context.Background(), f.keyID, 1)
	if err != nil || len(days) != 1 {
		t.Fatalf("usage %v, %v", days, err)
	}
	if got := days[0].Counts[keys.TDMV1+keys.CellsSuffix]; got != 40+48+40+40 {
		t.Errorf("cells counted %d, want %d", got, 40+48+40+40)
	}
}
