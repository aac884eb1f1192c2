package ch

// Endpoint is a query start or end: a node with an initial label. For a
// source the label is the cost from the start point to the end of the
// node; for a target it is minus the cost from the target point to the end
// of the node (so usually negative), OSRM's phantom-node offsets.
//
// When a source and a target endpoint share a node and their labels sum
// below zero (the target lies behind the source on that node), the query
// answers with the way round through other nodes or the node's loop. It
// assumes, as phantom nodes guarantee, that no path from another source
// endpoint that tops out at that node can beat that answer: the other
// source endpoint of a phantom is the reverse direction of the same road,
// which reaches the target directly.
type Endpoint struct {
	Node uint32
	Init int64
}

// label is a node's state in one search direction, kept in one 16-byte
// record so that a visit touches one cache line.
type label struct {
	d     int64
	stamp uint32
	arc   int32 // arc index (Up or Down arrays) used to reach the node, -1 at a root
}

// side is one direction of a search: labels, parents and a heap.
type side struct {
	lab    []label
	parent []uint32 // predecessor in the search tree
	track  bool     // write parent (point-to-point queries only)
	epoch  uint32
	heap   *minHeap
}

func newSide(n int, withParents bool) *side {
	s := &side{lab: make([]label, n), heap: newMinHeap(n)}
	if withParents {
		s.parent = make([]uint32, n)
	}
	return s
}

// reset starts a new search; track says whether to record parents.
func (s *side) reset(track bool) {
	s.track = track && s.parent != nil
	s.epoch++
	if s.epoch == 0 {
		for i := range s.lab {
			s.lab[i].stamp = 0
		}
		s.epoch = 1
	}
	s.heap.clear()
}

// start resets the side and seeds it with endpoints (caller's node ids).
func (s *side) start(h *Hierarchy, eps []Endpoint, track bool) {
	s.reset(track)
	for _, e := range eps {
		v := h.Order[e.Node]
		s.relax(v, e.Init, v, -1)
	}
}

// startRow begins the forward upward search of a one-to-many row (Row,
// RowSweep): row is set to Inf everywhere and the search is seeded with
// the sources. It returns the search, nil when there is no source (the
// row stays Inf). The callers' search loops differ on purpose: Row stalls
// nodes and scans the target buckets at each settled node, RowSweep only
// collects the upward labels that its downward sweep reads.
func (q *Query) startRow(sources []Endpoint, row []int64) *side {
	for j := range row {
		row[j] = Inf
	}
	if len(sources) == 0 {
		return nil
	}
	q.fw.start(q.h, sources, false)
	return q.fw
}

func (s *side) label(v uint32) int64 {
	if l := &s.lab[v]; l.stamp == s.epoch {
		return l.d
	}
	return Inf
}

// relax offers label d to v via arc from parent p.
func (s *side) relax(v uint32, d int64, p uint32, arc int32) {
	l := &s.lab[v]
	if l.stamp == s.epoch && l.d <= d {
		return
	}
	l.stamp, l.d, l.arc = s.epoch, d, arc
	if s.track {
		s.parent[v] = p
	}
	s.heap.push(v, d)
}

// Query is the per-goroutine workspace for searches on one Hierarchy. It is
// not safe for concurrent use; keep one per goroutine (a sync.Pool works).
type Query struct {
	h      *Hierarchy
	fw, bw *side
	all    []int64 // sweep labels, allocated on first use
	// ViaSearch and path scratch.
	settled []uint32
	upArcs  []int32
}

// NewQuery returns a workspace for h.
func (h *Hierarchy) NewQuery() *Query {
	return &Query{h: h, fw: newSide(h.N, true), bw: newSide(h.N, true)}
}

// stalledForward reports whether the forward label d of v is beaten by a
// path through a higher-ranked node (stall-on-demand).
func (h *Hierarchy) stalledForward(s *side, v uint32, d int64) bool {
	for i := h.DownFirst[v]; i < h.DownFirst[v+1]; i++ {
		if l := &s.lab[h.DownTail[i]]; l.stamp == s.epoch && l.d+h.DownWeight[i] < d {
			return true
		}
	}
	return false
}

// stalledBackward is stalledForward for the backward search.
func (h *Hierarchy) stalledBackward(s *side, v uint32, d int64) bool {
	for i := h.UpFirst[v]; i < h.UpFirst[v+1]; i++ {
		if l := &s.lab[h.UpHead[i]]; l.stamp == s.epoch && l.d+h.UpWeight[i] < d {
			return true
		}
	}
	return false
}

// Meeting describes where the two searches of a point-to-point query met
// (internal ids).
type Meeting struct {
	node    uint32
	useLoop bool
}

// ShortestPath returns the least weight from any source endpoint to any
// target endpoint, and where the searches met, or Inf when there is none.
// Call Path afterwards for the node sequence.
func (q *Query) ShortestPath(sources, targets []Endpoint) (int64, Meeting) {
	h := q.h
	fw, bw := q.fw, q.bw
	fw.start(h, sources, true)
	bw.start(h, targets, true)
	minTargetInit := minInit(targets)
	best := Inf
	var meet Meeting
	consider := func(v uint32) {
		if c, m := q.meetingAt(v); c < best {
			best, meet = c, m
		}
	}
	fwDone, bwDone := false, false
	for !fwDone || !bwDone {
		if !fwDone && (fw.heap.len() == 0 || fw.heap.minKey()+minTargetInit >= best) {
			fwDone = true
		}
		if !bwDone && (bw.heap.len() == 0 || bw.heap.minKey() >= best) {
			bwDone = true
		}
		forward := !fwDone && (bwDone || fw.heap.minKey() <= bw.heap.minKey())
		if forward {
			v, d := fw.heap.pop()
			consider(v)
			if h.stalledForward(fw, v, d) {
				continue
			}
			for i := h.UpFirst[v]; i < h.UpFirst[v+1]; i++ {
				fw.relax(h.UpHead[i], d+h.UpWeight[i], v, int32(i))
			}
		} else if !bwDone {
			v, d := bw.heap.pop()
			consider(v)
			if h.stalledBackward(bw, v, d) {
				continue
			}
			for i := h.DownFirst[v]; i < h.DownFirst[v+1]; i++ {
				bw.relax(h.DownTail[i], d+h.DownWeight[i], v, int32(i))
			}
		}
	}
	return best, meet
}

// minInit returns the least Init of the endpoints, and 0 when none is
// negative: what a forward search adds to its least key to bound the
// weight of any path it can still complete.
func minInit(eps []Endpoint) int64 {
	var m int64
	for _, e := range eps {
		m = min(m, e.Init)
	}
	return m
}

// meetingAt returns the weight of the path from a source to a target
// through v that the two searches' labels give, and the meeting, or Inf
// when a label is missing. A negative sum means that the source lies after
// the target on v: only v's cycle (Loop) then makes a path.
func (q *Query) meetingAt(v uint32) (int64, Meeting) {
	df, db := q.fw.label(v), q.bw.label(v)
	if df == Inf || db == Inf {
		return Inf, Meeting{}
	}
	c := df + db
	if c >= 0 {
		return c, Meeting{node: v}
	}
	if q.h.Loop[v] == Inf {
		return Inf, Meeting{}
	}
	return c + q.h.Loop[v], Meeting{node: v, useLoop: true}
}

// Path returns the node sequence of the last ShortestPath result, from the
// source endpoint's node to the target endpoint's node, with every
// shortcut unpacked into original arcs.
func (q *Query) Path(m Meeting) []uint32 {
	path, _ := q.appendPath(nil, m)
	return path
}

// appendPath appends the path of meeting m to dst (caller's ids) and
// returns it with the index of the meeting node in it.
func (q *Query) appendPath(dst []uint32, m Meeting) ([]uint32, int) {
	h := q.h
	// Forward half, collected backwards from the meeting node. Internal
	// ids until the end.
	upArcs := q.upArcs[:0]
	v := m.node
	for q.fw.lab[v].arc >= 0 {
		upArcs = append(upArcs, q.fw.lab[v].arc)
		v = q.fw.parent[v]
	}
	q.upArcs = upArcs
	start := len(dst)
	path := append(dst, v)
	for i := len(upArcs) - 1; i >= 0; i-- {
		a := upArcs[i]
		path = h.unpack(path, v, h.UpHead[a], h.UpMid[a])
		v = h.UpHead[a]
	}
	at := len(path) - 1 - start
	if m.useLoop {
		path = h.unpackLoop(path, m.node)
	}
	// Backward half: from the meeting node down to the target.
	for q.bw.lab[v].arc >= 0 {
		a := q.bw.lab[v].arc
		next := q.bw.parent[v]
		path = h.unpack(path, v, next, h.DownMid[a])
		v = next
	}
	for i := start; i < len(path); i++ {
		path[i] = h.orig[path[i]]
	}
	return path, at
}

// unpack appends the nodes after u of the arc u->x with middle mid.
func (h *Hierarchy) unpack(path []uint32, u, x uint32, mid int32) []uint32 {
	if mid < 0 {
		return append(path, x)
	}
	m := uint32(mid)
	// u->m is stored at m as a down arc with tail u; m->x as an up arc.
	i := h.findDown(m, u)
	path = h.unpack(path, u, m, h.DownMid[i])
	j := h.findUp(m, x)
	return h.unpack(path, m, x, h.UpMid[j])
}

// unpackLoop appends the cycle at v (excluding the leading v).
func (h *Hierarchy) unpackLoop(path []uint32, v uint32) []uint32 {
	mid := h.LoopMid[v]
	if mid < 0 {
		return append(path, v)
	}
	return h.unpack(path, v, v, mid)
}

func (h *Hierarchy) findDown(v, tail uint32) uint32 {
	for i := h.DownFirst[v]; i < h.DownFirst[v+1]; i++ {
		if h.DownTail[i] == tail {
			return i
		}
	}
	panic("ch: corrupt hierarchy: missing down arc")
}

func (h *Hierarchy) findUp(v, head uint32) uint32 {
	for i := h.UpFirst[v]; i < h.UpFirst[v+1]; i++ {
		if h.UpHead[i] == head {
			return i
		}
	}
	panic("ch: corrupt hierarchy: missing up arc")
}
