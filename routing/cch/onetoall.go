package cch

// OneToAll fills out (indexed by the caller's node ids, one per node)
// with the least weight between the endpoints and every node, Inf where
// there is none: PHAST on the customized metric, an elimination-tree
// search upwards from the endpoints, then one sweep over every node by
// descending rank pulling each label along its upward arcs (whose heads
// the sweep has finished). Forward (reverse false), the endpoints are
// sources and out[n] is the weight from them to the end of node n;
// reverse, they are targets (their labels as a target's) and out[n] is
// the weight from the end of node n to them.
func (q *Query) OneToAll(eps []Endpoint, reverse bool, out []Weight) {
	m, t := q.m, q.m.t
	q.reset()
	lab, arc := q.fw, q.fwArc
	if reverse {
		lab, arc = q.bw, q.bwArc
	}
	q.seed(lab, arc, eps)
	for {
		x, ok := q.pop()
		if !ok {
			break
		}
		if d := lab[x]; d.W != infW {
			if reverse {
				q.relaxDown(x, d)
			} else {
				q.relaxUp(x, d)
			}
		}
	}
	if len(q.all) != t.n {
		q.all = make([]Weight, t.n)
	}
	all := q.all
	for x := t.n - 1; x >= 0; x-- {
		d := lab[x]
		for a := t.upFirst[x]; a < t.upFirst[x+1]; a++ {
			dy := all[t.upHead[a]]
			if dy.W == infW {
				continue
			}
			wa := m.w[a].Down // y -> x
			if reverse {
				wa = m.w[a].Up // x -> y
			}
			if wa.W == infW {
				continue
			}
			if c := dy.Add(wa); c.Less(d) {
				d = c
			}
		}
		all[x] = d
	}
	for x, n := range t.node {
		out[n] = all[x]
	}
}
