package routing

import (
	"errors"
	"sync"

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
//   - local optimality (the T-test): around v, the piece of the route from
//     the last node at least T = altLocalPct % of the best route's length
//     before v to the first node at least T after v (or the route's ends)
//     is itself a shortest path between its ends.
//
// Candidates are taken by increasing weight, so the second route is the
// least-weight admissible one and the third the next that also stays
// apart from the second. Nodes of a route already judged are not judged
// again as via nodes: their routes are, nearly always, the same.
const (
	altSharingPct = 75
	altStretchPct = 25
	altLocalPct   = 25
	// altMaxJudged bounds the candidate routes judged per query.
	altMaxJudged = 64
)

// ErrNoAlternative is returned when fewer admissible alternatives exist
// than asked for.
var ErrNoAlternative = errors.New("routing: no alternative route")

// altRoute is a route of an alternative query: its nodes, the index of
// its via node (0 for the best route) and its weight.
type altRoute struct {
	nodes  []uint32
	via    int
	weight int64
}

// altWork is the reusable workspace of alternative queries over a graph
// of up to len(ref) nodes.
type altWork struct {
	ref   []uint8  // per node: bit i set when route i holds it
	seen  []uint32 // per node: epoch when a judged route held it
	epoch uint32
	vias  []ch.Via
	buf   []uint32
	pos   []int64
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
// to another followed by up to k-1 alternative routes (see the
// alternative-route rules above), by increasing weight; fewer when fewer
// are admissible; k is at most 8. It returns ErrNotSnapped for a Snap that is not OK and
// ErrNoRoute when the destination cannot be reached.
func (g *Graph) Alternatives(m Metric, from, to Snap, k int) ([]*Route, error) {
	alts, err := g.alternatives(m, from, to, k)
	if err != nil {
		return nil, err
	}
	out := make([]*Route, len(alts))
	for i, a := range alts {
		out[i] = g.routeOf(m, from, to, a.nodes, a.weight)
	}
	return out, nil
}

// Alternative returns the i-th best route (i = 1 the second, 2 the third)
// for metric m: ErrNoAlternative when there are not that many.
func (g *Graph) Alternative(m Metric, from, to Snap, i int) (*Route, error) {
	rs, err := g.Alternatives(m, from, to, i+1)
	if err != nil {
		return nil, err
	}
	if len(rs) <= i {
		return nil, ErrNoAlternative
	}
	return rs[i], nil
}

func (g *Graph) alternatives(m Metric, from, to Snap, k int) ([]altRoute, error) {
	if !from.OK || !to.OK {
		return nil, ErrNotSnapped
	}
	var sb, tb [2]ch.Endpoint
	src := g.sourceEndpoints(m, from, sb[:0])
	dst := g.targetEndpoints(m, to, tb[:0])
	if len(src) == 0 || len(dst) == 0 {
		return nil, ErrNoRoute
	}
	w := getAltWork(len(g.base.nodeEdge))
	defer altPool.Put(w)
	q := g.query(m)
	defer g.release(m, q)
	best, meet, vias := q.ViaSearch(src, dst, stretchLimit, w.vias[:0])
	w.vias = vias
	if best == ch.Inf {
		return nil, ErrNoRoute
	}
	routes := []altRoute{{nodes: q.Path(meet), weight: best}}
	if k <= 1 {
		return routes, nil
	}
	k = min(k, 8)
	optP := primary(best)
	for _, n := range routes[0].nodes {
		w.ref[n] |= 1
		w.seen[n] = w.epoch
	}
	defer func() {
		for _, r := range routes {
			for _, n := range r.nodes {
				w.ref[n] = 0
			}
		}
	}()
	tq := g.query(m)
	defer g.release(m, tq)
	judged := 0
	for _, c := range vias {
		if len(routes) == k || judged == altMaxJudged {
			break
		}
		if w.seen[c.Node] == w.epoch {
			continue
		}
		path, at := q.ViaPath(w.buf[:0], c)
		w.buf = path
		for _, n := range path {
			w.seen[n] = w.epoch
		}
		judged++
		total := g.pathWeight(m, path, src, dst)
		if 100*primary(total) > (100+altStretchPct)*optP {
			continue
		}
		if 100*g.sharedLength(m, path, src, dst, w.ref) > altSharingPct*optP {
			continue
		}
		if !g.locallyOptimal(m, tq, path, at, optP, w) {
			continue
		}
		bit := uint8(1) << len(routes)
		for _, n := range path {
			w.ref[n] |= bit
		}
		routes = append(routes, altRoute{nodes: append([]uint32(nil), path...), via: at, weight: total})
	}
	return routes, nil
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
func (g *Graph) arcWeight(m Metric, a, b uint32) int64 {
	return weight(m, int64(g.turnMS(a, b))+int64(g.base.nodeTime[b]), int64(g.base.nodeDist[b]))
}

// pathWeight is the packed weight of a path from a source endpoint's node
// to a target endpoint's node.
func (g *Graph) pathWeight(m Metric, path []uint32, src, dst []ch.Endpoint) int64 {
	w := initOf(src, path[0]) + initOf(dst, path[len(path)-1])
	for i := 1; i < len(path); i++ {
		w += g.arcWeight(m, path[i-1], path[i])
	}
	return w
}

// sharedLength is the primary length of the road segments of path that
// a route marked in ref holds: for each, the share of it the path drives.
func (g *Graph) sharedLength(m Metric, path []uint32, src, dst []ch.Endpoint, ref []uint8) int64 {
	last := len(path) - 1
	var shared int64
	for i, n := range path {
		if ref[n] == 0 {
			continue
		}
		var s int64
		switch {
		case last == 0:
			s = initOf(src, n) + initOf(dst, n)
		case i == 0:
			s = initOf(src, n)
		case i == last:
			s = g.nodeWeight(m, n) + initOf(dst, n)
		default:
			s = g.nodeWeight(m, n)
		}
		shared += primary(s)
	}
	return shared
}

// locallyOptimal runs the T-test on path around its node at index at: the
// piece from the last node at least T before it to the first node at
// least T after it (T = altLocalPct % of optP, primary lengths measured
// from node end to node end) must be a shortest path, which tq checks.
func (g *Graph) locallyOptimal(m Metric, tq *ch.Query, path []uint32, at int, optP int64, w *altWork) bool {
	pos := w.pos[:0]
	pos = append(pos, 0)
	for i := 1; i < len(path); i++ {
		pos = append(pos, pos[i-1]+primary(g.arcWeight(m, path[i-1], path[i])))
	}
	w.pos = pos
	a := at
	for a > 0 && 100*(pos[at]-pos[a]) < altLocalPct*optP {
		a--
	}
	b := at
	for b < len(path)-1 && 100*(pos[b]-pos[at]) < altLocalPct*optP {
		b++
	}
	if a == b {
		return true
	}
	s := [1]ch.Endpoint{{Node: path[a]}}
	t := [1]ch.Endpoint{{Node: path[b]}}
	d, _ := tq.ShortestPath(s[:], t[:])
	return d != ch.Inf && primary(d) >= pos[b]-pos[a]
}
