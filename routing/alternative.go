package routing

import (
	"context"
	"errors"
	"math"
	"sync"

	"github.com/geosvc/geosvc/routing/cch"
	"github.com/geosvc/geosvc/routing/ch"
)

// Alternative routes are via-node alternatives (Abraham, Delling,
// Goldberg, Werneck, "Alternative routes in road networks", ACM JEA 2013)
// on the hierarchy: the forward search from the source and the backward
// search from the target run past their meeting, and every node both
// reached is a candidate via node v, whose route is the source's search
// tree path to v and then the target's from v. A candidate's route is
// admissible when, with lengths measured in the metric's own quantity
// (milliseconds for Fastest, decimetres for Shortest):
//
//   - stretch: it is at most altStretchPct % longer than the best route;
//   - sharing: the road segments it has in common with the best route and
//     the alternatives chosen before it take at most altSharingPct % of
//     the best route's length (a segment counts with the share of it the
//     candidate drives; turn costs are not shared);
//   - local optimality (the T-test): take the points T = altLocalPct % of
//     the best route's length before and after the middle of v's road
//     segment (clamped to the route's ends); from the end of the segment
//     holding the first to the end of the one holding the second, the
//     route is a shortest path.
//
// Candidates are taken by increasing weight, so the second route is the
// least-weight admissible one and the third the next that also stays
// apart from the second. A node of a route that shared too much, or that
// passed the T-test, is not tried again as a via node: its route would,
// nearly always, be the same.
const (
	altSharingPct = 75
	altStretchPct = 25
	altLocalPct   = 25
	// altMaxJudged bounds the candidate routes judged per query, and
	// altMaxTested the T-tests among them (each a point-to-point query).
	altMaxJudged = 48
	altMaxTested = 12
)

// ErrNoAlternative is returned when fewer admissible alternatives exist
// than asked for.
var ErrNoAlternative = errors.New("routing: no alternative route")

// altRoute is a route of an alternative query: its nodes, the index of
// its via node (0 for the best route) and its length in the metric.
type altRoute struct {
	nodes  []uint32
	via    int
	length int64
}

// altWork is the reusable workspace of alternative queries over a graph
// of up to len(ref) nodes.
type altWork struct {
	ref     []uint8  // per node: bit i set when route i holds it
	seen    []uint32 // per node: epoch when a judged route held it
	epoch   uint32
	chVias  []ch.Via
	cchVias []cch.Via
	buf     []uint32
	pos     []int64
}

var altPool sync.Pool // *altWork

func getAltWork(n int) *altWork {
	w, _ := altPool.Get().(*altWork)
	if w == nil || len(w.ref) < n {
		w = &altWork{ref: make([]uint8, n), seen: make([]uint32, n)}
	}
	w.epoch++
	if w.epoch == 0 {
		clear(w.seen)
		w.epoch = 1
	}
	return w
}

// primary returns the primary lane of a packed weight (time for Fastest,
// distance for Shortest) whose secondary lane may be negative.
func primary(w int64) int64 { return (w + 1<<31) >> 32 }

// Alternatives returns the best route for metric m from one snapped point
// to another followed by up to k-1 alternative routes (via-node
// alternatives, see docs/routing.md; lengths in m's own weight), by
// increasing weight; fewer when fewer are admissible (k is at most 8).
// Seconds and metres are those of m's routes (its speeds). It returns
// ErrNotSnapped for a Snap that is not OK, ErrNoRoute when the destination
// cannot be reached, and ctx's error if ctx ends while m is customized.
func (g *Graph) Alternatives(ctx context.Context, m Metric, from, to Snap, k int) ([]*Route, error) {
	if !from.OK || !to.OK {
		return nil, ErrNotSnapped
	}
	h, ok := m.hierarchy()
	if !ok {
		cm, err := g.customMetric(ctx, m)
		if err != nil {
			return nil, err
		}
		return cm.alternatives(from, to, k)
	}
	alts, err := g.alternatives(h, from, to, k)
	if err != nil {
		return nil, err
	}
	return g.altRoutes(from, to, alts), nil
}

// altRoutes builds the Routes of an alternative query's routes, whatever
// metric chose them: seconds and metres are the graph's times and
// distances summed along each (Fastest's packing carries both).
func (g *Graph) altRoutes(from, to Snap, alts []altRoute) []*Route {
	out := make([]*Route, len(alts))
	for i, a := range alts {
		d, dist := toUnits(chFastest, g.pathWeight(chFastest, from, to, a.nodes))
		out[i] = g.routeOf(a.nodes, from, to, int(d), int(dist), g.base.nodeTime)
	}
	return out
}

// Alternative returns the i-th best route (i = 1 the second, 2 the third)
// for metric m: ErrNoAlternative when there are not that many; see
// Alternatives.
func (g *Graph) Alternative(ctx context.Context, m Metric, from, to Snap, i int) (*Route, error) {
	if !from.OK || !to.OK {
		return nil, ErrNotSnapped
	}
	h, ok := m.hierarchy()
	if !ok {
		cm, err := g.customMetric(ctx, m)
		if err != nil {
			return nil, err
		}
		rs, err := cm.alternatives(from, to, i+1)
		if err != nil {
			return nil, err
		}
		if len(rs) <= i {
			return nil, ErrNoAlternative
		}
		return rs[i], nil
	}
	alts, err := g.alternatives(h, from, to, i+1)
	if err != nil {
		return nil, err
	}
	if len(alts) <= i {
		return nil, ErrNoAlternative
	}
	return g.altRoutes(from, to, alts[i:i+1])[0], nil
}

func (g *Graph) alternatives(m chMetric, from, to Snap, k int) ([]altRoute, error) {
	if !from.OK || !to.OK {
		return nil, ErrNotSnapped
	}
	e := &chVia{g: g, m: m}
	e.src = g.sourceEndpoints(m, from, e.sb[:0])
	e.dst = g.targetEndpoints(m, to, e.tb[:0])
	if len(e.src) == 0 || len(e.dst) == 0 {
		return nil, ErrNoRoute
	}
	w := getAltWork(len(g.base.nodeEdge))
	defer altPool.Put(w)
	e.q, e.tq = g.query(m), g.query(m)
	defer g.release(m, e.q)
	defer g.release(m, e.tq)
	e.cands = w.chVias[:0]
	defer func() { w.chVias = e.cands[:0] }()
	return altSearch(e, k, w, g.origNode)
}

// viaEngine is what an alternative query needs of a hierarchy customized
// for a metric, between a query's endpoints. Lengths are in the metric's
// primary quantity (the lexicographic tie-break left out).
type viaEngine interface {
	// search runs the via searches; false when there is no route.
	search() bool
	// best returns the best route's nodes and length.
	best() ([]uint32, int64)
	// vias is the number of candidates, ascending by weight; via returns
	// candidate i's node, viaPath appends its route's nodes to dst and
	// returns them with the index of the via node.
	vias() int
	via(i int) uint32
	viaPath(dst []uint32, i int) ([]uint32, int)
	// arc is the length of the cheapest turn a->b with the traversal of
	// b; node the traversal of n; srcInit and dstInit the labels of the
	// endpoints on n (the share of n after the start point, minus the
	// share after the end point).
	arc(a, b uint32) int64
	node(n uint32) int64
	srcInit(n uint32) int64
	dstInit(n uint32) int64
	// dist is the length of a shortest path from the end of node a to
	// the end of node b, or -1 when there is none.
	dist(a, b uint32) int64
}

// altSearch finds the best route and up to k-1 admissible alternatives.
// A copy of a node (via-way restrictions) is the same road segment as its
// original: orig maps it back for the sharing rule.
func altSearch(e viaEngine, k int, w *altWork, orig func(uint32) uint32) ([]altRoute, error) {
	if !e.search() {
		return nil, ErrNoRoute
	}
	opt, optP := e.best()
	routes := []altRoute{{nodes: opt, length: optP}}
	if k <= 1 {
		return routes, nil
	}
	k = min(k, 8)
	for _, n := range opt {
		w.ref[orig(n)] |= 1
		w.seen[n] = w.epoch
	}
	defer func() {
		for _, r := range routes {
			for _, n := range r.nodes {
				w.ref[orig(n)] = 0
			}
		}
	}()
	judged, tested := 0, 0
	for i := 0; i < e.vias() && len(routes) < k && judged < altMaxJudged && tested < altMaxTested; i++ {
		if w.seen[e.via(i)] == w.epoch {
			continue
		}
		path, at := e.viaPath(w.buf[:0], i)
		w.buf = path
		judged++
		w.seen[path[at]] = w.epoch
		length := pathLength(e, path)
		if 100*length > (100+altStretchPct)*optP {
			continue
		}
		if 100*sharedLength(e, path, w.ref, orig) > altSharingPct*optP {
			// The route's other nodes, as via nodes, would mostly give
			// the same route.
			for _, n := range path {
				w.seen[n] = w.epoch
			}
			continue
		}
		tested++
		if !locallyOptimal(e, path, at, optP, w) {
			continue
		}
		for _, n := range path {
			w.seen[n] = w.epoch
		}
		bit := uint8(1) << len(routes)
		for _, n := range path {
			w.ref[orig(n)] |= bit
		}
		routes = append(routes, altRoute{nodes: append([]uint32(nil), path...), via: at, length: length})
	}
	return routes, nil
}

// pathLength is the length of a path from a source endpoint's node to a
// target endpoint's node.
func pathLength(e viaEngine, path []uint32) int64 {
	l := e.srcInit(path[0]) + e.dstInit(path[len(path)-1])
	for i := 1; i < len(path); i++ {
		l += e.arc(path[i-1], path[i])
	}
	return l
}

// sharedLength is the length of the road segments of path that a route
// marked in ref holds: for each, the share of it the path drives.
func sharedLength(e viaEngine, path []uint32, ref []uint8, orig func(uint32) uint32) int64 {
	last := len(path) - 1
	var shared int64
	for i, n := range path {
		if ref[orig(n)] == 0 {
			continue
		}
		switch {
		case last == 0:
			shared += e.srcInit(n) + e.dstInit(n)
		case i == 0:
			shared += e.srcInit(n)
		case i == last:
			shared += e.node(n) + e.dstInit(n)
		default:
			shared += e.node(n)
		}
	}
	return shared
}

// locallyOptimal runs the T-test on path around its node at index at.
// Along the route (0 its start point, L its end point), node i spans
// from the end of node i-1 (0 for i = 0) to its own end (L for the last
// node); take the points T = altLocalPct % of optP before and after the
// middle of the via node (clamped to 0 and L) and the nodes a and b that
// hold them. The route passes when a = b (the piece lies on one road
// segment) or when its part from the end of a to the end of b is a
// shortest path between them.
func locallyOptimal(e viaEngine, path []uint32, at int, optP int64, w *altWork) bool {
	last := len(path) - 1
	// ends[i] is the end of node i along the route.
	ends := append(w.pos[:0], e.srcInit(path[0]))
	for i := 1; i < len(path); i++ {
		ends = append(ends, ends[i-1]+e.arc(path[i-1], path[i]))
	}
	w.pos = ends
	total := ends[last] + e.dstInit(path[last])
	end := func(i int) int64 {
		if i == last {
			return total
		}
		return ends[i]
	}
	var start int64
	if at > 0 {
		start = ends[at-1]
	}
	// In units of 1/200: the middle of the via node, and T.
	mid, t := 100*(start+end(at)), 2*altLocalPct*optP
	a := 0
	for a < last && 200*end(a) < mid-t {
		a++
	}
	b := a
	for b < last && 200*end(b) < mid+t {
		b++
	}
	if a == b {
		return true
	}
	return e.dist(path[a], path[b]) >= ends[b]-ends[a]
}

// stretchLimit is the greatest packed weight whose primary lane is at
// most altStretchPct % above best's.
func stretchLimit(best int64) int64 {
	if best == ch.Inf {
		return ch.Inf
	}
	p := primary(best)
	return (p+p*altStretchPct/100+1)<<32 - 1
}

// initOf returns the label of the endpoint on node n.
func initOf(eps []ch.Endpoint, n uint32) int64 {
	for _, e := range eps {
		if e.Node == n {
			return e.Init
		}
	}
	return 0
}

// arcWeight is the packed weight of the cheapest turn a->b and the
// traversal of b.
func (g *Graph) arcWeight(m chMetric, a, b uint32) int64 {
	return weight(m, int64(g.turnMS(a, b))+int64(g.base.nodeTime[b]), int64(g.base.nodeDist[b]))
}

// pathWeight is the packed weight of a path from a source phantom of from
// to a target phantom of to.
func (g *Graph) pathWeight(m chMetric, from, to Snap, path []uint32) int64 {
	var sb, tb [2]ch.Endpoint
	w := initOf(g.sourceEndpoints(m, from, sb[:0]), path[0]) + initOf(g.targetEndpoints(m, to, tb[:0]), path[len(path)-1])
	for i := 1; i < len(path); i++ {
		w += g.arcWeight(m, path[i-1], path[i])
	}
	return w
}

// chVia is the viaEngine of a contraction hierarchy (Fastest, Shortest).
type chVia struct {
	g        *Graph
	m        chMetric
	q, tq    *ch.Query // the via searches; the T-tests
	sb, tb   [2]ch.Endpoint
	src, dst []ch.Endpoint
	cands    []ch.Via
	opt      int64
	meet     ch.Meeting
}

func (e *chVia) search() bool {
	e.opt, e.meet, e.cands = e.q.ViaSearch(e.src, e.dst, stretchLimit, e.cands)
	return e.opt != ch.Inf
}

func (e *chVia) best() ([]uint32, int64) { return e.q.Path(e.meet), primary(e.opt) }
func (e *chVia) vias() int               { return len(e.cands) }
func (e *chVia) via(i int) uint32        { return e.cands[i].Node }
func (e *chVia) viaPath(dst []uint32, i int) ([]uint32, int) {
	return e.q.ViaPath(dst, e.cands[i])
}
func (e *chVia) arc(a, b uint32) int64  { return primary(e.g.arcWeight(e.m, a, b)) }
func (e *chVia) node(n uint32) int64    { return primary(e.g.nodeWeight(e.m, n)) }
func (e *chVia) srcInit(n uint32) int64 { return primary(initOf(e.src, n)) }
func (e *chVia) dstInit(n uint32) int64 { return primary(initOf(e.dst, n)) }

func (e *chVia) dist(a, b uint32) int64 {
	s := [1]ch.Endpoint{{Node: a}}
	t := [1]ch.Endpoint{{Node: b}}
	d, _ := e.tq.ShortestPath(s[:], t[:])
	if d == ch.Inf {
		return -1
	}
	return primary(d)
}

// cchAlternatives is alternatives on a customized CCH metric mt: nodeW
// is the metric's traversal weight of each node (the W lane), arcW the
// input arc weights mt was customized with (turn arc i of the graph), src
// and dst the endpoints, q and tq two queries of mt. altRoutes makes
// Routes of its answer.
func (g *Graph) cchAlternatives(q, tq *cch.Query, nodeW []int64, arcW []cch.Weight, src, dst []cch.Endpoint, k int) ([]altRoute, error) {
	if len(src) == 0 || len(dst) == 0 {
		return nil, ErrNoRoute
	}
	w := getAltWork(len(g.base.nodeEdge))
	defer altPool.Put(w)
	e := &cchVia{g: g, q: q, tq: tq, nodeW: nodeW, arcW: arcW, src: src, dst: dst, cands: w.cchVias[:0]}
	defer func() { w.cchVias = e.cands[:0] }()
	return altSearch(e, k, w, g.origNode)
}

// cchVia is the viaEngine of a customized CCH metric.
type cchVia struct {
	g        *Graph
	q, tq    *cch.Query
	nodeW    []int64
	arcW     []cch.Weight
	src, dst []cch.Endpoint
	cands    []cch.Via
	opt      cch.Weight
	meet     cch.Meeting
}

// cchStretchLimit is the greatest weight whose W lane is at most
// altStretchPct % above best's.
func cchStretchLimit(best cch.Weight) cch.Weight {
	if best.IsInf() {
		return cch.Inf
	}
	return cch.Weight{W: best.W + best.W*altStretchPct/100, S: math.MaxInt64}
}

func (e *cchVia) search() bool {
	e.opt, e.meet, e.cands = e.q.ViaSearch(e.src, e.dst, cchStretchLimit, e.cands)
	return !e.opt.IsInf()
}

func (e *cchVia) best() ([]uint32, int64) { return e.q.Path(e.meet), e.opt.W }
func (e *cchVia) vias() int               { return len(e.cands) }
func (e *cchVia) via(i int) uint32        { return e.cands[i].Node }
func (e *cchVia) viaPath(dst []uint32, i int) ([]uint32, int) {
	return e.q.ViaPath(dst, e.cands[i])
}

func (e *cchVia) arc(a, b uint32) int64 {
	bs := &e.g.base
	best := int64(math.MaxInt64)
	for i := bs.turnFirst[a]; i < bs.turnFirst[a+1]; i++ {
		if bs.turnHead[i] == b && !e.arcW[i].IsInf() && e.arcW[i].W < best {
			best = e.arcW[i].W
		}
	}
	return best
}

func (e *cchVia) node(n uint32) int64 { return e.nodeW[n] }

func (e *cchVia) srcInit(n uint32) int64 {
	for _, x := range e.src {
		if x.Node == n {
			return x.Init.W
		}
	}
	return 0
}

func (e *cchVia) dstInit(n uint32) int64 {
	for _, x := range e.dst {
		if x.Node == n {
			return x.Init.W
		}
	}
	return 0
}

func (e *cchVia) dist(a, b uint32) int64 {
	s := [1]cch.Endpoint{{Node: a}}
	t := [1]cch.Endpoint{{Node: b}}
	d, _ := e.tq.ShortestPath(s[:], t[:])
	if d.IsInf() {
		return -1
	}
	return d.W
}

// alternatives is Graph.Alternatives on the metric: the best route and up
// to k-1 alternatives by the same rules, lengths in the metric's weight,
// seconds and metres as the metric's routes report them (its speeds).
func (cm *customMetric) alternatives(from, to Snap, k int) ([]*Route, error) {
	if !from.OK || !to.OK {
		return nil, ErrNotSnapped
	}
	var sb, tb [2]cch.Endpoint
	src := cm.endpoints(from, true, sb[:0])
	dst := cm.endpoints(to, false, tb[:0])
	q, tq := cm.pool.Get().(*cch.Query), cm.pool.Get().(*cch.Query)
	defer cm.pool.Put(q)
	defer cm.pool.Put(tq)
	alts, err := cm.g.cchAlternatives(q, tq, cm.nodeW, cm.weights, src, dst, k)
	if err != nil {
		return nil, err
	}
	out := make([]*Route, len(alts))
	for i, a := range alts {
		d, dist := toUnits(chFastest, cm.pathWeight(a.nodes, src, dst).S)
		out[i] = cm.g.routeOf(a.nodes, from, to, int(d), int(dist), cm.nodeMS)
	}
	return out, nil
}

// pathWeight is the pair weight of a path from a source endpoint's node
// to a target endpoint's node (the least arc between consecutive nodes).
func (cm *customMetric) pathWeight(path []uint32, src, dst []cch.Endpoint) cch.Weight {
	b := &cm.g.base
	var w cch.Weight
	for _, e := range src {
		if e.Node == path[0] {
			w = w.Add(e.Init)
			break
		}
	}
	for _, e := range dst {
		if e.Node == path[len(path)-1] {
			w = w.Add(e.Init)
			break
		}
	}
	for i := 1; i < len(path); i++ {
		best := cch.Inf
		for j := b.turnFirst[path[i-1]]; j < b.turnFirst[path[i-1]+1]; j++ {
			if b.turnHead[j] == path[i] && cm.weights[j].Less(best) {
				best = cm.weights[j]
			}
		}
		w = w.Add(best)
	}
	return w
}
