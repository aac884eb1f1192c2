package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing"
)

func TestParseVmHWM(t *testing.T) {
	status := "Name:\tgeosvc\nVmPeak:\t 2000000 kB\nVmHWM:\t  812345 kB\nVmRSS:\t  700000 kB\n"
	got, err := parseVmHWM(strings.NewReader(status))
	if err != nil || got != 812345<<10 {
		t.Errorf("parseVmHWM = %d, %v; want %d", got, err, 812345<<10)
	}
	if _, err := parseVmHWM(strings.NewReader("Name:\tx\n")); err == nil {
		t.Error("parseVmHWM without a VmHWM line succeeded")
	}
}

func TestParseBound(t *testing.T) {
	tests := []struct {
		in   string
		want orb.Bound
		ok   bool
	}{
		{"1.4,42.4,1.8,42.7", orb.Bound{Min: orb.Point{1.4, 42.4}, Max: orb.Point{1.8, 42.7}}, true},
		{" -75.8 , 38.4 , -75 , 39.9 ", orb.Bound{Min: orb.Point{-75.8, 38.4}, Max: orb.Point{-75, 39.9}}, true},
		{"1,2,3", orb.Bound{}, false},
		{"1,2,0,3", orb.Bound{}, false},
		{"a,2,3,4", orb.Bound{}, false},
	}
	for _, tt := range tests {
		got, err := parseBound(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseBound(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// halfRoads snaps points west of lon 0.5 onto the line lat = 0.
type halfRoads struct{}

func (halfRoads) SnapAll(_ routing.Metric, pts []orb.Point, _ float64) []routing.Snap {
	out := make([]routing.Snap, len(pts))
	for i, p := range pts {
		if p[0] < 0.5 {
			out[i] = routing.Snap{Input: p, Point: orb.Point{p[0], 0}, OK: true}
		}
	}
	return out
}

func TestRoadPoints(t *testing.T) {
	b := orb.Bound{Min: orb.Point{0, 0}, Max: orb.Point{1, 1}}
	a, err := roadPoints(halfRoads{}, b, 50, 7)
	if err != nil || len(a) != 50 {
		t.Fatalf("roadPoints = %d points, %v", len(a), err)
	}
	for _, p := range a {
		if p[0] >= 0.5 || p[1] != 0 {
			t.Fatalf("point %v is not on a road", p)
		}
	}
	again, _ := roadPoints(halfRoads{}, b, 50, 7)
	other, _ := roadPoints(halfRoads{}, b, 50, 8)
	if !slices.Equal(a, again) || slices.Equal(a, other) {
		t.Error("roadPoints is not a function of its seed")
	}
	if _, err := roadPoints(halfRoads{}, orb.Bound{Min: orb.Point{2, 2}, Max: orb.Point{3, 3}}, 5, 1); err == nil {
		t.Error("roadPoints outside the roads succeeded")
	}
	if got := lonLat(orb.Point{-75.1234567, 39.5}); got != "-75.123457,39.500000" {
		t.Errorf("lonLat = %q", got)
	}
}

func TestAnswerStatus(t *testing.T) {
	long := `{"uuid":"x","status":"Finished","routing":"fastest","distance":[` + strings.Repeat("[1,2,3],", 20000) + `[1]]}`
	tests := map[string]string{
		`{"uuid":"x","status":"Processing","progress":{"rows_done":50,"rows_total":1000}}`: "Processing",
		`{"uuid":"x","status":"Failed","message":"boom"}`:                                  "Failed",
		long:           "Finished",
		`not json`:     "",
		`{"uuid":"x"}`: "",
	}
	for body, want := range tests {
		if got := answerStatus([]byte(body)).Status; got != want {
			t.Errorf("answerStatus(%.40q) = %q, want %q", body, got, want)
		}
	}
}

func TestFormats(t *testing.T) {
	if got := ms(12345 * time.Microsecond); got != "12.3 ms" {
		t.Errorf("ms = %q", got)
	}
	if got := mib(3 << 19); got != "1.5 MiB" {
		t.Errorf("mib = %q", got)
	}
}

func TestReadFinishedNDJSON(t *testing.T) {
	head := `{"uuid":"u","status":"Finished","snapping":{}}` + "\n"
	tests := []struct {
		name, body string
		rows       int
		err        string
	}{
		{"two rows", head + `{"row":0,"duration":[1,null],"distance":[2,3]}` + "\n" + `{"row":1,"duration":[4,5],"distance":[6,7]}` + "\n", 2, ""},
		{"no rows", head, 0, ""},
		{"rows out of order", head + `{"row":1,"duration":[1],"distance":[2]}` + "\n", 0, "is row 1"},
		{"a cut line", head + `{"row":0,"duration":[1`, 0, "line 2"},
		{"not JSON", head + "oops\n", 0, "line 2"},
	}
	for _, tt := range tests {
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/x-ndjson"}}, Body: io.NopCloser(strings.NewReader(tt.body))}
		var got []resultRow
		f, st, err := readFinished(resp, func(r resultRow) error { got = append(got, r); return nil })
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: err %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || st.Status != "Finished" || len(got) != tt.rows || f.size != int64(len(tt.body)) {
			t.Errorf("%s: %d rows, status %q, size %d, %v", tt.name, len(got), st.Status, f.size, err)
		}
		if tt.rows == 2 && (got[0].Duration[1] != nil || *got[1].Distance[1] != 7) {
			t.Errorf("%s: rows %+v", tt.name, got)
		}
	}
	// A plain JSON answer (a job still running) is read whole.
	resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{"uuid":"u","status":"Processing","progress":{"rows_done":1,"rows_total":2}}`))}
	if _, st, err := readFinished(resp, func(resultRow) error { return nil }); err != nil || st.Status != "Processing" || st.Progress.RowsDone != 1 {
		t.Errorf("plain answer: %+v, %v", st, err)
	}
}

// TestBenchSpeeds: --speeds is checked as routing reads it, and the
// client's orders carry them, a new metric per order with --new-speeds.
func TestBenchSpeeds(t *testing.T) {
	for _, tc := range []struct {
		metric, speeds string
		newSpeeds      bool
		wantErr        bool
		want           []map[string]float64 // the speeds of the first orders
	}{
		{"fastest", "", false, false, []map[string]float64{nil, nil}},
		{"fastest", "Motorway:80,LocalRoadCity:25", false, false, []map[string]float64{{"Motorway": 80, "LocalRoadCity": 25}, {"Motorway": 80, "LocalRoadCity": 25}}},
		{"shortest", "Motorway:80", true, false, []map[string]float64{{"Motorway": 80}, {"Motorway": 80.5}, {"Motorway": 81}}},
		{"fastest", "Autobahn:80", false, true, nil},
		{"fastest", "Motorway:0", false, true, nil},
	} {
		c := benchConfig{metric: tc.metric, speeds: tc.speeds, newSpeeds: tc.newSpeeds}
		if _, err := c.spec(); (err != nil) != tc.wantErr {
			t.Errorf("%s %q: spec error %v, want error %v", tc.metric, tc.speeds, err, tc.wantErr)
			continue
		}
		if tc.wantErr {
			continue
		}
		var got []map[string]float64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var body struct {
				Speeds map[string]float64 `json:"speeds"`
			}
			json.NewDecoder(r.Body).Decode(&body)
			got = append(got, body.Speeds)
			w.Write([]byte(`{"uuid":"x"}`))
		}))
		cl := c.client(srv.URL, "k")
		for range tc.want {
			if _, err := cl.order(context.Background(), []string{"1,2"}, []string{"3,4"}, nil, tc.metric); err != nil {
				t.Fatal(err)
			}
		}
		srv.Close()
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %q new=%v: orders' speeds %v, want %v", tc.metric, tc.speeds, tc.newSpeeds, got, tc.want)
		}
	}
}

// TestBenchAvoidPolygons: --avoid-polygons is read and checked as
// routing reads avoid_polygons, and every order carries the polygons.
func TestBenchAvoidPolygons(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.geojson")
	bad := filepath.Join(dir, "bad.geojson")
	os.WriteFile(good, []byte(`{"type":"Polygon","coordinates":[[[-75.66,39.547],[-75.653,39.547],[-75.653,39.554],[-75.66,39.554],[-75.66,39.547]]]}`), 0o644)
	os.WriteFile(bad, []byte(`{"type":"Polygon","coordinates":[[[-75.66,39.547],[-75.653,39.547],[-75.66,39.547]]]}`), 0o644)
	for _, f := range []string{bad, filepath.Join(dir, "missing.geojson")} {
		if _, err := (benchConfig{metric: "fastest", avoidPolygons: f}).spec(); err == nil {
			t.Errorf("%s accepted", f)
		}
	}
	c := benchConfig{metric: "fastest", avoidPolygons: good}
	spec, err := c.spec()
	if err != nil || spec.Areas.IsZero() {
		t.Fatalf("%v %v", spec, err)
	}
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Areas json.RawMessage `json:"avoid_polygons"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		a, err := routing.ParseAreas(body.Areas)
		if err != nil {
			t.Errorf("order's avoid_polygons %s: %v", body.Areas, err)
		}
		got = append(got, a.String())
		w.Write([]byte(`{"uuid":"x"}`))
	}))
	defer srv.Close()
	cl := c.client(srv.URL, "k")
	for range 2 {
		if _, err := cl.order(context.Background(), []string{"1,2"}, []string{"3,4"}, nil, "fastest"); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 2 || got[0] != spec.Areas.String() || got[1] != got[0] {
		t.Errorf("orders' areas %q, want %q twice", got, spec.Areas.String())
	}
}

// TestConcurrentTable: one batch prints its values; several print each
// measure's median, worst and best, throughput from the cells of a batch
// (10 jobs of 1000 x 1000 = 10 M cells) over its wall time.
func TestConcurrentTable(t *testing.T) {
	batch := func(wall time.Duration) concurrentRun {
		return concurrentRun{jobs: 10, wall: wall, orderSlow: wall / 100, finished: []time.Duration{wall / 2, wall}}
	}
	c := benchConfig{n: 1000}
	tests := []struct {
		name    string
		batches []concurrentRun
		want    []string
	}{
		{"one batch", []concurrentRun{batch(time.Second)}, []string{
			"| 10 concurrent 1000 x 1000 jobs | value |",
			"| all results in hand | 1000.0 ms |",
			"| throughput | 10.00 M cells/s |",
		}},
		{"three batches", []concurrentRun{batch(time.Second), batch(2 * time.Second), batch(time.Second / 2)}, []string{
			"| 10 concurrent 1000 x 1000 jobs, 3 batches | median | worst | best |",
			"| slowest order answer | 10.0 ms | 20.0 ms | 5.0 ms |",
			"| first job's result in hand | 500.0 ms | 1000.0 ms | 250.0 ms |",
			"| all results in hand | 1000.0 ms | 2000.0 ms | 500.0 ms |",
			"| throughput | 10.00 M cells/s | 5.00 M cells/s | 20.00 M cells/s |",
		}},
		{"two batches: the mean of the middle two", []concurrentRun{batch(time.Second), batch(time.Second / 4)}, []string{
			"| throughput | 25.00 M cells/s | 10.00 M cells/s | 40.00 M cells/s |",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			writeConcurrentTable(&b, tc.batches, c)
			for _, line := range tc.want {
				if !strings.Contains(b.String(), line+"\n") {
					t.Errorf("no line %q in\n%s", line, b.String())
				}
			}
		})
	}
}

// TestBenchTruck: --profile and --vehicle are checked as routing reads
// them, and the orders carry the profile and the whole vehicle, a
// lighter one per order with --new-vehicle.
func TestBenchTruck(t *testing.T) {
	for _, tc := range []struct {
		profile, vehicle string
		newVehicle       bool
		wantErr          bool
		want             []float64 // weight_t of the first orders (nil: no vehicle)
	}{
		{"car", "", false, false, []float64{0, 0}},
		{"truck", "", false, false, []float64{36.29, 36.29}},
		{"truck", "height_m:4.5,weight_t:40,hazmat:true", true, false, []float64{40, 39.99, 39.98}},
		{"bus", "", false, true, nil},
		{"car", "height_m:4", false, true, nil},
		{"truck", "height_m:12", false, true, nil},
	} {
		c := benchConfig{metric: "fastest", profile: tc.profile, vehicle: tc.vehicle, newVehicle: tc.newVehicle}
		if _, err := c.spec(); (err != nil) != tc.wantErr {
			t.Errorf("%s %q: spec error %v, want error %v", tc.profile, tc.vehicle, err, tc.wantErr)
			continue
		}
		if tc.wantErr {
			continue
		}
		var got []float64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var body struct {
				Profile string             `json:"profile"`
				Vehicle map[string]float64 `json:"vehicle"`
			}
			json.NewDecoder(r.Body).Decode(&body)
			got = append(got, body.Vehicle["weight_t"])
			w.Write([]byte(`{"uuid":"x"}`))
		}))
		cl := c.client(srv.URL, "k")
		for range tc.want {
			if _, err := cl.order(context.Background(), []string{"1,2"}, []string{"3,4"}, nil, "fastest"); err != nil {
				t.Fatal(err)
			}
		}
		srv.Close()
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %q: orders' weights %v, want %v", tc.profile, tc.vehicle, got, tc.want)
		}
	}
}
