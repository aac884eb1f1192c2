package snap

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// layoutVersion is the version of the index's sections inside a bundle,
// checked by Load in addition to the container's own version.
const layoutVersion = 1

type fileMeta struct {
	Layout int
	Grid   grid
}

// Section names, appended to the caller's prefix.
const (
	secMeta      = "meta"
	secShape     = "shape"
	secCum       = "cum"
	secSegEdge   = "segedge"
	secStarts    = "starts"
	secEnds      = "ends"
	secRowStart  = "rowstart"
	secCellX     = "cellx"
	secCellStart = "cellstart"
	secSegs      = "segs"
)

// AppendTo adds the index's sections, named prefix+"meta", prefix+"shape"
// and so on, to w. The arrays are referenced, not copied.
func (ix *Index) AppendTo(w *binfmt.Writer, prefix string) {
	w.AddJSON(prefix+secMeta, fileMeta{Layout: layoutVersion, Grid: ix.g})
	var flat []float64
	if len(ix.shape) > 0 {
		flat = unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(ix.shape))), 2*len(ix.shape))
	}
	w.AddFloat64s(prefix+secShape, flat)
	w.AddFloat64s(prefix+secCum, ix.cum)
	w.AddUint32s(prefix+secSegEdge, ix.segEdg)
	w.AddUint32s(prefix+secStarts, ix.starts)
	w.AddUint32s(prefix+secEnds, ix.ends)
	w.AddUint32s(prefix+secRowStart, ix.rowStart)
	w.AddUint32s(prefix+secCellX, ix.cellX)
	w.AddUint32s(prefix+secCellStart, ix.cellStart)
	w.AddUint32s(prefix+secSegs, ix.segs)
}

// Load returns the index stored in f under prefix by AppendTo. Nothing is
// rebuilt: the index's arrays alias the file's buffer. The arrays are
// checked for consistency so that a bad file gives an error here rather
// than a panic in a query.
func Load(f *binfmt.File, prefix string) (*Index, error) {
	var meta fileMeta
	if err := f.JSON(prefix+secMeta, &meta); err != nil {
		return nil, fmt.Errorf("snap: %w", err)
	}
	if meta.Layout != layoutVersion {
		return nil, fmt.Errorf("snap: index layout %d, this build reads %d: rebuild with `geosvc build`", meta.Layout, layoutVersion)
	}
	ix := &Index{g: meta.Grid}
	flat, err := f.Float64s(prefix + secShape)
	if err != nil {
		return nil, fmt.Errorf("snap: %w", err)
	}
	if len(flat)%2 != 0 {
		return nil, fmt.Errorf("snap: %s has an odd number of coordinates", prefix+secShape)
	}
	ix.shape = []orb.Point{}
	if len(flat) > 0 {
		ix.shape = unsafe.Slice((*orb.Point)(unsafe.Pointer(unsafe.SliceData(flat))), len(flat)/2)
	}
	if ix.cum, err = f.Float64s(prefix + secCum); err != nil {
		return nil, fmt.Errorf("snap: %w", err)
	}
	for _, s := range []struct {
		name string
		dst  *[]uint32
	}{
		{secSegEdge, &ix.segEdg},
		{secStarts, &ix.starts},
		{secEnds, &ix.ends},
		{secRowStart, &ix.rowStart},
		{secCellX, &ix.cellX},
		{secCellStart, &ix.cellStart},
		{secSegs, &ix.segs},
	} {
		if *s.dst, err = f.Uint32s(prefix + s.name); err != nil {
			return nil, fmt.Errorf("snap: %w", err)
		}
	}
	if err := ix.validate(); err != nil {
		return nil, fmt.Errorf("snap: index %q: %w", prefix, err)
	}
	return ix, nil
}

// validate checks every invariant the queries rely on to stay in bounds.
func (ix *Index) validate() error {
	n := len(ix.shape)
	if len(ix.cum) != n || len(ix.segEdg) != n {
		return fmt.Errorf("%d shape points but %d lengths and %d segment edges", n, len(ix.cum), len(ix.segEdg))
	}
	if len(ix.starts) != len(ix.ends) {
		return fmt.Errorf("%d edge starts but %d ends", len(ix.starts), len(ix.ends))
	}
	for e := range ix.starts {
		if ix.starts[e] > ix.ends[e] || int(ix.ends[e]) > n {
			return fmt.Errorf("edge %d range [%d, %d) outside %d shape points", e, ix.starts[e], ix.ends[e], n)
		}
	}
	for i, e := range ix.segEdg {
		if e == noEdge {
			continue
		}
		if int(e) >= len(ix.starts) || uint32(i) < ix.starts[e] || uint32(i)+1 >= ix.ends[e] {
			return fmt.Errorf("shape point %d: segment of edge %d outside the edge", i, e)
		}
	}
	g := ix.g
	if len(ix.segs) == 0 {
		if len(ix.cellX) != 0 {
			return fmt.Errorf("cells without segments")
		}
		ix.g = grid{}
		ix.rowStart, ix.cellStart = []uint32{0}, []uint32{0}
		return nil
	}
	for _, v := range []float64{g.MinLon, g.MinLat, g.CellLon, g.CellLat} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("grid parameters not finite")
		}
	}
	if !(g.CellLon > 0 && g.CellLat > 0) || g.NX <= 0 || g.NY <= 0 || g.NX >= noEdge || g.NY >= noEdge {
		return fmt.Errorf("bad grid %+v", g)
	}
	if len(ix.rowStart) != g.NY+1 || ix.rowStart[0] != 0 || int(ix.rowStart[g.NY]) != len(ix.cellX) {
		return fmt.Errorf("row offsets do not match %d rows and %d cells", g.NY, len(ix.cellX))
	}
	for y := 0; y < g.NY; y++ {
		lo, hi := ix.rowStart[y], ix.rowStart[y+1]
		if lo > hi {
			return fmt.Errorf("row offsets decrease at row %d", y)
		}
		for c := lo; c < hi; c++ {
			if int(ix.cellX[c]) >= g.NX || (c > lo && ix.cellX[c] <= ix.cellX[c-1]) {
				return fmt.Errorf("cell columns of row %d not increasing within the grid", y)
			}
		}
	}
	if len(ix.cellStart) != len(ix.cellX)+1 || ix.cellStart[0] != 0 || int(ix.cellStart[len(ix.cellX)]) != len(ix.segs) {
		return fmt.Errorf("cell offsets do not match %d cells and %d entries", len(ix.cellX), len(ix.segs))
	}
	for c := 1; c < len(ix.cellStart); c++ {
		if ix.cellStart[c] < ix.cellStart[c-1] {
			return fmt.Errorf("cell offsets decrease at cell %d", c)
		}
	}
	for _, i := range ix.segs {
		if int(i) >= n || ix.segEdg[i] == noEdge {
			return fmt.Errorf("cell entry %d is not a segment", i)
		}
	}
	return nil
}
