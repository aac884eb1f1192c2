package cch

import (
	"slices"
	"sort"
)

// schedule splits the customization among workers by elimination-tree
// subtrees: a node's lower neighbours are its descendants, so disjoint
// subtrees are customized independently, each in rank order (which keeps
// the arcs it reads in cache: nested dissection numbers a part's nodes
// together). The nodes above the subtrees (the top separators) follow on
// one goroutine.
type schedule struct {
	parts [][]uint32 // per worker, ascending ranks
	top   []uint32   // ascending ranks
}

// schedule returns the customization schedule for workers goroutines,
// computed on first use.
func (t *Topology) schedule(workers int) *schedule {
	t.schedMu.Lock()
	defer t.schedMu.Unlock()
	if s, ok := t.schedules[workers]; ok {
		return s
	}
	s := t.makeSchedule(workers)
	if t.schedules == nil {
		t.schedules = map[int]*schedule{}
	}
	t.schedules[workers] = s
	return s
}

func (t *Topology) makeSchedule(workers int) *schedule {
	n := t.n
	if workers <= 1 {
		all := make([]uint32, n)
		for i := range all {
			all[i] = uint32(i)
		}
		return &schedule{parts: [][]uint32{all}}
	}
	// The work of a node: the triangles its customization visits, plus
	// one per lower neighbour; summed over subtrees.
	sub := make([]int64, n)
	var total int64
	for x := 0; x < n; x++ {
		w := int64(1)
		for i := t.downFirst[x]; i < t.downFirst[x+1]; i++ {
			w += 1 + int64(t.upFirst[t.downTail[i]+1]-t.downArc[i])
		}
		sub[x] += w
		total += w
		if p := t.parent[x]; p >= 0 {
			sub[p] += sub[x]
		}
	}
	// Children lists: child[childFirst[x]:childFirst[x+1]].
	childFirst := make([]uint32, n+1)
	var roots []uint32
	for x, p := range t.parent {
		if p < 0 {
			roots = append(roots, uint32(x))
		} else {
			childFirst[p+1]++
		}
	}
	for i := 0; i < n; i++ {
		childFirst[i+1] += childFirst[i]
	}
	child := make([]uint32, childFirst[n])
	fill := slices.Clone(childFirst[:n])
	for x, p := range t.parent {
		if p >= 0 {
			child[fill[p]] = uint32(x)
			fill[p]++
		}
	}
	// Split the heaviest subtree into its children while it is heavier
	// than a share of the work.
	limit := total / int64(4*workers)
	cands := roots
	var top []uint32
	for {
		k := -1
		for i, c := range cands {
			if sub[c] > limit && (k < 0 || sub[c] > sub[cands[k]]) {
				k = i
			}
		}
		if k < 0 || len(top) > n/2 {
			break
		}
		x := cands[k]
		cands[k] = cands[len(cands)-1]
		cands = cands[:len(cands)-1]
		top = append(top, x)
		cands = append(cands, child[childFirst[x]:childFirst[x+1]]...)
	}
	// Longest processing time first.
	sort.Slice(cands, func(i, j int) bool { return sub[cands[i]] > sub[cands[j]] })
	load := make([]int64, workers)
	s := &schedule{parts: make([][]uint32, workers)}
	for _, c := range cands {
		w := 0
		for i := range load {
			if load[i] < load[w] {
				w = i
			}
		}
		load[w] += sub[c]
		s.parts[w] = t.appendSubtree(s.parts[w], c, child, childFirst)
	}
	for _, p := range s.parts {
		slices.Sort(p)
	}
	slices.Sort(top)
	s.top = top
	return s
}

// appendSubtree appends the nodes of the subtree of x.
func (t *Topology) appendSubtree(out []uint32, x uint32, child, childFirst []uint32) []uint32 {
	start := len(out)
	out = append(out, x)
	for i := start; i < len(out); i++ {
		v := out[i]
		out = append(out, child[childFirst[v]:childFirst[v+1]]...)
	}
	return out
}
