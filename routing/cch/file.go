package cch

import (
	"fmt"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// Write adds the topology to w as sections named prefix + "order",
// "upfirst", "uphead", "input", and its derived arrays (ranks, arc
// tails, the downward index, the elimination tree, the input index), so
// that ReadTopology computes nothing. The slices are shared with w until
// it is written.
func (t *Topology) Write(w *binfmt.Writer, prefix string) {
	w.AddUint32s(prefix+"order", t.node)
	w.AddUint32s(prefix+"upfirst", t.upFirst)
	w.AddUint32s(prefix+"uphead", t.upHead)
	w.AddUint32s(prefix+"input", t.input)
	w.AddUint32s(prefix+"rank", t.rank)
	w.AddUint32s(prefix+"uptail", t.upTail)
	w.AddUint32s(prefix+"downfirst", t.downFirst)
	w.AddUint32s(prefix+"downtail", t.downTail)
	w.AddUint32s(prefix+"downarc", t.downArc)
	w.AddInt32s(prefix+"parent", t.parent)
	w.AddUint32s(prefix+"indir", t.inDir)
	w.AddUint32s(prefix+"inarcs", t.inArcs)
	w.AddUint32s(prefix+"height", []uint32{uint32(t.height)})
}

// ReadTopology reads a topology written by Write with the same prefix:
// every array aliases f (memory-mapped: nothing is computed, and only
// what queries and customizations touch becomes resident). It checks the
// arrays' sizes, so that a file of another topology fails here
// (binfmt.ErrCorrupt) and not later; the content is guarded by f's
// checksum.
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
	t := &Topology{node: get("order"), upFirst: get("upfirst"), upHead: get("uphead"), input: get("input"),
		rank: get("rank"), upTail: get("uptail"), downFirst: get("downfirst"), downTail: get("downtail"),
		downArc: get("downarc"), inDir: get("indir"), inArcs: get("inarcs")}
	height := get("height")
	if err == nil {
		t.parent, err = f.Int32s(prefix + "parent")
	}
	if err != nil {
		return nil, fmt.Errorf("cch: %w", err)
	}
	n, m := len(t.node), len(t.upHead)
	t.n = n
	switch {
	case len(t.upFirst) != n+1 || int(t.upFirst[n]) != m || n >= selfLoop || m >= selfLoop/2:
		err = fmt.Errorf("arc index sizes")
	case len(t.rank) != n || len(t.parent) != n || len(t.downFirst) != n+1:
		err = fmt.Errorf("node array sizes")
	case len(t.upTail) != m || len(t.downTail) != m || len(t.downArc) != m || int(t.downFirst[n]) != m:
		err = fmt.Errorf("arc array sizes")
	case len(t.inDir) != len(t.inArcs) || len(t.inArcs) > len(t.input) || len(height) != 1:
		err = fmt.Errorf("input index sizes")
	}
	if err != nil {
		return nil, fmt.Errorf("cch: %w: %v", binfmt.ErrCorrupt, err)
	}
	t.height = int(height[0])
	return t, nil
}
