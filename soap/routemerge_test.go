package soap

import (
	"encoding/xml"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/routing/profile"
)

// mergeRequest is a RoutePlanner request through stops ("x,y", fids s0,
// s1, ...) with merge locations ("x,y", fids m0, m1, ..., Type
// "customer").
func mergeRequest(key, planning string, stops, merges []string, mergeM int, useDbSet bool) string {
	loc := func(fid, xy, typ string) string {
		x, y, _ := strings.Cut(xy, ",")
		s := `<LocationInput fid="` + fid + `">`
		if typ != "" {
			s += "<Type>" + typ + "</Type>"
		}
		return s + "<X>" + x + "</X><Y>" + y + "</Y><Encoding>EPGS4326</Encoding></LocationInput>"
	}
	var b strings.Builder
	b.WriteString(`<RoutePlanner xmlns="http://geosvc.org/LocationService/"><Locations>`)
	for i, s := range stops {
		b.WriteString(loc("s"+strconv.Itoa(i), s, ""))
	}
	b.WriteString(`</Locations><Language>English</Language><WantMetric>true</WantMetric><WantRouteDetails>false</WantRouteDetails>`)
	b.WriteString(`<PlanningType>` + planning + `</PlanningType><WantDataSet>true</WantDataSet><WantDescription>false</WantDescription>`)
	b.WriteString(`<WantSpeedInfo>false</WantSpeedInfo><WantLocations>true</WantLocations><WantRouteData>false</WantRouteData>`)
	b.WriteString(`<SubscriptionKey>` + key + `</SubscriptionKey><MergeLocations>`)
	for i, m := range merges {
		b.WriteString(loc("m"+strconv.Itoa(i), m, "customer"))
	}
	b.WriteString(`</MergeLocations><Mergedistance>` + strconv.Itoa(mergeM) + `</Mergedistance>`)
	b.WriteString(`<UseDbSet>` + strconv.FormatBool(useDbSet) + `</UseDbSet></RoutePlanner>`)
	return b.String()
}

// The crossing fixture's points (routing/testdata/no_left_turn.osm).
const (
	xW2 = "9.999,0.001"
	xW  = "10.000,0.001"
	xS  = "10.001,0.000"
	xE  = "10.002,0.001"
	xN  = "10.001,0.002"
	xNE = "10.002,0.002" // off the roads: 157.254 m from the crossing X, 111.195 m from N and E
)

func TestRoutePlannerMergeLocations(t *testing.T) {
	f := newFixture(t, false)
	g := crossingGraph(t)
	f.setGraph(g)
	prof, err := profile.Load(filepath.Join("..", "configs", "car.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// Hand-worked legs (the fixture's comment: 16.0121 s a grid step,
	// 22.6445 s the diagonal, 0.0069 s straight on at X, 2.1053 s right,
	// 5.3947 s left at X).
	// W2 -> N: W2-W, bear left (-45 degrees, three roads) onto the
	// Diagonal to N: 111.195 + 157.254 m. Through X instead would be
	// 3 steps + a left turn, 53.44 s.
	w2n := 16.0121 + 22.6445 + prof.TurnCostS(-45, false, false, 3)
	for _, tc := range []struct {
		name      string
		stops     []string
		merges    []string
		mergeM    int
		fids      []string
		dur, dist int
	}{
		// Route W2-W-X-S passes X, 111.195 m from E (merged: W2 -> E ->
		// S is 48 s + 37 s, 334 m + 222 m) and 157.254 m from NE (left
		// out at 150 m).
		{"one merged, one too far", []string{xW2, xS}, []string{xNE, xE}, 150, []string{"s0", "m1", "s1"}, 48 + 37, 334 + 222},
		// Route W2 -> S -> E; N is 111.195 m from X. Between W2 and S it
		// adds w2n + 32.031 (N-X-S straight) - 50.148 = about 21 s;
		// between S and E, 32.031 (S-X-N) + 37.42 (N-X-E, left) -
		// 34.13 (S-X-E, right) = 35.3 s: it goes between W2 and S. The
		// graph keeps lengths in decimetres: W2 -> N is 111.2 + 157.3 =
		// 268.5 m, rounded to 269.
		{"inserted where it adds least", []string{xW2, xS, xE}, []string{xN}, 150, []string{"s0", "m0", "s1", "s2"},
			int(math.Round(w2n)) + 32 + 34, 269 + 222 + 222},
		// Nothing within 100 m: the route as given.
		{"none near", []string{xW2, xS}, []string{xE, xNE}, 100, []string{"s0", "s1"}, 50, 334},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.post("text/xml", envelope11(mergeRequest(f.key, "Fastest", tc.stops, tc.merges, tc.mergeM, false)))
			r := plannerResult(t, rec.Body.Bytes())
			if r.Duration != tc.dur || r.Distance != tc.dist {
				t.Errorf("%d s %d m, want %d s %d m", r.Duration, r.Distance, tc.dur, tc.dist)
			}
			var fids []string
			if r.Locations != nil {
				for _, l := range r.Locations.Locations {
					fids = append(fids, l.FID)
					if strings.HasPrefix(l.FID, "m") && l.Type != "customer" {
						t.Errorf("merged %s has Type %q, want its own (customer)", l.FID, l.Type)
					}
				}
			}
			if strings.Join(fids, ",") != strings.Join(tc.fids, ",") {
				t.Errorf("stops %v, want %v: %s", fids, tc.fids, rec.Body)
			}
		})
	}
	for _, tc := range []struct {
		name   string
		mergeM int
		merges []string
		reason string
	}{
		{"no merge distance", 0, []string{xE}, "Mergedistance 0"},
		{"merge distance too large", 200_000, []string{xE}, "Mergedistance 200000"},
		{"bad merge location", 150, []string{"east,1"}, "merge location 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.post("text/xml", envelope11(mergeRequest(f.key, "Fastest", []string{xW2, xS}, tc.merges, tc.mergeM, false)))
			if code, reason := faultOf(t, rec.Body.String()); code != "soap:Client" || !strings.Contains(reason, tc.reason) {
				t.Errorf("fault %q %q, want soap:Client containing %q", code, reason, tc.reason)
			}
		})
	}
}

func TestRoutePlannerUseDbSet(t *testing.T) {
	f := newFixture(t, false)
	g := crossingGraph(t)
	f.setGraph(g)
	rec := f.post("text/xml", envelope11(setOp("LocationCreateSetSimple", f.key, "stops")))
	var created struct {
		Key string `xml:"Body>LocationCreateSetSimpleResponse>SubscriptionKey"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &created); err != nil || created.Key == "" {
		t.Fatalf("no set key: %v %s", err, rec.Body)
	}
	// The set holds E (fid d1) then W (fid d2).
	if code, reason := faultOf(t, f.post("text/xml", envelope11(uploadOp(created.Key, false, xE, xW))).Body.String()); code != "" {
		t.Fatalf("upload: %s %s", code, reason)
	}
	for _, tc := range []struct {
		name      string
		planning  string
		fids      []string
		dur, dist int
	}{
		// W2 -> S (50.148 s, 333.585 m), S -> E (right at X: 2 steps +
		// 2.1053 s, 222.39 m), E -> W (straight on at X: 2 steps +
		// 0.0069 s, 222.39 m).
		{"appended in set order", "Fastest", []string{"s0", "s1", "d1", "d2"}, 50 + 34 + 32, 334 + 222 + 222},
		// TSP over W2, E, W, S with W2 first and S last: W2, W, E, S
		// (16.0121 s + 32.0311 s + 37.42 s with the left turn at X into
		// South Street), 111 + 222 + 222 m.
		{"ordered with them", "TSP", []string{"s0", "d2", "d1", "s1"}, 16 + 32 + 37, 111 + 222 + 222},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.post("text/xml", envelope11(mergeRequest(created.Key, tc.planning, []string{xW2, xS}, nil, 0, true)))
			r := plannerResult(t, rec.Body.Bytes())
			var fids []string
			if r.Locations != nil {
				for _, l := range r.Locations.Locations {
					fids = append(fids, l.FID)
				}
			}
			if strings.Join(fids, ",") != strings.Join(tc.fids, ",") || r.Duration != tc.dur || r.Distance != tc.dist {
				t.Errorf("stops %v %d s %d m, want %v %d s %d m: %s", fids, r.Duration, r.Distance, tc.fids, tc.dur, tc.dist, rec.Body)
			}
		})
	}
	// A key without a set.
	rec = f.post("text/xml", envelope11(mergeRequest(f.key, "Fastest", []string{xW2, xS}, nil, 0, true)))
	if code, reason := faultOf(t, rec.Body.String()); code != "soap:Client" || !strings.Contains(reason, "addresses no location set") {
		t.Errorf("fault %q %q, want the key's missing set", code, reason)
	}
}
