package osmfile

import (
	"slices"
	"sort"

	"github.com/paulmach/orb"
	"github.com/paulmach/osm"
)

// Importers that need the positions of some nodes (those of the ways they
// keep) collect the ways' node lists in one pass and read the positions
// in a later pass over the nodes. WayNodes and NodeCoords hold both in
// flat, sorted arrays, a few bytes per entry: no map keyed by id, no slice
// per way.

// WayNodes is the node lists of a set of ways, stored back to back.
// Add ways in any order, then Sort once before looking them up.
type WayNodes struct {
	ids   []int64
	start []int // way k's nodes are nodes[start[k]:start[k+1]]
	nodes []int64
}

// Add appends a way's node list.
func (w *WayNodes) Add(id int64, nodes osm.WayNodes) {
	if w.start == nil {
		w.start = []int{0}
	}
	w.ids = append(w.ids, id)
	for _, n := range nodes {
		w.nodes = append(w.nodes, int64(n.ID))
	}
	w.start = append(w.start, len(w.nodes))
}

// Len returns the number of ways.
func (w *WayNodes) Len() int { return len(w.ids) }

// Sort orders the ways by id, so that Nodes finds them; of ways added
// with one id, the last added is kept (as a map would).
func (w *WayNodes) Sort() {
	increasing := true
	for i := 1; i < len(w.ids) && increasing; i++ {
		increasing = w.ids[i] > w.ids[i-1]
	}
	if increasing {
		return
	}
	order := make([]int, len(w.ids))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return w.ids[order[a]] < w.ids[order[b]] })
	kept := order[:0]
	for i, k := range order {
		if i+1 < len(order) && w.ids[order[i+1]] == w.ids[k] {
			continue
		}
		kept = append(kept, k)
	}
	w.permute(kept)
}

// permute keeps the ways order lists, in that order.
func (w *WayNodes) permute(order []int) {
	ids := make([]int64, len(order))
	start := make([]int, 1, len(order)+1)
	n := 0
	for _, k := range order {
		n += w.start[k+1] - w.start[k]
	}
	nodes := make([]int64, 0, n)
	for i, k := range order {
		ids[i] = w.ids[k]
		nodes = append(nodes, w.nodes[w.start[k]:w.start[k+1]]...)
		start = append(start, len(nodes))
	}
	w.ids, w.start, w.nodes = ids, start, nodes
}

// Keep drops the ways keep returns false for (ways stay in their order).
func (w *WayNodes) Keep(keep func(id int64) bool) {
	var order []int
	for k, id := range w.ids {
		if keep(id) {
			order = append(order, k)
		}
	}
	w.permute(order)
}

// Nodes returns the node list of way id (shared: do not modify it), false
// when the way is not in the set. The ways must be sorted.
func (w *WayNodes) Nodes(id int64) ([]int64, bool) {
	k, ok := slices.BinarySearch(w.ids, id)
	if !ok {
		return nil, false
	}
	return w.nodes[w.start[k]:w.start[k+1]:w.start[k+1]], true
}

// NodeIDs returns a copy of every node id of the ways, in way order, with
// repeats (for NewNodeCoords).
func (w *WayNodes) NodeIDs() []int64 { return slices.Clone(w.nodes) }

// NodeCoords is the positions of a set of nodes: their ids sorted, and
// beside them the positions a pass over the nodes recorded.
type NodeCoords struct {
	ids  []int64
	pts  []orb.Point
	have []bool
}

// NewNodeCoords returns the set of the given node ids; ids is sorted and
// deduplicated in place and belongs to the set afterwards.
func NewNodeCoords(ids []int64) *NodeCoords {
	slices.Sort(ids)
	ids = slices.Clip(slices.Compact(ids))
	return &NodeCoords{ids: ids, pts: make([]orb.Point, len(ids)), have: make([]bool, len(ids))}
}

// Len returns the number of nodes in the set.
func (c *NodeCoords) Len() int { return len(c.ids) }

// Record stores n's position (lon, lat as read) when n is in the set, and
// reports whether it is. It is safe to call from the decoder goroutines of
// one pass (a Filter's Node function): each node writes its own entry.
func (c *NodeCoords) Record(n *osm.Node) bool {
	k, ok := slices.BinarySearch(c.ids, int64(n.ID))
	if ok {
		c.pts[k], c.have[k] = orb.Point{n.Lon, n.Lat}, true
	}
	return ok
}

// Point returns the recorded position of node id, false when the node is
// not in the set or the pass did not find it.
func (c *NodeCoords) Point(id int64) (orb.Point, bool) {
	k, ok := slices.BinarySearch(c.ids, id)
	if !ok || !c.have[k] {
		return orb.Point{}, false
	}
	return c.pts[k], true
}

// Each calls fn with every recorded position, in id order.
func (c *NodeCoords) Each(fn func(id int64, p orb.Point)) {
	for k, id := range c.ids {
		if c.have[k] {
			fn(id, c.pts[k])
		}
	}
}
