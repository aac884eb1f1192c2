// Package cch implements Customizable Contraction Hierarchies (Dibbelt,
// Strasser, Wagner, "Customizable Contraction Hierarchies", JEA 2016) over
// a directed graph: a metric-independent Topology (a nested-dissection
// order by Inertial Flow, the chordal supergraph of contracting in that
// order without witness searches, and its elimination tree), customized in
// well under a second into a Metric for any per-arc weights, which answers
// point-to-point queries with their paths and many-to-many tables by
// elimination-tree searches.
//
// Weights are lexicographic pairs (W, S): W is the caller's metric, S a
// tie-break (routing packs time ms << 32 + distance dm into it). Endpoints
// carry initial labels as in package ch (OSRM phantom-node offsets, which
// may be negative on the target side), and a node's cheapest cycle through
// lower-ranked nodes is kept as its loop weight, so that a query whose
// source and target share a node, target behind, finds the way round.
package cch

import "math"

// Weight is a lexicographic pair: W first, then S. Path weights add
// lane-wise.
type Weight struct {
	W, S int64
}

// Inf is the weight of "no path"; an input arc of weight Inf is unusable.
var Inf = Weight{math.MaxInt64, math.MaxInt64}

// maxW bounds the W lane of an input arc: any W at or above it makes the
// arc unusable, so that sums of arc weights along a path cannot overflow.
const maxW int64 = 1 << 52

// Less reports whether a is lexicographically below b.
func (a Weight) Less(b Weight) bool {
	return a.W < b.W || (a.W == b.W && a.S < b.S)
}

// Add returns the lane-wise sum. Neither operand may be Inf.
func (a Weight) Add(b Weight) Weight {
	return Weight{a.W + b.W, a.S + b.S}
}

// IsInf reports whether w is Inf.
func (a Weight) IsInf() bool { return a.W == math.MaxInt64 }

// negative reports whether a is lexicographically below zero: the sum of a
// source and a target label on one node with the target behind.
func (a Weight) negative() bool { return a.W < 0 || (a.W == 0 && a.S < 0) }

const infW = math.MaxInt64
