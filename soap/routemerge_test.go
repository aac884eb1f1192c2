package soap

import (
	"context"
	"encoding/xml"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/profile"
	"github.com/geosvc/geosvc/routing/routingtest"
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

// TestRoutePlannerMergeOnSpeeds: with a Speed item that makes motorways
// slow (20 km/h), RoutePlanner orders the stops (TSP) and inserts the
// merge locations on that metric: as routing's own BestOrder, routes and
// table on the same metric do, which differ here from what the profile's
// speeds give. Delaware, between Newark and Wilmington (I-95, I-295,
// DE-1).
func TestRoutePlannerMergeOnSpeeds(t *testing.T) {
	g := routingtest.Extract(t, "delaware")
	f := newFixture(t, false)
	f.setGraph(g)
	slow, err := routing.NewMetric("fastest", map[string]float64{"Motorway": 20}, nil)
	if err != nil {
		t.Fatal(err)
	}
	const speed = "<Speed><SpeedItem><Name>Motorway</Name><Speed>20</Speed></SpeedItem></Speed>"
	for _, tc := range []struct {
		name, planning string
		stops, merges  []string
		mergeM         int
	}{
		// The profile's speeds visit s3 second, the slow motorways s2
		// (margins of 36 s and 101 s for the merge insertions).
		{"TSP", "TSP", []string{"-75.7668,39.6526", "-75.5484,39.749", "-75.6862,39.6118", "-75.5354,39.7693", "-75.6776,39.6477"},
			[]string{"-75.5151,39.7306", "-75.6855,39.6369"}, 3000},
		// Stops in the order given: m0 goes before s1 on the profile's
		// speeds (199 s better than the next place), after it with
		// slow motorways (106 s better).
		{"in order", "Fastest", []string{"-75.6775,39.6455", "-75.7489,39.629", "-75.5601,39.7564"},
			[]string{"-75.7022,39.6269"}, 5000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tsp := tc.planning == "TSP"
			want := mergedOrder(t, g, slow, tc.stops, tc.merges, tc.mergeM, tsp)
			plain := mergedOrder(t, g, routing.Fastest, tc.stops, tc.merges, tc.mergeM, tsp)
			if slices.Equal(want, plain) {
				t.Fatalf("the case does not tell the metrics apart: %v on both", want)
			}
			body := strings.Replace(mergeRequest(f.key, tc.planning, tc.stops, tc.merges, tc.mergeM, false), "</PlanningType>", "</PlanningType>"+speed, 1)
			rec := f.post("text/xml", envelope11(body))
			r := plannerResult(t, rec.Body.Bytes())
			var fids []string
			if r.Locations != nil {
				for _, l := range r.Locations.Locations {
					fids = append(fids, l.FID)
				}
			}
			if !slices.Equal(fids, want) {
				t.Errorf("stops %v, want %v as routing orders them with motorways at 20 km/h (%v with the profile's speeds): %.300s", fids, want, plain, rec.Body)
			}
		})
	}
}

// mergedOrder returns the fids (s0, s1, ... for stops, m0, ... for
// merges) in the order RoutePlanner should drive them on metric m,
// worked out with routing's own calls: the stops as given, or in
// BestOrder's order when tsp; then each merge location within maxM
// metres of the routes between them, in turn, inserted between the two
// consecutive stops where it adds the least time in m's table.
func mergedOrder(t *testing.T, g *routing.Graph, m routing.Metric, stops, merges []string, maxM int, tsp bool) []string {
	t.Helper()
	ctx := context.Background()
	var fids []string
	var snaps []routing.Snap
	for i, s := range stops {
		fids, snaps = append(fids, "s"+strconv.Itoa(i)), append(snaps, g.Snap(m, point(t, s), 0))
	}
	if tsp {
		order, err := g.BestOrder(ctx, m, snaps)
		if err != nil {
			t.Fatal(err)
		}
		of, os := make([]string, len(order)), make([]routing.Snap, len(order))
		for k, i := range order {
			of[k], os[k] = fids[i], snaps[i]
		}
		fids, snaps = of, os
	}
	var legs []orb.LineString
	for k := 1; k < len(snaps); k++ {
		r, err := g.Route(ctx, m, snaps[k-1], snaps[k])
		if err != nil {
			t.Fatal(err)
		}
		legs = append(legs, r.Geometry)
	}
	n := len(snaps)
	for j, s := range merges {
		if p := point(t, s); distanceToLines(p, legs) <= float64(maxM) {
			fids, snaps = append(fids, "m"+strconv.Itoa(j)), append(snaps, g.Snap(m, p, 0))
		}
	}
	tab, err := g.Matrix(ctx, m, snaps, snaps)
	if err != nil {
		t.Fatal(err)
	}
	cost := func(a, b int) int32 { d, _ := tab.At(a, b); return d }
	seq := make([]int, n)
	for i := range seq {
		seq[i] = i
	}
	for c := n; c < len(snaps); c++ {
		best, at := int32(math.MaxInt32), -1
		for k := 0; k+1 < len(seq); k++ {
			if added := cost(seq[k], c) + cost(c, seq[k+1]) - cost(seq[k], seq[k+1]); added < best {
				best, at = added, k+1
			}
		}
		seq = slices.Insert(seq, at, c)
	}
	out := make([]string, len(seq))
	for k, i := range seq {
		out[k] = fids[i]
	}
	return out
}
