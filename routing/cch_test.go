package routing

import (
	"container/heap"
	"context"
	"math"
	"math/rand"
	"path/filepath"
	"sync"
	"testing"

	"github.com/geosvc/geosvc/routing/cch"
	"github.com/geosvc/geosvc/routing/ch"
	"github.com/geosvc/geosvc/routing/osmroad"
)

// The CCH of routing/cch against the Dijkstra oracle on the edge-based
// graph: fastest, shortest and random metrics, point-to-point (with the
// path) and tables.

var (
	cchMu   sync.Mutex
	cchTops = map[*Graph]*cch.Topology{}
)

// testTopology builds (once per test binary) the CCH topology of g.
func testTopology(t testing.TB, g *Graph) *cch.Topology {
	t.Helper()
	if g.cch != nil {
		return g.cch
	}
	cchMu.Lock()
	defer cchMu.Unlock()
	if top, ok := cchTops[g]; ok {
		return top
	}
	tails, coords := g.cchInput()
	heads := g.base.turnHead
	top, err := cch.Build(len(g.base.nodeEdge), tails, heads, coords, 2)
	if err != nil {
		t.Fatal(err)
	}
	cchTops[g] = top
	return top
}

// cchMetric is a metric over the edge-based graph: turn arc i from v to
// h costs turnW[i] + nodeW[h] in the W lane (nodeW[h] is the traversal
// of h, which endpoints take a share of) and time ms << 32 + distance dm
// in the S lane, as the hierarchies pack chFastest today. avoid[i] makes an
// arc unusable.
type cchMetric struct {
	name         string
	nodeW, turnW []int64
	avoid        []bool
}

// fastestCCH, shortestCCH and the random metrics of the tests.
func fastestCCH(g *Graph) cchMetric {
	b := &g.base
	m := cchMetric{name: "fastest", nodeW: make([]int64, len(b.nodeTime)), turnW: make([]int64, len(b.turnMS))}
	for v, t := range b.nodeTime {
		m.nodeW[v] = int64(t)
	}
	for i, t := range b.turnMS {
		m.turnW[i] = int64(t)
	}
	return m
}

func shortestCCH(g *Graph) cchMetric {
	b := &g.base
	m := cchMetric{name: "shortest", nodeW: make([]int64, len(b.nodeDist)), turnW: make([]int64, len(b.turnMS))}
	for v, d := range b.nodeDist {
		m.nodeW[v] = int64(d)
	}
	return m
}

// randomCCH: random positive node and turn weights; avoidShare of the
// arcs unusable.
func randomCCH(g *Graph, seed int64, maxNode, maxTurn int, avoidShare float64) cchMetric {
	rng := rand.New(rand.NewSource(seed))
	b := &g.base
	m := cchMetric{name: "random", nodeW: make([]int64, len(b.nodeTime)), turnW: make([]int64, len(b.turnMS))}
	for v := range m.nodeW {
		m.nodeW[v] = int64(rng.Intn(maxNode + 1))
	}
	for i := range m.turnW {
		m.turnW[i] = int64(rng.Intn(maxTurn + 1))
	}
	if avoidShare > 0 {
		m.name = "random-avoid"
		m.avoid = make([]bool, len(m.turnW))
		for i := range m.avoid {
			m.avoid[i] = rng.Float64() < avoidShare
		}
	}
	return m
}

// speedCCH: travel time with every road type's speed scaled by a random
// factor between 0.5 and 3.
func speedCCH(g *Graph, seed int64) cchMetric {
	rng := rand.New(rand.NewSource(seed))
	var factor [256]float64
	for i := range factor {
		factor[i] = 0.5 + 2.5*rng.Float64()
	}
	m := fastestCCH(g)
	m.name = "speeds"
	for v, t := range g.base.nodeTime {
		rt := g.edgeRoadType[g.base.nodeEdge[v]/2]
		m.nodeW[v] = int64(math.Round(float64(t) / factor[rt]))
	}
	return m
}

// weights returns the CCH input arc weights.
func (cm cchMetric) weights(g *Graph) []cch.Weight {
	b := &g.base
	w := make([]cch.Weight, len(b.turnHead))
	for i, h := range b.turnHead {
		if cm.avoid != nil && cm.avoid[i] {
			w[i] = cch.Inf
			continue
		}
		w[i] = cch.Weight{
			W: cm.turnW[i] + cm.nodeW[h],
			S: weight(chFastest, int64(b.turnMS[i])+int64(b.nodeTime[h]), int64(b.nodeDist[h])),
		}
	}
	return w
}

// cchPhantom is a phantom with its pair weights: the node's and the
// share up to the point.
type cchPhantom struct {
	node           uint32
	whole, partial cch.Weight
}

func (cm cchMetric) phantoms(g *Graph, s Snap) []cchPhantom {
	var ph [2]phantom
	var out []cchPhantom
	// Copies as sources too: a path from a copy is a path from its
	// original that keeps more restrictions, never a shorter one.
	for _, p := range g.withCopies(g.phantoms(chFastest, s, ph[:0])) {
		out = append(out, cchPhantom{
			node:    p.node,
			whole:   cch.Weight{W: cm.nodeW[p.node], S: g.nodeWeight(chFastest, p.node)},
			partial: cch.Weight{W: int64(math.Round(float64(cm.nodeW[p.node]) * p.frac)), S: p.partial},
		})
	}
	return out
}

// endpoints returns the CCH endpoints of s as a source or a target.
func (cm cchMetric) endpoints(g *Graph, s Snap, source bool) []cch.Endpoint {
	var eps []cch.Endpoint
	for _, p := range cm.phantoms(g, s) {
		d := cch.Weight{W: p.whole.W - p.partial.W, S: p.whole.S - p.partial.S}
		if !source {
			d = cch.Weight{W: -d.W, S: -d.S}
		}
		eps = append(eps, cch.Endpoint{Node: p.node, Init: d})
	}
	return eps
}

// oracleRow is dijkstraRow over pair weights: a plain Dijkstra on the
// edge-based graph from s, then the arrivals at every destination.
func (cm cchMetric) oracleRow(g *Graph, w []cch.Weight, s Snap, dst []Snap) []cch.Weight {
	return pairOracleRow(g, w, cm.nodeW, func(s Snap) []cchPhantom { return cm.phantoms(g, s) }, s, dst)
}

// pairOracleRow is a plain Dijkstra over pair weights w on the edge-based
// graph from s, then the arrivals at every destination; nodeW is the W of
// traversing each node and phantoms gives a point's phantoms.
func pairOracleRow(g *Graph, w []cch.Weight, nodeW []int64, phantoms func(Snap) []cchPhantom, s Snap, dst []Snap) []cch.Weight {
	b := &g.base
	dist := make([]cch.Weight, len(b.nodeEdge))
	for i := range dist {
		dist[i] = cch.Inf
	}
	h := &pairHeap{}
	src := phantoms(s)
	for _, p := range src {
		d := cch.Weight{W: p.whole.W - p.partial.W, S: p.whole.S - p.partial.S}
		if d.Less(dist[p.node]) {
			dist[p.node] = d
			heap.Push(h, pairItem{p.node, d})
		}
	}
	for h.Len() > 0 {
		it := heap.Pop(h).(pairItem)
		if dist[it.node].Less(it.d) {
			continue
		}
		for i := b.turnFirst[it.node]; i < b.turnFirst[it.node+1]; i++ {
			if w[i].IsInf() {
				continue
			}
			v := b.turnHead[i]
			if nd := it.d.Add(w[i]); nd.Less(dist[v]) {
				dist[v] = nd
				heap.Push(h, pairItem{v, nd})
			}
		}
	}
	g.reverseOnce.Do(g.buildReverse)
	row := make([]cch.Weight, len(dst))
	for j, t := range dst {
		row[j] = cch.Inf
		for _, tp := range phantoms(t) {
			for _, sp := range src {
				c := cch.Weight{W: tp.partial.W - sp.partial.W, S: tp.partial.S - sp.partial.S}
				if sp.node == tp.node && !c.Less(cch.Weight{}) && c.Less(row[j]) {
					row[j] = c
				}
			}
			// The arcs into the destination's node, with their turn
			// share and the destination's partial traversal.
			for k := g.revFirst[tp.node]; k < g.revFirst[tp.node+1]; k++ {
				y := g.revTail[k]
				if dist[y].IsInf() {
					continue
				}
				// every turn y->node (parallel turns included)
				for i := b.turnFirst[y]; i < b.turnFirst[y+1]; i++ {
					if b.turnHead[i] != tp.node || w[i].IsInf() {
						continue
					}
					turn := cch.Weight{W: w[i].W - nodeW[tp.node], S: weight(chFastest, int64(b.turnMS[i]), 0)}
					if c := dist[y].Add(turn).Add(tp.partial); c.Less(row[j]) {
						row[j] = c
					}
				}
			}
		}
	}
	return row
}

// TestCCHMatchesDijkstra compares CCH point-to-point queries (with their
// paths) and tables with the Dijkstra oracle on 50 x 40 random pairs per
// metric and extract, and fastest and shortest also with the
// hierarchies' own oracle (packed weights, integer seconds and metres).
func TestCCHMatchesDijkstra(t *testing.T) {
	for _, name := range []string{"andorra", "delaware"} {
		t.Run(name, func(t *testing.T) {
			g := testGraph(t, name)
			top := testTopology(t, g)
			t.Logf("%s: %d nodes, %d CCH arcs, elimination tree height %d", name, top.Nodes(), top.Arcs(), top.Levels())
			src := roadPoints(g, 50, 51, 15)
			dst := roadPoints(g, 40, 52, 15)
			metrics := []cchMetric{
				fastestCCH(g), shortestCCH(g),
				randomCCH(g, 1, 1000, 200, 0), speedCCH(g, 2), randomCCH(g, 3, 50, 20, 0.03),
			}
			for k, cm := range metrics {
				w := cm.weights(g)
				m, err := top.Customize(context.Background(), w, cch.Options{Workers: 2, Perfect: k%2 == 1})
				if err != nil {
					t.Fatal(err)
				}
				checkCCH(t, g, cm, m, w, src, dst)
				if k < 2 {
					checkUnits(t, g, chMetric(k), cm, m, src, dst)
				}
			}
		})
	}
}

// checkCCH compares point-to-point answers, their paths and a table with
// the pair oracle.
func checkCCH(t *testing.T, g *Graph, cm cchMetric, m *cch.Metric, w []cch.Weight, src, dst []Snap) {
	t.Helper()
	q := m.NewQuery()
	dstEps := make([][]cch.Endpoint, len(dst))
	for j, d := range dst {
		dstEps[j] = cm.endpoints(g, d, false)
	}
	srcEps := make([][]cch.Endpoint, len(src))
	want := make([]cch.Weight, 0, len(src)*len(dst))
	routes := 0
	for i, s := range src {
		srcEps[i] = cm.endpoints(g, s, true)
		row := cm.oracleRow(g, w, s, dst)
		want = append(want, row...)
		for j := range dst {
			got, meet := q.ShortestPath(srcEps[i], dstEps[j])
			if got != row[j] {
				t.Fatalf("%s: pair %d,%d: cch %v, dijkstra %v", cm.name, i, j, got, row[j])
			}
			if got.IsInf() {
				continue
			}
			routes++
			if (i+j)%4 == 0 {
				checkCCHPath(t, g, cm, w, q.PathArcs(meet), q.Path(meet), srcEps[i], dstEps[j], got)
			}
		}
	}
	tg := m.NewTargets(dstEps, 2)
	out := make([]cch.Weight, len(src)*len(dst))
	if err := m.Table(context.Background(), srcEps, tg, 2, out); err != nil {
		t.Fatal(err)
	}
	for k := range out {
		if out[k] != want[k] {
			t.Fatalf("%s: table cell %d,%d: %v, dijkstra %v", cm.name, k/len(dst), k%len(dst), out[k], want[k])
		}
	}
	// Not vacuous: most pairs have a route; with random avoided turns
	// (3 % of Andorra's, which cut its mountain roads apart) a fifth.
	least := len(want) / 2
	if cm.avoid != nil {
		least = len(want) / 5
	}
	if routes < least {
		t.Fatalf("%s: only %d of %d pairs have a route", cm.name, routes, len(want))
	}
}

// checkCCHPath checks that a path is a walk of turns from a source's node
// to a target's node that weighs what the query said.
func checkCCHPath(t *testing.T, g *Graph, cm cchMetric, w []cch.Weight, arcs, nodes []uint32, src, dst []cch.Endpoint, want cch.Weight) {
	t.Helper()
	b := &g.base
	if len(nodes) != len(arcs)+1 {
		t.Fatalf("%s: %d nodes for %d arcs", cm.name, len(nodes), len(arcs))
	}
	sum := cch.Inf
	for _, e := range src {
		if e.Node == nodes[0] && e.Init.Less(sum) {
			sum = e.Init
		}
	}
	for k, i := range arcs {
		if i < b.turnFirst[nodes[k]] || i >= b.turnFirst[nodes[k]+1] || b.turnHead[i] != nodes[k+1] {
			t.Fatalf("%s: path arc %d (turn %d) is not %d->%d", cm.name, k, i, nodes[k], nodes[k+1])
		}
		sum = sum.Add(w[i])
	}
	best := cch.Inf
	for _, e := range dst {
		if c := sum.Add(e.Init); e.Node == nodes[len(nodes)-1] && !c.Less(cch.Weight{}) && c.Less(best) {
			best = c
		}
	}
	if best != want {
		t.Fatalf("%s: path weighs %v, query said %v", cm.name, best, want)
	}
}

// checkUnits compares fastest and shortest with the hierarchies' oracle:
// the packed weight, then integer seconds and metres as tables give them.
func checkUnits(t *testing.T, g *Graph, metric chMetric, cm cchMetric, m *cch.Metric, src, dst []Snap) {
	t.Helper()
	q := m.NewQuery()
	dist := make([]int64, len(g.base.nodeEdge))
	for i, s := range src {
		row := g.dijkstraRow(metric, s, dst, dist)
		se := cm.endpoints(g, s, true)
		for j, d := range dst {
			got, _ := q.ShortestPath(se, cm.endpoints(g, d, false))
			if got.IsInf() {
				if row[j] != ch.Inf {
					t.Fatalf("%s: pair %d,%d: no cch route, oracle %d", metric, i, j, row[j])
				}
				continue
			}
			ms, dm := unweight(chFastest, got.S)
			if packed := weight(metric, ms, dm); packed != row[j] {
				t.Fatalf("%s: pair %d,%d: cch %v, oracle %d", metric, i, j, got, row[j])
			}
			primary := ms
			if metric == chShortest {
				primary = dm
			}
			if got.W != primary {
				t.Fatalf("%s: pair %d,%d: W lane %d, S lane says %d", metric, i, j, got.W, primary)
			}
			sec, met := toUnits(chFastest, got.S)
			if ds, dd := toUnits(metric, row[j]); ds != sec || dd != met {
				t.Fatalf("%s: pair %d,%d: cch %d s %d m, oracle %d s %d m", metric, i, j, sec, met, ds, dd)
			}
		}
	}
}

// sameEdgeTargets returns, for every source, two targets on its road: one
// ahead of it and one behind it in the road's direction.
func sameEdgeTargets(src []Snap) []Snap {
	var dst []Snap
	for _, s := range src {
		ahead, behind := s, s
		ahead.Fraction = s.Fraction + (1-s.Fraction)/2
		behind.Fraction = s.Fraction / 2
		dst = append(dst, ahead, behind)
	}
	return dst
}

// TestCCHSameNode routes from points to points on their own road, ahead
// and behind (on a one-way road the way round goes through the node's
// loop or a meeting above it), as routing/ch's tests do.
func TestCCHSameNode(t *testing.T) {
	for _, name := range []string{"andorra", "delaware"} {
		t.Run(name, func(t *testing.T) {
			g := testGraph(t, name)
			top := testTopology(t, g)
			src := roadPoints(g, 30, 61, 0)
			dst := sameEdgeTargets(src)
			metrics := []cchMetric{fastestCCH(g), randomCCH(g, 4, 300, 100, 0.02)}
			if name == "andorra" {
				metrics = append(metrics, shortestCCH(g), speedCCH(g, 5))
			}
			for k, cm := range metrics {
				w := cm.weights(g)
				for _, perfect := range []bool{false, true} {
					m, err := top.Customize(context.Background(), w, cch.Options{Workers: 2, Perfect: perfect})
					if err != nil {
						t.Fatal(err)
					}
					checkCCH(t, g, cm, m, w, src, dst)
					if k == 0 && !perfect {
						checkUnits(t, g, chFastest, cm, m, src, dst)
					}
				}
			}
		})
	}
}

// TestCCHAvoid makes every turn into a destination's road unusable: no
// route reaches it from elsewhere, as the oracle agrees.
func TestCCHAvoid(t *testing.T) {
	g := testGraph(t, "andorra")
	top := testTopology(t, g)
	src := roadPoints(g, 20, 71, 15)
	dst := roadPoints(g, 5, 72, 15)
	cm := randomCCH(g, 6, 100, 10, 0)
	cm.avoid = make([]bool, len(cm.turnW))
	closed := map[uint32]bool{}
	for _, d := range dst {
		for _, p := range cm.phantoms(g, d) {
			closed[p.node] = true
		}
	}
	for i, h := range g.base.turnHead {
		cm.avoid[i] = closed[h]
	}
	w := cm.weights(g)
	m, err := top.Customize(context.Background(), w, cch.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	q := m.NewQuery()
	for i, s := range src {
		for j, d := range dst {
			if s.Edge == d.Edge {
				continue
			}
			if got, _ := q.ShortestPath(cm.endpoints(g, s, true), cm.endpoints(g, d, false)); !got.IsInf() {
				t.Fatalf("pair %d,%d: a route of %v into a closed road", i, j, got)
			}
		}
	}
	// The oracle agrees on every cell, and the table too.
	cm.name = "avoid"
	for _, s := range src {
		for j, c := range cm.oracleRow(g, w, s, dst) {
			if !c.IsInf() && s.Edge != dst[j].Edge {
				t.Fatalf("oracle reaches closed road %d", j)
			}
		}
	}
	checkCCHTable(t, g, cm, m, w, src, dst)
}

// checkCCHTable compares a table with the oracle, where pairs may have no
// route at all.
func checkCCHTable(t *testing.T, g *Graph, cm cchMetric, m *cch.Metric, w []cch.Weight, src, dst []Snap) {
	t.Helper()
	srcEps := make([][]cch.Endpoint, len(src))
	for i, s := range src {
		srcEps[i] = cm.endpoints(g, s, true)
	}
	dstEps := make([][]cch.Endpoint, len(dst))
	for j, d := range dst {
		dstEps[j] = cm.endpoints(g, d, false)
	}
	out := make([]cch.Weight, len(src)*len(dst))
	if err := m.Table(context.Background(), srcEps, m.NewTargets(dstEps, 2), 2, out); err != nil {
		t.Fatal(err)
	}
	for i, s := range src {
		for j, want := range cm.oracleRow(g, w, s, dst) {
			if got := out[i*len(dst)+j]; got != want {
				t.Fatalf("%s: table cell %d,%d: %v, dijkstra %v", cm.name, i, j, got, want)
			}
		}
	}
}

// TestCCHFixtureRoutes routes the hand-computed fixture routes of
// TestFixtureRoutes through the CCH, fastest and shortest.
func TestCCHFixtureRoutes(t *testing.T) {
	cases := []struct {
		fixture  string
		from, to int64
		wantS    int
		wantM    int
	}{
		{"oneway", 1, 3, 32, 222},
		{"oneway", 3, 1, 64, 445},
		{"reverse_oneway", 3, 1, 32, 222},
		{"reverse_oneway", 1, 3, 64, 445},
		{"roundabout", 5, 7, 55, 380},
		{"roundabout", 5, 6, 111, 694},
		{"no_left_turn", 2, 6, 71, 491},
		{"no_left_turn", 6, 2, 50, 334},
		{"only_straight_on", 2, 5, 71, 491},
		{"only_straight_on", 2, 3, 32, 222},
		{"access_private", 1, 3, 64, 445},
		{"access_private", 1, 6, 80, 556},
		{"ferry", 7, 8, 636, 1334},
		{"ferry", 9, 10, 843, 1334},
		{"maxspeed_mph", 1, 11, 104, 1112},
		{"maxspeed_mph", 1, 16, 181, 1668},
		{"traffic_signal", 1, 3, 34, 222},
		{"traffic_signal", 3, 1, 34, 222},
		{"barrier", 1, 3, 64, 445},
		{"island", 1, 3, 32, 222},
		{"island", 1, 6, int(NoRoute), 0},
	}
	prof := carProfile(t)
	for _, tc := range cases {
		path := filepath.Join("testdata", tc.fixture+".osm")
		net, err := osmroad.Read(path, prof)
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		g, _, err := Build(net, prof)
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		tails, coords := g.cchInput()
		heads := g.base.turnHead
		top, err := cch.Build(len(g.base.nodeEdge), tails, heads, coords, 1)
		if err != nil {
			t.Fatal(err)
		}
		nodes := fixtureNodes(t, path)
		from := g.Snap(Fastest, nodes[tc.from], 0)
		to := g.Snap(Fastest, nodes[tc.to], 0)
		for _, cm := range []cchMetric{fastestCCH(g), shortestCCH(g)} {
			m, err := top.Customize(context.Background(), cm.weights(g), cch.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := m.NewQuery().ShortestPath(cm.endpoints(g, from, true), cm.endpoints(g, to, false))
			if tc.wantS == int(NoRoute) {
				if !got.IsInf() {
					t.Errorf("%s %d->%d %s: %v, want no route", tc.fixture, tc.from, tc.to, cm.name, got)
				}
				continue
			}
			if got.IsInf() {
				t.Fatalf("%s %d->%d %s: no route", tc.fixture, tc.from, tc.to, cm.name)
			}
			s, metres := toUnits(chFastest, got.S)
			if int(s) != tc.wantS || int(metres) != tc.wantM {
				t.Errorf("%s %d->%d %s: %d s %d m, want %d s %d m", tc.fixture, tc.from, tc.to, cm.name, s, metres, tc.wantS, tc.wantM)
			}
		}
	}
}
