package cch

import (
	"fmt"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// Write adds the topology to w as sections named prefix + "order",
// "upfirst", "uphead" and "input"; everything else is derived on read.
// The slices are shared with w until it is written.
func (t *Topology) Write(w *binfmt.Writer, prefix string) {
	w.AddUint32s(prefix+"order", t.node)
	w.AddUint32s(prefix+"upfirst", t.upFirst)
	w.AddUint32s(prefix+"uphead", t.upHead)
	w.AddUint32s(prefix+"input", t.input)
}

// ReadTopology reads a topology written by Write with the same prefix. It
// checks what queries and customization rely on, so that a corrupt file
// fails here (binfmt.ErrCorrupt) and not later. The topology may share
// memory with f.
func ReadTopology(f *binfmt.File, prefix string) (*Topology, error) {
	var err error
	get := func(name string) []uint32 {
		if err != nil {
			return nil
		}
		v, e := f.Uint32s(prefix + name)
		err = e
		return v
	}
	t := &Topology{node: get("order"), upFirst: get("upfirst"), upHead: get("uphead"), input: get("input")}
	if err != nil {
		return nil, fmt.Errorf("cch: %w", err)
	}
	if err := t.check(); err != nil {
		return nil, fmt.Errorf("cch: %w: %v", binfmt.ErrCorrupt, err)
	}
	t.derive()
	t.deriveInput()
	return t, nil
}

// check validates the stored arrays and sets n and rank. It does not
// check that the upward neighbourhoods are cliques (binfmt's checksums
// guard the contents).
func (t *Topology) check() error {
	n := len(t.node)
	t.n = n
	if len(t.upFirst) != n+1 || t.upFirst[0] != 0 || int(t.upFirst[n]) != len(t.upHead) || n >= selfLoop || len(t.upHead) >= selfLoop/2 {
		return fmt.Errorf("arc index sizes")
	}
	t.rank = make([]uint32, n)
	for i := range t.rank {
		t.rank[i] = selfLoop
	}
	for r, v := range t.node {
		if int(v) >= n || t.rank[v] != selfLoop {
			return fmt.Errorf("the order is not a permutation")
		}
		t.rank[v] = uint32(r)
	}
	for x := 0; x < n; x++ {
		lo, hi := t.upFirst[x], t.upFirst[x+1]
		if lo > hi || int(hi) > len(t.upHead) {
			return fmt.Errorf("arc index of node %d", x)
		}
		prev := uint32(x)
		for _, h := range t.upHead[lo:hi] {
			if h <= prev || int(h) >= n {
				return fmt.Errorf("arcs of node %d not upward and ascending", x)
			}
			prev = h
		}
	}
	for _, v := range t.input {
		if v&selfLoop != 0 {
			if int(v&^selfLoop) >= n {
				return fmt.Errorf("self-loop node out of range")
			}
		} else if int(v>>1) >= len(t.upHead) {
			return fmt.Errorf("input arc out of range")
		}
	}
	return nil
}
