package ch

// OneToAll computes the least weight from the source endpoints to the end
// of every node with PHAST (Delling et al. 2011): an upward search from
// the sources, then one sweep over all nodes in descending rank that
// relaxes their downward arcs. Internal ids are numbered by descending
// rank, so the sweep is a linear pass over the arrays. The result is
// indexed by internal id (see Hierarchy.Order) and valid until the next
// call on q.
func (q *Query) OneToAll(sources []Endpoint) []int64 {
	h := q.h
	if q.all == nil {
		q.all = make([]int64, h.N)
	}
	fw := q.fw
	fw.reset(false)
	for _, e := range sources {
		v := h.Order[e.Node]
		fw.relax(v, e.Init, v, -1)
	}
	for fw.heap.len() > 0 {
		v, d := fw.heap.pop()
		for i := h.UpFirst[v]; i < h.UpFirst[v+1]; i++ {
			fw.relax(h.UpHead[i], d+h.UpWeight[i], v, int32(i))
		}
	}
	all := q.all
	lab := fw.lab
	epoch := fw.epoch
	first, tail, weight := h.DownFirst, h.DownTail, h.DownWeight
	for v := 0; v < h.N; v++ {
		d := Inf
		if lab[v].stamp == epoch {
			d = lab[v].d
		}
		for i := first[v]; i < first[v+1]; i++ {
			if du := all[tail[i]]; du != Inf {
				if c := du + weight[i]; c < d {
					d = c
				}
			}
		}
		all[v] = d
	}
	return all
}

// RowOneToAll fills row with the least weight from the sources to each
// target (a set of endpoints), with one PHAST sweep. Cells whose source
// and target share a node with the target behind (where the sweep's
// labels cannot tell the way round) are answered by ShortestPath.
func (q *Query) RowOneToAll(sources []Endpoint, targets [][]Endpoint, row []int64) {
	for j := range row {
		row[j] = Inf
	}
	if len(sources) == 0 {
		return
	}
	all := q.OneToAll(sources)
	var redo []int
	for j, eps := range targets {
		for _, e := range eps {
			d := all[q.h.Order[e.Node]]
			if d == Inf {
				continue
			}
			c := d + e.Init
			if c < 0 {
				redo = append(redo, j)
				break
			}
			if c < row[j] {
				row[j] = c
			}
		}
	}
	for _, j := range redo {
		row[j], _ = q.ShortestPath(sources, targets[j])
	}
}
