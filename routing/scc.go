package routing

// components returns the strongly connected component of every node of
// the edge-based graph among the nodes with usable set (-1 for the
// others) and each component's size. It is Tarjan's algorithm made
// iterative.
func components(arcs *baseArcs, usable []bool) (comp []int32, sizes []int) {
	n := len(arcs.first)
	const unvisited = -1
	index := make([]int32, n)
	low := make([]int32, n)
	comp = make([]int32, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = unvisited
		comp[i] = -1
	}
	var stack []uint32
	type frame struct {
		v    uint32
		next int
	}
	var call []frame
	var counter int32
	for root := 0; root < n; root++ {
		if !usable[root] || index[root] != unvisited {
			continue
		}
		call = append(call[:0], frame{v: uint32(root)})
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, uint32(root))
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if out := arcs.of(v); f.next < len(out) {
				w := out[f.next].head
				f.next++
				if !usable[w] {
					continue
				}
				if index[w] == unvisited {
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{v: w})
				} else if onStack[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			if low[v] == index[v] {
				id := int32(len(sizes))
				size := 0
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = id
					size++
					if w == v {
						break
					}
				}
				sizes = append(sizes, size)
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				if low[v] < low[p] {
					low[p] = low[v]
				}
			}
		}
	}
	return comp, sizes
}
