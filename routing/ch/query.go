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

// side is one direction of a search: labels, parents and a heap.
type side struct {
	dist    []int64
	stamp   []uint32
	parent  []uint32 // predecessor node in the search tree
	parArc  []int32  // arc index (Up or Down arrays) used to reach the node, -1 at a root
	epoch   uint32
	heap    *minHeap
	settled []uint32
}

func newSide(n int, withParents bool) *side {
	s := &side{dist: make([]int64, n), stamp: make([]uint32, n), heap: newMinHeap(n)}
	if withParents {
		s.parent = make([]uint32, n)
		s.parArc = make([]int32, n)
	}
	return s
}

func (s *side) reset() {
	s.epoch++
	if s.epoch == 0 {
		for i := range s.stamp {
			s.stamp[i] = 0
		}
		s.epoch = 1
	}
	s.heap.clear()
	s.settled = s.settled[:0]
}

func (s *side) label(v uint32) int64 {
	if s.stamp[v] != s.epoch {
		return Inf
	}
	return s.dist[v]
}

// relax offers label d to v via arc from parent p; it reports whether the
// label improved.
func (s *side) relax(v uint32, d int64, p uint32, arc int32) bool {
	if s.stamp[v] == s.epoch && s.dist[v] <= d {
		return false
	}
	s.stamp[v] = s.epoch
	s.dist[v] = d
	if s.parent != nil {
		s.parent[v] = p
		s.parArc[v] = arc
	}
	s.heap.push(v, d)
	return true
}

// Query is the per-goroutine workspace for searches on one Hierarchy. It is
// not safe for concurrent use; keep one per goroutine (a sync.Pool works).
type Query struct {
	h      *Hierarchy
	fw, bw *side
}

// NewQuery returns a workspace for h.
func (h *Hierarchy) NewQuery() *Query {
	return &Query{h: h, fw: newSide(h.N, true), bw: newSide(h.N, true)}
}

// stalledForward reports whether the forward label d of v is beaten by a
// path through a higher-ranked node (stall-on-demand).
func (h *Hierarchy) stalledForward(s *side, v uint32, d int64) bool {
	for i := h.DownFirst[v]; i < h.DownFirst[v+1]; i++ {
		u := h.DownTail[i]
		if s.stamp[u] == s.epoch && s.dist[u]+h.DownWeight[i] < d {
			return true
		}
	}
	return false
}

// stalledBackward is stalledForward for the backward search.
func (h *Hierarchy) stalledBackward(s *side, v uint32, d int64) bool {
	for i := h.UpFirst[v]; i < h.UpFirst[v+1]; i++ {
		u := h.UpHead[i]
		if s.stamp[u] == s.epoch && s.dist[u]+h.UpWeight[i] < d {
			return true
		}
	}
	return false
}

// Meeting describes where the two searches of a point-to-point query met.
type Meeting struct {
	Node    uint32
	UseLoop bool
}

// ShortestPath returns the least weight from any source endpoint to any
// target endpoint, and where the searches met, or Inf when there is none.
// Call Path afterwards for the node sequence.
func (q *Query) ShortestPath(sources, targets []Endpoint) (int64, Meeting) {
	h := q.h
	fw, bw := q.fw, q.bw
	fw.reset()
	bw.reset()
	var minTargetInit int64
	for _, e := range sources {
		fw.relax(e.Node, e.Init, e.Node, -1)
	}
	for _, e := range targets {
		bw.relax(e.Node, e.Init, e.Node, -1)
		if e.Init < minTargetInit {
			minTargetInit = e.Init
		}
	}
	best := Inf
	var meet Meeting
	consider := func(v uint32) {
		df, db := fw.label(v), bw.label(v)
		if df == Inf || db == Inf {
			return
		}
		c := df + db
		useLoop := false
		if c < 0 {
			// The source lies after the target on v: only a cycle helps.
			if h.Loop[v] == Inf {
				return
			}
			c += h.Loop[v]
			useLoop = true
		}
		if c < best {
			best = c
			meet = Meeting{Node: v, UseLoop: useLoop}
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

// Path returns the node sequence of the last ShortestPath result, from the
// source endpoint's node to the target endpoint's node, with every
// shortcut unpacked into original arcs.
func (q *Query) Path(m Meeting) []uint32 {
	h := q.h
	// Forward half, collected backwards from the meeting node.
	var upArcs []int32
	for v := m.Node; q.fw.parArc[v] >= 0; v = q.fw.parent[v] {
		upArcs = append(upArcs, q.fw.parArc[v])
	}
	v := m.Node
	for v2 := m.Node; q.fw.parArc[v2] >= 0; v2 = q.fw.parent[v2] {
		v = q.fw.parent[v2]
	}
	path := []uint32{v}
	for i := len(upArcs) - 1; i >= 0; i-- {
		a := upArcs[i]
		path = h.unpack(path, v, h.UpHead[a], h.UpMid[a])
		v = h.UpHead[a]
	}
	if m.UseLoop {
		path = h.unpackLoop(path, m.Node)
	}
	// Backward half: from the meeting node down to the target.
	for q.bw.parArc[v] >= 0 {
		a := q.bw.parArc[v]
		next := q.bw.parent[v]
		path = h.unpack(path, v, next, h.DownMid[a])
		v = next
	}
	return path
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
