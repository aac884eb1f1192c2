package soap

import (
	"context"
	"encoding/base64"
	"encoding/xml"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/routing/routingtest"

	"github.com/geosvc/geosvc/routing"
)

// crossingGraph is routing's hand-written no_left_turn fixture: a
// crossing of South, North, East and West Street whose routes are worked
// out by hand in the fixture's comment.
func crossingGraph(t testing.TB) *routing.Graph {
	t.Helper()
	return routingtest.Graph(t, "no_left_turn.osm")
}

func routeRequest(key string, fields map[string]string) string {
	// A field of value omitElement is left out of the request.
	base := map[string]string{"Encoding": "EPGS4326", "Language": "English", "WantMetric": "true", "WantRouteDetails": "true",
		"WantDataSet": "false", "WantDescription": "true", "WantSpeedInfo": "true", "WantLocations": "true", "WantRouteData": "true"}
	for k, v := range fields {
		base[k] = v
	}
	var b strings.Builder
	b.WriteString(`<RoutePlannerSimple xmlns="http://geosvc.org/LocationService/">`)
	for _, k := range []string{"DepartureX", "DepartureY", "ArrivalX", "ArrivalY", "Encoding", "Language", "WantMetric", "WantRouteDetails",
		"WantDataSet", "WantDescription", "WantSpeedInfo", "WantLocations", "WantRouteData", "FormatString"} {
		if v, ok := base[k]; ok && v != omitElement {
			b.WriteString("<" + k + ">" + v + "</" + k + ">")
		}
	}
	b.WriteString("<SubscriptionKey>" + key + "</SubscriptionKey></RoutePlannerSimple>")
	return b.String()
}

// omitElement, as a field's value in routeRequest, leaves the element out.
const omitElement = "\x00omit"

// W2 (9.999, 0.001) to S (10.001, 0.000): along West Street, straight on
// at W, right at the crossing into South Street: 333.585 m, 50.148 s.
var w2ToS = map[string]string{"DepartureX": "9.999", "DepartureY": "0.001", "ArrivalX": "10.001", "ArrivalY": "0.000"}

func TestRoutePlannerSimple(t *testing.T) {
	f := newFixture(t, false)
	g := crossingGraph(t)
	f.setGraph(g)
	f.setName("no_left_turn")
	rec := f.post("text/xml", envelope11(routeRequest(f.key, w2ToS)))
	if rec.Code != 200 {
		t.Fatalf("HTTP %d: %s", rec.Code, rec.Body)
	}
	var env struct {
		R routeResult `xml:"Body>RoutePlannerSimpleResponse>RoutePlannerSimpleResult"`
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
		if it.Dir != w.dir || it.Street != w.street || it.Dist != w.dist || it.Encoding != encodingWGS84 {
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
	pts := decodePolylineRef(string(poly))
	if err != nil || len(pts) < 3 || pts[0] != [2]float64{9.999, 0.001} || pts[len(pts)-1] != [2]float64{10.001, 0} {
		t.Errorf("RouteData %q decodes to %v (%v): want W2 ... S", poly, pts, err)
	}
	// Other languages and units.
	rec = f.post("text/xml", envelope11(routeRequest(f.key, merge(w2ToS, map[string]string{"Language": "German", "WantMetric": "false", "FormatString": "{dir}: {street}"}))))
	var de struct {
		R routeResult `xml:"Body>RoutePlannerSimpleResponse>RoutePlannerSimpleResult"`
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
func decodePolylineRef(s string) [][2]float64 {
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
		{"unknown language", merge(w2ToS, map[string]string{"Language": "Klingon"}), true, "soap:Client", `Language "Klingon" is not a RouteLanguage (XML, Dutch, French, Spanish, Italian, English, German)`},
		{"no Language element", merge(w2ToS, map[string]string{"Language": omitElement}), true, "soap:Client",
			"Language is missing (or empty): give a RouteLanguage (XML, Dutch, French, Spanish, Italian, English, German)"},
		{"empty Language", merge(w2ToS, map[string]string{"Language": ""}), true, "soap:Client", "Language is missing (or empty)"},
		{"bad coordinate", merge(w2ToS, map[string]string{"DepartureX": "east"}), true, "soap:Client", "DepartureX"},
		{"out of range", merge(w2ToS, map[string]string{"ArrivalY": "91"}), true, "soap:Client", "ArrivalX"},
		{"far from roads", merge(w2ToS, map[string]string{"DepartureX": "20"}), true, "soap:Client", "no road within 1000 m"},
		{"graph loading", w2ToS, false, "soap:Server", "loading"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.graph {
				f.setGraph(g)
			} else {
				f.setGraph(nil)
			}
			rec := f.post("text/xml", envelope11(routeRequest(f.key, tc.fields)))
			code, reason := faultOf(t, rec.Body.String())
			if code != tc.code || !strings.Contains(reason, tc.reason) {
				t.Errorf("fault %q %q, want %q containing %q", code, reason, tc.code, tc.reason)
			}
		})
	}
}

// plannerRequest is a RoutePlanner request through the given stops
// (each "x,y", or an address as "street|premise").
func plannerRequest(key, planning string, stops []string, extra string) string {
	var b strings.Builder
	b.WriteString(`<RoutePlanner xmlns="http://geosvc.org/LocationService/"><Locations>`)
	for i, s := range stops {
		b.WriteString(`<LocationInput fid="s` + strconv.Itoa(i) + `">`)
		if street, premise, ok := strings.Cut(s, "|"); ok {
			b.WriteString("<Street><Name>" + street + "</Name></Street><Premise><Name>" + premise + "</Name></Premise>")
		} else {
			x, y, _ := strings.Cut(s, ",")
			b.WriteString("<X>" + x + "</X><Y>" + y + "</Y>")
		}
		b.WriteString("<Encoding>EPGS4326</Encoding></LocationInput>")
	}
	b.WriteString(`</Locations><Language>English</Language><WantMetric>true</WantMetric><WantRouteDetails>true</WantRouteDetails>`)
	b.WriteString(`<PlanningType>` + planning + `</PlanningType>` + extra)
	b.WriteString(`<WantDataSet>false</WantDataSet><WantDescription>false</WantDescription><WantSpeedInfo>false</WantSpeedInfo>`)
	b.WriteString(`<WantLocations>true</WantLocations><WantRouteData>false</WantRouteData><SubscriptionKey>` + key + `</SubscriptionKey>`)
	b.WriteString(`<Mergedistance>0</Mergedistance><UseDbSet>false</UseDbSet></RoutePlanner>`)
	return b.String()
}

func plannerResult(t *testing.T, body []byte) routeResult {
	t.Helper()
	var env struct {
		R routeResult `xml:"Body>RoutePlannerResponse>RoutePlannerResult"`
	}
	if err := xml.Unmarshal(body, &env); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return env.R
}

func TestRoutePlanner(t *testing.T) {
	f := newFixture(t, false)
	g := crossingGraph(t)
	f.setGraph(g)
	const (
		w2 = "9.999,0.001"
		s  = "10.001,0.000"
		e  = "10.002,0.001"
		n  = "10.001,0.002"
	)
	for _, tc := range []struct {
		name      string
		planning  string
		stops     []string
		dur, dist int
		fids      []string
	}{
		// The fixture's hand-computed routes: W2 -> S 50.148 s 333.585 m.
		{"two stops", "Fastest", []string{w2, s}, 50, 334, []string{"s0", "s1"}},
		// S -> W2 round the banned left turn: 490.839 m.
		{"shortest round the ban", "Shortest", []string{s, w2}, 71, 491, []string{"s0", "s1"}},
		// W2 -> E: 333.585 m, 3 x 16.0121 + 2 x 0.0069 s; E -> S: left at
		// the crossing, 222.390 m, 2 x 16.0121 + 5.3947 s.
		{"three stops", "Fastest", []string{w2, e, s}, 48 + 37, 334 + 222, []string{"s0", "s1", "s2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.post("text/xml", envelope11(plannerRequest(f.key, tc.planning, tc.stops, "")))
			r := plannerResult(t, rec.Body.Bytes())
			if r.Duration != tc.dur || r.Distance != tc.dist {
				t.Errorf("%d s %d m, want %d s %d m: %s", r.Duration, r.Distance, tc.dur, tc.dist, rec.Body)
			}
			if r.Locations == nil || len(r.Locations.Locations) != len(tc.fids) {
				t.Fatalf("locations %+v", r.Locations)
			}
			for i, l := range r.Locations.Locations {
				if l.FID != tc.fids[i] {
					t.Errorf("location %d is %s, want %s", i, l.FID, tc.fids[i])
				}
			}
		})
	}
	// Speed: every road of the fixture is OtherRoadCity (residential).
	// W2 -> S is 3 x 111.195 m plus 2.112 s of turns: at 50 km/h
	// 3 x 8.006 + 2.112 = 26.13 s; at 25 mph (40.2336 km/h, WantMetric
	// false) 3 x 9.9494 + 2.112 = 31.96 s; Defaultspeed covers it too.
	for _, tc := range []struct {
		name, speeds string
		metric       bool
		dur          int
	}{
		{"speed km/h", "<SpeedItem><Name>OtherRoadCity</Name><Speed>50</Speed></SpeedItem><SpeedItem><Name>Motorway</Name><Speed>30</Speed></SpeedItem>", true, 26},
		{"speed mph", "<SpeedItem><Name>OtherRoadCity</Name><Speed> 25 </Speed></SpeedItem>", false, 32},
		{"Defaultspeed", "<SpeedItem><Name>Defaultspeed</Name><Speed>50</Speed></SpeedItem>", true, 26},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := plannerRequest(f.key, "Fastest", []string{w2, s}, "<Speed>"+tc.speeds+"</Speed>")
			if !tc.metric {
				req = strings.Replace(req, "<WantMetric>true</WantMetric>", "<WantMetric>false</WantMetric>", 1)
			}
			r := plannerResult(t, f.post("text/xml", envelope11(req)).Body.Bytes())
			if r.Duration != tc.dur || r.Distance != 334 {
				t.Errorf("%d s %d m, want %d s 334 m", r.Duration, r.Distance, tc.dur)
			}
		})
	}
	// TSP: W2 -> E -> W -> S drives past W to E and back; the best order
	// keeps W2 and S at the ends and visits W first: W2, W, E, S.
	const w = "10.000,0.001"
	given := plannerResult(t, f.post("text/xml", envelope11(plannerRequest(f.key, "Fastest", []string{w2, e, w, s}, ""))).Body.Bytes())
	tour := plannerResult(t, f.post("text/xml", envelope11(plannerRequest(f.key, "TSP", []string{w2, e, w, s}, ""))).Body.Bytes())
	if tour.Duration >= given.Duration || tour.Duration == 0 {
		t.Errorf("TSP %d s, the given order %d s: want shorter", tour.Duration, given.Duration)
	}
	var order []string
	for _, l := range tour.Locations.Locations {
		order = append(order, l.FID)
	}
	if strings.Join(order, ",") != "s0,s2,s1,s3" {
		t.Errorf("TSP order %v, want s0,s2,s1,s3", order)
	}
	for _, tc := range []struct {
		name     string
		planning string
		stops    []string
		extra    string
		reason   string
	}{
		{"no alternative", "Fastest2", []string{w2, s}, "", "no alternative route from the location 1 to the location 2"},
		{"unknown planning", "Scenic", []string{w2, s}, "", "not a RoutePlanningType"},
		{"one stop", "Fastest", []string{w2}, "", "give 2 to 100"},
		{"speed not a number", "Fastest", []string{w2, s}, "<Speed><SpeedItem><Name>OtherRoadCity</Name><Speed>fast</Speed></SpeedItem></Speed>", `Speed: SpeedItem 1 (OtherRoadCity): Speed "fast" is not a number`},
		{"speed of no RoadType", "Fastest", []string{w2, s}, "<Speed><SpeedItem><Name>Motorway</Name><Speed>80</Speed></SpeedItem><SpeedItem><Name>Autobahn</Name><Speed>120</Speed></SpeedItem></Speed>", `SpeedItem 2 (Autobahn): speeds.Autobahn: "Autobahn" is not a RoadType`},
		{"speed out of range", "Fastest", []string{w2, s}, "<Speed><SpeedItem><Name>Motorway</Name><Speed>251</Speed></SpeedItem></Speed>", "SpeedItem 1 (Motorway): speeds.Motorway: 251 km/h is out of range"},
		{"speed twice", "Fastest", []string{w2, s}, "<Speed><SpeedItem><Name>Motorway</Name><Speed>80</Speed></SpeedItem><SpeedItem><Name>Motorway</Name><Speed>90</Speed></SpeedItem></Speed>", "RoadType Motorway is given twice"},
		{"far stop", "Fastest", []string{w2, "20,20"}, "", "location 2 has no road"},
		{"bad stop", "Fastest", []string{w2, "x,1"}, "", "location 2"},
		{"address not found", "Fastest", []string{w2, "Nowhere Lane|1"}, "", "location 2: the address was not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.post("text/xml", envelope11(plannerRequest(f.key, tc.planning, tc.stops, tc.extra)))
			if code, reason := faultOf(t, rec.Body.String()); code != "soap:Client" || !strings.Contains(reason, tc.reason) {
				t.Errorf("fault %q %q, want soap:Client containing %q", code, reason, tc.reason)
			}
		})
	}
}

// TestRoutePlannerAddresses: stops given by address are placed by the
// gazetteer (the geocoder fixture and its own road graph).
func TestRoutePlannerAddresses(t *testing.T) {
	f := newFixture(t, false)
	g := tinyGraph(t)
	f.setGraph(g)
	// 10 North Main Street (-75.4998, 39.0002) snaps to Main Street at
	// -75.4998; the end point to -75.4985: 0.0013 degrees of longitude.
	rec := f.post("text/xml", envelope11(plannerRequest(f.key, "Shortest", []string{"North Main Street|10", "-75.4985,39.0001"}, "")))
	r := plannerResult(t, rec.Body.Bytes())
	want := 0.0013 * geo.EarthRadiusM * math.Pi / 180 * math.Cos(39*math.Pi/180)
	if math.Abs(float64(r.Distance)-want) > 1 {
		t.Errorf("%d m, want %.0f: %s", r.Distance, want, rec.Body)
	}
}

// alternativesGraph is routing's hand-written alternatives fixture: from
// S to T the best route runs along Main Street (1112 m), the 2nd along
// North Road (1204 m) and the 3rd along South Road (1291 m), worked out
// by hand in the fixture's comment.
func alternativesGraph(t testing.TB) *routing.Graph {
	t.Helper()
	return routingtest.Graph(t, "alternatives.osm")
}

// TestRoutePlannerAlternatives: Fastest2/3 and Shortest2/3 answer the 2nd
// and 3rd best routes of every leg, and a Sender fault naming the leg
// when a leg has none.
func TestRoutePlannerAlternatives(t *testing.T) {
	f := newFixture(t, false)
	g := alternativesGraph(t)
	f.setGraph(g)
	const (
		s  = "10.000,0.000"  // S, the west end of Lead Road
		tt = "10.010,0.000"  // T, the east end of Exit Road
		m1 = "10.0035,0.000" // two points on Main Street between C1 and C2
		m2 = "10.0045,0.000"
	)
	for _, tc := range []struct {
		planning string
		stops    []string
		dist     int
		road     string // a street of the route's description
		noRoad   string // a street it must not take
	}{
		{"Fastest", []string{s, tt}, 1112, "Main Street", "North Road"},
		{"Fastest2", []string{s, tt}, 1204, "North Road", "Main Street"},
		{"Fastest3", []string{s, tt}, 1291, "South Road", "North Road"},
		{"Shortest2", []string{s, tt}, 1204, "North Road", "South Road"},
		{"Shortest3", []string{s, tt}, 1291, "South Road", "Main Street"},
		// Each leg takes its own 2nd route: North Road there and back.
		{"Fastest2", []string{s, tt, s}, 2 * 1204, "North Road", "South Road"},
	} {
		t.Run(tc.planning+"/"+strconv.Itoa(len(tc.stops)), func(t *testing.T) {
			rec := f.post("text/xml", envelope11(plannerRequest(f.key, tc.planning, tc.stops, "")))
			r := plannerResult(t, rec.Body.Bytes())
			if r.Distance != tc.dist {
				t.Fatalf("%d m, want %d m: %s", r.Distance, tc.dist, rec.Body)
			}
			var streets []string
			for _, it := range r.Description.Items {
				streets = append(streets, it.Street)
			}
			if !slices.Contains(streets, tc.road) || slices.Contains(streets, tc.noRoad) {
				t.Errorf("streets %v: want %s, not %s", streets, tc.road, tc.noRoad)
			}
			// The duration is the route's own: the routing package's answer.
			m := routing.Fastest
			if strings.HasPrefix(tc.planning, "Shortest") {
				m = routing.Shortest
			}
			alt := 0
			if c := tc.planning[len(tc.planning)-1]; c == '2' || c == '3' {
				alt = int(c - '1')
			}
			want := 0
			for k := 1; k < len(tc.stops); k++ {
				from, to := g.Snap(m, point(t, tc.stops[k-1]), 0), g.Snap(m, point(t, tc.stops[k]), 0)
				rs, err := g.Alternatives(context.Background(), m, from, to, 3)
				if err != nil || len(rs) <= alt {
					t.Fatalf("leg %d: %d routes, %v", k, len(rs), err)
				}
				want += rs[alt].DurationS
			}
			if r.Duration != want {
				t.Errorf("%d s, want %d s", r.Duration, want)
			}
		})
	}
	// With Speed (residential streets at 50 km/h instead of 25) the
	// alternatives are the customized metric's: the same roads, faster.
	speed := "<Speed><SpeedItem><Name>OtherRoadCity</Name><Speed>50</Speed></SpeedItem></Speed>"
	for _, tc := range []struct {
		planning string
		dist     int
		road     string
		alt      int
	}{
		{"Fastest2", 1204, "North Road", 1},
		{"Shortest3", 1291, "South Road", 2},
	} {
		plain := plannerResult(t, f.post("text/xml", envelope11(plannerRequest(f.key, tc.planning, []string{s, tt}, ""))).Body.Bytes())
		rec := f.post("text/xml", envelope11(plannerRequest(f.key, tc.planning, []string{s, tt}, speed)))
		r := plannerResult(t, rec.Body.Bytes())
		spec, err := routing.NewMetric(strings.ToLower(strings.TrimRight(tc.planning, "23")), map[string]float64{"OtherRoadCity": 50}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := g.Alternative(context.Background(), spec, g.Snap(spec, point(t, s), 0), g.Snap(spec, point(t, tt), 0), tc.alt)
		if err != nil {
			t.Fatal(err)
		}
		var streets []string
		for _, it := range r.Description.Items {
			streets = append(streets, it.Street)
		}
		if r.Distance != tc.dist || !slices.Contains(streets, tc.road) || r.Duration != want.DurationS || r.Duration >= plain.Duration {
			t.Errorf("%s with Speed: %d s %d m on %v; want %d m on %s in %d s (without Speed %d s): %s",
				tc.planning, r.Duration, r.Distance, streets, tc.dist, tc.road, want.DurationS, plain.Duration, rec.Body)
		}
	}
	// Along Main Street from m1 to m2 (111 m) nothing is within 25 %;
	// from T to m1 (723 m) neither.
	for _, tc := range []struct {
		planning string
		stops    []string
		reason   string
	}{
		{"Fastest2", []string{m1, m2}, "no alternative route from the location 1 to the location 2: no 2nd best route"},
		{"Shortest3", []string{s, tt, m1, m2}, "no alternative route from the location 2 to the location 3: no 3rd best route"},
	} {
		rec := f.post("text/xml", envelope11(plannerRequest(f.key, tc.planning, tc.stops, "")))
		if code, reason := faultOf(t, rec.Body.String()); code != "soap:Client" || !strings.Contains(reason, tc.reason) {
			t.Errorf("%s %v: fault %q %q, want soap:Client containing %q", tc.planning, tc.stops, code, reason, tc.reason)
		}
	}
}

// point reads "x,y".
func point(t *testing.T, s string) orb.Point {
	t.Helper()
	x, y, _ := strings.Cut(s, ",")
	px, err1 := strconv.ParseFloat(x, 64)
	py, err2 := strconv.ParseFloat(y, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("bad point %q", s)
	}
	return orb.Point{px, py}
}
