package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
		{"avoid_polygons not an object", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"avoid_polygons":"x"}`, "avoid_polygons", "must be a GeoJSON Polygon or MultiPolygon"},
		{"avoid_polygons wrong type", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"avoid_polygons":{"type":"Point","coordinates":[-75,39]}}`, "avoid_polygons.type", `is "Point"`},
		{"avoid_polygons unclosed", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"avoid_polygons":{"type":"Polygon","coordinates":[[[-75,39],[-74.9,39],[-74.9,39.1],[-75,39.1]]]}}`, "avoid_polygons.coordinates[0]", "is not closed"},
		{"avoid_polygons three positions", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"avoid_polygons":{"type":"Polygon","coordinates":[[[-75,39],[-74.9,39],[-75,39]]]}}`, "avoid_polygons.coordinates[0]", "a ring needs at least 4"},
		{"avoid_polygons crossing", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"avoid_polygons":{"type":"MultiPolygon","coordinates":[[[[-75,39],[-74.9,39.1],[-74.9,39],[-75,39.1],[-75,39]]]]}}`, "avoid_polygons.coordinates[0][0][0]", "crosses or touches itself"},
		{"avoid_polygons coordinate", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"avoid_polygons":{"type":"Polygon","coordinates":[[[-75,39],[-74.9,39],[-74.9,"39.1"],[-75,39]]]}}`, "avoid_polygons.coordinates[0][2]", "must be a position"},
		{"avoid_polygons latitude", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"avoid_polygons":{"type":"Polygon","coordinates":[[[-75,39],[-74.9,39],[-74.9,91],[-75,39]]]}}`, "avoid_polygons.coordinates[0][2]", "latitude 91 is out of range"},
		{"profile unknown", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"profile":"bus"}`, "profile", `unknown profile "bus": want car, truck, bicycle or foot`},
		{"profile not a string", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"profile":2}`, "profile", "must be a string"},
		{"vehicle for a car", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"vehicle":{"height_m":4}}`, "vehicle", `is only for "profile": "truck"`},
		{"vehicle for profile car", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"profile":"car","vehicle":{}}`, "vehicle", `is only for "profile": "truck"`},
		{"vehicle not an object", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"profile":"truck","vehicle":[4]}`, "vehicle", "must be an object of height_m"},
		{"vehicle height too high", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"profile":"truck","vehicle":{"height_m":12}}`, "vehicle.height_m", "12 is out of range (0, 6]"},
		{"vehicle height zero", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"profile":"truck","vehicle":{"height_m":0}}`, "vehicle.height_m", "0 is out of range (0, 6]"},
		{"vehicle weight", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"profile":"truck","vehicle":{"weight_t":100.5}}`, "vehicle.weight_t", "100.5 is out of range (0, 100]"},
		{"vehicle speed", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"profile":"truck","vehicle":{"max_speed_kmh":131}}`, "vehicle.max_speed_kmh", "131 is out of range (0, 130]"},
		{"vehicle negative width", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"profile":"truck","vehicle":{"width_m":-2.5}}`, "vehicle.width_m", "-2.5 is out of range (0, 4]"},
		{"vehicle length string", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"profile":"truck","vehicle":{"length_m":"16.5"}}`, "vehicle.length_m", "must be a number"},
		{"vehicle hazmat not a bool", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"profile":"truck","vehicle":{"hazmat":"yes"}}`, "vehicle.hazmat", "must be true or false"},
		{"vehicle unknown field", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"profile":"truck","vehicle":{"height":4}}`, "vehicle.height", "unknown vehicle field (want height_m, width_m, length_m, weight_t, axle_load_t, hazmat, max_speed_kmh)"},
		{"avoid_polygons huge", `{"origin_addresses":["-75,39"],"destination_addresses":["-75,39"],"avoid_polygons":{"type":"Polygon","coordinates":[[[-76,38],[-74,38],[-74,40],[-76,40],[-76,38]]]}}`, "avoid_polygons.coordinates", "a polygon may span at most 200 km"},
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
		{`"avoid":["toll"],"avoid_polygons":{"type":"Polygon","coordinates":[[[-75.66,39.548],[-75.65,39.548],[-75.65,39.553],[-75.66,39.553],[-75.66,39.548]]]}`, "fastest;avoid=toll;areas=" + testAreasKey(t, `{"type":"Polygon","coordinates":[[[-75.65,39.548],[-75.65,39.553],[-75.66,39.553],[-75.66,39.548],[-75.65,39.548]]]}`)},
		{`"avoid_polygons":null`, "fastest"},
		{`"profile":"car"`, "fastest"},
		{`"profile":"truck"`, "fastest;profile=truck;vehicle=h4.11,w2.6,l21.64,wt36.29,ax9.07,hz0,ms100"},
		{`"profile":"truck","vehicle":{"height_m":4.5,"weight_t":40,"hazmat":true},"routing":"shortest","avoid":["toll"]`, "shortest;profile=truck;vehicle=h4.5,w2.6,l21.64,wt40,ax9.07,hz1,ms100;avoid=toll"},
		{`"profile":"Truck","vehicle":{"width_m":2.55,"length_m":16.5,"axle_load_t":10,"max_speed_kmh":90,"hazmat":false}`, "fastest;profile=truck;vehicle=h4.11,w2.55,l16.5,wt36.29,ax10,hz0,ms90"},
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

// testAreasKey returns the canonical key of a GeoJSON polygon.
func testAreasKey(t *testing.T, geojson string) string {
	t.Helper()
	a, err := routing.ParseAreas([]byte(geojson))
	if err != nil {
		t.Fatal(err)
	}
	return a.String()
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
