package cch

import (
	"math"
	"sync"
	"sync/atomic"
)

// Inertial Flow parameters (Schild & Sommer 2015).
const (
	// inertialBalance is the share of a part's nodes taken as sources at
	// one end of a projection and as sinks at the other.
	inertialBalance = 0.25
	// leafSize: parts of at most this many nodes are ordered as they are.
	leafSize = 2
)

// inertialDirections are the directions the coordinates are projected on:
// east, north, north-east, south-east.
var inertialDirections = [...][2]float64{{1, 0}, {0, 1}, {math.Sqrt2 / 2, math.Sqrt2 / 2}, {math.Sqrt2 / 2, -math.Sqrt2 / 2}}

// dissector computes a nested-dissection order of an undirected graph.
type dissector struct {
	first, head []uint32     // global undirected CSR without self-loops
	xy          [][2]float64 // planar coordinates
	order       []uint32     // order[rank] = node
	tokens      chan *workspace
	wg          sync.WaitGroup
}

// workspace is the scratch of one goroutine.
type workspace struct {
	local []int32 // global node -> local id in the current part, -1 else
	cut   cutter
	flows [len(inertialDirections)]flowState
	first []uint32
	head  []uint32
	side  []uint8
	best  []uint8
	keyed []keyed
	comp  []int32
	queue []uint32
	buf   []uint32
	lxy   [][2]float32 // the part's coordinates, by local id
}

type keyed struct {
	k float64
	v uint32
}

// nestedDissection returns order[rank] = node for the undirected graph
// first/head (CSR, both directions of every edge) whose nodes lie at xy
// (planar), with up to workers goroutines.
func nestedDissection(first, head []uint32, xy [][2]float64, workers int) []uint32 {
	n := len(first) - 1
	d := &dissector{first: first, head: head, order: make([]uint32, n), xy: xy}
	if workers < 1 {
		workers = 1
	}
	d.tokens = make(chan *workspace, workers)
	for i := 0; i < workers; i++ {
		ws := &workspace{local: make([]int32, n)}
		for j := range ws.local {
			ws.local[j] = -1
		}
		d.tokens <- ws
	}
	all := make([]uint32, n)
	for i := range all {
		all[i] = uint32(i)
	}
	ws := <-d.tokens
	d.dissect(ws, all, 0)
	d.tokens <- ws
	d.wg.Wait()
	return d.order
}

// planar projects longitude/latitude onto a local plane (equirectangular
// at the mean latitude), the i-th point coords[at[i]] (at nil: coords[i]).
func planar(coords [][2]float64, at []uint32) [][2]float64 {
	var lat float64
	for _, c := range coords {
		lat += c[1]
	}
	if len(coords) > 0 {
		lat /= float64(len(coords))
	}
	k := math.Cos(lat * math.Pi / 180)
	xy := make([][2]float64, len(coords))
	for i := range xy {
		c := coords[i]
		if at != nil {
			c = coords[at[i]]
		}
		xy[i] = [2]float64{c[0] * k, c[1]}
	}
	return xy
}

// spawn runs f on another goroutine when a workspace is free, else on
// this one with ws.
func (d *dissector) spawn(ws *workspace, f func(ws *workspace)) {
	select {
	case other := <-d.tokens:
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			f(other)
			d.tokens <- other
		}()
	default:
		f(ws)
	}
}

// dissect orders the nodes of part (global ids) into order[lo:lo+len].
// part is owned by the call and may be reordered.
func (d *dissector) dissect(ws *workspace, part []uint32, lo int) {
	for {
		if len(part) <= leafSize {
			copy(d.order[lo:], part)
			return
		}
		d.induce(ws, part)
		n := len(part)
		// Connected components are ordered one after another.
		if comps := ws.components(n); comps > 1 {
			parts := groupBy(part, ws.comp, comps, &ws.buf)
			for i := range part {
				ws.local[part[i]] = -1
			}
			off := lo
			for _, p := range parts {
				at := off
				if len(p) > 4096 {
					d.spawn(ws, func(ws *workspace) { d.dissect(ws, p, at) })
				} else {
					d.dissect(ws, p, at)
				}
				off += len(p)
			}
			return
		}
		d.cut(ws, part)
		for i := range part {
			ws.local[part[i]] = -1
		}
		// best: 0 source side, 1 separator, 2 sink side.
		sides := groupBy(part, ws.best[:n], 3, &ws.buf)
		a, b, sep := sides[0], sides[2], sides[1]
		copy(d.order[lo+len(a)+len(b):], sep)
		if len(b) > 4096 {
			bLo := lo + len(a)
			d.spawn(ws, func(ws *workspace) { d.dissect(ws, b, bLo) })
		} else {
			d.dissect(ws, b, lo+len(a))
		}
		part = a
	}
}

// groupBy reorders part by class (class[i] for part[i], in 0..k-1),
// keeping the relative order within a class (buf is the scratch), and
// returns the classes as consecutive sub-slices of part.
func groupBy[C int32 | uint8](part []uint32, class []C, k int, buf *[]uint32) [][]uint32 {
	at := make([]int, k+1)
	for i := range part {
		at[class[i]+1]++
	}
	for c := 0; c < k; c++ {
		at[c+1] += at[c]
	}
	out := make([][]uint32, k)
	for c := range out {
		out[c] = part[at[c]:at[c+1]:at[c+1]]
	}
	tmp := resize(*buf, len(part))
	for i, v := range part {
		tmp[at[class[i]]] = v
		at[class[i]]++
	}
	copy(part, tmp)
	*buf = tmp
	return out
}

// induce builds the local CSR of the subgraph induced by part in
// ws.first/ws.head and leaves ws.local set for part's nodes.
func (d *dissector) induce(ws *workspace, part []uint32) {
	for i, v := range part {
		ws.local[v] = int32(i)
	}
	ws.first = resize(ws.first, len(part)+1)
	ws.head = ws.head[:0]
	for i, v := range part {
		ws.first[i] = uint32(len(ws.head))
		for e := d.first[v]; e < d.first[v+1]; e++ {
			if l := ws.local[d.head[e]]; l >= 0 {
				ws.head = append(ws.head, uint32(l))
			}
		}
	}
	ws.first[len(part)] = uint32(len(ws.head))
}

// components labels the connected components of the local graph in
// ws.comp and returns their number.
func (ws *workspace) components(n int) int {
	ws.comp = resize(ws.comp, n)
	for i := range ws.comp {
		ws.comp[i] = -1
	}
	k := int32(0)
	for s := 0; s < n; s++ {
		if ws.comp[s] >= 0 {
			continue
		}
		ws.comp[s] = k
		q := append(ws.queue[:0], uint32(s))
		for h := 0; h < len(q); h++ {
			v := q[h]
			for e := ws.first[v]; e < ws.first[v+1]; e++ {
				if u := ws.head[e]; ws.comp[u] < 0 {
					ws.comp[u] = k
					q = append(q, u)
				}
			}
		}
		ws.queue = q
		k++
	}
	return int(k)
}

// cut finds the best Inertial Flow separator of the connected local graph
// over part and leaves its sides in ws.best. A large part's directions
// are split with another goroutine when a workspace is free; the two
// share the bound of the best finished cut.
func (d *dissector) cut(ws *workspace, part []uint32) {
	n := len(part)
	ws.cut.rev = reverseSlots(ws.first, ws.head, ws.cut.rev)
	// The local graph both goroutines read, taken before either starts:
	// each swaps its own cutter's slices, never the other's.
	ws.lxy = resize(ws.lxy, n)
	for i, v := range part {
		ws.lxy[i] = [2]float32{float32(d.xy[v][0]), float32(d.xy[v][1])}
	}
	g := localGraph{ws.first, ws.head, ws.cut.rev, ws.lxy}
	var bound atomic.Int64
	bound.Store(math.MaxInt64)
	if n >= parallelCut {
		select {
		case other := <-d.tokens:
			var wg sync.WaitGroup
			wg.Add(1)
			var size2, big2 int
			go func() {
				defer wg.Done()
				size2, big2 = d.tryDirections(other, g, part, []int{1, 3}, &bound)
			}()
			size1, big1 := d.tryDirections(ws, g, part, []int{0, 2}, &bound)
			wg.Wait()
			if size2 < size1 || (size2 == size1 && big2 < big1) {
				copy(ws.best[:n], other.best[:n])
			}
			d.tokens <- other
			return
		default:
		}
	}
	d.tryDirections(ws, g, part, []int{0, 1, 2, 3}, &bound)
}

// parallelCut is the smallest part whose directions are tried on two
// goroutines.
const parallelCut = 20000

// localGraph is a part's local CSR and the reverse slot of every edge.
type localGraph struct {
	first, head, rev []uint32
	xy               [][2]float32
}

// tryDirections computes the cuts of the given projection directions of
// the part whose local graph is g, with w's scratch, keeps the best in
// w.best and returns its size and larger side (size math.MaxInt when
// every direction gave up). The directions race: the one with the least
// flow so far runs the next round, and one whose flow exceeds bound (the
// smallest cut finished by any goroutine of this part) gives up.
func (d *dissector) tryDirections(w *workspace, g localGraph, part []uint32, dirs []int, bound *atomic.Int64) (int, int) {
	n := len(part)
	c := &w.cut
	ownRev := c.rev
	c.first, c.head, c.rev, c.xy = g.first, g.head, g.rev, g.xy
	defer func() { c.rev = ownRev }()
	c.prepare(n)
	w.side = resize(w.side, n)
	w.best = resize(w.best, n)
	k := max(int(float64(n)*inertialBalance), 1)
	sources := make([]uint32, k)
	sinks := make([]uint32, k)
	for _, di := range dirs {
		dir := inertialDirections[di]
		w.keyed = resize(w.keyed, n)
		for i, v := range part {
			p := d.xy[v]
			w.keyed[i] = keyed{p[0]*dir[0] + p[1]*dir[1], uint32(i)}
		}
		selectK(w.keyed, k)
		selectK(w.keyed[k:], n-2*k)
		for i := 0; i < k; i++ {
			sources[i] = w.keyed[i].v
			sinks[i] = w.keyed[n-k+i].v
		}
		c.start(&w.flows[di], sources, sinks, &dir)
	}
	bestCut, bestBig := math.MaxInt, math.MaxInt
	for {
		var st *flowState
		for _, di := range dirs {
			f := &w.flows[di]
			if !f.done && int64(f.flow) <= bound.Load() && (st == nil || f.flow < st.flow) {
				st = f
			}
		}
		if st == nil {
			return bestCut, bestBig
		}
		c.round(st, w.side)
		if !st.done {
			continue
		}
		size := st.flow
		for {
			b := bound.Load()
			if int64(size) >= b || bound.CompareAndSwap(b, int64(size)) {
				break
			}
		}
		var na, nb int
		for _, s := range w.side {
			switch s {
			case 0:
				na++
			case 2:
				nb++
			}
		}
		if big := max(na, nb); size < bestCut || (size == bestCut && big < bestBig) {
			bestCut, bestBig = size, big
			copy(w.best, w.side)
		}
	}
}

// reverseSlots returns rev with rev[e] the slot of the reverse of edge
// slot e (the CSR holds both directions of every edge, once each).
func reverseSlots(first, head []uint32, rev []uint32) []uint32 {
	rev = resize(rev, len(head))
	n := len(first) - 1
	for u := 0; u < n; u++ {
		for e := first[u]; e < first[u+1]; e++ {
			v := head[e]
			if v <= uint32(u) {
				continue
			}
			for f := first[v]; f < first[v+1]; f++ {
				if head[f] == uint32(u) {
					rev[e], rev[f] = f, e
					break
				}
			}
		}
	}
	return rev
}

// selectK partially sorts s so that its k smallest keys come first.
func selectK(s []keyed, k int) {
	lo, hi := 0, len(s)-1
	if k <= 0 || k >= len(s) {
		return
	}
	for lo < hi {
		p := s[(lo+hi)/2].k
		i, j := lo, hi
		for i <= j {
			for s[i].k < p {
				i++
			}
			for s[j].k > p {
				j--
			}
			if i <= j {
				s[i], s[j] = s[j], s[i]
				i++
				j--
			}
		}
		if k-1 <= j {
			hi = j
		} else if k-1 >= i {
			lo = i
		} else {
			return
		}
	}
}
