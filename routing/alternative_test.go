package routing

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/geosvc/geosvc/routing/cch"
	"github.com/geosvc/geosvc/routing/ch"
	"github.com/geosvc/geosvc/routing/osmroad"
)

// The alternative routes against an independent judge: a plain Dijkstra
// on the uncontracted edge-based graph gives the best route and the
// shortest paths of the T-test; sharing, stretch and the pieces of the
// T-test are worked out here from the graph's arrays, not by the code
// under test.

// oracle is a node-to-node Dijkstra with parents on the edge-based graph,
// with a reusable workspace, for one metric: turnW[i] is the packed
// weight of turn arc i with the traversal of its head, nodeW[n] that of
// node n, inits the endpoint labels of a snap, lane the metric's length
// of a packed weight.
type oracle struct {
	g       *Graph
	turnW   []int64
	nodeW   []int64
	inits   func(s Snap, source bool) map[uint32]int64
	lane    func(int64) int64
	dist    []int64
	parent  []int32
	touched []uint32
	heap    []oracleItem
}

func newOracle(g *Graph) *oracle {
	n := len(g.base.nodeEdge)
	o := &oracle{g: g, dist: make([]int64, n), parent: make([]int32, n)}
	for i := range o.dist {
		o.dist[i] = ch.Inf
	}
	return o
}

// metricOracle judges metric m of the hierarchies: time and distance
// packed as the hierarchies pack them.
func metricOracle(g *Graph, mt Metric) *oracle {
	m := chOf(mt)
	o := newOracle(g)
	b := &g.base
	o.turnW = make([]int64, len(b.turnHead))
	for i, h := range b.turnHead {
		o.turnW[i] = weight(m, int64(b.turnMS[i])+int64(b.nodeTime[h]), int64(b.nodeDist[h]))
	}
	o.nodeW = make([]int64, len(b.nodeEdge))
	for n := range o.nodeW {
		o.nodeW[n] = weight(m, int64(b.nodeTime[n]), int64(b.nodeDist[n]))
	}
	o.inits = func(s Snap, source bool) map[uint32]int64 {
		var ph [2]phantom
		out := map[uint32]int64{}
		ps := g.phantoms(m, s, ph[:0])
		if !source {
			ps = g.withCopies(ps)
		}
		for _, p := range ps {
			if source {
				out[p.node] = o.nodeW[p.node] - p.partial
			} else {
				out[p.node] = p.partial - o.nodeW[p.node]
			}
		}
		return out
	}
	o.lane = func(x int64) int64 { return (x + 1<<31) >> 32 }
	return o
}

// cchOracle judges a CCH test metric on its W lane alone.
func cchOracle(g *Graph, cm cchMetric) *oracle {
	o := newOracle(g)
	b := &g.base
	o.turnW = make([]int64, len(b.turnHead))
	for i, h := range b.turnHead {
		o.turnW[i] = (cm.turnW[i] + cm.nodeW[h]) << 32
		if cm.avoid != nil && cm.avoid[i] {
			o.turnW[i] = ch.Inf
		}
	}
	o.nodeW = make([]int64, len(b.nodeEdge))
	for n := range o.nodeW {
		o.nodeW[n] = cm.nodeW[n] << 32
	}
	o.inits = func(s Snap, source bool) map[uint32]int64 {
		out := map[uint32]int64{}
		for _, p := range cm.phantoms(g, s) {
			d := p.whole.W - p.partial.W
			if !source {
				d = -d
			}
			out[p.node] = d << 32
		}
		return out
	}
	o.lane = func(x int64) int64 { return x >> 32 }
	return o
}

// arc is the packed weight of the cheapest turn a->b plus b's traversal,
// or Inf when there is no turn a->b.
func (o *oracle) arc(a, b uint32) int64 {
	bs := &o.g.base
	best := ch.Inf
	for i := bs.turnFirst[a]; i < bs.turnFirst[a+1]; i++ {
		if bs.turnHead[i] == b && o.turnW[i] < best {
			best = o.turnW[i]
		}
	}
	return best
}

// run labels nodes with the least weight to their end from the seeds
// (node, initial label) until every node of stop is settled (all nodes
// when stop is empty). It returns the labels, valid until the next run.
func (o *oracle) run(seeds map[uint32]int64, stop []uint32) []int64 {
	for _, v := range o.touched {
		o.dist[v] = ch.Inf
	}
	o.touched = o.touched[:0]
	bs := &o.g.base
	h := o.heap[:0]
	for v, d := range seeds {
		o.dist[v], o.parent[v] = d, -1
		o.touched = append(o.touched, v)
		h = pushItem(h, oracleItem{v, d})
	}
	defer func() { o.heap = h[:0] }()
	left := map[uint32]bool{}
	for _, v := range stop {
		left[v] = true
	}
	for len(h) > 0 {
		var it oracleItem
		h, it = popItem(h)
		if it.d > o.dist[it.node] {
			continue
		}
		if len(stop) > 0 {
			delete(left, it.node)
			if len(left) == 0 {
				break
			}
		}
		for i := bs.turnFirst[it.node]; i < bs.turnFirst[it.node+1]; i++ {
			v := bs.turnHead[i]
			if o.turnW[i] == ch.Inf {
				continue
			}
			nd := it.d + o.turnW[i]
			if nd < o.dist[v] {
				if o.dist[v] == ch.Inf {
					o.touched = append(o.touched, v)
				}
				o.dist[v], o.parent[v] = nd, int32(it.node)
				h = pushItem(h, oracleItem{v, nd})
			}
		}
	}
	return o.dist
}

// pushItem and popItem keep a binary min-heap of items by weight.
func pushItem(h []oracleItem, it oracleItem) []oracleItem {
	h = append(h, it)
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if h[p].d <= h[i].d {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
	return h
}

func popItem(h []oracleItem) ([]oracleItem, oracleItem) {
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && h[c+1].d < h[c].d {
			c++
		}
		if h[i].d <= h[c].d {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	return h, top
}

// best returns the best route between two snaps whose phantoms lie on
// different nodes: its weight and nodes.
func (o *oracle) best(from, to Snap) (int64, []uint32) {
	seeds := o.inits(from, true)
	tinit := o.inits(to, false)
	var ends []uint32
	for n := range tinit {
		ends = append(ends, n)
	}
	dist := o.run(seeds, ends)
	bestW, bestEnd := ch.Inf, uint32(0)
	for _, e := range ends {
		if dist[e] != ch.Inf && dist[e]+tinit[e] < bestW {
			bestW, bestEnd = dist[e]+tinit[e], e
		}
	}
	if bestW == ch.Inf {
		return bestW, nil
	}
	var rev []uint32
	for v := int32(bestEnd); v >= 0; v = o.parent[v] {
		rev = append(rev, uint32(v))
	}
	path := make([]uint32, len(rev))
	for i := range rev {
		path[i] = rev[len(rev)-1-i]
	}
	return bestW, path
}

// nodeToNode is the least weight from the end of a to the end of b.
func (o *oracle) nodeToNode(a, b uint32) int64 {
	if a == b {
		return 0
	}
	return o.run(map[uint32]int64{a: 0}, []uint32{b})[b]
}

// judge checks route alt (index i >= 1 of routes) from scratch: a path of
// the graph from a source phantom to a target phantom, of the weight
// reported, within the stretch, sharing with the best route (the
// oracle's, opt) and the earlier alternatives at most the share allowed,
// and passing the T-test around its via node.
func judge(t *testing.T, o *oracle, from, to Snap, optW int64, opt []uint32, routes []altRoute, i int) {
	t.Helper()
	alt := routes[i]
	p := alt.nodes
	srcInit, tgtInit := o.inits(from, true), o.inits(to, false)
	si, ok1 := srcInit[p[0]]
	ti, ok2 := tgtInit[p[len(p)-1]]
	if !ok1 || !ok2 {
		t.Fatalf("alternative %d does not run from a source phantom to a target phantom", i)
	}
	// Weight and the T-test's positions, from the arrays.
	w := si + ti
	pos := make([]int64, len(p))
	for k := 1; k < len(p); k++ {
		a := o.arc(p[k-1], p[k])
		if a == ch.Inf {
			t.Fatalf("alternative %d: no turn %d->%d", i, p[k-1], p[k])
		}
		w += a
		pos[k] = pos[k-1] + o.lane(a)
	}
	lane := o.lane
	optP, altP := lane(optW), lane(w)
	if altP != alt.length {
		t.Fatalf("alternative %d: length %d, the path is %d long", i, alt.length, altP)
	}
	if altP < optP {
		t.Fatalf("alternative %d (%d) beats the best route (%d)", i, altP, optP)
	}
	if altP*100 > optP*125 {
		t.Errorf("alternative %d: stretch %d / %d > 1.25", i, altP, optP)
	}
	// Sharing with the best route and the alternatives before it.
	on := map[uint32]bool{}
	for _, n := range opt {
		on[n] = true
	}
	for _, r := range routes[1:i] {
		for _, n := range r.nodes {
			on[n] = true
		}
	}
	var shared int64
	last := len(p) - 1
	for k, n := range p {
		if !on[n] {
			continue
		}
		full := o.nodeW[n]
		s := full
		switch {
		case last == 0:
			s = si + ti
		case k == 0:
			s = si
		case k == last:
			s = full + ti
		}
		shared += lane(s)
	}
	if shared*100 > optP*75 {
		t.Errorf("alternative %d shares %d of the best route's %d (> 75 %%)", i, shared, optP)
	}
	// T-test: the points T before and after the middle of the via
	// node, clamped to the route's ends, lie on nodes a and b; from the
	// end of a to the end of b the route must be a shortest path.
	v := alt.via
	if v < 0 || v >= len(p) {
		t.Fatalf("alternative %d: via index %d of %d nodes", i, v, len(p))
	}
	lo, hi := int64(0), lane(si)+pos[last]+lane(ti) // node v's span
	if v > 0 {
		lo = lane(si) + pos[v-1]
	}
	if v < last {
		hi = lane(si) + pos[v]
	}
	// In quarters: the via node's middle is 2(lo+hi), T is optP.
	endQ := func(k int) int64 {
		if k == last {
			return 4 * (lane(si) + pos[last] + lane(ti))
		}
		return 4 * (lane(si) + pos[k])
	}
	a := 0
	for a < last && endQ(a) < 2*(lo+hi)-optP {
		a++
	}
	b := 0
	for b < last && endQ(b) < 2*(lo+hi)+optP {
		b++
	}
	if a != b {
		if d := o.nodeToNode(p[a], p[b]); d == ch.Inf || lane(d) != pos[b]-pos[a] {
			t.Errorf("alternative %d fails the T-test: piece %d..%d weighs %d, shortest %d", i, a, b, pos[b]-pos[a], lane(d))
		}
	}
}

// checkAlternatives runs alternatives (k = 3) on the pairs and judges
// every alternative with the oracle; the first route must be the
// oracle's best, and a second route must exist for at least minShare of
// the pairs.
func checkAlternatives(t *testing.T, name string, o *oracle, src, dst []Snap, minShare float64, alts func(from, to Snap) ([]altRoute, error)) {
	t.Helper()
	found := [3]int{}
	pairs := 0
	for i := range src {
		from, to := src[i], dst[i]
		if from.Edge == to.Edge {
			continue
		}
		optW, opt := o.best(from, to)
		routes, err := alts(from, to)
		if optW == ch.Inf {
			if !errors.Is(err, ErrNoRoute) {
				t.Fatalf("%s pair %d: no route, got %v", name, i, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s pair %d: %v", name, i, err)
		}
		pairs++
		if routes[0].length != o.lane(optW) {
			t.Fatalf("%s pair %d: best %d, oracle %d", name, i, routes[0].length, o.lane(optW))
		}
		for k := 1; k < len(routes); k++ {
			judge(t, o, from, to, optW, opt, routes, k)
			if routes[k].length < routes[k-1].length {
				t.Errorf("%s pair %d: route %d shorter than route %d", name, i, k, k-1)
			}
		}
		for k := range routes {
			found[k]++
		}
	}
	t.Logf("%s: %d pairs, a 2nd route for %d, a 3rd for %d", name, pairs, found[1], found[2])
	if float64(found[1]) < minShare*float64(pairs) {
		t.Errorf("%s: a second route for only %d of %d pairs", name, found[1], pairs)
	}
}

// TestAlternativesDelaware: on 200 random pairs (the first 60 of them for
// the shortest metric, to keep the test short), every alternative of the
// hierarchies passes the judge.
func TestAlternativesDelaware(t *testing.T) {
	g := testGraph(t, "delaware")
	src := roadPoints(g, 200, 31, 0)
	dst := roadPoints(g, 200, 32, 0)
	for _, m := range []Metric{Fastest, Shortest} {
		n := len(src)
		if m == Shortest {
			n = 60
		}
		checkAlternatives(t, "ch/"+m.String(), metricOracle(g, m), src[:n], dst[:n], 0.25, func(from, to Snap) ([]altRoute, error) {
			return g.alternatives(chOf(m), from, to, 3)
		})
	}
}

// TestAlternativesSameRoad: start and end on one road, the end behind or
// ahead of the start: the first route is Route's, and alternatives are
// within the stretch.
func TestAlternativesSameRoad(t *testing.T) {
	g := testGraph(t, "delaware")
	for i, s := range roadPoints(g, 30, 51, 0) {
		for _, f := range []float64{s.Fraction * 0.5, s.Fraction + (1-s.Fraction)*0.5} {
			to := s
			to.Fraction = f
			for _, m := range []Metric{Fastest, Shortest} {
				want, err := g.Route(bg, m, s, to)
				if err != nil {
					t.Fatalf("%d: %v", i, err)
				}
				rs, err := g.Alternatives(bg, m, s, to, 3)
				if err != nil {
					t.Fatalf("%d: %v", i, err)
				}
				if rs[0].DurationS != want.DurationS || rs[0].DistanceM != want.DistanceM {
					t.Errorf("%d %s: best %d s %d m, Route %d s %d m", i, m, rs[0].DurationS, rs[0].DistanceM, want.DurationS, want.DistanceM)
				}
				for k, r := range rs[1:] {
					got, best := r.DurationS, want.DurationS
					if m == Shortest {
						got, best = r.DistanceM, want.DistanceM
					}
					if 4*got > 5*best+4 || got < best {
						t.Errorf("%d %s: alternative %d: %d against the best %d", i, m, k+1, got, best)
					}
				}
			}
		}
	}
}

// TestAlternativesCCHDelaware: the same on customized CCH metrics, the
// fastest and one of random speeds per road type.
func TestAlternativesCCHDelaware(t *testing.T) {
	g := testGraph(t, "delaware")
	top := testTopology(t, g)
	src := roadPoints(g, 200, 31, 0)
	dst := roadPoints(g, 200, 32, 0)
	for _, cm := range []cchMetric{fastestCCH(g), speedCCH(g, 5)} {
		w := cm.weights(g)
		mt, err := top.Customize(context.Background(), w, cch.Options{Workers: 2, Perfect: true})
		if err != nil {
			t.Fatal(err)
		}
		q, tq := mt.NewQuery(), mt.NewQuery()
		n := 40 // the hierarchies' test above takes the 200 pairs
		checkAlternatives(t, "cch/"+cm.name, cchOracle(g, cm), src[:n], dst[:n], 0.2, func(from, to Snap) ([]altRoute, error) {
			return g.cchAlternatives(q, tq, cm.nodeW, w, cm.endpoints(g, from, true), cm.endpoints(g, to, false), 3)
		})
	}
}

// TestAlternativesFixture: on the hand-made alternatives fixture, both
// metrics, on the hierarchies and on a customized CCH, give the best
// route along Main Street, then North Road, then South Road, with the
// fixture's hand-computed metres; the Bypass Lane (80 % shared), the Far
// Road (1.43 x), North Lane (1.28 x) and South Lane (1.36 x) are never
// alternatives.
func TestAlternativesFixture(t *testing.T) {
	prof := carProfile(t)
	path := filepath.Join("testdata", "alternatives.osm")
	net, err := osmroad.Read(path, prof)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := Build(net, prof)
	if err != nil {
		t.Fatal(err)
	}
	nodes := fixtureNodes(t, path)
	from, to := g.Snap(Fastest, nodes[1], 0), g.Snap(Fastest, nodes[6], 0)
	want := []struct {
		roads  []string
		metres int
	}{
		{[]string{"Lead Road", "Main Street", "Main Street", "Main Street", "Exit Road"}, 1112}, // 1111.951 m
		{[]string{"Lead Road", "North Road", "North Road", "North Road", "Exit Road"}, 1204},    // 1204.068 m
		{[]string{"Lead Road", "South Road", "South Road", "South Road", "Exit Road"}, 1291},    // 1290.480 m, 1290.6 in whole decimetres per edge
	}
	check := func(name string, routes []*Route) {
		t.Helper()
		if len(routes) != len(want) {
			t.Fatalf("%s: %d routes, want %d", name, len(routes), len(want))
		}
		for i, r := range routes {
			var roads []string
			var s float64
			for _, seg := range r.Segments {
				roads = append(roads, seg.Name)
				s += seg.DurationS
			}
			if !slices.Equal(roads, want[i].roads) || r.DistanceM != want[i].metres {
				t.Errorf("%s route %d: %v %d m, want %v %d m", name, i+1, roads, r.DistanceM, want[i].roads, want[i].metres)
			}
			if math.Abs(s-float64(r.DurationS)) > 0.5 {
				t.Errorf("%s route %d: %d s, its segments %.3f s", name, i+1, r.DurationS, s)
			}
			if i > 0 && r.DurationS < routes[i-1].DurationS && name != "ch/shortest" {
				t.Errorf("%s route %d: %d s, faster than route %d", name, i+1, r.DurationS, i)
			}
		}
	}
	for _, m := range []Metric{Fastest, Shortest} {
		routes, err := g.Alternatives(bg, m, from, to, 5)
		if err != nil {
			t.Fatal(err)
		}
		check("ch/"+m.String(), routes)
		for i := 1; i <= 2; i++ {
			r, err := g.Alternative(bg, m, from, to, i)
			if err != nil || r.DistanceM != want[i].metres {
				t.Errorf("ch/%s: Alternative(%d) = %v, %v; want %d m", m, i, r, err, want[i].metres)
			}
		}
		if _, err := g.Alternative(bg, m, from, to, 3); !errors.Is(err, ErrNoAlternative) {
			t.Errorf("ch/%s: a 4th route: %v, want ErrNoAlternative", m, err)
		}
	}
	// The same on a CCH customized for either metric.
	tails, coords := g.cchInput()
	heads := g.base.turnHead
	top, err := cch.Build(len(g.base.nodeEdge), tails, heads, coords, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, cm := range []cchMetric{fastestCCH(g), shortestCCH(g)} {
		w := cm.weights(g)
		mt, err := top.Customize(context.Background(), w, cch.Options{Perfect: true})
		if err != nil {
			t.Fatal(err)
		}
		alts, err := g.cchAlternatives(mt.NewQuery(), mt.NewQuery(), cm.nodeW, w, cm.endpoints(g, from, true), cm.endpoints(g, to, false), 5)
		if err != nil {
			t.Fatal(err)
		}
		check("cch/"+cm.name, g.altRoutes(from, to, alts))
	}
	// A customized metric of the graph (residential streets at 50 km/h
	// instead of 25): the same three routes, each faster than on the
	// profile's speeds, the best one Route's.
	ctx := context.Background()
	for _, base := range []string{"fastest", "shortest"} {
		spec, err := NewMetric(base, map[string]float64{"OtherRoadCity": 50}, nil)
		if err != nil {
			t.Fatal(err)
		}
		cm, err := g.metrics.get(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		routes, err := cm.alternatives(from, to, 5)
		if err != nil {
			t.Fatal(err)
		}
		check("custom/"+base, routes)
		t.Logf("custom/%s: %d s %d m, %d s %d m, %d s %d m", base, routes[0].DurationS, routes[0].DistanceM, routes[1].DurationS, routes[1].DistanceM, routes[2].DurationS, routes[2].DistanceM)
		def, err := g.Alternatives(bg, Fastest, from, to, 3)
		if err != nil {
			t.Fatal(err)
		}
		if best, err := g.Route(ctx, spec, from, to); err != nil || best.DurationS != routes[0].DurationS {
			t.Errorf("custom/%s: best route %d s, Route %v, %v", base, routes[0].DurationS, best, err)
		}
		for i, r := range routes {
			if r.DurationS >= def[i].DurationS {
				t.Errorf("custom/%s route %d: %d s at 50 km/h, %d s at 25", base, i+1, r.DurationS, def[i].DurationS)
			}
			if i > 0 {
				if a, err := g.Alternative(ctx, spec, from, to, i); err != nil || a.DistanceM != r.DistanceM || a.DurationS != r.DurationS {
					t.Errorf("custom/%s: Alternative(%d) = %v, %v", base, i, a, err)
				}
			}
		}
		if _, err := g.Alternative(ctx, spec, from, to, 3); !errors.Is(err, ErrNoAlternative) {
			t.Errorf("custom/%s: a 4th route: %v, want ErrNoAlternative", base, err)
		}
	}
}

// TestAlternativesMetrics: for the plain metrics and a customized one,
// the first route is Route's (same seconds and metres), every route runs
// from the snapped start to the snapped end, and the alternatives differ
// from the first and are no better than it on the metric.
func TestAlternativesMetrics(t *testing.T) {
	g := testGraph(t, "delaware")
	custom, err := NewMetric("fastest", map[string]float64{"Motorway": 80, "LocalRoadCity": 25}, nil)
	if err != nil {
		t.Fatal(err)
	}
	specs := map[string]Metric{"fastest": {Objective: ObjectiveFastest}, "shortest": {Objective: ObjectiveShortest}, "custom speeds": custom}
	src, dst := roadPoints(g, 20, 61, 0), roadPoints(g, 20, 62, 0)
	for name, spec := range specs {
		t.Run(name, func(t *testing.T) {
			found := 0
			for i := range src {
				best, err := g.Route(context.Background(), spec, src[i], dst[i])
				if err != nil {
					continue
				}
				rs, err := g.Alternatives(context.Background(), spec, src[i], dst[i], 3)
				if err != nil || len(rs) == 0 {
					t.Fatalf("pair %d: %d routes, %v", i, len(rs), err)
				}
				if rs[0].DurationS != best.DurationS || rs[0].DistanceM != best.DistanceM {
					t.Errorf("pair %d: first route %d s %d m, Route %d s %d m", i, rs[0].DurationS, rs[0].DistanceM, best.DurationS, best.DistanceM)
				}
				for k, r := range rs {
					if len(r.Geometry) < 2 || r.Geometry[0] != src[i].Point || r.Geometry[len(r.Geometry)-1] != dst[i].Point {
						t.Errorf("pair %d route %d: geometry does not join the snapped points", i, k)
					}
					if k == 0 {
						continue
					}
					found++
					primaryOf := func(r *Route) int {
						if spec.Objective == ObjectiveShortest {
							return r.DistanceM
						}
						return r.DurationS
					}
					if primaryOf(r) < primaryOf(rs[0])-1 {
						t.Errorf("pair %d route %d: %d better than the first's %d", i, k, primaryOf(r), primaryOf(rs[0]))
					}
					if slices.Equal(r.Geometry, rs[0].Geometry) {
						t.Errorf("pair %d route %d: the first route again", i, k)
					}
				}
			}
			if found == 0 {
				t.Errorf("no alternative for any of %d pairs", len(src))
			}
		})
	}
}
