package mapdata

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// FileName is the map layer's file in a bundle.
const FileName = "mapdata.bin"

// FileVersion is the version of the mapdata.bin format and content. 3:
// the places are stored in label order with their order by longitude, and
// their names as offsets and bytes, all read in place.
const FileVersion = 3

// File format of mapdata.bin: a binfmt container with this magic and
// version. Sections: "coords" (int32 x, y pairs, 1e-7 degree), "ring.off"
// and "ring.len" (uint32, in points), per band N "bN.class" (uint8),
// "bN.featring" (uint32, CSR into "bN.rings"), "bN.rings" (uint32 ring
// numbers), "bN.box" (int32, 4 per feature), "bN.cells" and "bN.items"
// (uint32, the grid's CSR); places, in label order: "place.name.off"
// (uint32) and "place.name.str" (bytes), "place.kind" and "place.capital"
// (uint8), "place.pop" (int64), "place.xy" (float64 lon, lat),
// "place.bylon" (uint32: their numbers by longitude); "meta" (JSON: the
// bound, the bands and their grids).
var fileMagic = [8]byte{'G', 'S', 'M', 'A', 'P', 'D', 'T', 0}

// fileMeta is the JSON "meta" section.
type fileMeta struct {
	Bound [4]float64         `json:"bound"`
	Bands [numBands]bandMeta `json:"bands"`
}

type bandMeta struct {
	Band     Band `json:"band"`
	NumAreas int  `json:"num_areas"`
	Grid     grid `json:"grid"`
}

// writer returns the layer as a binfmt writer.
func (l *Layer) writer() *binfmt.Writer {
	w := binfmt.NewWriter()
	w.AddInt32s("coords", l.coords)
	w.AddUint32s("ring.off", l.ringOff)
	w.AddUint32s("ring.len", l.ringLen)
	m := fileMeta{Bound: [4]float64{l.bound.Min[0], l.bound.Min[1], l.bound.Max[0], l.bound.Max[1]}}
	for i := range l.bands {
		bd := &l.bands[i]
		p := fmt.Sprintf("b%d.", i)
		w.AddUint8s(p+"class", bd.class)
		w.AddUint32s(p+"featring", bd.featRing)
		w.AddUint32s(p+"rings", bd.rings)
		w.AddInt32s(p+"box", bd.box)
		w.AddUint32s(p+"cells", bd.grid.start)
		w.AddUint32s(p+"items", bd.grid.items)
		m.Bands[i] = bandMeta{Band: Bands[i], NumAreas: bd.numAreas, Grid: bd.grid}
	}
	l.places.write(w)
	w.AddJSON("meta", m)
	return w
}

// Write writes the layer to dir/FileName.
func (l *Layer) Write(dir string) error {
	return l.WriteFile(filepath.Join(dir, FileName))
}

// WriteFile writes the layer to path.
func (l *Layer) WriteFile(path string) error {
	if err := l.writer().WriteFile(path, fileMagic, FileVersion); err != nil {
		return fmt.Errorf("mapdata: %w", err)
	}
	return nil
}

// Bytes returns the layer's file content.
func (l *Layer) Bytes() ([]byte, error) {
	var buf bytes.Buffer
	if _, err := l.writer().WriteTo(&buf, fileMagic, FileVersion); err != nil {
		return nil, fmt.Errorf("mapdata: %w", err)
	}
	return buf.Bytes(), nil
}

// Load reads the layer of the bundle in dir.
func Load(dir string) (*Layer, error) { return ReadFile(filepath.Join(dir, FileName)) }

// LoadDeferred is Load without the whole-file checks (checksum, every
// index in range), which Verify runs later: opening takes as long at any
// size (a server verifies in the background and stops on a corrupt
// file). A truncated file or a bad section table still fails here.
func LoadDeferred(dir string) (*Layer, error) {
	f, err := binfmt.OpenDeferred(filepath.Join(dir, FileName), fileMagic, FileVersion)
	if err != nil {
		return nil, fmt.Errorf("mapdata: %w", err)
	}
	l, err := fromFile(f, true)
	if err != nil {
		return nil, err
	}
	l.deferred = binfmt.Defer(f, l.check)
	return l, nil
}

// Verify runs the checks LoadDeferred left for later, once; nil for a
// layer loaded with Load or a nil one.
func (l *Layer) Verify() error {
	if l == nil {
		return nil
	}
	return l.deferred.Verify()
}

// ReadFile reads a layer file.
func ReadFile(path string) (*Layer, error) {
	f, err := binfmt.Open(path, fileMagic, FileVersion)
	if err != nil {
		return nil, fmt.Errorf("mapdata: %w", err)
	}
	return fromFile(f, false)
}

// Parse reads a layer from a file's content (which it may alias: do not
// modify data afterwards).
func Parse(data []byte) (*Layer, error) {
	f, err := binfmt.Parse(data, fileMagic, FileVersion)
	if err != nil {
		return nil, fmt.Errorf("mapdata: %w", err)
	}
	return fromFile(f, false)
}

// errCorrupt is wrapped by the errors of a file whose arrays disagree.
var errCorrupt = errors.New("mapdata: corrupt layer file")

// fromFile reads the layer's sections from f and, unless deferred, checks
// that every index is in range.
func fromFile(f *binfmt.File, deferred bool) (*Layer, error) {
	l := &Layer{}
	var m fileMeta
	var err error
	get := func(fn func() error) {
		if err == nil {
			err = fn()
		}
	}
	get(func() error { return f.JSON("meta", &m) })
	get(func() (e error) { l.coords, e = f.Int32s("coords"); return })
	get(func() (e error) { l.ringOff, e = f.Uint32s("ring.off"); return })
	get(func() (e error) { l.ringLen, e = f.Uint32s("ring.len"); return })
	for i := range l.bands {
		bd := &l.bands[i]
		p := fmt.Sprintf("b%d.", i)
		get(func() (e error) { bd.class, e = f.Uint8s(p + "class"); return })
		get(func() (e error) { bd.featRing, e = f.Uint32s(p + "featring"); return })
		get(func() (e error) { bd.rings, e = f.Uint32s(p + "rings"); return })
		get(func() (e error) { bd.box, e = f.Int32s(p + "box"); return })
		get(func() (e error) { bd.grid.start, e = f.Uint32s(p + "cells"); return })
		get(func() (e error) { bd.grid.items, e = f.Uint32s(p + "items"); return })
	}
	get(func() error { return l.places.read(f) })
	if err != nil {
		return nil, fmt.Errorf("mapdata: %w", err)
	}
	l.bound = orb.Bound{Min: orb.Point{m.Bound[0], m.Bound[1]}, Max: orb.Point{m.Bound[2], m.Bound[3]}}
	for i := range l.bands {
		bd := &l.bands[i]
		start, items := bd.grid.start, bd.grid.items
		bd.grid = m.Bands[i].Grid
		bd.grid.start, bd.grid.items = start, items
		bd.numAreas = m.Bands[i].NumAreas
		if m.Bands[i].Band != Bands[i] {
			return nil, fmt.Errorf("%w: band %d is %+v, this build has %+v", errCorrupt, i, m.Bands[i].Band, Bands[i])
		}
	}
	if deferred {
		return l, nil
	}
	if err := l.check(); err != nil {
		return nil, err
	}
	return l, nil
}

// check verifies that every index of the layer is in range, so that
// queries cannot fail on a crafted file.
func (l *Layer) check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", errCorrupt, fmt.Sprintf(format, args...))
	}
	if len(l.coords)%2 != 0 || len(l.ringOff) != len(l.ringLen) {
		return bad("coordinate or ring arrays of odd lengths")
	}
	points := uint64(len(l.coords) / 2)
	for r := range l.ringOff {
		if uint64(l.ringOff[r])+uint64(l.ringLen[r]) > points || l.ringLen[r] < 2 {
			return bad("ring %d out of range", r)
		}
	}
	for i := range l.bands {
		bd := &l.bands[i]
		n := len(bd.class)
		if n == 0 && len(bd.featRing) == 0 {
			bd.featRing = []uint32{0}
		}
		if len(bd.featRing) != n+1 || len(bd.box) != 4*n || bd.numAreas < 0 || bd.numAreas > n || bd.featRing[0] != 0 ||
			int(bd.featRing[n]) != len(bd.rings) {
			return bad("band %d: feature arrays disagree", i)
		}
		for f := range n {
			c := Class(bd.class[f])
			if int(c) >= numClasses || c.IsLine() != (f >= bd.numAreas) {
				return bad("band %d: feature %d has class %d", i, f, c)
			}
			lo, hi := bd.featRing[f], bd.featRing[f+1]
			if lo >= hi || hi > uint32(len(bd.rings)) || (c.IsLine() && hi-lo != 1) {
				return bad("band %d: feature %d has rings %d..%d", i, f, lo, hi)
			}
		}
		for _, r := range bd.rings {
			if int(r) >= len(l.ringOff) {
				return bad("band %d: ring %d out of range", i, r)
			}
		}
		g := &bd.grid
		if g.NX == 0 && g.NY == 0 && len(g.start) <= 1 && len(g.items) == 0 && n == 0 {
			continue // an empty band (the zero Layer)
		}
		if g.NX < 1 || g.NY < 1 || g.NX > maxCells || g.NY > maxCells || g.NX*g.NY > maxCells || g.CellW < 1 || g.CellH < 1 ||
			len(g.start) != g.NX*g.NY+1 || g.start[0] != 0 || int(g.start[len(g.start)-1]) != len(g.items) {
			return bad("band %d: grid %dx%d of %d cells", i, g.NX, g.NY, len(g.start)-1)
		}
		for c := 1; c < len(g.start); c++ {
			if g.start[c] < g.start[c-1] {
				return bad("band %d: grid cells out of order", i)
			}
		}
		for _, it := range g.items {
			if int(it) >= n {
				return bad("band %d: grid item %d out of range", i, it)
			}
		}
	}
	return nil
}
