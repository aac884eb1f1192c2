package soap

import (
	"encoding/base64"
	"encoding/xml"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
)

var (
	crossingOnce sync.Once
	crossing     *routing.Graph
	crossingErr  error
)

// crossingGraph is routing's hand-written no_left_turn fixture: a
// crossing of South, North, East and West Street whose routes are worked
// out by hand in the fixture's comment.
func crossingGraph(t testing.TB) *routing.Graph {
	t.Helper()
	crossingOnce.Do(func() {
		prof, err := profile.Load(filepath.Join("..", "configs", "car.yaml"))
		if err != nil {
			crossingErr = err
			return
		}
		net, err := osmroad.Read(filepath.Join("..", "routing", "testdata", "no_left_turn.osm"), prof)
		if err != nil {
			crossingErr = err
			return
		}
		crossing, _, crossingErr = routing.Build(net, prof)
	})
	if crossingErr != nil {
		t.Fatal(crossingErr)
	}
	return crossing
}

func routeRequest(key string, fields map[string]string) string {
	base := map[string]string{"Encoding": "EPGS4326", "Language": "English", "WantMetric": "true", "WantRouteDetails": "true",
		"WantDataSet": "false", "WantDescription": "true", "WantSpeedInfo": "true", "WantLocations": "true", "WantRouteData": "true"}
	for k, v := range fields {
		base[k] = v
	}
	var b strings.Builder
	b.WriteString(`<RoutePlannerSimple xmlns="http://geosvc.org/LocationService/">`)
	for _, k := range []string{"DepartureX", "DepartureY", "ArrivalX", "ArrivalY", "Encoding", "Language", "WantMetric", "WantRouteDetails",
		"WantDataSet", "WantDescription", "WantSpeedInfo", "WantLocations", "WantRouteData", "FormatString"} {
		if v, ok := base[k]; ok {
			b.WriteString("<" + k + ">" + v + "</" + k + ">")
		}
	}
	b.WriteString("<SubscriptionKey>" + key + "</SubscriptionKey></RoutePlannerSimple>")
	return b.String()
}

// W2 (9.999, 0.001) to S (10.001, 0.000): along West Street, straight on
// at W, right at the crossing into South Street: 333.585 m, 50.148 s.
var w2ToS = map[string]string{"DepartureX": "9.999", "DepartureY": "0.001", "ArrivalX": "10.001", "ArrivalY": "0.000"}

func TestRoutePlannerSimple(t *testing.T) {
	f := newFixture(t, false)
	g := crossingGraph(t)
	f.svc.opts.Graph = func() *routing.Graph { return g }
	f.svc.opts.RoadDataName = func() string { return "no_left_turn" }
	rec := f.post("text/xml", envelope11(routeRequest(f.key, w2ToS)))
	if rec.Code != 200 {
		t.Fatalf("HTTP %d: %s", rec.Code, rec.Body)
	}
	var env struct {
		R RouteResult `xml:"Body>RoutePlannerSimpleResponse>RoutePlannerSimpleResult"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatal(err)
	}
	r := env.R
	if r.Duration != 50 || r.Distance != 334 || r.RoadDataName != "no_left_turn" {
		t.Errorf("route %d s %d m on %q, want 50 s 334 m (the fixture's 50.148 s, 333.585 m)", r.Duration, r.Distance, r.RoadDataName)
	}
	if r.Description == nil || len(r.Description.Items) != 3 {
		t.Fatalf("description %+v, want depart, turn right, arrive", r.Description)
	}
	want := []struct{ dir, street, dist string }{
		{"Depart", "West Street", "0.22 km"}, {"Turn right", "South Street", "0.11 km"}, {"Arrive", "South Street", "0.00 km"},
	}
	for i, w := range want {
		it := r.Description.Items[i]
		if it.Dir != w.dir || it.Street != w.street || it.Dist != w.dist || it.Encoding != EncodingWGS84 {
			t.Errorf("step %d: %+v, want %s %s %s", i+1, it, w.dir, w.street, w.dist)
		}
	}
	if !strings.HasPrefix(r.FormattedRoute, "1. Depart West Street (0.22 km, 32 s)\n2. Turn right South Street (0.11 km, 18 s)") {
		t.Errorf("FormattedRoute %q", r.FormattedRoute)
	}
	if r.SpeedInfo == nil || len(r.SpeedInfo.Items) != 1 {
		t.Errorf("SpeedInfo %+v, want one road type", r.SpeedInfo)
	}
	if r.Locations == nil || len(r.Locations.Locations) != 2 || r.Locations.Locations[0].X != "9.9990000" || r.Locations.Locations[1].Y != "0.0000000" {
		t.Errorf("Locations %+v", r.Locations)
	}
	poly, err := base64.StdEncoding.DecodeString(r.RouteData)
	pts := decodePolyline(string(poly))
	if err != nil || len(pts) < 3 || pts[0] != [2]float64{9.999, 0.001} || pts[len(pts)-1] != [2]float64{10.001, 0} {
		t.Errorf("RouteData %q decodes to %v (%v): want W2 ... S", poly, pts, err)
	}
	// Other languages and units.
	rec = f.post("text/xml", envelope11(routeRequest(f.key, merge(w2ToS, map[string]string{"Language": "German", "WantMetric": "false", "FormatString": "{dir}: {street}"}))))
	var de struct {
		R RouteResult `xml:"Body>RoutePlannerSimpleResponse>RoutePlannerSimpleResult"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &de); err != nil {
		t.Fatal(err)
	}
	if it := de.R.Description.Items[1]; it.Dir != "Rechts abbiegen" || it.Dist != "0.07 mi" {
		t.Errorf("German, miles: %+v", it)
	}
	if !strings.HasPrefix(de.R.FormattedRoute, "Abfahrt: West Street\nRechts abbiegen: South Street") {
		t.Errorf("FormatString: %q", env.R.FormattedRoute)
	}
}

func merge(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// decodePolyline decodes Google's encoded polyline format (precision 5)
// into lon, lat pairs.
func decodePolyline(s string) [][2]float64 {
	var out [][2]float64
	var lat, lon int64
	next := func(i *int) int64 {
		var v, shift uint64
		for *i < len(s) {
			b := uint64(s[*i]) - 63
			*i++
			v |= (b & 0x1f) << shift
			shift += 5
			if b < 0x20 {
				break
			}
		}
		if v&1 != 0 {
			return ^int64(v >> 1)
		}
		return int64(v >> 1)
	}
	for i := 0; i < len(s); {
		lat += next(&i)
		lon += next(&i)
		out = append(out, [2]float64{float64(lon) / 1e5, float64(lat) / 1e5})
	}
	return out
}

func TestRoutePlannerFaults(t *testing.T) {
	f := newFixture(t, false)
	g := crossingGraph(t)
	for _, tc := range []struct {
		name   string
		fields map[string]string
		graph  bool
		code   string
		reason string
	}{
		{"other encoding", merge(w2ToS, map[string]string{"Encoding": "VENDOR1"}), true, "soap:Client", "Encoding"},
		{"unknown language", merge(w2ToS, map[string]string{"Language": "Klingon"}), true, "soap:Client", "RouteLanguage"},
		{"bad coordinate", merge(w2ToS, map[string]string{"DepartureX": "east"}), true, "soap:Client", "DepartureX"},
		{"out of range", merge(w2ToS, map[string]string{"ArrivalY": "91"}), true, "soap:Client", "ArrivalX"},
		{"far from roads", merge(w2ToS, map[string]string{"DepartureX": "20"}), true, "soap:Client", "no road within 1000 m"},
		{"graph loading", w2ToS, false, "soap:Server", "loading"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.svc.opts.Graph = func() *routing.Graph {
				if tc.graph {
					return g
				}
				return nil
			}
			rec := f.post("text/xml", envelope11(routeRequest(f.key, tc.fields)))
			code, reason := faultOf(t, rec.Body.String())
			if code != tc.code || !strings.Contains(reason, tc.reason) {
				t.Errorf("fault %q %q, want %q containing %q", code, reason, tc.code, tc.reason)
			}
		})
	}
}
