package routing

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"path/filepath"
	"sync"
	"testing"

	"github.com/geosvc/geosvc/routing/cch"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
)

// customPhantoms returns the phantoms of s under cm with its pair
// weights (custom times included), on usable nodes only.
func customPhantoms(g *Graph, cm *customMetric, s Snap) []cchPhantom {
	var ph [2]phantom
	var out []cchPhantom
	// Copies as sources too: a path from a copy is a path from its
	// original that keeps more restrictions, never a shorter one.
	for _, p := range g.withCopies(g.phantoms(chFastest, s, ph[:0])) {
		if !cm.usable[p.node] {
			continue
		}
		out = append(out, cchPhantom{node: p.node, whole: cm.whole(p.node), partial: cm.partial(p.node, p.frac)})
	}
	return out
}

// randomSpeeds returns a spec of base with random speeds (5..250 km/h)
// for a random half of the RoadTypes, Defaultspeed included when def.
func randomSpeeds(seed int64, base Objective, def bool, avoid Avoid) Metric {
	rng := rand.New(rand.NewSource(seed))
	s := Metric{Objective: base, Avoid: avoid}
	for rt := 1; rt < numRoadTypes; rt++ {
		if rng.Intn(2) == 0 {
			s.Speeds[rt] = float64(5 + rng.Intn(246))
		}
	}
	if def {
		s.Speeds[profile.Defaultspeed] = float64(5 + rng.Intn(246))
	}
	return s
}

// TestCustomMetricsMatchDijkstra customizes fastest, shortest, efficient,
// safest and three random speed tables (one with Defaultspeed, one with
// avoid flags) on Andorra and Delaware, and compares 20 x 100 = 2000
// point-to-point weights (metric, then time, then distance) and the
// table's seconds and metres with a plain Dijkstra on the same metric;
// fastest and shortest also with the hierarchies' own oracle.
func TestCustomMetricsMatchDijkstra(t *testing.T) {
	for _, name := range []string{"andorra", "delaware"} {
		t.Run(name, func(t *testing.T) {
			g := testGraph(t, name)
			pts := roadPoints(g, 120, 81, 15)
			specs := []Metric{
				{Objective: ObjectiveFastest}, {Objective: ObjectiveShortest}, {Objective: ObjectiveEfficient}, {Objective: ObjectiveSafest},
				randomSpeeds(1, ObjectiveFastest, false, 0),
				randomSpeeds(2, ObjectiveFastest, true, 0),
				randomSpeeds(3, ObjectiveEfficient, false, AvoidMotorway|AvoidToll|AvoidUnpaved|AvoidFerry),
			}
			for _, spec := range specs {
				t.Run(spec.String(), func(t *testing.T) {
					cm, err := g.customMetric(context.Background(), spec)
					if err != nil {
						t.Fatal(err)
					}
					snaps := make([]Snap, len(pts))
					for i, p := range pts {
						snaps[i] = g.Snap(spec, p.Input, 0)
					}
					src, dst := snaps[:20], snaps[20:]
					checkCustom(t, g, cm, src, dst)
					if spec == (Metric{}) || (spec == Metric{Objective: ObjectiveShortest} && name == "andorra") {
						want := g.dijkstraTable(spec, src, dst)
						got := tableOf(g, src, cm.newTargets(dst, 2))
						for k := range got.Durations {
							if got.Durations[k] != want.Durations[k] || got.Distances[k] != want.Distances[k] {
								t.Fatalf("cell %d: cch %d s %d m, hierarchy oracle %d s %d m", k, got.Durations[k], got.Distances[k], want.Durations[k], want.Distances[k])
							}
						}
					}
				})
			}
		})
	}
}

// checkCustom compares every pair's weight and the table with the pair
// oracle.
func checkCustom(t *testing.T, g *Graph, cm *customMetric, src, dst []Snap) {
	t.Helper()
	tab := tableOf(g, src, cm.newTargets(dst, 2))
	phantoms := func(s Snap) []cchPhantom { return customPhantoms(g, cm, s) }
	// The oracle's rows on two goroutines.
	rows := make([][]cch.Weight, len(src))
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(src); i += 2 {
				rows[i] = pairOracleRow(g, cm.weights, cm.nodeW, phantoms, src[i], dst)
			}
		}()
	}
	wg.Wait()
	routes := 0
	for i, s := range src {
		for j, want := range rows[i] {
			got := cm.weightOf(s, dst[j])
			if got != want {
				t.Fatalf("pair %d,%d: cch %v, dijkstra %v", i, j, got, want)
			}
			d, m := tab.At(i, j)
			if want.IsInf() {
				if d != NoRoute || m != NoRoute {
					t.Fatalf("cell %d,%d: %d s %d m, dijkstra: no route", i, j, d, m)
				}
				continue
			}
			routes++
			if wd, wm := toUnits(chFastest, want.S); d != wd || m != wm {
				t.Fatalf("cell %d,%d: %d s %d m, dijkstra %d s %d m", i, j, d, m, wd, wm)
			}
			if (i+j)%50 == 0 {
				r, err := cm.route(s, dst[j])
				if err != nil || r.DurationS != int(d) || r.DistanceM != int(m) {
					t.Fatalf("route %d,%d: %v %v, table %d s %d m", i, j, r, err, d, m)
				}
			}
		}
	}
	if routes < len(src)*len(dst)/2 {
		t.Fatalf("only %d of %d pairs have a route", routes, len(src)*len(dst))
	}
}

// TestMetricParse checks the parser's errors and the canonical key's
// round trip.
func TestMetricParse(t *testing.T) {
	cases := []struct {
		base   string
		speeds map[string]float64
		avoid  []string
		key    string
		err    string
	}{
		{"", nil, nil, "fastest", ""},
		{"most_efficient", nil, nil, "efficient", ""},
		{"Safest", nil, []string{"toll", "ferry", "toll"}, "safest;avoid=ferry,toll", ""},
		{"shortest", map[string]float64{"LocalRoadCity": 20, "Motorway": 80.5}, []string{"unpaved", "motorway"}, "shortest;speeds=Motorway:80.5,LocalRoadCity:20;avoid=motorway,unpaved", ""},
		{"fastest", map[string]float64{"Defaultspeed": 50}, nil, "fastest;speeds=Defaultspeed:50", ""},
		{"quickest", nil, nil, "", `routing: "quickest" is not a routing option`},
		{"fastest", map[string]float64{"Motorways": 80}, nil, "", `speeds.Motorways: "Motorways" is not a RoadType`},
		{"fastest", map[string]float64{"Motorway": 0}, nil, "", "speeds.Motorway: 0 km/h is out of range"},
		{"fastest", map[string]float64{"Motorway": 250.5}, nil, "", "speeds.Motorway: 250.5 km/h is out of range"},
		{"fastest", map[string]float64{"Motorway": -3}, nil, "", "speeds.Motorway: -3 km/h is out of range"},
		{"fastest", nil, []string{"tolls"}, "", `avoid: "tolls" is not an avoid option`},
	}
	for _, tc := range cases {
		s, err := NewMetric(tc.base, tc.speeds, tc.avoid)
		if tc.err != "" {
			if err == nil || !startsWith(err.Error(), tc.err) {
				t.Errorf("%q %v %v: error %v, want %q", tc.base, tc.speeds, tc.avoid, err, tc.err)
			}
			continue
		}
		if err != nil || s.String() != tc.key {
			t.Errorf("%q %v %v: %q %v, want %q", tc.base, tc.speeds, tc.avoid, s.String(), err, tc.key)
			continue
		}
		back, err := ParseMetric(s.String())
		if err != nil || back != s {
			t.Errorf("%q: parsed back as %+v %v", s.String(), back, err)
		}
	}
}

func startsWith(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// FuzzParseMetric: any key either fails or round-trips exactly.
func FuzzParseMetric(f *testing.F) {
	for _, s := range []string{"fastest", "shortest;speeds=Motorway:80,LocalRoadCity:20;avoid=ferry,toll", "safest;avoid=unpaved", "efficient;speeds=Defaultspeed:1e2", "x;y",
		"fastest;avoid=toll;areas=AQEBBP-yxtEF4JKT-QLgxQgAAODFCN_FCAA",
		"fastest;profile=truck;vehicle=h4.5,w2.55,l16.5,wt40,ax10,hz1,ms90", "shortest;profile=truck", "fastest;vehicle=h3;profile=truck;avoid=toll"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		s, err := ParseMetric(key)
		if err != nil {
			return
		}
		back, err := ParseMetric(s.String())
		if err != nil || back != s {
			t.Fatalf("%q -> %q -> %+v %v", key, s.String(), back, err)
		}
		for rt, v := range s.Speeds {
			if v != 0 && (v <= 0 || v > maxSpeedKmh) {
				t.Fatalf("%q: speed %v of %v accepted", key, v, profile.RoadType(rt))
			}
		}
	})
}

// TestMetricFixtures routes the hand-computed metric fixtures: speeds
// that flip a motorway route onto the old road beside it, avoid flags
// that take the long way or leave no way at all.
func TestMetricFixtures(t *testing.T) {
	cases := []struct {
		fixture  string
		from, to int64
		routing  string
		speeds   map[string]float64
		avoid    []string
		wantS    int
		wantM    int
	}{
		{"motorway", 1, 6, "fastest", nil, nil, 77, 1334},
		{"motorway", 1, 6, "fastest", map[string]float64{"Motorway": 30}, nil, 117, 1557},
		{"motorway", 1, 6, "shortest", map[string]float64{"Motorway": 30}, nil, 165, 1334},
		{"motorway", 1, 6, "fastest", nil, []string{"motorway"}, 117, 1557},
		{"motorway", 1, 6, "fastest", nil, []string{"toll"}, 117, 1557},
		{"motorway", 1, 6, "fastest", nil, []string{"unpaved"}, 77, 1334},
		{"motorway", 1, 6, "fastest", nil, []string{"motorway", "unpaved"}, int(NoRoute), 0},
		{"motorway", 1, 8, "fastest", nil, nil, 133, 2446},
		{"motorway", 1, 8, "efficient", nil, []string{"motorway"}, int(NoRoute), 0},
		{"ferry_bridge", 1, 4, "fastest", nil, nil, 156, 1334},
		{"ferry_bridge", 1, 4, "fastest", nil, []string{"ferry"}, 512, 3558},
		{"ferry_bridge", 1, 4, "safest", nil, []string{"ferry"}, 512, 3558},
	}
	prof := carProfile(t)
	for _, tc := range cases {
		name := fmt.Sprintf("%s %d->%d %s %v %v", tc.fixture, tc.from, tc.to, tc.routing, tc.speeds, tc.avoid)
		path := filepath.Join("testdata", tc.fixture+".osm")
		net, err := osmroad.Read(path, prof)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		g, _, err := Build(net, prof)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		spec, err := NewMetric(tc.routing, tc.speeds, tc.avoid)
		if err != nil {
			t.Fatal(err)
		}
		nodes := fixtureNodes(t, path)
		from := g.Snap(spec, nodes[tc.from], 0)
		to := g.Snap(spec, nodes[tc.to], 0)
		r, err := g.Route(context.Background(), spec, from, to)
		tab, terr := g.Matrix(context.Background(), spec, []Snap{from}, []Snap{to})
		if terr != nil {
			t.Fatal(terr)
		}
		d, m := tab.At(0, 0)
		if tc.wantS == int(NoRoute) {
			if err == nil || d != NoRoute {
				t.Errorf("%s: %v %v, table %d s, want no route", name, r, err, d)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.DurationS != tc.wantS || r.DistanceM != tc.wantM || int(d) != tc.wantS || int(m) != tc.wantM {
			t.Errorf("%s: route %d s %d m, table %d s %d m, want %d s %d m", name, r.DurationS, r.DistanceM, d, m, tc.wantS, tc.wantM)
		}
	}
}

// TestMetricCache: concurrent callers of one spec customize it once, a
// second spec is another customization, the bytes bound evicts the least
// recently used, and a cancelled context ends customizations and tables.
func TestMetricCache(t *testing.T) {
	g := testGraph(t, "andorra")
	c := newMetricCache(g, 1<<40)
	a := Metric{Objective: ObjectiveSafest, Avoid: AvoidToll}
	b, err := NewMetric("fastest", map[string]float64{"LocalRoad": 33}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([]*customMetric, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = c.get(context.Background(), a)
		}()
	}
	wg.Wait()
	for i := range got {
		if got[i] == nil || got[i] != got[0] {
			t.Fatalf("caller %d got %p, caller 0 %p", i, got[i], got[0])
		}
	}
	if n, bytes, runs := c.stats(); n != 1 || runs != 1 || bytes != got[0].bytes() {
		t.Fatalf("after 8 callers of one spec: %d metrics, %d bytes, %d customizations", n, bytes, runs)
	}
	mb, err := c.get(context.Background(), b)
	if err != nil || mb.spec != b {
		t.Fatal(err)
	}
	// Touch a, then bound the cache to one metric's bytes: b goes.
	if _, err := c.get(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	c.maxBytes = got[0].bytes()
	c.evict()
	c.mu.Unlock()
	if n, _, runs := c.stats(); n != 1 || runs != 2 {
		t.Fatalf("after eviction: %d metrics, %d customizations", n, runs)
	}
	if _, err := c.get(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	if _, _, runs := c.stats(); runs != 2 {
		t.Fatalf("a was evicted instead of b: %d customizations", runs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.get(ctx, Metric{Objective: ObjectiveEfficient}); err != context.Canceled {
		t.Fatalf("cancelled customization: %v", err)
	}
	if n, _, _ := c.stats(); n != 1 {
		t.Fatalf("a cancelled customization was kept: %d metrics", n)
	}
	pts := roadPoints(g, 20, 3, 0)
	if _, err := g.Table(ctx, pts, got[0].newTargets(pts, 1)); err != context.Canceled {
		t.Fatalf("cancelled table: %v", err)
	}
}

// TestMetricTables checks the embedded tables against their sources'
// numbers: the fuel curve's points (L/100 km = 235.214583 / mpg), its
// clamping and interpolation, and the crash rates per metre.
func TestMetricTables(t *testing.T) {
	tab := defaultMetricTables()
	for _, tc := range []struct{ kmh, want float64 }{
		{45 * 1.609344, 235.214583 / 43},
		{55 * 1.609344, 235.214583 / 45},
		{75 * 1.609344, 235.214583 / 32},
		{20, 235.214583 / 43},                                            // below the curve: its first point
		{50 * 1.609344, (235.214583/43 + 235.214583/45) / 2},             // half way from 45 to 55 mph
		{85 * 1.609344, 235.214583/32 + (235.214583/32 - 235.214583/38)}, // the last segment extended
	} {
		if got := tab.litresPer100Km(tc.kmh); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("fuel at %.3f km/h: %.6f L/100 km, want %.6f", tc.kmh, got, tc.want)
		}
	}
	// 1 km of motorway at 1.1 fatal-crash involvements per 1e8 miles.
	if got, want := tab.risk(1000, profile.Motorway), math.Round(1000*1.1/1e8/1609.344*1e12); float64(got) != want {
		t.Errorf("risk of 1 km of motorway: %d, want %v", got, want)
	}
	if got, want := tab.risk(1000, profile.LocalRoadCity), math.Round(1000*1.0/1e8/1609.344*1e12); float64(got) != want {
		t.Errorf("risk of 1 km of LocalRoadCity: %d, want %v", got, want)
	}
	if want := int64(math.Round(500 * 1.0 / 1e8 / 1609.344 * 1e12)); tab.riskAcross != want || tab.riskUTurn != 2*want {
		t.Errorf("turn penalties %d, %d, want %d, %d", tab.riskAcross, tab.riskUTurn, want, 2*want)
	}
	if _, err := parseMetricTables([]byte("efficient: {curve: [{mph: 45, mpg: 43}]}")); err == nil {
		t.Error("a one-point curve was accepted")
	}
}
