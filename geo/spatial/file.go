package spatial

import (
	"fmt"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// Write adds the index to w as sections named prefix + "coords", ...
func (ix *Index) Write(w *binfmt.Writer, prefix string) {
	w.AddFloat64s(prefix+"coords", ix.coords)
	w.AddUint32s(prefix+"ring_start", ix.ringStart)
	w.AddUint32s(prefix+"ring_chunk", ix.ringChunk)
	w.AddFloat64s(prefix+"chunk_box", ix.chunkBox)
	w.AddUint32s(prefix+"poly_ring", ix.polyRing)
	w.AddUint32s(prefix+"poly_item", ix.polyItem)
	w.AddFloat64s(prefix+"poly_box", ix.polyBox)
	w.AddUint32s(prefix+"item_poly", ix.itemPoly)
	w.AddFloat64s(prefix+"node_box", ix.nodeBox)
	w.AddUint32s(prefix+"node_idx", ix.nodeIdx)
	w.AddUint32s(prefix+"levels", ix.levels)
	w.AddUint32s(prefix+"ring_band", ix.ringBand)
	w.AddFloat64s(prefix+"band_param", ix.bandParam)
	w.AddUint32s(prefix+"band_start", ix.bandStart)
	w.AddUint32s(prefix+"band_edge", ix.bandEdge)
}

// Read returns the index stored in f under prefix. The index aliases f's
// memory; its arrays are checked for consistency, so a damaged file is an
// error, not a panic at query time. A file written before the band index
// existed (no band sections) gets its bands built on load, in
// milliseconds; answers are the same either way.
func Read(f *binfmt.File, prefix string) (*Index, error) {
	ix := &Index{}
	var err error
	f64 := func(name string, dst *[]float64) {
		if err == nil {
			*dst, err = f.Float64s(prefix + name)
		}
	}
	u32 := func(name string, dst *[]uint32) {
		if err == nil {
			*dst, err = f.Uint32s(prefix + name)
		}
	}
	f64("coords", &ix.coords)
	u32("ring_start", &ix.ringStart)
	u32("ring_chunk", &ix.ringChunk)
	f64("chunk_box", &ix.chunkBox)
	u32("poly_ring", &ix.polyRing)
	u32("poly_item", &ix.polyItem)
	f64("poly_box", &ix.polyBox)
	u32("item_poly", &ix.itemPoly)
	f64("node_box", &ix.nodeBox)
	u32("node_idx", &ix.nodeIdx)
	u32("levels", &ix.levels)
	if err == nil && f.Has(prefix+"ring_band") {
		u32("ring_band", &ix.ringBand)
		f64("band_param", &ix.bandParam)
		u32("band_start", &ix.bandStart)
		u32("band_edge", &ix.bandEdge)
	}
	if err != nil {
		return nil, fmt.Errorf("spatial: %w", err)
	}
	if err := ix.check(); err != nil {
		return nil, fmt.Errorf("spatial: corrupt index: %w", err)
	}
	if ix.ringBand == nil {
		ix.buildBands()
	} else if err := ix.checkBands(); err != nil {
		return nil, fmt.Errorf("spatial: corrupt index: %w", err)
	}
	return ix, nil
}

// checkBands verifies the band index: offsets in order, and every entry
// an edge of its own ring.
func (ix *Index) checkBands() error {
	rings := len(ix.ringStart) - 1
	bands := len(ix.bandStart) - 1
	switch {
	case len(ix.ringBand) != rings+1 || len(ix.bandParam) != 2*rings || bands < 0:
		return fmt.Errorf("band table lengths")
	case ix.ringBand[0] != 0 || int(ix.ringBand[rings]) != bands || !monotone(ix.ringBand, uint32(bands)):
		return fmt.Errorf("ring bands")
	case ix.bandStart[0] != 0 || int(ix.bandStart[bands]) != len(ix.bandEdge) || !monotone(ix.bandStart, uint32(len(ix.bandEdge))):
		return fmt.Errorf("band offsets")
	}
	for r := range rings {
		lo, hi := ix.ringStart[r], ix.ringStart[r+1]-1
		for b := ix.ringBand[r]; b < ix.ringBand[r+1]; b++ {
			for _, e := range ix.bandEdge[ix.bandStart[b]:ix.bandStart[b+1]] {
				if e < lo || e >= hi {
					return fmt.Errorf("band %d of ring %d lists edge %d", b, r, e)
				}
			}
		}
	}
	return nil
}

// check verifies the invariants the queries rely on.
func (ix *Index) check() error {
	rings, polys := len(ix.ringStart)-1, len(ix.polyItem)
	switch {
	case rings < 0 || len(ix.ringChunk) != rings+1 || len(ix.polyRing) != polys+1 || len(ix.itemPoly) < 1:
		return fmt.Errorf("table lengths")
	case len(ix.polyBox) != 4*polys || len(ix.chunkBox)%4 != 0 || len(ix.coords)%2 != 0:
		return fmt.Errorf("box lengths")
	case len(ix.nodeBox) != 4*len(ix.nodeIdx):
		return fmt.Errorf("node lengths")
	}
	if !monotone(ix.ringStart, uint32(len(ix.coords)/2)) || !monotone(ix.ringChunk, uint32(len(ix.chunkBox)/4)) ||
		!monotone(ix.polyRing, uint32(rings)) || !monotone(ix.itemPoly, uint32(polys)) {
		return fmt.Errorf("offsets")
	}
	for r := 0; r < rings; r++ {
		n := int(ix.ringStart[r+1] - ix.ringStart[r])
		if n < 2 || int(ix.ringChunk[r+1]-ix.ringChunk[r]) != (n-1+chunkEdges-1)/chunkEdges {
			return fmt.Errorf("ring %d", r)
		}
	}
	items := uint32(len(ix.itemPoly) - 1)
	for p := 0; p < polys; p++ {
		if ix.polyItem[p] >= items || ix.polyRing[p] == ix.polyRing[p+1] {
			return fmt.Errorf("polygon %d", p)
		}
	}
	if polys == 0 {
		if len(ix.nodeIdx) != 0 {
			return fmt.Errorf("nodes without polygons")
		}
		return nil
	}
	if len(ix.levels) == 0 || ix.levels[0] != uint32(polys) || ix.levels[len(ix.levels)-1] != uint32(len(ix.nodeIdx)) ||
		!monotone(ix.levels, uint32(len(ix.nodeIdx))) {
		return fmt.Errorf("levels")
	}
	for i := 0; i < polys; i++ {
		if ix.nodeIdx[i] >= uint32(polys) {
			return fmt.Errorf("leaf %d", i)
		}
	}
	for l := 1; l < len(ix.levels); l++ {
		for i := ix.levels[l-1]; i < ix.levels[l]; i++ {
			lo := uint32(0)
			if l >= 2 {
				lo = ix.levels[l-2]
			}
			if c := ix.nodeIdx[i]; c < lo || c >= ix.levels[l-1] {
				return fmt.Errorf("node %d", i)
			}
		}
	}
	return nil
}

// monotone reports whether v is non-decreasing and ends at most at max.
func monotone(v []uint32, max uint32) bool {
	for i := 1; i < len(v); i++ {
		if v[i] < v[i-1] {
			return false
		}
	}
	return len(v) == 0 || v[len(v)-1] <= max
}
