package cch

// Endpoint is a query start or end: a node (the caller's id) with an
// initial label, as in package ch. For a source the label is the cost from
// the start point to the end of the node (>= 0 in both lanes); for a
// target it is minus the cost from the target point to the end of the
// node (so usually negative), OSRM's phantom-node offsets. When a source
// and a target endpoint share a node and their labels sum below zero (the
// target lies behind the source on that node), the node's loop closes the
// way round.
type Endpoint struct {
	Node uint32
	Init Weight
}

// Meeting says where the two searches of a point-to-point query met (a
// rank) and whether the answer goes round the meeting node's loop.
type Meeting struct {
	node    uint32
	useLoop bool
}

// Query is the workspace of elimination-tree searches on one Metric. It
// is not safe for concurrent use; keep one per goroutine.
type Query struct {
	m            *Metric
	fw, bw       []Weight // labels by rank, Inf when untouched
	fwArc, bwArc []int32  // arc that set the label, -1 at a start
	walked       []uint32 // nodes whose labels to reset
	pending      []uint32 // the search frontier (a handful of nodes)
	upArcs, arcs []uint32 // ViaPath scratch
	all          []Weight // OneToAll's sweep labels, by rank
}

// NewQuery returns a workspace for m.
func (m *Metric) NewQuery() *Query {
	n := m.t.n
	q := &Query{m: m, fw: make([]Weight, n), bw: make([]Weight, n), fwArc: make([]int32, n), bwArc: make([]int32, n)}
	for i := range q.fw {
		q.fw[i], q.bw[i] = Inf, Inf
	}
	return q
}

// reset clears the labels of the last search.
func (q *Query) reset() {
	for _, x := range q.walked {
		q.fw[x], q.bw[x] = Inf, Inf
	}
	q.walked = q.walked[:0]
	q.pending = q.pending[:0]
}

// push adds x to the frontier unless it is there.
func (q *Query) push(x uint32) {
	for _, p := range q.pending {
		if p == x {
			return
		}
	}
	q.pending = append(q.pending, x)
}

// pop removes and returns the lowest node of the frontier, or false when
// it is empty; the node's parent joins the frontier.
func (q *Query) pop() (uint32, bool) {
	if len(q.pending) == 0 {
		return 0, false
	}
	k := 0
	for i, p := range q.pending {
		if p < q.pending[k] {
			k = i
		}
	}
	x := q.pending[k]
	last := len(q.pending) - 1
	q.pending[k] = q.pending[last]
	q.pending = q.pending[:last]
	if p := q.m.t.parent[x]; p >= 0 {
		q.push(uint32(p))
	}
	q.walked = append(q.walked, x)
	return x, true
}

// seed sets the start labels of one direction.
func (q *Query) seed(lab []Weight, arc []int32, eps []Endpoint) {
	for _, e := range eps {
		x := q.m.t.rank[e.Node]
		if e.Init.Less(lab[x]) {
			lab[x] = e.Init
			arc[x] = -1
		}
		q.push(x)
	}
}

// ShortestPath returns the least weight from any source endpoint to any
// target endpoint and where the searches met, or Inf when there is none.
// Call Path or PathArcs afterwards for the route.
func (q *Query) ShortestPath(sources, targets []Endpoint) (Weight, Meeting) {
	minTarget, ok := q.start(sources, targets)
	if !ok {
		return Inf, Meeting{}
	}
	best := Inf
	var meet Meeting
	for {
		x, ok := q.pop()
		if !ok {
			break
		}
		if c, mt := q.meetingAt(x); c.Less(best) {
			best, meet = c, mt
		}
		if fx := q.fw[x]; fx.W != infW && (best.W == infW || fx.Add(minTarget).Less(best)) {
			q.relaxUp(x, fx)
		}
		if bx := q.bw[x]; bx.W != infW && bx.Less(best) {
			q.relaxDown(x, bx)
		}
	}
	return best, meet
}

// start resets q and seeds both searches; it returns the least Init of
// the targets (what a forward label needs at least to reach one), and
// false when there is no source or no target.
func (q *Query) start(sources, targets []Endpoint) (Weight, bool) {
	q.reset()
	if len(sources) == 0 || len(targets) == 0 {
		return Inf, false
	}
	q.seed(q.fw, q.fwArc, sources)
	q.seed(q.bw, q.bwArc, targets)
	minTarget := Inf
	for _, e := range targets {
		if e.Init.Less(minTarget) {
			minTarget = e.Init
		}
	}
	return minTarget, true
}

// meetingAt returns the weight of the path from a source to a target
// through x that the two searches' labels give, and the meeting, or Inf
// when a label is missing. A negative sum means that the source lies after
// the target on x: only x's loop then makes a path.
func (q *Query) meetingAt(x uint32) (Weight, Meeting) {
	fx, bx := q.fw[x], q.bw[x]
	if fx.W == infW || bx.W == infW {
		return Inf, Meeting{}
	}
	c := fx.Add(bx)
	if !c.negative() {
		return c, Meeting{node: x}
	}
	if l := q.m.loop[x]; l.W != infW {
		return c.Add(l), Meeting{node: x, useLoop: true}
	}
	return Inf, Meeting{}
}

// relaxUp relaxes x's upward arcs from its forward label fx.
func (q *Query) relaxUp(x uint32, fx Weight) {
	m, t := q.m, q.m.t
	for a := t.upFirst[x]; a < t.upFirst[x+1]; a++ {
		wa := m.w[a].Up
		if wa.W == infW {
			continue
		}
		y := t.upHead[a]
		if c := fx.Add(wa); c.Less(q.fw[y]) {
			q.fw[y], q.fwArc[y] = c, int32(a)
		}
	}
}

// relaxDown relaxes x's upward arcs, against their direction, from its
// backward label bx.
func (q *Query) relaxDown(x uint32, bx Weight) {
	m, t := q.m, q.m.t
	for a := t.upFirst[x]; a < t.upFirst[x+1]; a++ {
		wa := m.w[a].Down
		if wa.W == infW {
			continue
		}
		y := t.upHead[a]
		if c := bx.Add(wa); c.Less(q.bw[y]) {
			q.bw[y], q.bwArc[y] = c, int32(a)
		}
	}
}

// PathArcs returns the input arcs of the last ShortestPath result, in
// order; it is empty when the source and the target lie on one node.
func (q *Query) PathArcs(meet Meeting) []uint32 {
	m := q.m
	t := m.t
	// Upward half, collected from the meeting node back to the source.
	var up []uint32
	x := meet.node
	for q.fwArc[x] >= 0 {
		a := uint32(q.fwArc[x])
		up = append(up, a)
		x = t.upTail[a]
	}
	var path []uint32
	for i := len(up) - 1; i >= 0; i-- {
		path = m.unpack(path, up[i], false)
	}
	if meet.useLoop {
		path = m.unpackLoop(path, meet.node)
	}
	// Downward half, from the meeting node to the target.
	x = meet.node
	for q.bwArc[x] >= 0 {
		a := uint32(q.bwArc[x])
		path = m.unpack(path, a, true)
		x = t.upTail[a]
	}
	return path
}

// Path returns the nodes (the caller's ids) of the last ShortestPath
// result, from the source endpoint's node to the target endpoint's node.
func (q *Query) Path(meet Meeting) []uint32 {
	t := q.m.t
	x := meet.node
	for q.fwArc[x] >= 0 {
		x = t.upTail[q.fwArc[x]]
	}
	arcs := q.PathArcs(meet)
	nodes := make([]uint32, 0, len(arcs)+1)
	nodes = append(nodes, t.node[x])
	for _, i := range arcs {
		nodes = append(nodes, t.inputHead(i))
	}
	return nodes
}

// inputHead returns the head (the caller's id) of input arc i.
func (t *Topology) inputHead(i uint32) uint32 {
	v := t.input[i]
	if v&selfLoop != 0 {
		return t.node[v&^selfLoop]
	}
	a := v >> 1
	if v&1 != 0 {
		return t.node[t.upTail[a]]
	}
	return t.node[t.upHead[a]]
}

// unpack appends the input arcs of arc a in direction down (head to
// tail) or up. An arc whose weight a lower triangle gives is split there;
// otherwise it is an input arc of that weight.
func (m *Metric) unpack(path []uint32, a uint32, down bool) []uint32 {
	t := m.t
	lo, hi := t.upTail[a], t.upHead[a]
	want := m.w[a].Up
	if down {
		want = m.w[a].Down
	}
	for i := t.downFirst[lo]; i < t.downFirst[lo+1]; i++ {
		z, za := t.downTail[i], t.downArc[i] // za: z-lo
		zb, ok := t.findArc(z, hi)           // zb: z-hi
		if !ok {
			continue
		}
		first, second := m.w[za].Down, m.w[zb].Up // lo->z, z->hi
		if down {
			first, second = m.w[zb].Down, m.w[za].Up // hi->z, z->lo
		}
		if first.W == infW || second.W == infW || first.Add(second) != want {
			continue
		}
		if down {
			return m.unpack(m.unpack(path, zb, true), za, false)
		}
		return m.unpack(m.unpack(path, za, true), zb, false)
	}
	d := a << 1
	if down {
		d |= 1
	}
	cands := t.inputsOf(d)
	best := cands[0]
	for _, i := range cands {
		if m.input[i] == want {
			best = i
			break
		}
	}
	return append(path, best)
}

// unpackLoop appends the input arcs of the loop of node x.
func (m *Metric) unpackLoop(path []uint32, x uint32) []uint32 {
	t := m.t
	want := m.loop[x]
	for i := t.downFirst[x]; i < t.downFirst[x+1]; i++ {
		a := t.downArc[i]
		wa := m.w[a]
		if wa.Up.W != infW && wa.Down.W != infW && wa.Down.Add(wa.Up) == want {
			return m.unpack(m.unpack(path, a, true), a, false)
		}
	}
	for i, v := range t.input {
		if v == selfLoop|x && m.input[i] == want {
			return append(path, uint32(i))
		}
	}
	panic("cch: no loop to unpack")
}
