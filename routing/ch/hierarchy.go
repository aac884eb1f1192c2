// Package ch queries contraction hierarchies over a directed graph with
// int64 arc weights. It knows nothing about roads: package routing maps
// its edge-based road graph onto it and encodes travel time and distance
// into one lexicographic weight, so that every shortcut carries both. The
// hierarchies themselves come from package cch: the arcs a perfect
// customization keeps are a contraction hierarchy in its nested-dissection
// order (cch.Metric.Hierarchy); a greedy contraction with witness searches
// is kept in this package's tests as a reference for query costs.
//
// Queries take endpoints with initial labels (OSRM's phantom-node offsets),
// which may be negative on the target side. A node's self-cycles through
// lower-ranked nodes are kept as loop weights, so that a query whose source
// and target sit on the same node, target behind source, still finds the
// way round the block.
package ch

import (
	"errors"
	"math"
)

// Inf is the weight of "no path".
const Inf int64 = math.MaxInt64

// Hierarchy is a contracted graph: for each node its upward arcs (to
// higher-ranked heads) and its downward arcs (from higher-ranked tails),
// in CSR form, plus loop weights. Inside, nodes are numbered by descending
// rank (0 is the most important node); Order and orig translate to and from
// the caller's node ids, which every method takes and returns. A Hierarchy
// is read-only and safe for concurrent queries, each with its own Query.
type Hierarchy struct {
	// N is the number of nodes.
	N int
	// Order maps a caller's node id to the internal id; orig is its
	// inverse.
	Order []uint32
	orig  []uint32
	// The arrays below use internal ids.
	//
	// UpFirst[v]..UpFirst[v+1] index the arcs v->UpHead[i] of weight
	// UpWeight[i]; UpMid[i] is the contracted middle node of a shortcut,
	// or -1 for an original arc.
	UpFirst  []uint32
	UpHead   []uint32
	UpWeight []int64
	UpMid    []int32
	// DownFirst[v]..DownFirst[v+1] index the arcs DownTail[i]->v.
	DownFirst  []uint32
	DownTail   []uint32
	DownWeight []int64
	DownMid    []int32
	// Loop[v] is the weight of the cheapest cycle v->...->v whose other
	// nodes are all ranked below v, Inf if none; LoopMid[v] is its middle.
	Loop    []int64
	LoopMid []int32
}

// Shortcuts returns the number of shortcut arcs in the hierarchy.
func (h *Hierarchy) Shortcuts() int {
	s := 0
	for _, m := range h.UpMid {
		if m >= 0 {
			s++
		}
	}
	for _, m := range h.DownMid {
		if m >= 0 {
			s++
		}
	}
	return s
}

// SetOrder sets N, Order and its inverse orig from a node order read from
// a file, checking that it is a permutation.
func (h *Hierarchy) SetOrder(order []uint32) error {
	h.N = len(order)
	h.Order = order
	h.orig = make([]uint32, len(order))
	seen := make([]bool, len(order))
	for v, id := range order {
		if int(id) >= len(order) || seen[id] {
			return errors.New("ch: node order is not a permutation")
		}
		seen[id] = true
		h.orig[id] = uint32(v)
	}
	return nil
}

// Orig returns the inverse of Order: the caller's id of each internal
// id (a file stores it, so that loading computes nothing).
func (h *Hierarchy) Orig() []uint32 { return h.orig }

// SetOrderInverse sets N, Order and orig as read from a file, checking
// their lengths only (CheckSizes; Validate checks the permutation).
func (h *Hierarchy) SetOrderInverse(order, orig []uint32) error {
	if len(order) != len(orig) {
		return errors.New("ch: node order and its inverse disagree in length")
	}
	h.N, h.Order, h.orig = len(order), order, orig
	return h.CheckSizes()
}

// CheckSizes checks that the hierarchy's arrays agree in length, reading
// none of them: what a query needs of a hierarchy read from a file whose
// content a checksum guards. Validate checks every index too.
func (h *Hierarchy) CheckSizes() error {
	n := h.N
	switch {
	case len(h.Order) != n || len(h.orig) != n || len(h.Loop) != n || len(h.LoopMid) != n ||
		len(h.UpFirst) != n+1 || len(h.DownFirst) != n+1:
		return errors.New("ch: node arrays disagree in length")
	case len(h.UpHead) != len(h.UpWeight) || len(h.UpHead) != len(h.UpMid) || int(h.UpFirst[n]) != len(h.UpHead):
		return errors.New("ch: up arc arrays disagree in length")
	case len(h.DownTail) != len(h.DownWeight) || len(h.DownTail) != len(h.DownMid) || int(h.DownFirst[n]) != len(h.DownTail):
		return errors.New("ch: down arc arrays disagree in length")
	}
	return nil
}

// Validate checks that the hierarchy's arrays are consistent, so that a
// hierarchy read from a file cannot make a query index out of range.
func (h *Hierarchy) Validate() error {
	n := h.N
	if len(h.Order) != n || len(h.orig) != n || len(h.Loop) != n || len(h.LoopMid) != n ||
		len(h.UpFirst) != n+1 || len(h.DownFirst) != n+1 {
		return errors.New("ch: node arrays disagree in length")
	}
	for v, id := range h.Order {
		if int(id) >= n || h.orig[id] != uint32(v) {
			return errors.New("ch: node order is not a permutation")
		}
	}
	check := func(first, other []uint32, w []int64, mid []int32) error {
		if len(other) != len(w) || len(other) != len(mid) || int(first[n]) != len(other) {
			return errors.New("ch: arc arrays disagree in length")
		}
		for v := 0; v < n; v++ {
			if first[v] > first[v+1] {
				return errors.New("ch: arc offsets not ascending")
			}
		}
		for v := 0; v < n; v++ {
			for i := first[v]; i < first[v+1]; i++ {
				// Arcs lead to higher-ranked nodes, which have lower ids,
				// and a middle node ranks below both ends.
				if int(other[i]) >= v || (mid[i] >= 0 && int(mid[i]) <= v) || int(mid[i]) >= n {
					return errors.New("ch: arc breaks the rank order")
				}
			}
		}
		return nil
	}
	if err := check(h.UpFirst, h.UpHead, h.UpWeight, h.UpMid); err != nil {
		return err
	}
	if err := check(h.DownFirst, h.DownTail, h.DownWeight, h.DownMid); err != nil {
		return err
	}
	for v, m := range h.LoopMid {
		if int(m) >= n || (m >= 0 && int(m) <= v) {
			return errors.New("ch: loop middle out of range")
		}
	}
	return nil
}
