package routing

import (
	"errors"
	"slices"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"
	"github.com/paulmach/orb/planar"

	"github.com/geosvc/geosvc/routing/cch"
)

// Real places of the Delaware extract.
var (
	// The Senator William V. Roth Jr. Bridge carries DE-1 over the
	// Chesapeake and Delaware Canal (edges 50088 and 50089, 1419 m, from
	// -75.6517,39.5451 to -75.6612,39.5556); the St. Georges Bridge (US-13)
	// crosses 600 m east of it.
	rothBridge = orb.Point{-75.6565, 39.5503}
	// Tybouts Corner (DE-1 and US-13), north of the canal, and Odessa,
	// south of it; Middletown further west.
	tybouts    = orb.Point{-75.6540, 39.6140}
	odessa     = orb.Point{-75.6560, 39.4570}
	middletown = orb.Point{-75.7163, 39.4496}
	// Dover's centre (Loockerman Street and State Street).
	dover = orb.Point{-75.5246, 39.1582}
)

// box returns a closed counter-clockwise ring of a box around c, dx and
// dy degrees either side.
func box(c orb.Point, dx, dy float64) orb.Ring {
	return orb.Ring{{c[0] - dx, c[1] - dy}, {c[0] + dx, c[1] - dy}, {c[0] + dx, c[1] + dy}, {c[0] - dx, c[1] + dy}, {c[0] - dx, c[1] - dy}}
}

// hexagon returns a closed ring of six corners r degrees (of latitude)
// from c.
func hexagon(c orb.Point, r float64) orb.Ring {
	ring := orb.Ring{}
	for _, d := range [][2]float64{{1.3, 0}, {0.65, 1}, {-0.65, 1}, {-1.3, 0}, {-0.65, -1}, {0.65, -1}} {
		ring = append(ring, orb.Point{c[0] + d[0]*r, c[1] + d[1]*r})
	}
	return append(ring, ring[0])
}

// areasOfGeometry makes Areas from a geometry through its GeoJSON, as a
// request gives them.
func areasOfGeometry(tb testing.TB, geom orb.Geometry) Areas {
	tb.Helper()
	b, err := geojson.NewGeometry(geom).MarshalJSON()
	if err != nil {
		tb.Fatal(err)
	}
	a, err := ParseAreas(b)
	if err != nil {
		tb.Fatalf("%s: %v", b, err)
	}
	return a
}

// meets is the tests' own segment test: whether a-b has a point in the
// polygons (orb/planar for its ends, a plain crossing test of every ring
// side), independent of routing/area.
func meets(mp orb.MultiPolygon, a, b orb.Point) bool {
	if planar.MultiPolygonContains(mp, a) || planar.MultiPolygonContains(mp, b) {
		return true
	}
	cross := func(p, q, r orb.Point) float64 { return (q[0]-p[0])*(r[1]-p[1]) - (q[1]-p[1])*(r[0]-p[0]) }
	for _, p := range mp {
		for _, r := range p {
			for i := 0; i+1 < len(r); i++ {
				c, d := r[i], r[i+1]
				d1, d2, d3, d4 := cross(a, b, c), cross(a, b, d), cross(c, d, a), cross(c, d, b)
				if ((d1 > 0) != (d2 > 0) || d1 == 0 || d2 == 0) && ((d3 > 0) != (d4 > 0) || d3 == 0 || d4 == 0) {
					if (orb.MultiPoint{a, b}).Bound().Intersects((orb.MultiPoint{c, d}).Bound()) {
						return true
					}
				}
			}
		}
	}
	return false
}

// closedByScan returns, ascending, every road edge one of whose segments
// meets the polygons, by a scan of every edge of the graph.
func closedByScan(g *Graph, mp orb.MultiPolygon) []uint32 {
	var out []uint32
	bound := mp.Bound()
	for e := range g.edgeFrom {
		sh := g.edgeShape(uint32(e))
		if !orb.LineString(sh).Bound().Intersects(bound) {
			continue
		}
		for i := 0; i+1 < len(sh); i++ {
			if meets(mp, sh[i], sh[i+1]) {
				out = append(out, uint32(e))
				break
			}
		}
	}
	return out
}

// areaOracle is an independent Dijkstra for a metric with areas: the
// pair weights of the same metric without areas, with every turn into a
// node of a closed edge removed and points' phantoms on those nodes
// dropped.
type areaOracle struct {
	g      *Graph
	plain  *customMetric
	closed []bool // per node
	w      []cch.Weight
}

func newAreaOracle(t *testing.T, g *Graph, spec Metric) *areaOracle {
	t.Helper()
	plainSpec := spec
	plainSpec.Areas = Areas{}
	plain := g.compileMetric(plainSpec, defaultMetricTables())
	o := &areaOracle{g: g, plain: plain, closed: make([]bool, len(g.base.nodeEdge)), w: slices.Clone(plain.weights)}
	for _, e := range closedByScan(g, spec.Areas.MultiPolygon()) {
		for dir := uint32(0); dir < 2; dir++ {
			if n := g.edgeNode[directedID(e, dir)]; n >= 0 {
				o.closed[n] = true
			}
		}
	}
	for i, h := range g.base.turnHead {
		if o.closed[h] {
			o.w[i] = cch.Inf
		}
	}
	return o
}

func (o *areaOracle) phantoms(s Snap) []cchPhantom {
	var out []cchPhantom
	for _, p := range customPhantoms(o.g, o.plain, s) {
		if !o.closed[p.node] {
			out = append(out, p)
		}
	}
	return out
}

func (o *areaOracle) row(s Snap, dst []Snap) []cch.Weight {
	return pairOracleRow(o.g, o.w, o.plain.nodeW, o.phantoms, s, dst)
}

// TestAreasAroundBridge routes from Tybouts Corner to Odessa across the
// canal with and without an area around the Roth Bridge (and, in one
// case, the St. Georges Bridge too): without it the route crosses the
// bridge; with it no segment of the route meets the area, the closed
// edges are those a scan of every edge finds, and the route's weight,
// seconds and metres are those of an independent Dijkstra without the
// closed edges.
func TestAreasAroundBridge(t *testing.T) {
	g := testGraph(t, "delaware")
	roth := orb.Polygon{hexagon(rothBridge, 0.002)}
	both := orb.Polygon{box(orb.Point{-75.6525, 39.5503}, 0.0075, 0.0025)}
	cases := []struct {
		name      string
		objective Objective
		avoid     Avoid
		area      orb.Polygon
		wantRoth  bool // the route without the area crosses it
	}{
		{"fastest, Roth Bridge", ObjectiveFastest, 0, roth, true},
		{"shortest, Roth Bridge", ObjectiveShortest, 0, roth, false},
		{"efficient avoiding tolls, Roth Bridge", ObjectiveEfficient, AvoidToll, roth, false},
		{"fastest, both bridges", ObjectiveFastest, 0, both, true},
		{"safest, both bridges", ObjectiveSafest, 0, both, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := Metric{Objective: c.objective, Avoid: c.avoid}
			spec := base
			spec.Areas = areasOfGeometry(t, c.area)
			mp := spec.Areas.MultiPolygon()
			from, to := g.Snap(spec, tybouts, 0), g.Snap(spec, odessa, 0)
			r0, err := g.Route(bg, base, g.Snap(base, tybouts, 0), g.Snap(base, odessa, 0))
			if err != nil {
				t.Fatal(err)
			}
			if through := routeMeets(mp, r0.Geometry); c.wantRoth && !through {
				t.Fatalf("the route without the area does not cross it: the test's bridge moved")
			}
			r, err := g.Route(bg, spec, from, to)
			if err != nil {
				t.Fatal(err)
			}
			if routeMeets(mp, r.Geometry) {
				t.Fatalf("the route with the area enters it")
			}
			alts, err := g.Alternatives(bg, spec, from, to, 3)
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range alts {
				if routeMeets(mp, a.Geometry) {
					t.Fatalf("alternative %d enters the area", i)
				}
			}
			cm, err := g.customMetric(bg, spec)
			if err != nil {
				t.Fatal(err)
			}
			if want := closedByScan(g, mp); !slices.Equal(cm.areas.edges, want) {
				t.Fatalf("closed edges %v, a scan finds %v", cm.areas.edges, want)
			}
			if !slices.Contains(cm.areas.edges, 50088) || !slices.Contains(cm.areas.edges, 50089) {
				t.Fatalf("the Roth Bridge's edges are not closed: %v", cm.areas.edges)
			}
			o := newAreaOracle(t, g, spec)
			want := o.row(from, []Snap{to})[0]
			if got := cm.weightOf(from, to); got != want {
				t.Fatalf("weight %v, dijkstra without the closed edges %v", got, want)
			}
			d, m := toUnits(chFastest, want.S)
			if r.DurationS != int(d) || r.DistanceM != int(m) {
				t.Fatalf("route %d s %d m, dijkstra %d s %d m", r.DurationS, r.DistanceM, d, m)
			}
			if r.DurationS < r0.DurationS && c.objective == ObjectiveFastest {
				t.Fatalf("the detour (%d s) is faster than the route (%d s)", r.DurationS, r0.DurationS)
			}
			t.Logf("%d edges closed in %v; route %d s %d m, without the area %d s %d m",
				len(cm.areas.edges), cm.areas.took, r.DurationS, r.DistanceM, r0.DurationS, r0.DistanceM)
		})
	}
}

// routeMeets reports whether a route's geometry meets the polygons.
func routeMeets(mp orb.MultiPolygon, line []orb.Point) bool {
	for i := 0; i+1 < len(line); i++ {
		if meets(mp, line[i], line[i+1]) {
			return true
		}
	}
	return len(line) == 1 && meets(mp, line[0], line[0])
}

// TestAreasMatrixMatchesDijkstra: a 20 x 100 matrix with three areas (one
// with a hole) equals the independent Dijkstra in every cell.
func TestAreasMatrixMatchesDijkstra(t *testing.T) {
	g := testGraph(t, "delaware")
	mp := orb.MultiPolygon{
		{hexagon(rothBridge, 0.002)},
		{box(dover, 0.03, 0.02), box(dover, 0.01, 0.008)},
		{hexagon(orb.Point{-75.55, 39.74}, 0.01)}, // Wilmington
	}
	for _, base := range []Metric{Fastest, {Objective: ObjectiveShortest, Avoid: AvoidMotorway}} {
		spec := base
		spec.Areas = areasOfGeometry(t, mp)
		t.Run(base.String(), func(t *testing.T) {
			pts := roadPoints(g, 120, 7, 15)
			snaps := make([]Snap, len(pts))
			for i, p := range pts {
				snaps[i] = g.Snap(spec, p.Input, 0)
			}
			src, dst := snaps[:20], snaps[20:]
			tab, err := g.Matrix(bg, spec, src, dst)
			if err != nil {
				t.Fatal(err)
			}
			cm, err := g.customMetric(bg, spec)
			if err != nil {
				t.Fatal(err)
			}
			o := newAreaOracle(t, g, spec)
			rows := make([][]cch.Weight, len(src))
			for i, s := range src {
				rows[i] = o.row(s, dst)
			}
			routes := checkTableAgainstRows(t, cm, tab, src, dst, rows)
			t.Logf("%d of %d cells routed; %d edges closed in %v", routes, len(src)*len(dst), len(cm.areas.edges), cm.areas.took)
		})
	}
}

// TestAreasHole: roads inside a hole stay open (and are routable between
// points in the hole), roads of the ring around it close; without the
// hole the same points snap out of the area or not at all.
func TestAreasHole(t *testing.T) {
	g := testGraph(t, "delaware")
	outer, hole := box(dover, 0.03, 0.02), box(dover, 0.01, 0.008)
	withHole := Metric{Areas: areasOfGeometry(t, orb.Polygon{outer, hole})}
	solid := Metric{Areas: areasOfGeometry(t, orb.Polygon{outer})}
	cm, err := g.customMetric(bg, withHole)
	if err != nil {
		t.Fatal(err)
	}
	holePoly := orb.Polygon{hole}
	inHole, closedInHole := 0, 0
	for e := range g.edgeFrom {
		sh := g.edgeShape(uint32(e))
		all := true
		for _, p := range sh {
			all = all && planar.PolygonContains(holePoly, p) && !meets(orb.MultiPolygon{{outer, hole}}, p, p)
		}
		if !all || len(sh) < 2 {
			continue
		}
		inHole++
		if _, found := slices.BinarySearch(cm.areas.edges, uint32(e)); found {
			closedInHole++
		}
	}
	if inHole < 50 || closedInHole != 0 {
		t.Fatalf("%d edges lie in the hole, %d of them closed", inHole, closedInHole)
	}
	a := g.Snap(withHole, orb.Point{-75.5290, 39.1555}, 0)
	b := g.Snap(withHole, orb.Point{-75.5200, 39.1610}, 0)
	for _, s := range []Snap{a, b} {
		if !s.OK || !planar.PolygonContains(holePoly, s.Point) || s.DistanceM > 200 {
			t.Fatalf("a point in the hole snaps to %+v", s)
		}
	}
	r, err := g.Route(bg, withHole, a, b)
	if err != nil {
		t.Fatal(err)
	}
	mp := withHole.Areas.MultiPolygon()
	if routeMeets(mp, r.Geometry) {
		t.Fatal("the route in the hole leaves it")
	}
	want := newAreaOracle(t, g, withHole).row(a, []Snap{b})[0]
	if got := cm.weightOf(a, b); got != want {
		t.Fatalf("weight %v, dijkstra %v", got, want)
	}
	// Without the hole, the hole's points are about 2 km inside the area:
	// no road within 500 m is open.
	for _, p := range []orb.Point{a.Input, b.Input} {
		if s := g.Snap(solid, p, 500); s.OK {
			t.Fatalf("%v snaps to %+v inside a solid area", p, s)
		}
	}
}

// TestAreasSnapInside: a point inside an area snaps to the nearest open
// road within the radius, outside the area; with none, it is not snapped
// and has no route (ErrNotSnapped) and null cells.
func TestAreasSnapInside(t *testing.T) {
	g := testGraph(t, "delaware")
	spec := Metric{Areas: areasOfGeometry(t, orb.Polygon{hexagon(rothBridge, 0.002)})}
	mp := spec.Areas.MultiPolygon()
	plain := g.Snap(Fastest, rothBridge, 0)
	s := g.Snap(spec, rothBridge, 0)
	if !plain.OK || plain.Edge != 50088 && plain.Edge != 50089 {
		t.Fatalf("the bridge's point snaps to %+v without the area", plain)
	}
	if !s.OK || s.DistanceM <= plain.DistanceM || planar.MultiPolygonContains(mp, s.Point) {
		t.Fatalf("the bridge's point snaps to %+v with the area", s)
	}
	big := Metric{Areas: areasOfGeometry(t, orb.Polygon{box(rothBridge, 0.05, 0.04)})}
	n := g.Snap(big, rothBridge, 0)
	if n.OK {
		t.Fatalf("a point 3 km inside the area snaps to %+v", n)
	}
	to := g.Snap(big, middletown, 0)
	if _, err := g.Route(bg, big, n, to); !errors.Is(err, ErrNotSnapped) {
		t.Fatalf("route from an unsnapped point: %v", err)
	}
	tab, err := g.Matrix(bg, big, []Snap{n, to}, []Snap{to})
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := tab.At(0, 0); d != NoRoute {
		t.Fatalf("cell from an unsnapped point: %d", d)
	}
}

// TestAreasKey: a metric with areas round-trips through String and
// ParseMetric, its key is canonical (the same polygons drawn otherwise
// give it), the cache customizes it once, and bad keys are SpecErrors of
// avoid_polygons.
func TestAreasKey(t *testing.T) {
	hex := hexagon(rothBridge, 0.002)
	m := Metric{Objective: ObjectiveEfficient, Avoid: AvoidToll, Areas: areasOfGeometry(t, orb.MultiPolygon{{hex}, {box(dover, 0.03, 0.02), box(dover, 0.01, 0.008)}})}
	m.Speeds[1] = 80
	key := m.String()
	back, err := ParseMetric(key)
	if err != nil || back != m || back.String() != key {
		t.Fatalf("%s: %v %v", key, back, err)
	}
	if want := "efficient;speeds=Motorway:80;avoid=toll;areas="; key[:len(want)] != want {
		t.Fatalf("key %s", key)
	}
	// Clockwise, from another corner, the polygons the other way round.
	rev := slices.Clone(hex[1:])
	slices.Reverse(rev)
	rev = append(rev, rev[0])
	other := m
	other.Areas = areasOfGeometry(t, orb.MultiPolygon{{box(dover, 0.03, 0.02), box(dover, 0.01, 0.008)}, {rev}})
	if other != m || other.String() != key || keyOf(other) != keyOf(m) {
		t.Fatalf("the same polygons give another key:\n%s\n%s", other, key)
	}
	if (Metric{Areas: m.Areas}).String() == "fastest" {
		t.Fatal("areas left out of the key")
	}
	if _, ok := (Metric{Areas: m.Areas}).hierarchy(); ok {
		t.Fatal("a metric with areas is served by a hierarchy")
	}
	for _, bad := range []string{"fastest;areas=", "fastest;areas=AQ", "fastest;areas=" + key[len(key)-8:]} {
		_, err := ParseMetric(bad)
		var se *SpecError
		if !errors.As(err, &se) || se.Field[:len(areasField)] != areasField {
			t.Errorf("ParseMetric(%q): %v", bad, err)
		}
	}
	_, err = ParseAreas([]byte(`{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}`))
	var se *SpecError
	if !errors.As(err, &se) || se.Field != "avoid_polygons.coordinates[0]" {
		t.Fatalf("ParseAreas: %v", err)
	}
	g := testGraph(t, "delaware")
	_, _, before := g.MetricCacheStats()
	for _, spec := range []Metric{m, other, m} {
		if _, err := g.customMetric(bg, spec); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, after := g.MetricCacheStats(); after != before+1 {
		t.Fatalf("%d customizations for one metric", after-before)
	}
}

// checkTableAgainstRows checks, for every cell, the custom metric's
// pair weight, and the table's seconds and metres, against rows (an
// oracle's weights, rows[i][j] from src[i] to dst[j]), and that at least
// half the cells are routed; it returns the routed cells.
func checkTableAgainstRows(t *testing.T, cm *customMetric, tab Table, src, dst []Snap, rows [][]cch.Weight) int {
	t.Helper()
	routes := 0
	for i, s := range src {
		for j, want := range rows[i] {
			if got := cm.weightOf(s, dst[j]); got != want {
				t.Fatalf("pair %d,%d: %v, dijkstra %v", i, j, got, want)
			}
			d, m := tab.At(i, j)
			if want.IsInf() {
				if d != NoRoute {
					t.Fatalf("cell %d,%d: %d s, dijkstra: no route", i, j, d)
				}
				continue
			}
			routes++
			if wd, wm := toUnits(chFastest, want.S); d != wd || m != wm {
				t.Fatalf("cell %d,%d: %d s %d m, dijkstra %d s %d m", i, j, d, m, wd, wm)
			}
		}
	}
	if routes < len(src)*len(dst)/2 {
		t.Fatalf("only %d routes", routes)
	}
	return routes
}
