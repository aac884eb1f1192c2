package ch

// minHeap is a 4-ary min-heap of node ids keyed by int64, with decrease-key
// through a position index. Positions live in a slice sized to the graph and
// are only valid for nodes currently in the heap.
type minHeap struct {
	nodes []uint32
	keys  []int64
	pos   []int32 // pos[node] = index in nodes, or -1
}

func newMinHeap(n int) *minHeap {
	h := &minHeap{pos: make([]int32, n)}
	for i := range h.pos {
		h.pos[i] = -1
	}
	return h
}

func (h *minHeap) len() int { return len(h.nodes) }

// clear empties the heap, resetting only the positions it used.
func (h *minHeap) clear() {
	for _, v := range h.nodes {
		h.pos[v] = -1
	}
	h.nodes = h.nodes[:0]
	h.keys = h.keys[:0]
}

// push inserts v with key k, or lowers its key when v is present and k is
// smaller.
func (h *minHeap) push(v uint32, k int64) {
	if p := h.pos[v]; p >= 0 {
		if k < h.keys[p] {
			h.keys[p] = k
			h.up(int(p))
		}
		return
	}
	h.nodes = append(h.nodes, v)
	h.keys = append(h.keys, k)
	i := len(h.nodes) - 1
	h.pos[v] = int32(i)
	h.up(i)
}

func (h *minHeap) minKey() int64 { return h.keys[0] }

// pop removes and returns the node with the smallest key.
func (h *minHeap) pop() (uint32, int64) {
	v, k := h.nodes[0], h.keys[0]
	h.pos[v] = -1
	last := len(h.nodes) - 1
	if last > 0 {
		h.nodes[0], h.keys[0] = h.nodes[last], h.keys[last]
		h.pos[h.nodes[0]] = 0
	}
	h.nodes = h.nodes[:last]
	h.keys = h.keys[:last]
	if last > 0 {
		h.down(0)
	}
	return v, k
}

func (h *minHeap) up(i int) {
	v, k := h.nodes[i], h.keys[i]
	for i > 0 {
		p := (i - 1) >> 2
		if h.keys[p] <= k {
			break
		}
		h.nodes[i], h.keys[i] = h.nodes[p], h.keys[p]
		h.pos[h.nodes[i]] = int32(i)
		i = p
	}
	h.nodes[i], h.keys[i] = v, k
	h.pos[v] = int32(i)
}

func (h *minHeap) down(i int) {
	n := len(h.nodes)
	v, k := h.nodes[i], h.keys[i]
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		best, bk := c, h.keys[c]
		end := c + 4
		if end > n {
			end = n
		}
		for j := c + 1; j < end; j++ {
			if h.keys[j] < bk {
				best, bk = j, h.keys[j]
			}
		}
		if bk >= k {
			break
		}
		h.nodes[i], h.keys[i] = h.nodes[best], bk
		h.pos[h.nodes[i]] = int32(i)
		i = best
	}
	h.nodes[i], h.keys[i] = v, k
	h.pos[v] = int32(i)
}

// set inserts v with key k or moves it to key k, up or down.
func (h *minHeap) set(v uint32, k int64) {
	p := h.pos[v]
	if p < 0 {
		h.push(v, k)
		return
	}
	old := h.keys[p]
	h.keys[p] = k
	if k < old {
		h.up(int(p))
	} else if k > old {
		h.down(int(p))
	}
}
