package routing

import (
	"container/heap"
	"fmt"
	"slices"
	"strings"

	"github.com/geosvc/geosvc/routing/ch"
	"github.com/geosvc/geosvc/routing/osmroad"
)

// stateOracle is the independent judge of via-way restrictions: a
// Dijkstra over (node, restriction progress) states on a graph built
// without them (plain edge-based nodes, no copies; via-node restrictions
// and turn costs are the engine's), tracking for every restriction how
// far along its member sequence (from edge, via edges) the route has
// driven. It shares no code with the node copies of viaway.go.
type stateOracle struct {
	g  *Graph // built without via-way restrictions
	rs []stateRule
	// starts[n] lists the restrictions whose from edge is node n.
	starts map[uint32][]int32
}

// stateRule is one via-way restriction over the plain graph's nodes.
type stateRule struct {
	path []uint32 // nodes: the from edge, then the via edges
	to   map[uint32]bool
	only bool
}

// progress is one restriction driven up to path[pos].
type progress struct{ rule, pos int32 }

func newStateOracle(g *Graph, rs []osmroad.WayRestriction) *stateOracle {
	o := &stateOracle{g: g, starts: map[uint32][]int32{}}
	node := func(d osmroad.DirEdge) int32 {
		dir := uint32(0)
		if d.Reverse {
			dir = 1
		}
		return g.edgeNode[directedID(d.Edge, dir)]
	}
	for _, r := range rs {
		sr := stateRule{to: map[uint32]bool{}, only: r.Only}
		ok := true
		for _, d := range r.Path {
			n := node(d)
			ok = ok && n >= 0
			sr.path = append(sr.path, uint32(n))
		}
		for _, d := range r.To {
			if n := node(d); n >= 0 {
				sr.to[uint32(n)] = true
			}
		}
		if !ok {
			continue
		}
		o.starts[sr.path[0]] = append(o.starts[sr.path[0]], int32(len(o.rs)))
		o.rs = append(o.rs, sr)
	}
	return o
}

// enter returns the progress on node n (the start of every restriction
// whose from edge n is).
func (o *stateOracle) enter(n uint32) []progress {
	var out []progress
	for _, r := range o.starts[n] {
		out = append(out, progress{r, 0})
	}
	return out
}

// step returns the progress after turning from a node with progress ps
// onto node h, or false when a restriction forbids the turn.
func (o *stateOracle) step(ps []progress, h uint32) ([]progress, bool) {
	var out []progress
	for _, p := range ps {
		r := &o.rs[p.rule]
		if int(p.pos) == len(r.path)-1 {
			if r.only != r.to[h] {
				return nil, false
			}
			continue
		}
		if r.path[p.pos+1] == h {
			out = append(out, progress{p.rule, p.pos + 1})
		}
	}
	out = append(out, o.enter(h)...)
	slices.SortFunc(out, func(a, b progress) int {
		if a.rule != b.rule {
			return int(a.rule - b.rule)
		}
		return int(a.pos - b.pos)
	})
	return slices.Compact(out), true
}

// stateKey names a state.
func stateKey(n uint32, ps []progress) string {
	var b strings.Builder
	fmt.Fprint(&b, n)
	for _, p := range ps {
		fmt.Fprintf(&b, ",%d.%d", p.rule, p.pos)
	}
	return b.String()
}

type oracleState struct {
	node uint32
	ps   []progress
	d    int64
	key  string
}

type stateHeap []oracleState

func (h stateHeap) Len() int           { return len(h) }
func (h stateHeap) Less(i, j int) bool { return h[i].d < h[j].d }
func (h stateHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *stateHeap) Push(x any)        { *h = append(*h, x.(oracleState)) }
func (h *stateHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// row returns the least weight of metric m from s to every destination
// (ch.Inf when none), over the states; s and dst are snaps on the
// engine's graph (the edges are the same).
func (o *stateOracle) row(m chMetric, s Snap, dst []Snap) []int64 {
	g, b := o.g, &o.g.base
	dist := map[string]int64{}
	var settled []oracleState
	h := &stateHeap{}
	var ph [2]phantom
	src := append([]phantom(nil), g.phantoms(m, s, ph[:0])...)
	for _, p := range src {
		ps := o.enter(p.node)
		st := oracleState{node: p.node, ps: ps, d: g.nodeWeight(m, p.node) - p.partial, key: stateKey(p.node, ps)}
		if d, ok := dist[st.key]; !ok || st.d < d {
			dist[st.key] = st.d
			heap.Push(h, st)
		}
	}
	done := map[string]bool{}
	for h.Len() > 0 {
		it := heap.Pop(h).(oracleState)
		if done[it.key] {
			continue
		}
		done[it.key] = true
		settled = append(settled, it)
		for i := b.turnFirst[it.node]; i < b.turnFirst[it.node+1]; i++ {
			v := b.turnHead[i]
			ps, ok := o.step(it.ps, v)
			if !ok {
				continue
			}
			nd := it.d + weight(m, int64(b.turnMS[i])+int64(b.nodeTime[v]), int64(b.nodeDist[v]))
			k := stateKey(v, ps)
			if d, seen := dist[k]; !seen || nd < d {
				dist[k] = nd
				heap.Push(h, oracleState{node: v, ps: ps, d: nd, key: k})
			}
		}
	}
	// Arrivals: every settled state with an allowed turn into a
	// destination's node, plus a destination ahead on a source's node.
	row := make([]int64, len(dst))
	targets := map[uint32][]int{}
	tps := make([][]phantom, len(dst))
	for j, t := range dst {
		row[j] = ch.Inf
		tps[j] = append([]phantom(nil), g.phantoms(m, t, ph[:0])...)
		for _, tp := range tps[j] {
			targets[tp.node] = append(targets[tp.node], j)
			for _, sp := range src {
				if sp.node == tp.node && tp.partial >= sp.partial && tp.partial-sp.partial < row[j] {
					row[j] = tp.partial - sp.partial
				}
			}
		}
	}
	for _, st := range settled {
		for i := b.turnFirst[st.node]; i < b.turnFirst[st.node+1]; i++ {
			v := b.turnHead[i]
			js := targets[v]
			if len(js) == 0 {
				continue
			}
			if _, ok := o.step(st.ps, v); !ok {
				continue
			}
			for _, j := range js {
				for _, tp := range tps[j] {
					if tp.node != v {
						continue
					}
					if c := st.d + weight(m, int64(b.turnMS[i]), 0) + tp.partial; c < row[j] {
						row[j] = c
					}
				}
			}
		}
	}
	return row
}

// violation returns the first restriction a path of the engine's nodes
// breaks ("" when none), judged on the originals of its nodes.
func (o *stateOracle) violation(eng *Graph, path []uint32) string {
	var ps []progress
	for i, n := range path {
		orig := eng.origNode(n)
		if i == 0 {
			ps = o.enter(orig)
			continue
		}
		var ok bool
		if ps, ok = o.step(ps, orig); !ok {
			return fmt.Sprintf("turn %d of the path (onto node %d) is forbidden", i, orig)
		}
	}
	return ""
}

// restricts reports whether a path of plain nodes drives a restricted
// sequence (a forbidden continuation, or any but an only_* one's to).
func (o *stateOracle) restricts(path []uint32) bool {
	return o.violation(o.g, path) != ""
}

// plainPath returns the nodes of the unrestricted shortest path of
// metric m from s to t on the oracle's graph (the hierarchy's).
func (o *stateOracle) plainPath(m chMetric, s, t Snap) []uint32 {
	g := o.g
	var sb, tb [2]ch.Endpoint
	src := g.sourceEndpoints(m, s, sb[:0])
	dst := g.targetEndpoints(m, t, tb[:0])
	if len(src) == 0 || len(dst) == 0 {
		return nil
	}
	q := g.query(m)
	defer g.release(m, q)
	best, meet := q.ShortestPath(src, dst)
	if best == ch.Inf {
		return nil
	}
	return q.Path(meet)
}

// enginePath returns the nodes of the engine's route of metric m.
func enginePath(g *Graph, m chMetric, s, t Snap) []uint32 {
	var sb, tb [2]ch.Endpoint
	src := g.sourceEndpoints(m, s, sb[:0])
	dst := g.targetEndpoints(m, t, tb[:0])
	q := g.query(m)
	defer g.release(m, q)
	best, meet := q.ShortestPath(src, dst)
	if best == ch.Inf {
		return nil
	}
	return q.Path(meet)
}
