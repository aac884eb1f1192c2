package cch

import "slices"

// Via is a via-node candidate of an alternative-route query: a node (the
// caller's id) both searches reached, and the weight of the path from a
// source through it to a target that their search trees give.
type Via struct {
	Node   uint32
	weight Weight
	rank   uint32
}

// ViaSearch runs the two elimination-tree searches of a via-node
// alternative query (Abraham, Delling, Goldberg, Werneck, "Alternative
// routes in road networks", 2013): those of ShortestPath, pruned only by
// limit(best) instead of best, best being the least source-to-target
// weight found so far (limit must not lower its argument and must return
// Inf for Inf). It returns best and its meeting as ShortestPath does, and
// appends to vias every node both searches reached whose path weight (the
// sum of its labels) is between zero and limit(best), ascending by weight
// (then node). Call Path with the meeting, or ViaPath with a candidate,
// for the routes; both stay valid until the next search on q.
func (q *Query) ViaSearch(sources, targets []Endpoint, limit func(best Weight) Weight, vias []Via) (Weight, Meeting, []Via) {
	minTarget, ok := q.start(sources, targets)
	if !ok {
		return Inf, Meeting{}, vias
	}
	t := q.m.t
	best, bound := Inf, Inf
	var meet Meeting
	for {
		x, ok := q.pop()
		if !ok {
			break
		}
		if c, mt := q.meetingAt(x); c.Less(best) {
			best, meet = c, mt
			bound = limit(best)
		}
		if fx := q.fw[x]; fx.W != infW && (bound.W == infW || !bound.Less(fx.Add(minTarget))) {
			q.relaxUp(x, fx)
		}
		if bx := q.bw[x]; bx.W != infW && !bound.Less(bx) {
			q.relaxDown(x, bx)
		}
	}
	if best.IsInf() {
		return best, meet, vias
	}
	start := len(vias)
	for _, x := range q.walked {
		fx, bx := q.fw[x], q.bw[x]
		if fx.W == infW || bx.W == infW {
			continue
		}
		if c := fx.Add(bx); !c.negative() && !bound.Less(c) {
			vias = append(vias, Via{Node: t.node[x], weight: c, rank: x})
		}
	}
	add := vias[start:]
	slices.SortFunc(add, func(a, b Via) int {
		switch {
		case a.weight.Less(b.weight):
			return -1
		case b.weight.Less(a.weight):
			return 1
		}
		return int(a.Node) - int(b.Node)
	})
	return best, meet, vias
}

// ViaPath appends to dst the nodes (caller's ids) of the path through
// candidate v of the last ViaSearch, source to target, and returns it
// with the index of v's node among the appended nodes.
func (q *Query) ViaPath(dst []uint32, v Via) ([]uint32, int) {
	t := q.m.t
	x := v.rank
	up := q.upArcs[:0]
	for q.fwArc[x] >= 0 {
		a := uint32(q.fwArc[x])
		up = append(up, a)
		x = t.upTail[a]
	}
	q.upArcs = up
	start := len(dst)
	path := append(dst, t.node[x])
	arcs := q.arcs[:0]
	for i := len(up) - 1; i >= 0; i-- {
		arcs = q.m.unpack(arcs, up[i], false)
	}
	for _, i := range arcs {
		path = append(path, t.inputHead(i))
	}
	at := len(path) - 1 - start
	arcs = arcs[:0]
	for x = v.rank; q.bwArc[x] >= 0; {
		a := uint32(q.bwArc[x])
		arcs = q.m.unpack(arcs, a, true)
		x = t.upTail[a]
	}
	for _, i := range arcs {
		path = append(path, t.inputHead(i))
	}
	q.arcs = arcs
	return path, at
}
