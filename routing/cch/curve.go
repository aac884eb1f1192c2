package cch

import (
	"math"
	"slices"
)

// curveOrder returns the nodes at coords (longitude, latitude) in the
// order of a Hilbert curve over their bounding box (byCurve[i] is the
// i-th node along it) and each node's place on it (id[v]), ties by node.
func curveOrder(coords [][2]float64) (byCurve, id []uint32) {
	n := len(coords)
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, c := range coords {
		minX, maxX = min(minX, c[0]), max(maxX, c[0])
		minY, maxY = min(minY, c[1]), max(maxY, c[1])
	}
	const side = 1 << 16
	scale := func(x, lo, hi float64) uint32 {
		if hi <= lo || math.IsNaN(x) {
			return 0
		}
		return uint32(min(max((x-lo)/(hi-lo)*side, 0), side-1))
	}
	keys := make([]uint64, n)
	for v, c := range coords {
		d := hilbert(scale(c[0], minX, maxX), scale(c[1], minY, maxY), side)
		keys[v] = uint64(d)<<32 | uint64(v)
	}
	slices.Sort(keys)
	byCurve = make([]uint32, n)
	id = make([]uint32, n)
	for i, k := range keys {
		v := uint32(k)
		byCurve[i], id[v] = v, uint32(i)
	}
	return byCurve, id
}

// hilbert returns the distance along the Hilbert curve of a side x side
// grid (side a power of two) of cell (x, y).
func hilbert(x, y, side uint32) uint32 {
	var d uint32
	for s := side / 2; s > 0; s /= 2 {
		var rx, ry uint32
		if x&s != 0 {
			rx = 1
		}
		if y&s != 0 {
			ry = 1
		}
		d += s * s * ((3 * rx) ^ ry)
		// Rotate the quadrant so the curve inside it runs as the whole.
		if ry == 0 {
			if rx == 1 {
				x, y = s-1-x, s-1-y
			}
			x, y = y, x
		}
	}
	return d
}
