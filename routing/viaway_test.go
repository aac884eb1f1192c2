package routing

import (
	"path/filepath"
	"testing"

	"github.com/geosvc/geosvc/routing/ch"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/paulmach/orb"
)

// viaWayGraphs returns the engine's graph of an OSM file and the state
// oracle over a graph of the same file built without via-way
// restrictions.
func viaWayGraphs(t testing.TB, path string) (*Graph, *stateOracle) {
	t.Helper()
	prof := carProfile(t)
	net, err := osmroad.Read(path, prof)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := Build(net, prof)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := osmroad.Read(path, prof)
	if err != nil {
		t.Fatal(err)
	}
	// A query without a time sees conditional restrictions as not in
	// force, but for those closed without a time.
	var rs []osmroad.WayRestriction
	for _, r := range plain.WayRestrictions {
		if r.Cond == nil || r.Cond.NoTime {
			rs = append(rs, r)
		}
	}
	plain.WayRestrictions = nil
	g0, _, err := Build(plain, prof)
	if err != nil {
		t.Fatal(err)
	}
	return g, newStateOracle(g0, rs)
}

// TestViaWayFixtureRoutes routes over the via-way fixtures of testdata,
// whose comments work out the legal shortest routes by hand (a step of
// the grid is 111.195 m): the engine's shortest route has that length,
// its fastest, shortest and custom (CCH) routes and table cells equal the
// state oracle's, and no route drives a restricted sequence.
func TestViaWayFixtureRoutes(t *testing.T) {
	cases := []struct {
		fixture  string
		from, to int64 // OSM node ids
		wantM    int
		copies   int // node copies the fixture's restrictions make
	}{
		{"via_way_no", 5, 6, 778, 1},       // S -> T round the banned right turn
		{"via_way_no", 1, 6, 556, 1},       // W -> T: not from South Street
		{"via_way_no", 5, 4, 556, 1},       // S -> E: straight on is allowed
		{"via_way_no", 5, 9, 167, 1},       // S -> Z: a destination on the via path
		{"via_way_no", 6, 5, 334, 1},       // T -> S: the other direction
		{"via_way_only", 5, 6, 778, 1},     // S -> T: only straight on
		{"via_way_only", 5, 16, 556, 1},    // S -> M: not left after the via way
		{"via_way_only", 5, 4, 556, 1},     // S -> E: the allowed way
		{"via_way_only", 1, 16, 556, 1},    // W -> M: not from South Street
		{"via_way_two", 5, 6, 778, 2},      // S -> T over two via ways
		{"via_way_two", 1, 6, 556, 2},      // W -> T
		{"via_way_two", 5, 9, 167, 2},      // S -> Z, between the via ways
		{"via_way_two", 5, 4, 556, 2},      // S -> E
		{"via_way_froms", 5, 6, 778, 2},    // S -> T: from South Street
		{"via_way_froms", 1, 6, 1001, 2},   // W -> T: from West Street too
		{"via_way_froms", 5, 4, 556, 2},    // S -> E
		{"via_way_tos", 5, 6, 778, 1},      // S -> T: into Turn Street
		{"via_way_tos", 5, 4, 1001, 1},     // S -> E: into East Street too
		{"via_way_tos", 1, 6, 556, 1},      // W -> T
		{"via_way_vehicles", 1, 6, 556, 2}, // except=motorcar: not for cars
		{"via_way_vehicles", 5, 4, 556, 2}, // restriction:hgv: not for cars
		{"via_way_vehicles", 5, 6, 778, 2}, // restriction:motorcar: for cars
		{"via_way_vehicles", 1, 4, 778, 2}, // restriction:conditional: copied, open without a time
	}
	type pair struct {
		g *Graph
		o *stateOracle
	}
	built := map[string]pair{}
	custom := Metric{Objective: ObjectiveFastest, Avoid: AvoidFerry} // the CCH, fastest's weights
	for _, tc := range cases {
		path := filepath.Join("testdata", tc.fixture+".osm")
		p, ok := built[tc.fixture]
		if !ok {
			g, o := viaWayGraphs(t, path)
			p = pair{g, o}
			built[tc.fixture] = p
			if g.Meta().Copies != tc.copies {
				t.Errorf("%s: %d node copies, want %d", tc.fixture, g.Meta().Copies, tc.copies)
			}
		}
		g, o := p.g, p.o
		nodes := fixtureNodes(t, path)
		from, to := g.Snap(Fastest, nodes[tc.from], 0), g.Snap(Fastest, nodes[tc.to], 0)
		name := func(m Metric) string { return tc.fixture + " " + m.String() }
		for _, m := range []Metric{Fastest, Shortest, custom} {
			r, err := g.Route(bg, m, from, to)
			if err != nil {
				t.Fatalf("%s %d->%d: %v", name(m), tc.from, tc.to, err)
			}
			if r.DistanceM != tc.wantM {
				t.Errorf("%s %d->%d: %d m, want %d m", name(m), tc.from, tc.to, r.DistanceM, tc.wantM)
			}
			cell := matrixOf(t, g, m, []Snap{from}, []Snap{to})
			if d, dist := cell.At(0, 0); int(d) != r.DurationS || int(dist) != r.DistanceM {
				t.Errorf("%s %d->%d: table %d s %d m, route %d s %d m", name(m), tc.from, tc.to, d, dist, r.DurationS, r.DistanceM)
			}
			h := chFastest
			if m == Shortest {
				h = chShortest
			}
			w := o.row(h, from, []Snap{to})[0]
			if w == ch.Inf {
				t.Fatalf("%s %d->%d: the oracle finds no route", name(m), tc.from, tc.to)
			}
			if s, dm := toUnits(h, w); int(s) != r.DurationS || int(dm) != r.DistanceM {
				t.Errorf("%s %d->%d: route %d s %d m, oracle %d s %d m", name(m), tc.from, tc.to, r.DurationS, r.DistanceM, s, dm)
			}
			if m != custom {
				if v := o.violation(g, enginePath(g, h, from, to)); v != "" {
					t.Errorf("%s %d->%d: the route breaks a restriction: %s", name(m), tc.from, tc.to, v)
				}
			}
		}
	}
}

// TestViaWayCopiesNotSnapped: snapping never lands on a copy, every copy
// stands for a usable original on the same directed edge, and the
// description of a route through copies names the original roads.
func TestViaWayCopiesNotSnapped(t *testing.T) {
	path := filepath.Join("testdata", "via_way_no.osm")
	g, _ := viaWayGraphs(t, path)
	n := len(g.base.nodeEdge)
	first := n - g.Meta().Copies
	for c := first; c < n; c++ {
		o := g.origNode(uint32(c))
		if int(o) >= first || g.base.nodeEdge[o] != g.base.nodeEdge[c] || g.base.nodeTime[o] != g.base.nodeTime[c] || g.base.nodeDist[o] != g.base.nodeDist[c] {
			t.Errorf("copy %d: original %d differs", c, o)
		}
	}
	for id, v := range g.edgeNode {
		if int(v) >= first {
			t.Errorf("directed edge %d maps to copy %d", id, v)
		}
	}
	nodes := fixtureNodes(t, path)
	from, to := g.Snap(Fastest, nodes[5], 0), g.Snap(Fastest, nodes[4], 0)
	r, err := g.Route(bg, Fastest, from, to)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range r.Segments {
		if len(names) == 0 || names[len(names)-1] != s.Name {
			names = append(names, s.Name)
		}
	}
	if want := []string{"South Street", "Via Street", "East Street"}; len(names) != len(want) || names[0] != want[0] || names[1] != want[1] || names[2] != want[2] {
		t.Errorf("S -> E names %v, want %v", names, want)
	}
	if g := r.Geometry; len(g) < 2 || g[0] != nodes[5] || g[len(g)-1] != nodes[4] {
		t.Errorf("S -> E geometry %v", g)
	}
}

// TestViaWayDelaware judges the engine on Delaware's via-way
// restrictions: from a point on each restriction's from edge to points
// on its to edges, its last via edge and a few points beyond, the
// engine's fastest and shortest routes and table cells cost what the
// state oracle says and never drive a restricted sequence; some of the
// pairs' unrestricted shortest paths do.
func TestViaWayDelaware(t *testing.T) {
	if testing.Short() {
		t.Skip("real extracts are slow; -short skips them")
	}
	path := extractPath(t, "delaware")
	g, o := viaWayGraphs(t, path)
	if len(o.rs) < 5 {
		t.Fatalf("%d via-way restriction paths in Delaware, want at least 5", len(o.rs))
	}
	mid := func(n uint32) Snap {
		e := g.base.nodeEdge[n] / 2
		p := cutLine(g.edgeShape(e), g.edgeLen[e], 0.5, 0.5)[0]
		return g.Snap(Fastest, p, 0)
	}
	extra := roadPoints(g, 20, 77, 0)
	pairs, restricted := 0, 0
	for ri, r := range o.rs {
		src := mid(r.path[0])
		var dst []Snap
		dst = append(dst, mid(r.path[len(r.path)-1]))
		for to := range r.to {
			dst = append(dst, mid(to))
		}
		dst = append(dst, extra[ri%len(extra)], extra[(ri+7)%len(extra)])
		for _, h := range []chMetric{chFastest, chShortest} {
			m := Fastest
			if h == chShortest {
				m = Shortest
			}
			want := o.row(h, src, dst)
			tab := matrixOf(t, g, m, []Snap{src}, dst)
			for j, d := range dst {
				pairs++
				if plain := o.plainPath(h, src, d); plain != nil && o.restricts(plain) {
					restricted++
				}
				ws, wm := int32(NoRoute), int32(NoRoute)
				if want[j] != ch.Inf {
					ws, wm = toUnits(h, want[j])
				}
				if s, dm := tab.At(0, j); s != ws || dm != wm {
					t.Errorf("restriction %d %s to %d: table %d s %d m, oracle %d s %d m", ri, m, j, s, dm, ws, wm)
				}
				if want[j] == ch.Inf {
					continue
				}
				r, err := g.Route(bg, m, src, d)
				if err != nil {
					t.Errorf("restriction %d %s to %d: %v", ri, m, j, err)
					continue
				}
				if int32(r.DurationS) != ws || int32(r.DistanceM) != wm {
					t.Errorf("restriction %d %s to %d: route %d s %d m, oracle %d s %d m", ri, m, j, r.DurationS, r.DistanceM, ws, wm)
				}
				if v := o.violation(g, enginePath(g, h, src, d)); v != "" {
					t.Errorf("restriction %d %s to %d: the route breaks a restriction: %s", ri, m, j, v)
				}
			}
		}
	}
	t.Logf("%d via-way restriction paths, %d pairs, %d of them with an unrestricted shortest path that drives a restricted sequence", len(o.rs), pairs, restricted)
	if restricted < 3 {
		t.Errorf("only %d pairs whose unrestricted shortest path drives a restricted sequence, want at least 3", restricted)
	}
}

// TestViaWayCopiesClosedByAreas: an avoided area closes the copies of
// the road directions it closes too, so no route escapes the area
// through a via-way restriction's copy.
func TestViaWayCopiesClosedByAreas(t *testing.T) {
	path := filepath.Join("testdata", "via_way_no.osm")
	g, _ := viaWayGraphs(t, path)
	n := len(g.base.nodeEdge)
	first := n - g.Meta().Copies
	if first == n {
		t.Fatal("the fixture has no copies")
	}
	// An area around the middle of the first copy's road.
	e := g.base.nodeEdge[first] / 2
	shape := g.edgeShape(e)
	mid := shape[len(shape)/2]
	if len(shape) == 2 {
		mid = orb.Point{(shape[0][0] + shape[1][0]) / 2, (shape[0][1] + shape[1][1]) / 2}
	}
	m := Metric{Areas: areasOfGeometry(t, orb.Polygon{box(mid, 0.0002, 0.0002)})}
	usable, closure := g.usableNodes(m)
	closedEdge := map[uint32]bool{}
	for _, c := range closure.edges {
		closedEdge[c] = true
	}
	if !closedEdge[e] {
		t.Fatalf("the area around %v does not close edge %d", mid, e)
	}
	closedCopies := 0
	for v := range usable {
		if closedEdge[g.base.nodeEdge[v]/2] {
			if usable[v] {
				t.Errorf("node %d of closed edge %d is usable", v, g.base.nodeEdge[v]/2)
			}
			if v >= first {
				closedCopies++
			}
		}
	}
	if closedCopies == 0 {
		t.Error("no copy of the closed edge was closed")
	}
}
