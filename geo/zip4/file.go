package zip4

import (
	"fmt"
	"path/filepath"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// FileName is the layer's file in the data bundle.
const FileName = "zip4.bin"

// File format: binfmt container with this magic and version.
var fileMagic = [8]byte{'G', 'E', 'O', 'Z', 'I', 'P', '4', 0}

// FileVersion is the version of zip4.bin: its format and the derivation
// rules (a change of either renumbers codes, so older bundles go stale).
// 2: self-closed loops are cut into two faces. 3: the string columns are
// offsets and bytes (read in place from the mapped file, no string table
// decoded on load).
const FileVersion = 3

// Sections of zip4.bin.
const (
	secMeta      = "meta"       // JSON Meta
	secUID       = "uid"        // string column (strCol: NAME.off uint32, features+1; NAME.str bytes)
	secZip9      = "zip9"       // string column
	secFIPS      = "fips"       // string column
	secStreet    = "street"     // string column
	secSide      = "side"       // string column
	secBBox      = "bbox"       // float64 x4 per feature
	secRep       = "rep"        // float64 x2 per feature
	secPolyStart = "poly.start" // uint32, features+1
	secRingStart = "ring.start" // uint32, polygons+1
	secPtStart   = "pt.start"   // uint32, rings+1
	secCoords    = "coords"     // float64 lon, lat pairs
	secCellStart = "grid.start" // uint32, cells+1
	secCellIDs   = "grid.ids"   // uint32 feature indexes
	secByZip9    = "zip9.order" // uint32 feature indexes sorted by zip9
)

// WriteFile writes the layer to dir/FileName.
func (l *Layer) WriteFile(dir string) error {
	w := binfmt.NewWriter()
	w.AddJSON(secMeta, l.meta)
	l.uid.write(w, secUID)
	l.zip9.write(w, secZip9)
	l.fips.write(w, secFIPS)
	l.street.write(w, secStreet)
	l.side.write(w, secSide)
	w.AddFloat64s(secBBox, l.bbox)
	w.AddFloat64s(secRep, l.rep)
	w.AddUint32s(secPolyStart, l.polyStart)
	w.AddUint32s(secRingStart, l.ringStart)
	w.AddUint32s(secPtStart, l.ptStart)
	w.AddFloat64s(secCoords, l.coords)
	w.AddUint32s(secCellStart, l.cellStart)
	w.AddUint32s(secCellIDs, l.cellIDs)
	w.AddUint32s(secByZip9, l.byZip9)
	if err := w.WriteFile(filepath.Join(dir, FileName), fileMagic, FileVersion); err != nil {
		return fmt.Errorf("zip4: %w", err)
	}
	return nil
}

// Load reads the layer from dir/FileName. The layer's arrays, strings
// included, alias the mapped file; nothing is decoded or rebuilt.
func Load(dir string) (*Layer, error) { return load(dir, false) }

// LoadDeferred is Load without the whole-file checks (checksum, every
// reference in range), which Verify runs later: opening takes as long at
// any size (a server verifies in the background and stops on a corrupt
// file). A truncated file or a bad section table still fails here.
func LoadDeferred(dir string) (*Layer, error) { return load(dir, true) }

// Verify runs the checks LoadDeferred left for later, once; nil for a
// layer loaded with Load or a nil one.
func (l *Layer) Verify() error {
	if l == nil {
		return nil
	}
	return l.deferred.Verify()
}

func load(dir string, deferred bool) (*Layer, error) {
	open := binfmt.Open
	if deferred {
		open = binfmt.OpenDeferred
	}
	f, err := open(filepath.Join(dir, FileName), fileMagic, FileVersion)
	if err != nil {
		return nil, fmt.Errorf("zip4: %w", err)
	}
	l := &Layer{}
	errs := []error{f.JSON(secMeta, &l.meta)}
	l.n = l.meta.Features
	strs := func(name string, dst *strCol) { errs = append(errs, dst.read(f, name, l.n)) }
	floats := func(name string, dst *[]float64) {
		v, err := f.Float64s(name)
		*dst = v
		errs = append(errs, err)
	}
	u32s := func(name string, dst *[]uint32) {
		v, err := f.Uint32s(name)
		*dst = v
		errs = append(errs, err)
	}
	strs(secUID, &l.uid)
	strs(secZip9, &l.zip9)
	strs(secFIPS, &l.fips)
	strs(secStreet, &l.street)
	strs(secSide, &l.side)
	floats(secBBox, &l.bbox)
	floats(secRep, &l.rep)
	u32s(secPolyStart, &l.polyStart)
	u32s(secRingStart, &l.ringStart)
	u32s(secPtStart, &l.ptStart)
	floats(secCoords, &l.coords)
	u32s(secCellStart, &l.cellStart)
	u32s(secCellIDs, &l.cellIDs)
	u32s(secByZip9, &l.byZip9)
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("zip4: %s: %w", FileName, err)
		}
	}
	check := func() error {
		if err := l.check(); err != nil {
			return fmt.Errorf("%w (%s)", err, FileName)
		}
		return nil
	}
	if deferred {
		l.deferred = binfmt.Defer(f, check)
		return l, nil
	}
	if err := check(); err != nil {
		return nil, err
	}
	return l, nil
}
