package zip4

import (
	"fmt"
	"math"
	"sort"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// Layer is a loaded ZIP+4 layer: features stored in flat arrays (which
// alias the file buffer after Load), a uniform grid over their bounding
// boxes and the features sorted by zip9. A Layer is read-only and safe for
// concurrent use.
type Layer struct {
	meta Meta
	// deferred holds the file checks of LoadDeferred (nil: done).
	deferred *binfmt.Deferred

	uid, zip9, fips, street, side strCol
	bbox                          []float64 // 4 per feature: min lon, min lat, max lon, max lat
	rep                           []float64 // 2 per feature: lon, lat
	polyStart                     []uint32  // feature -> first polygon; len features+1
	ringStart                     []uint32  // polygon -> first ring; len polygons+1
	ptStart                       []uint32  // ring -> first point; len rings+1
	coords                        []float64 // lon, lat pairs
	n                             int       // features

	cellStart []uint32 // grid cell -> first entry of cellIDs; len cells+1
	cellIDs   []uint32 // feature indexes per cell
	byZip9    []uint32 // feature indexes sorted by zip9, then uid
}

// Meta describes a layer: where it came from and its grid.
type Meta struct {
	// Source is SourceDerived or SourceFile.
	Source string `json:"source"`
	// Derived is true when the +4 codes are derived, not USPS codes.
	Derived bool `json:"derived"`
	// Input is the base name of the file the layer was built from.
	Input string `json:"input,omitempty"`
	// Features is the number of features.
	Features int `json:"features"`
	// Grid is the spatial index's grid.
	Grid Grid `json:"grid"`
	// Report is the derivation's report (derived layers only).
	Report *Report `json:"report,omitempty"`
}

// Grid is a uniform lon/lat grid: cell (i, j) covers
// [MinLon+i*Cell, MinLon+(i+1)*Cell) x [MinLat+j*Cell, MinLat+(j+1)*Cell).
type Grid struct {
	MinLon float64 `json:"min_lon"`
	MinLat float64 `json:"min_lat"`
	Cell   float64 `json:"cell"`
	NX     int     `json:"nx"`
	NY     int     `json:"ny"`
}

// Grid sizing: about two cells per feature over the features' extent, but
// cells of at least minCell degrees and at most maxCells cells.
const (
	minCell  = 0.005
	maxCells = 1 << 22
)

// NewLayer builds a layer from features. It sorts nothing: feature i of
// the layer is features[i]. Features without polygons are kept but are
// found only by zip9.
func NewLayer(features []Feature, meta Meta) *Layer {
	var b layerBuilder
	for i := range features {
		b.add(&features[i])
	}
	return b.layer(meta)
}

// layerBuilder makes a Layer of features added one at a time. Their
// points are kept in chunks and joined once at the end, so that a large
// layer is not copied each time its coordinates outgrow their array.
type layerBuilder struct {
	l      Layer
	chunks [][]float64 // coordinates, full chunks
	cur    []float64   // the chunk being filled
	points int
}

// coordChunk is the number of coordinates (two per point) of a chunk.
const coordChunk = 1 << 16

// add appends feature f.
func (b *layerBuilder) add(f *Feature) {
	l := &b.l
	if l.polyStart == nil {
		l.polyStart, l.ringStart, l.ptStart = []uint32{0}, []uint32{0}, []uint32{0}
	}
	l.uid.add(f.UID)
	l.zip9.add(f.Zip9)
	l.fips.add(f.FIPS)
	l.street.add(f.Street)
	l.side.add(f.Side)
	l.n++
	bb := f.Geometry.Bound()
	if len(f.Geometry) == 0 {
		bb = orb.Bound{Min: f.Rep, Max: f.Rep}
	}
	l.bbox = append(l.bbox, bb.Min[0], bb.Min[1], bb.Max[0], bb.Max[1])
	l.rep = append(l.rep, f.Rep[0], f.Rep[1])
	for _, poly := range f.Geometry {
		for _, ring := range poly {
			for _, p := range ring {
				if len(b.cur) == cap(b.cur) {
					if b.cur != nil {
						b.chunks = append(b.chunks, b.cur)
					}
					b.cur = make([]float64, 0, coordChunk)
				}
				b.cur = append(b.cur, p[0], p[1])
			}
			b.points += len(ring)
			l.ptStart = append(l.ptStart, uint32(b.points))
		}
		l.ringStart = append(l.ringStart, uint32(len(l.ptStart)-1))
	}
	l.polyStart = append(l.polyStart, uint32(len(l.ringStart)-1))
}

// layer returns the layer of the features added, with its grid and zip9
// order; the builder must not be used afterwards.
func (b *layerBuilder) layer(meta Meta) *Layer {
	l := &b.l
	if l.polyStart == nil {
		l.polyStart, l.ringStart, l.ptStart = []uint32{0}, []uint32{0}, []uint32{0}
	}
	l.meta = meta
	l.meta.Features = l.n
	l.coords = make([]float64, 0, 2*b.points)
	for i, c := range append(b.chunks, b.cur) {
		l.coords = append(l.coords, c...)
		if i < len(b.chunks) {
			b.chunks[i] = nil // the copied chunk can go
		}
	}
	b.chunks, b.cur = nil, nil
	l.buildGrid()
	l.buildZip9()
	out := *l
	b.l = Layer{}
	return &out
}

// buildGrid sizes the grid to the features' extent and lists every
// feature in the cells its bounding box overlaps.
func (l *Layer) buildGrid() {
	n := l.Len()
	g := Grid{Cell: minCell, NX: 1, NY: 1}
	if n > 0 {
		minLon, minLat, maxLon, maxLat := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for i := 0; i < n; i++ {
			b := l.bbox[4*i : 4*i+4]
			minLon, minLat = math.Min(minLon, b[0]), math.Min(minLat, b[1])
			maxLon, maxLat = math.Max(maxLon, b[2]), math.Max(maxLat, b[3])
		}
		g.MinLon, g.MinLat = minLon, minLat
		// About two cells per feature, none smaller than minCell: a few
		// large file polygons do not need a fine grid.
		g.Cell = math.Max(minCell, math.Sqrt((maxLon-minLon)*(maxLat-minLat)/float64(2*n)))
		for {
			g.NX = int((maxLon-minLon)/g.Cell) + 1
			g.NY = int((maxLat-minLat)/g.Cell) + 1
			if g.NX*g.NY <= maxCells {
				break
			}
			g.Cell *= 2
		}
	}
	l.meta.Grid = g
	counts := make([]uint32, g.NX*g.NY+1)
	l.eachCell(func(c int, _ uint32) { counts[c+1]++ })
	for i := 1; i < len(counts); i++ {
		counts[i] += counts[i-1]
	}
	l.cellStart = counts
	l.cellIDs = make([]uint32, counts[len(counts)-1])
	next := append([]uint32(nil), counts[:len(counts)-1]...)
	l.eachCell(func(c int, id uint32) {
		l.cellIDs[next[c]] = id
		next[c]++
	})
}

// eachCell calls fn for every (cell, feature) pair of the grid, features
// in increasing order within a cell.
func (l *Layer) eachCell(fn func(cell int, id uint32)) {
	g := l.meta.Grid
	for i := 0; i < l.Len(); i++ {
		b := l.bbox[4*i : 4*i+4]
		x0, y0 := g.cellOf(b[0], b[1])
		x1, y1 := g.cellOf(b[2], b[3])
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				fn(y*g.NX+x, uint32(i))
			}
		}
	}
}

// cellOf returns the cell holding lon/lat, clamped to the grid.
func (g Grid) cellOf(lon, lat float64) (x, y int) {
	x = int(math.Floor((lon - g.MinLon) / g.Cell))
	y = int(math.Floor((lat - g.MinLat) / g.Cell))
	return min(max(x, 0), g.NX-1), min(max(y, 0), g.NY-1)
}

// buildZip9 sorts the feature indexes by zip9, then uid.
func (l *Layer) buildZip9() {
	l.byZip9 = make([]uint32, l.Len())
	for i := range l.byZip9 {
		l.byZip9[i] = uint32(i)
	}
	sort.Slice(l.byZip9, func(a, b int) bool {
		i, j := l.byZip9[a], l.byZip9[b]
		if zi, zj := l.zip9.at(int(i)), l.zip9.at(int(j)); zi != zj {
			return zi < zj
		}
		return l.uid.at(int(i)) < l.uid.at(int(j))
	})
}

// Meta returns the layer's description.
func (l *Layer) Meta() Meta { return l.meta }

// Len returns the number of features.
func (l *Layer) Len() int { return l.n }

// At appends to dst the indexes of the features whose area contains p
// (lon/lat), in increasing order, and returns it. Points on a boundary may
// or may not count as inside. It allocates nothing when dst has room.
func (l *Layer) At(dst []int, p orb.Point) []int {
	g := l.meta.Grid
	if l.Len() == 0 || math.IsNaN(p[0]) || math.IsNaN(p[1]) {
		return dst
	}
	if p[0] < g.MinLon || p[1] < g.MinLat || p[0] > g.MinLon+float64(g.NX)*g.Cell || p[1] > g.MinLat+float64(g.NY)*g.Cell {
		return dst
	}
	x, y := g.cellOf(p[0], p[1])
	c := y*g.NX + x
	for _, id := range l.cellIDs[l.cellStart[c]:l.cellStart[c+1]] {
		b := l.bbox[4*id : 4*id+4]
		if p[0] < b[0] || p[0] > b[2] || p[1] < b[1] || p[1] > b[3] {
			continue
		}
		if l.contains(int(id), p) {
			dst = append(dst, int(id))
		}
	}
	return dst
}

// contains reports whether feature i's area contains p: inside one of its
// polygons by the even-odd rule over the polygon's rings (outer ring and
// holes).
func (l *Layer) contains(i int, p orb.Point) bool {
	for poly := l.polyStart[i]; poly < l.polyStart[i+1]; poly++ {
		in := false
		for r := l.ringStart[poly]; r < l.ringStart[poly+1]; r++ {
			if ringCrossings(l.coords[2*l.ptStart[r]:2*l.ptStart[r+1]], p) {
				in = !in
			}
		}
		if in {
			return true
		}
	}
	return false
}

// ringCrossings reports whether p is inside the ring given as flat lon,
// lat pairs (a ray cast counting edge crossings).
func ringCrossings(c []float64, p orb.Point) bool {
	n := len(c) / 2
	if n < 3 {
		return false
	}
	in := false
	x, y := p[0], p[1]
	jx, jy := c[2*(n-1)], c[2*(n-1)+1]
	for i := 0; i < n; i++ {
		ix, iy := c[2*i], c[2*i+1]
		if (iy > y) != (jy > y) && x < (jx-ix)*(y-iy)/(jy-iy)+ix {
			in = !in
		}
		jx, jy = ix, iy
	}
	return in
}

// ByZip9 returns the indexes of the features with that nine-digit code
// (usually one; an authoritative file may give a code several features).
func (l *Layer) ByZip9(code string) []int {
	lo := sort.Search(len(l.byZip9), func(k int) bool { return l.zip9.at(int(l.byZip9[k])) >= code })
	var out []int
	for k := lo; k < len(l.byZip9) && l.zip9.at(int(l.byZip9[k])) == code; k++ {
		out = append(out, int(l.byZip9[k]))
	}
	return out
}

// Feature returns feature i, its geometry copied out of the layer.
func (l *Layer) Feature(i int) Feature {
	f := Feature{UID: l.uid.at(i), Zip9: l.zip9.at(i), FIPS: l.fips.at(i), Street: l.street.at(i), Side: l.side.at(i),
		Rep: orb.Point{l.rep[2*i], l.rep[2*i+1]}}
	for poly := l.polyStart[i]; poly < l.polyStart[i+1]; poly++ {
		var pg orb.Polygon
		for r := l.ringStart[poly]; r < l.ringStart[poly+1]; r++ {
			c := l.coords[2*l.ptStart[r] : 2*l.ptStart[r+1]]
			ring := make(orb.Ring, len(c)/2)
			for k := range ring {
				ring[k] = orb.Point{c[2*k], c[2*k+1]}
			}
			pg = append(pg, ring)
		}
		f.Geometry = append(f.Geometry, pg)
	}
	return f
}

// Bound returns feature i's bounding box.
func (l *Layer) Bound(i int) orb.Bound {
	b := l.bbox[4*i : 4*i+4]
	return orb.Bound{Min: orb.Point{b[0], b[1]}, Max: orb.Point{b[2], b[3]}}
}

// Zip9 returns feature i's code.
func (l *Layer) Zip9(i int) string { return l.zip9.at(i) }

// check validates the flat arrays' lengths and offsets after a load.
func (l *Layer) check() error {
	n := l.n
	switch {
	case len(l.bbox) != 4*n, len(l.rep) != 2*n, len(l.polyStart) != n+1, len(l.byZip9) != n:
		return fmt.Errorf("zip4: feature arrays of different lengths")
	}
	if err := checkOffsets(l.polyStart, len(l.ringStart)-1); err != nil {
		return fmt.Errorf("zip4: polygons: %w", err)
	}
	if err := checkOffsets(l.ringStart, len(l.ptStart)-1); err != nil {
		return fmt.Errorf("zip4: rings: %w", err)
	}
	if err := checkOffsets(l.ptStart, len(l.coords)/2); err != nil {
		return fmt.Errorf("zip4: points: %w", err)
	}
	g := l.meta.Grid
	if g.NX < 1 || g.NY < 1 || g.NX*g.NY > maxCells || !(g.Cell > 0) || len(l.cellStart) != g.NX*g.NY+1 {
		return fmt.Errorf("zip4: bad grid %+v", g)
	}
	if err := checkOffsets(l.cellStart, len(l.cellIDs)); err != nil {
		return fmt.Errorf("zip4: grid: %w", err)
	}
	for _, id := range l.cellIDs {
		if int(id) >= n {
			return fmt.Errorf("zip4: grid lists feature %d of %d", id, n)
		}
	}
	for _, id := range l.byZip9 {
		if int(id) >= n {
			return fmt.Errorf("zip4: zip9 map lists feature %d of %d", id, n)
		}
	}
	return nil
}

// checkOffsets checks that off starts at 0, never decreases and ends at
// total.
func checkOffsets(off []uint32, total int) error {
	if len(off) == 0 || off[0] != 0 || int(off[len(off)-1]) != total {
		return fmt.Errorf("offsets do not span %d elements", total)
	}
	for i := 1; i < len(off); i++ {
		if off[i] < off[i-1] {
			return fmt.Errorf("offsets decrease at %d", i)
		}
	}
	return nil
}
