package spatial

import "math"

// Long rings get a band index: their y-range is cut into horizontal bands
// of equal height, and each band lists the edges whose y-range meets it.
// The even-odd ray test of a point then scans the edges of the point's
// band only, with the very predicate of the plain test: an edge that can
// cross the ray towards +x, or hold the point, spans the point's y, so it
// is in that band (the band of a y is a monotone function of y, and an
// edge is listed in every band from the band of its lowest y to the band
// of its highest). Answers are identical to the plain test's, points on
// edges and vertices included; only the work changes, from every chunk
// of the ring to a few edges. A ring whose bands would hold more edges
// than it has chunks (edges spanning much of its height: a spiky ring)
// keeps the chunk scan.
const (
	// bandMinEdges is the fewest edges a ring needs to get bands; shorter
	// rings are scanned by chunks.
	bandMinEdges = 128
	// bandEdges is the number of edges per band aimed at: a ring of n
	// edges gets n/bandEdges bands.
	bandEdges = 8
)

// bandOf returns the band of y among nb bands starting at y0, inv bands
// per unit of y: a non-decreasing function of y (NaN goes to band 0).
func bandOf(y, y0, inv float64, nb int) int {
	v := (y - y0) * inv
	if !(v >= 0) {
		return 0
	}
	if v >= float64(nb-1) {
		return nb - 1
	}
	return int(v)
}

// buildBands builds the band index of every ring of at least bandMinEdges
// edges: a first pass counts the entries of each band, a second lists
// them.
func (ix *Index) buildBands() {
	rings := len(ix.ringStart) - 1
	ix.ringBand = make([]uint32, 1, rings+1)
	ix.bandParam = make([]float64, 2*rings)
	ix.bandStart = []uint32{0}
	cs := ix.coords
	// Pass 1: bands per ring, their parameters, and entries per band
	// (counted in bandStart[band+1]).
	for r := range rings {
		start, end := int(ix.ringStart[r]), int(ix.ringStart[r+1])
		edges := end - start - 1
		if edges < bandMinEdges {
			ix.ringBand = append(ix.ringBand, ix.ringBand[r])
			continue
		}
		minY, maxY := math.Inf(1), math.Inf(-1)
		for k := start; k < end; k++ {
			y := cs[2*k+1]
			if y < minY {
				minY = y
			}
			if y > maxY {
				maxY = y
			}
		}
		nb := edges / bandEdges
		inv := float64(nb) / (maxY - minY)
		if !(maxY > minY) || math.IsInf(inv, 0) || math.IsNaN(inv) {
			nb, inv = 1, 0
		}
		ix.bandParam[2*r], ix.bandParam[2*r+1] = minY, inv
		first := len(ix.bandStart) - 1
		ix.bandStart = append(ix.bandStart, make([]uint32, nb)...)
		counts := ix.bandStart[first+1:]
		entries := 0
		for e := start; e < end-1; e++ {
			lo, hi := cs[2*e+1], cs[2*e+3]
			if lo > hi {
				lo, hi = hi, lo
			}
			k0, k1 := bandOf(lo, minY, inv, nb), bandOf(hi, minY, inv, nb)
			for k := k0; k <= k1; k++ {
				counts[k]++
			}
			entries += k1 - k0 + 1
		}
		if entries/nb > edges/chunkEdges {
			// Edges spanning many bands (a spiky ring): a band holds more
			// edges than the ring has chunks, so chunks scan faster.
			ix.bandStart = ix.bandStart[:first+1]
			ix.bandParam[2*r], ix.bandParam[2*r+1] = 0, 0
			ix.ringBand = append(ix.ringBand, ix.ringBand[r])
			continue
		}
		ix.ringBand = append(ix.ringBand, uint32(first+nb))
	}
	for b := 1; b < len(ix.bandStart); b++ {
		ix.bandStart[b] += ix.bandStart[b-1]
	}
	// Pass 2: the entries, in edge order within each band.
	ix.bandEdge = make([]uint32, ix.bandStart[len(ix.bandStart)-1])
	next := append([]uint32(nil), ix.bandStart[:len(ix.bandStart)-1]...)
	for r := range rings {
		b0, b1 := int(ix.ringBand[r]), int(ix.ringBand[r+1])
		if b1 == b0 {
			continue
		}
		start, end := int(ix.ringStart[r]), int(ix.ringStart[r+1])
		minY, inv := ix.bandParam[2*r], ix.bandParam[2*r+1]
		for e := start; e < end-1; e++ {
			lo, hi := cs[2*e+1], cs[2*e+3]
			if lo > hi {
				lo, hi = hi, lo
			}
			k0, k1 := bandOf(lo, minY, inv, b1-b0), bandOf(hi, minY, inv, b1-b0)
			for k := b0 + k0; k <= b0+k1; k++ {
				ix.bandEdge[next[k]] = uint32(e)
				next[k]++
			}
		}
	}
}

// bandPosition is ringPosition for ring r, which has bands b0..b1-1.
func (ix *Index) bandPosition(r, b0, b1 int, x, y float64) int {
	k := b0 + bandOf(y, ix.bandParam[2*r], ix.bandParam[2*r+1], b1-b0)
	in := false
	cs := ix.coords
	for _, e := range ix.bandEdge[ix.bandStart[k]:ix.bandStart[k+1]] {
		ay, by := cs[2*e+1], cs[2*e+3]
		if y < ay && y < by || y > ay && y > by {
			continue // edgeTest would find nothing: skip the call
		}
		switch edgeTest(cs[2*e], ay, cs[2*e+2], by, x, y) {
		case edgeOn:
			return onRing
		case edgeCrosses:
			in = !in
		}
	}
	if in {
		return inside
	}
	return outside
}
