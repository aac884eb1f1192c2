package routing

import (
	"context"
	"math"
	"slices"
	"sync"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/cch"
	"github.com/geosvc/geosvc/routing/ch"
)

// Quantity is what the limits of a one-to-all answer count.
type Quantity uint8

const (
	// QuantityTime counts seconds of driving.
	QuantityTime Quantity = iota
	// QuantityDistance counts metres driven.
	QuantityDistance
)

// Reached is the answer of a one-to-all search (OneToAll): the least
// cost between one snapped point and every node of the edge-based graph
// (every drivable direction of every road edge), on one metric. It is
// read-only and safe for concurrent use.
type Reached struct {
	g       *Graph
	reverse bool
	// lay is the layout of the packed labels (a custom metric's tie lane
	// is chFastest's); order the lane Vertex compares first.
	lay, order chMetric
	// lab[n] is the packed time and distance of the least-weight path
	// from the point to the end of node n (forward) or from the start of
	// n to the point (reverse), ch.Inf when there is none.
	lab    []int64
	nodeMS []uint32 // the metric's time of traversing each node
	ends   []reachEnd
}

// reachEnd is a node the point lies on.
type reachEnd struct {
	node uint32
	frac float64 // the point's position along the node's direction
	// around is the packed least cost, by other nodes, from the point to
	// the start of the node (forward) or from the end of the node to the
	// point (reverse): how the part of the node behind (forward) or
	// beyond (reverse) the point is reached; ch.Inf when it is not.
	around int64
	// atStart and atEnd say whether the point is at the node's start or
	// end (its partial weight is zero or the whole node's).
	atStart, atEnd bool
}

// OneToAll searches from s to every node of the graph (reverse false) or
// from every node to s (reverse true: who can reach s) on metric m, in the
// PHAST manner: an upward search in a hierarchy, then one downward sweep
// over all nodes in rank order. Plain Fastest and Shortest run on their
// contraction hierarchies (CH); any other metric (speeds, avoid, a truck,
// avoid_polygons) is customized on the CCH first (and cached by the
// graph), and OneToAll returns ctx's error if ctx ends then. Costs are
// those of the metric's least-weight paths, as Reach's.
func (g *Graph) OneToAll(ctx context.Context, m Metric, s Snap, reverse bool) (*Reached, error) {
	if h, ok := m.hierarchy(); ok {
		return g.oneToAll(h, s, reverse), nil
	}
	cm, err := g.customMetric(ctx, m)
	if err != nil {
		return nil, err
	}
	return cm.oneToAll(s, reverse), nil
}

// newReached returns an answer with every node unreached.
func (g *Graph) newReached(lay, order chMetric, reverse bool, nodeMS []uint32) *Reached {
	r := &Reached{g: g, reverse: reverse, lay: lay, order: order, nodeMS: nodeMS, lab: make([]int64, len(g.base.nodeEdge))}
	for i := range r.lab {
		r.lab[i] = ch.Inf
	}
	return r
}

// oneToAll is OneToAll on a plain metric's CH.
func (g *Graph) oneToAll(m chMetric, s Snap, reverse bool) *Reached {
	r := g.newReached(m, m, reverse, g.base.nodeTime)
	var ph [2]phantom
	ps := g.phantoms(m, s, ph[:0])
	var eps []ch.Endpoint
	if reverse {
		ps = g.withCopies(ps)
		eps = g.targetEndpoints(m, s, nil)
	} else {
		eps = g.sourceEndpoints(m, s, nil)
	}
	if len(eps) == 0 {
		return r
	}
	q := g.query(m)
	q.OneToAll(eps, reverse, r.lab)
	g.release(m, q)
	if reverse {
		// From the end of n to the point, plus n itself.
		for n, w := range r.lab {
			if w != ch.Inf {
				r.lab[n] = w + g.nodeWeight(m, uint32(n))
			}
		}
	}
	b := &g.base
	g.reverseOnce.Do(g.buildReverse)
	for _, p := range ps {
		around := ch.Inf
		if reverse {
			for i := b.turnFirst[p.node]; i < b.turnFirst[p.node+1]; i++ {
				if w := r.lab[b.turnHead[i]]; w != ch.Inf && !g.shutNoTime(i) {
					around = min(around, w+weight(m, int64(b.turnMS[i]), 0))
				}
			}
		} else {
			for i := g.revFirst[p.node]; i < g.revFirst[p.node+1]; i++ {
				if w := r.lab[g.revTail[i]]; w != ch.Inf && !g.shutNoTime(g.revArc[i]) {
					around = min(around, w+weight(m, int64(b.turnMS[g.revArc[i]]), 0))
				}
			}
		}
		r.ends = append(r.ends, reachEnd{node: p.node, frac: p.frac, around: around,
			atStart: p.partial == 0, atEnd: p.partial == g.nodeWeight(m, p.node)})
	}
	return r
}

// weightPool holds OneToAll's scratch labels of custom metrics.
var weightPool sync.Pool // *[]cch.Weight

// oneToAll is OneToAll on the customized metric's CCH.
func (cm *customMetric) oneToAll(s Snap, reverse bool) *Reached {
	g, b := cm.g, &cm.g.base
	order := chFastest
	if cm.spec.Objective == ObjectiveShortest {
		order = chShortest
	}
	r := g.newReached(chFastest, order, reverse, cm.nodeMS)
	eps := cm.endpoints(s, !reverse, nil)
	if len(eps) == 0 {
		return r
	}
	n := len(b.nodeEdge)
	bufp, _ := weightPool.Get().(*[]cch.Weight)
	if bufp == nil || len(*bufp) != n {
		buf := make([]cch.Weight, n)
		bufp = &buf
	}
	defer weightPool.Put(bufp)
	out := *bufp
	q := cm.pool.Get().(*cch.Query)
	q.OneToAll(eps, reverse, out)
	cm.pool.Put(q)
	for v, w := range out {
		if w.IsInf() || !cm.usable[v] {
			// A reverse search labels an avoided node too (its arcs out
			// are open; those into it are not): it cannot be driven.
			continue
		}
		if reverse {
			w = w.Add(cm.whole(uint32(v)))
		}
		r.lab[v] = w.S
	}
	g.reverseOnce.Do(g.buildReverse)
	for _, e := range eps {
		p := e.Node
		best := cch.Inf
		if reverse {
			// Over a turn into z, then z to the point (out[z] is from
			// z's end; the arc's weight includes z).
			for i := b.turnFirst[p]; i < b.turnFirst[p+1]; i++ {
				if z := b.turnHead[i]; !out[z].IsInf() && !cm.weights[i].IsInf() {
					if c := cm.weights[i].Add(out[z]); c.Less(best) {
						best = c
					}
				}
			}
		} else {
			whole := cm.whole(p)
			for i := g.revFirst[p]; i < g.revFirst[p+1]; i++ {
				y, arc := g.revTail[i], g.revArc[i]
				if out[y].IsInf() || cm.weights[arc].IsInf() {
					continue
				}
				c := out[y].Add(cm.weights[arc])
				if c = (cch.Weight{W: c.W - whole.W, S: c.S - whole.S}); c.Less(best) {
					best = c
				}
			}
		}
		around := ch.Inf
		if !best.IsInf() {
			around = best.S
		}
		f := endFrac(g, s, p)
		part := cm.partial(p, f)
		r.ends = append(r.ends, reachEnd{node: p, frac: f, around: around,
			atStart: part == (cch.Weight{}), atEnd: part == cm.whole(p)})
	}
	return r
}

// endFrac is the position of s along node n's direction of travel.
func endFrac(g *Graph, s Snap, n uint32) float64 {
	if g.base.nodeEdge[n]%2 == 1 {
		return 1 - s.Fraction
	}
	return s.Fraction
}

// Reverse reports whether the costs are towards the point.
func (r *Reached) Reverse() bool { return r.reverse }

// lane returns the quantity q of a packed weight, in ms or dm.
func (r *Reached) lane(w int64, q Quantity) int64 {
	ms, dm := unweight(r.lay, w)
	if q == QuantityDistance {
		return dm
	}
	return ms
}

// nodeCost is the time (ms) or distance (dm) of traversing node n.
func (r *Reached) nodeCost(n uint32, q Quantity) int64 {
	if q == QuantityDistance {
		return int64(r.g.base.nodeDist[n])
	}
	return int64(r.nodeMS[n])
}

// limitUnits converts a limit in seconds or metres to ms or dm.
func limitUnits(limit float64, q Quantity) int64 {
	if q == QuantityDistance {
		return int64(math.Floor(limit*10 + 1e-9))
	}
	return int64(math.Floor(limit*1000 + 1e-9))
}

// Stretch is a part of a road edge: fractions Lo <= Hi of its length
// from its From vertex.
type Stretch struct {
	Edge   uint32
	Lo, Hi float64
}

// Within returns the parts of road edges reached within limit (seconds
// for QuantityTime, metres for QuantityDistance), by edge, with the
// position where the limit falls inside an edge interpolated linearly
// along it (a road's cost grows evenly along it). Each edge's stretches
// are disjoint and ascending.
func (r *Reached) Within(limit float64, q Quantity) []Stretch {
	g := r.g
	t := limitUnits(limit, q)
	var out []Stretch
	var iv [8]Stretch
	// The edges whose nodes have copies, ascending, walked beside e.
	var withCopies []uint32
	for o := range g.copies {
		withCopies = append(withCopies, g.base.nodeEdge[o]/2)
	}
	slices.Sort(withCopies)
	for e := range g.edgeFrom {
		parts := iv[:0]
		copies := len(withCopies) > 0 && withCopies[0] == uint32(e)
		for len(withCopies) > 0 && withCopies[0] <= uint32(e) {
			withCopies = withCopies[1:]
		}
		for dir := uint32(0); dir < 2; dir++ {
			if n := g.edgeNode[directedID(uint32(e), dir)]; n >= 0 {
				parts = r.nodeParts(uint32(n), t, q, parts)
				if copies {
					for _, c := range g.copies[uint32(n)] {
						parts = r.nodeParts(c, t, q, parts)
					}
				}
			}
		}
		out = appendMerged(out, uint32(e), parts)
	}
	return out
}

// nodeParts appends the parts of node n reached within t (ms or dm), as
// fractions of its edge.
func (r *Reached) nodeParts(n uint32, t int64, q Quantity, parts []Stretch) []Stretch {
	w := r.lab[n]
	if w == ch.Inf {
		return parts
	}
	L := r.nodeCost(n, q)
	c := r.lane(w, q)
	add := func(lo, hi float64) {
		lo, hi = max(lo, 0), min(hi, 1)
		if lo > hi {
			return
		}
		if r.g.base.nodeEdge[n]%2 == 1 {
			lo, hi = 1-hi, 1-lo
		}
		parts = append(parts, Stretch{Lo: lo, Hi: hi})
	}
	// span is the fraction a budget of b units covers.
	span := func(b int64) float64 {
		if L <= 0 {
			return 1
		}
		return float64(b) / float64(L)
	}
	for _, e := range r.ends {
		if e.node != n {
			continue
		}
		// The point's own node: directly from (forward) or to (reverse)
		// the point, and round the other way.
		if r.reverse {
			add(e.frac-span(t), e.frac)
			if e.around != ch.Inf && r.lane(e.around, q) <= t {
				add(1-span(t-r.lane(e.around, q)), 1)
			}
		} else {
			add(e.frac, e.frac+span(t))
			if e.around != ch.Inf && r.lane(e.around, q) <= t {
				add(0, span(t-r.lane(e.around, q)))
			}
		}
		return parts
	}
	if r.reverse {
		// From fraction f: c - f*L.
		if c-L <= t {
			add(span(c-t), 1)
		}
		return parts
	}
	// At fraction f: c - L + f*L.
	if c-L <= t {
		add(0, span(t-(c-L)))
	}
	return parts
}

// appendMerged appends edge e's parts, merged where they overlap or
// touch, ascending.
func appendMerged(out []Stretch, e uint32, parts []Stretch) []Stretch {
	if len(parts) == 0 {
		return out
	}
	for i := 1; i < len(parts); i++ { // insertion sort: a handful
		for j := i; j > 0 && parts[j].Lo < parts[j-1].Lo; j-- {
			parts[j], parts[j-1] = parts[j-1], parts[j]
		}
	}
	cur := parts[0]
	cur.Edge = e
	for _, p := range parts[1:] {
		if p.Lo <= cur.Hi {
			cur.Hi = max(cur.Hi, p.Hi)
			continue
		}
		out = append(out, cur)
		cur = Stretch{Edge: e, Lo: p.Lo, Hi: p.Hi}
	}
	return append(out, cur)
}

// StretchShape returns the points of a stretch from its Lo end to its Hi
// end: the edge's own shape when the stretch is all of it (read-only:
// do not modify it), else the cut of it appended to buf[:0].
func (g *Graph) StretchShape(s Stretch, buf []orb.Point) []orb.Point {
	shape := g.edgeShape(s.Edge)
	if s.Lo <= 0 && s.Hi >= 1 {
		return shape
	}
	return cutLineInto(buf[:0], shape, g.edgeLen[s.Edge], s.Lo, s.Hi)
}

// StretchLine returns the geometry of a stretch, from its Lo end to its
// Hi end, in a new slice.
func (g *Graph) StretchLine(s Stretch) orb.LineString {
	shape := g.edgeShape(s.Edge)
	if s.Lo <= 0 && s.Hi >= 1 {
		return append(orb.LineString(nil), shape...)
	}
	return cutLine(shape, g.edgeLen[s.Edge], s.Lo, s.Hi)
}
