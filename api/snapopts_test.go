package api

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// snapOrder is an order of two origins and three destinations with more
// fields (JSON values by name).
func snapOrder(more map[string]string) string {
	parts := []string{`"origin_addresses":["-75.55,39.74","-75.6,39.7"]`, `"destination_addresses":["-75.5,39.1","-75.6,39.7","-75.7,39.6"]`}
	for k, v := range more {
		parts = append(parts, fmt.Sprintf("%q:%s", k, v))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// TestTDMOrderSnapOptionsValidation: every invalid snapping or fallback
// field is a 400 naming the field and the index, and a rejected order
// leaves nothing stored (no job key, no task).
func TestTDMOrderSnapOptionsValidation(t *testing.T) {
	f := newTDMFixture(t, 2)
	for _, tt := range []struct {
		name, field, value string
		wantField, reason  string
	}{
		{"radiuses not an array", "origin_radiuses", `100`, "origin_radiuses", "must be an array as long as origin_addresses"},
		{"radiuses too short", "origin_radiuses", `[100]`, "origin_radiuses", "holds 1 entries for 2 origin_addresses"},
		{"radiuses too long", "destination_radiuses", `[1,2,3,4]`, "destination_radiuses", "holds 4 entries for 3 destination_addresses"},
		{"radius negative", "origin_radiuses", `[null,-5]`, "origin_radiuses[1]", "-5 is out of range: a radius is more than 0 and at most 10000 metres"},
		{"radius zero", "origin_radiuses", `[0,null]`, "origin_radiuses[0]", "0 is out of range"},
		{"radius huge", "destination_radiuses", `[null,null,1e9]`, "destination_radiuses[2]", "1e9 is out of range"},
		{"radius not a number", "destination_radiuses", `["50",null,null]`, "destination_radiuses[0]", "must be a number of metres or null"},
		{"bearing value", "origin_bearings", `[null,[400,20]]`, "origin_bearings[1]", "400 is out of 0..360"},
		{"bearing negative", "destination_bearings", `[[-1,20],null,null]`, "destination_bearings[0]", "-1 is out of 0..360"},
		{"bearing range", "destination_bearings", `[null,[90,181],null]`, "destination_bearings[1]", "range 181 is out of 0..180"},
		{"bearing one number", "origin_bearings", `[[90],null]`, "origin_bearings[0]", "must be [value, range]"},
		{"bearing three numbers", "origin_bearings", `[[90,10,5],null]`, "origin_bearings[0]", "must be [value, range]"},
		{"bearing a string", "origin_bearings", `["90,10",null]`, "origin_bearings[0]", "must be [value, range]"},
		{"bearings too long", "origin_bearings", `[null,null,null]`, "origin_bearings", "holds 3 entries for 2 origin_addresses"},
		{"approach unknown", "destination_approaches", `[null,"kerb",null]`, "destination_approaches[1]", `"kerb" is not an approach: want "curb" or "unrestricted"`},
		{"approach a number", "origin_approaches", `[1,null]`, "origin_approaches[0]", "1 is not an approach"},
		{"approaches too short", "destination_approaches", `["curb"]`, "destination_approaches", "holds 1 entries for 3"},
		{"snapping unknown", "snapping", `"nearest"`, "snapping", `"nearest" is not a snapping rule`},
		{"fallback_speed zero", "fallback_speed", `0`, "fallback_speed", "0 is out of range: a speed in km/h, more than 0 and at most 250"},
		{"fallback_speed negative", "fallback_speed", `-30`, "fallback_speed", "-30 is out of range"},
		{"fallback_speed absurd", "fallback_speed", `1000`, "fallback_speed", "1000 is out of range"},
		{"fallback_speed a string", "fallback_speed", `"fast"`, "fallback_speed", `"fast" is out of range`},
		{"fallback_coordinate unknown", "fallback_coordinate", `"road"`, "fallback_coordinate", `"road" is not a fallback coordinate`},
		{"misspelt field", "origin_radius", `[1,2]`, "origin_radius", "unknown field"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := f.post("order", f.key, snapOrder(map[string]string{tt.field: tt.value}))
			if rec.Code != http.StatusBadRequest {
				t.Fatalf("status %d %s, want 400", rec.Code, rec.Body)
			}
			var v validationError
			if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil || len(v.Errors) != 1 {
				t.Fatalf("body %s: want one error", rec.Body)
			}
			if v.Errors[0].Field != tt.wantField || !strings.Contains(v.Errors[0].Reason, tt.reason) {
				t.Errorf("error %+v, want field %q reason containing %q", v.Errors[0], tt.wantField, tt.reason)
			}
			if want := tt.wantField + ": "; !strings.Contains(v.Message, want) {
				t.Errorf("message %q does not name %q", v.Message, tt.wantField)
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

// TestTDMOrderSnapOptionsStored: the options of an accepted order are in
// the job record as a worker reads it (queue.Spec); defaults and nulls are
// left out; an order without options stores none.
func TestTDMOrderSnapOptionsStored(t *testing.T) {
	f := newTDMFixture(t, 2)
	ctx := context.Background()
	id := f.order(t, snapOrder(map[string]string{
		"origin_radiuses":        `[null,250]`,
		"destination_bearings":   `[[90,20],null,[0,180]]`,
		"destination_approaches": `["curb","unrestricted",null]`,
		"origin_approaches":      `null`,
		"snapping":               `"any"`,
		"fallback_speed":         `42.5`,
		"fallback_coordinate":    `"snapped"`,
	}))
	spec, err := f.q.Spec(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := queue.Options{
		SnapAny:      true,
		Origins:      []queue.PointOptions{{}, {RadiusM: 250}},
		Destinations: []queue.PointOptions{{Bearing: &[2]float64{90, 20}, Curb: true}, {}, {Bearing: &[2]float64{0, 180}}},
		FallbackKmh:  42.5, FallbackSnapped: true,
	}
	if !reflect.DeepEqual(spec.Options, want) {
		t.Errorf("stored options %+v\nwant %+v", spec.Options, want)
	}
	id = f.order(t, snapOrder(map[string]string{"origin_radiuses": `[null,null]`, "snapping": `"default"`, "fallback_coordinate": `"input"`}))
	if spec, err = f.q.Spec(ctx, id); err != nil || !spec.Options.IsZero() {
		t.Errorf("default options stored as %+v (%v)", spec.Options, err)
	}
	if f.env.Client.HExists(ctx, f.env.Config.Prefix+":{"+id+"}:job", "options").Val() {
		t.Error("an order without options wrote an options field")
	}
}

// TestTDMFetchEstimated: a job with a fallback speed answers the cells
// its chunks list as estimated, [row, column] pairs in JSON and each
// row's columns in NDJSON; a job without one has no estimated member.
func TestTDMFetchEstimated(t *testing.T) {
	defer func(b int) { resultWindowBytes = b }(resultWindowBytes)
	resultWindowBytes = 1 // one chunk per read: many windows
	f := newTDMFixture(t, 2)
	ctx := context.Background()
	origins, destinations := addresses(5), addresses(3)
	with := f.order(t, fmt.Sprintf(`{"origin_addresses":%s,"destination_addresses":%s,"fallback_speed":30}`,
		mustJSON(origins), mustJSON(destinations)))
	without := f.order(t, orderJSON(nil, origins, destinations))
	for _, id := range []string{with, without} {
		j, err := f.q.Get(ctx, id, "")
		if err != nil {
			t.Fatal(err)
		}
		for c := range j.Chunks {
			lo, hi := queue.ChunkRange(j.Rows, j.ChunkRows, c)
			r := queue.ChunkResult{DestinationSnaps: make([]float32, j.Cols)}
			if id == with {
				r.Estimated = [][2]int{}
			}
			for i := lo; i < hi; i++ {
				r.OriginSnaps = append(r.OriginSnaps, 1)
				for k := range j.Cols {
					r.Durations = append(r.Durations, int32(10*i+k))
					r.Distances = append(r.Distances, int32(100*i+k))
					// Row 1 and cell (4, 2) were estimated.
					if id == with && (i == 1 || i == 4 && k == 2) {
						r.Estimated = append(r.Estimated, [2]int{i, k})
					}
				}
			}
			if _, _, err := f.q.PutChunk(ctx, id, c, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, plain := f.fetchJSON(t, f.key, with)
	if got, _ := json.Marshal(plain["estimated"]); string(got) != `[[1,0],[1,1],[1,2],[4,2]]` {
		t.Errorf("estimated %s", got)
	}
	_, plain = f.fetchJSON(t, f.key, without)
	if _, ok := plain["estimated"]; ok {
		t.Error("a job without fallback_speed answers estimated")
	}
	rec := f.post("fetch", f.key, `{"uuid":"`+with+`"}`, "Accept", "application/x-ndjson")
	lines := ndjsonLines(t, rec.Body.Bytes())
	want := []string{`[]`, `[0,1,2]`, `[]`, `[]`, `[2]`}
	for i, line := range lines[1:] {
		if string(line["estimated"]) != want[i] {
			t.Errorf("ndjson row %d: estimated %s, want %s", i, line["estimated"], want[i])
		}
	}
	if _, ok := lines[0]["estimated"]; ok {
		t.Error("the ndjson first line holds estimated")
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Real points of Delaware: 11 m from East 4th Street, Wilmington, a
// two-way street; 28.7 m from Academy Street, Newark; north-west Newark.
const (
	east4th  = "-75.55,39.74"
	academy  = "-75.75,39.68"
	newarkNW = "-75.76,39.70"
)

// sideOfLeg says on which side of the travel direction a -> b the point p
// lies: "left" or "right".
func sideOfLeg(a, b [2]float64, p [2]float64) string {
	k := math.Cos(a[1] * math.Pi / 180)
	if (b[0]-a[0])*k*(p[1]-a[1])-(b[1]-a[1])*(p[0]-a[0])*k > 0 {
		return "left"
	}
	return "right"
}

// compass is the initial bearing from a to b in degrees.
func compass(a, b [2]float64) float64 {
	rad := math.Pi / 180
	y := math.Sin((b[0]-a[0])*rad) * math.Cos(b[1]*rad)
	x := math.Cos(a[1]*rad)*math.Sin(b[1]*rad) - math.Sin(a[1]*rad)*math.Cos(b[1]*rad)*math.Cos((b[0]-a[0])*rad)
	return math.Mod(math.Atan2(y, x)/rad+360, 360)
}

// TestRouteV1SnapOptionsDelaware: approaches=;curb arrives at a two-way
// street with the point on the right where the unrestricted route has it
// on the left; a bearing against the unrestricted arrival excludes that
// direction; a radius below the distance to the road is a 404 the
// default radius is not; bad lists are 400s naming the entry.
func TestRouteV1SnapOptionsDelaware(t *testing.T) {
	g := routingtest.Extract(t, "delaware")
	srv, key := keyedServer(t, "route test")
	cur := &bundle.Current{}
	cur.Store(&bundle.Bundle{Graph: g})
	RegisterRoute(srv.Protected(), RouteOptions{Bundle: cur})
	get := func(t *testing.T, q url.Values) (int, routeAnswer, string) {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, "/routev1/route?"+q.Encode(), nil)
		req.Header.Set(headerAPIKey, key)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		var a routeAnswer
		if rec.Code == http.StatusOK {
			if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
				t.Fatal(err)
			}
		}
		return rec.Code, a, rec.Body.String()
	}
	lastLeg := func(a routeAnswer) ([2]float64, [2]float64) {
		c := a.Geometry.Coordinates
		return c[len(c)-2], c[len(c)-1]
	}
	to := [2]float64{-75.55, 39.74}
	q := url.Values{"from": {newarkNW}, "to": {east4th}}
	code, plain, body := get(t, q)
	if code != 200 {
		t.Fatalf("plain route: %d %s", code, body)
	}
	pa, pb := lastLeg(plain)
	if sideOfLeg(pa, pb, to) != "left" {
		t.Fatal("the unrestricted route arrives with the point on the right: not a test of curb")
	}
	arrival := compass(pa, pb)

	t.Run("curb", func(t *testing.T) {
		q := url.Values{"from": {newarkNW}, "to": {east4th}, "approaches": {";curb"}}
		code, a, body := get(t, q)
		if code != 200 {
			t.Fatalf("%d %s", code, body)
		}
		if x, y := lastLeg(a); sideOfLeg(x, y, to) != "right" {
			t.Errorf("curb arrives with the point on the %s", sideOfLeg(x, y, to))
		}
		if a.DurationS <= plain.DurationS || a.To.Snapped != plain.To.Snapped {
			t.Errorf("curb %d s to %v; unrestricted %d s to %v", a.DurationS, a.To.Snapped, plain.DurationS, plain.To.Snapped)
		}
	})
	t.Run("bearings", func(t *testing.T) {
		opposite := math.Mod(arrival+180, 360)
		code, a, body := get(t, url.Values{"from": {newarkNW}, "to": {east4th}, "bearings": {fmt.Sprintf(";%.0f,30", opposite)}})
		if code != 200 {
			t.Fatalf("%d %s", code, body)
		}
		x, y := lastLeg(a)
		if d := math.Abs(math.Mod(compass(x, y)-opposite+540, 360) - 180); d > 30 {
			t.Errorf("arrives travelling %.0f°, want %.0f ± 30°", compass(x, y), opposite)
		}
		code, same, _ := get(t, url.Values{"from": {newarkNW}, "to": {east4th}, "bearings": {fmt.Sprintf(";%.0f,30", arrival)}})
		if code != 200 || same.DurationS != plain.DurationS {
			t.Errorf("bearing along the unrestricted arrival: %d, %d s; want %d s", code, same.DurationS, plain.DurationS)
		}
	})
	t.Run("radiuses", func(t *testing.T) {
		for _, tc := range []struct {
			radiuses string
			code     int
		}{{"", 200}, {"10;", 404}, {"35;", 200}, {";15", 200}, {";10", 404}, {"10000;", 200}} {
			code, _, body := get(t, url.Values{"from": {academy}, "to": {east4th}, "radiuses": {tc.radiuses}})
			if code != tc.code {
				t.Errorf("radiuses=%s: %d %s, want %d", tc.radiuses, code, body, tc.code)
			}
			if code == 404 && !strings.Contains(body, "no road within 10 m") {
				t.Errorf("radiuses=%s: %s", tc.radiuses, body)
			}
		}
	})
	t.Run("snapping any", func(t *testing.T) {
		if code, a, body := get(t, url.Values{"from": {newarkNW}, "to": {east4th}, "snapping": {"any"}}); code != 200 || a.To.Snapped != plain.To.Snapped {
			t.Errorf("%d %s", code, body)
		}
	})
	t.Run("errors", func(t *testing.T) {
		for _, tc := range []struct{ param, value, msg string }{
			{"bearings", "400,20;", "bearings[0]: 400 is out of 0..360"},
			{"bearings", ";90,200", "bearings[1]: range 200 is out of 0..180"},
			{"bearings", "90;", `bearings[0]: "90" is not value,range`},
			{"bearings", "90,20", "bearings has 1 entries for 2 points"},
			{"radiuses", "-5;", "radiuses[0]: -5 is out of range"},
			{"radiuses", ";1e9", "radiuses[1]: 1e9 is out of range"},
			{"radiuses", "x;", `radiuses[0]: "x" is not a number of metres`},
			{"radiuses", ";;", "radiuses has 3 entries for 2 points"},
			{"approaches", "kerb;", `approaches[0]: "kerb" is not an approach`},
			{"snapping", "nearest", `snapping "nearest" is not a snapping rule`},
		} {
			code, _, body := get(t, url.Values{"from": {newarkNW}, "to": {east4th}, tc.param: {tc.value}})
			var m struct{ Message string }
			json.Unmarshal([]byte(body), &m)
			if code != 400 || !strings.Contains(m.Message, tc.msg) {
				t.Errorf("%s=%s: %d %s, want 400 %q", tc.param, tc.value, code, body, tc.msg)
			}
		}
	})
}

// FuzzRouteSnapLists: routev1's list parsers never panic; what they
// accept has one entry per point, each within its range, and reads back
// the same when written out again.
func FuzzRouteSnapLists(f *testing.F) {
	for _, s := range []string{"", ";", "90,20;", ";0,180", "360,0;1.5e2,90", "10;", "5000;10000", "curb;", "unrestricted;curb",
		"NaN;", "1e999;", "0x10;", "-0;", " 90 , 20 ;", ",;", "90,20,5;", "\x00;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		const n = 2
		if r, msg := parseRadiusList(s, n); msg == "" && r != nil {
			if len(r) != n {
				t.Fatalf("radiuses %q: %d entries", s, len(r))
			}
			var parts []string
			for _, v := range r {
				if v != 0 && (!(v > 0) || v > routing.MaxSnapRadiusM) {
					t.Fatalf("radiuses %q: %g accepted", s, v)
				}
				if v == 0 {
					parts = append(parts, "")
				} else {
					parts = append(parts, fmt.Sprint(v))
				}
			}
			if again, msg := parseRadiusList(strings.Join(parts, ";"), n); msg != "" || !reflect.DeepEqual(again, r) {
				t.Fatalf("radiuses %q: %v, again %v %s", s, r, again, msg)
			}
		}
		if b, msg := parseBearingList(s, n); msg == "" && b != nil {
			if len(b) != n {
				t.Fatalf("bearings %q: %d entries", s, len(b))
			}
			var parts []string
			for _, v := range b {
				if v == nil {
					parts = append(parts, "")
					continue
				}
				if !(v[0] >= 0 && v[0] <= 360 && v[1] >= 0 && v[1] <= 180) {
					t.Fatalf("bearings %q: %v accepted", s, *v)
				}
				parts = append(parts, fmt.Sprintf("%v,%v", v[0], v[1]))
			}
			if again, msg := parseBearingList(strings.Join(parts, ";"), n); msg != "" || !reflect.DeepEqual(again, b) {
				t.Fatalf("bearings %q: again %v %s", s, again, msg)
			}
		}
		if a, msg := parseApproachList(s, n); msg == "" && a != nil && len(a) != n {
			t.Fatalf("approaches %q: %d entries", s, len(a))
		}
		opts, msg := routeSnapOptions(url.Values{"radiuses": {s}, "bearings": {s}, "approaches": {s}, "snapping": {s}}.Get, n)
		if msg == "" && len(opts) != n {
			t.Fatalf("options %q: %d entries", s, len(opts))
		}
	})
}
