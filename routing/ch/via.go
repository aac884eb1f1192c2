package ch

import "slices"

// Via is a via-node candidate of an alternative-route query: a node that
// both searches reached, and the weight of the path from a source through
// it to a target that their search trees give.
type Via struct {
	Node   uint32 // the caller's id
	weight int64
	meet   Meeting
}

// ViaSearch runs the two searches of a via-node alternative query
// (Abraham, Delling, Goldberg, Werneck, "Alternative routes in road
// networks", 2013): the upward searches of ShortestPath, without
// stall-on-demand and not stopped by the meeting, each until its least key
// exceeds limit(best), best being the least source-to-target weight found
// so far. limit must not lower its argument, and must return Inf for Inf.
// It returns best and its meeting, as ShortestPath does, and appends to
// vias every node both searches reached whose path weight (the sum of its
// two labels) is between 0 and limit(best), ascending by weight (then
// node). Call Path with the meeting, or ViaPath with a candidate, for the
// routes; both stay valid until the next search on q.
func (q *Query) ViaSearch(sources, targets []Endpoint, limit func(best int64) int64, vias []Via) (int64, Meeting, []Via) {
	h := q.h
	fw, bw := q.fw, q.bw
	fw.start(h, sources, true)
	bw.start(h, targets, true)
	q.settled = q.settled[:0]
	minTargetInit := minInit(targets)
	best := Inf
	bound := Inf
	var meet Meeting
	consider := func(v uint32) {
		if c, m := q.meetingAt(v); c < best {
			best, meet = c, m
			bound = limit(best)
		}
	}
	fwDone, bwDone := false, false
	for !fwDone || !bwDone {
		if !fwDone && (fw.heap.len() == 0 || (bound != Inf && fw.heap.minKey()+minTargetInit > bound)) {
			fwDone = true
		}
		if !bwDone && (bw.heap.len() == 0 || (bound != Inf && bw.heap.minKey() > bound)) {
			bwDone = true
		}
		forward := !fwDone && (bwDone || fw.heap.minKey() <= bw.heap.minKey())
		if forward {
			v, d := fw.heap.pop()
			q.settled = append(q.settled, v)
			consider(v)
			for i := h.UpFirst[v]; i < h.UpFirst[v+1]; i++ {
				fw.relax(h.UpHead[i], d+h.UpWeight[i], v, int32(i))
			}
		} else if !bwDone {
			v, d := bw.heap.pop()
			consider(v)
			for i := h.DownFirst[v]; i < h.DownFirst[v+1]; i++ {
				bw.relax(h.DownTail[i], d+h.DownWeight[i], v, int32(i))
			}
		}
	}
	if best == Inf {
		return best, meet, vias
	}
	start := len(vias)
	for _, v := range q.settled {
		df, db := fw.label(v), bw.label(v)
		if df == Inf || db == Inf {
			continue
		}
		if c := df + db; c >= 0 && c <= bound {
			vias = append(vias, Via{Node: h.orig[v], weight: c, meet: Meeting{node: v}})
		}
	}
	add := vias[start:]
	slices.SortFunc(add, func(a, b Via) int {
		if a.weight != b.weight {
			if a.weight < b.weight {
				return -1
			}
			return 1
		}
		return int(a.Node) - int(b.Node)
	})
	// A node the forward search settled twice appears twice.
	vias = append(vias[:start], slices.CompactFunc(add, func(a, b Via) bool { return a.Node == b.Node })...)
	return best, meet, vias
}

// ViaPath appends to dst the nodes (caller's ids) of the path through
// candidate v of the last ViaSearch, source to target, and returns it
// with the index of v's node in it.
func (q *Query) ViaPath(dst []uint32, v Via) ([]uint32, int) {
	return q.appendPath(dst, v.meet)
}
