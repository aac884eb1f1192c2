package geocode

import (
	"fmt"
	"path/filepath"
	"unsafe"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// FileName is the index's file in the bundle.
const FileName = "geocode.bin"

// File format: binfmt with this magic and version.
var fileMagic = [8]byte{'G', 'E', 'O', 'C', 'O', 'D', 'E', 0}

// FileVersion is the version of geocode.bin; it is part of the bundle
// version, so a new one makes older bundles stale. Version 2 locates
// building addresses and POIs at their pole of inaccessibility (version
// 1: the mean of their outline's points, sometimes outside); version 3
// splits streets by locality and gives each road of a street its own
// context (section partctx); version 4 adds the streets of route
// numbers (ref tags); version 5 takes postcodes from postal-code
// boundaries; version 6 locates administrative areas (section
// areageom); version 7 stores everything a query reads, in the arrays
// the index uses in place (features, areas and segments as fixed
// records, the vocabulary, postings, typo index, address, place and
// interpolation lookups, the grids of addresses and street segments),
// so that Load maps the file instead of decoding it; version 8 adds the
// names of streets, places and POIs in other languages (OSM's name:xx,
// sections ln.*), which search finds them by and answers render in.
const FileVersion = 8

// Sizes of the fixed records (feature, area, placeCtx) in the file.
const (
	featureSize = 104
	areaSize    = 64
	ctxSize     = 28
)

// recordsOK reports whether the records have the layout of the file.
func recordsOK() bool {
	return unsafe.Sizeof(feature{}) == featureSize && unsafe.Sizeof(area{}) == areaSize &&
		unsafe.Sizeof(placeCtx{}) == ctxSize && unsafe.Sizeof(orb.Point{}) == 16
}

// bytesOf returns the memory of a slice of fixed-size values.
func bytesOf[T any](v []T) []byte {
	if len(v) == 0 {
		return []byte{}
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*int(unsafe.Sizeof(v[0])))
}

// viewAs returns the memory of v as a slice of T, without copying; v must
// be 8-byte aligned and a whole number of T long.
func viewAs[T, E any](v []E) ([]T, error) {
	b := bytesOf(v)
	var t T
	size := int(unsafe.Sizeof(t))
	if len(b)%size != 0 || len(b) > 0 && uintptr(unsafe.Pointer(unsafe.SliceData(b)))%8 != 0 {
		return nil, fmt.Errorf("%w: a section of %d bytes holds no whole number of %d-byte records", binfmt.ErrCorrupt, len(b), size)
	}
	if len(b) == 0 {
		return []T{}, nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/size), nil
}

// Save writes the index to dir/geocode.bin.
func (ix *Index) Save(dir string) error {
	if !recordsOK() {
		return fmt.Errorf("geocode: record layout of this platform differs from the file's")
	}
	w := binfmt.NewWriter()
	w.AddJSON("meta", ix.meta)
	w.AddUint8s("str.blob", ix.strs.blob)
	w.AddUint32s("str.off", ix.strs.off)
	w.AddUint8s("feats", bytesOf(ix.feats))
	w.AddUint8s("ctxs", bytesOf(ix.ctxs))
	w.AddUint8s("areas", bytesOf(ix.areas))
	w.AddFloat64s("points", viewMust[float64](ix.pts))
	w.AddUint32s("parts", ix.parts)
	w.AddUint32s("partctx", ix.partCtx)
	s := &ix.search
	w.AddUint8s("words.blob", s.words.blob)
	w.AddUint32s("words.off", s.words.off)
	w.AddUint8s("words.stop", s.wordStop)
	for _, c := range []struct {
		name string
		v    []uint32
	}{
		{"post.start", s.postStart}, {"post.items", s.postings},
		{"name.start", s.nameStart}, {"name.items", s.nameToks},
		{"ctx.start", s.ctxStart}, {"ctx.items", s.ctxToks}, {"ctx.local", s.ctxLocal},
		{"del.word", s.delWord},
		{"addr.street", s.addrStreet}, {"addr.hn", s.addrHN}, {"addr.feat", s.addrFeat},
		{"interp.street", s.interpStreet}, {"interp.feat", s.interpFeat},
		{"place.name", s.placeName}, {"place.feat", s.placeFeat}, {"postcode.feat", s.postcodeFeat},
		{"addrgrid.start", s.addrGrid.start}, {"addrgrid.ids", s.addrGrid.ids},
		{"seggrid.start", s.segGrid.start}, {"seggrid.ids", s.segGrid.ids},
		{"seg.start", s.segStart}, {"part.feat", s.partFeat},
		{"ln.start", s.lnStart}, {"ln.lang", s.lnLang}, {"ln.name", s.lnName},
		{"ln.tokstart", s.lnTokStart}, {"ln.toks", s.lnToks},
	} {
		w.AddUint32s(c.name, c.v)
	}
	w.AddUint64s("del.hash", s.delHash)
	w.AddUint64s("addrgrid.keys", s.addrGrid.keys)
	w.AddUint64s("seggrid.keys", s.segGrid.keys)
	if err := w.WriteFile(filepath.Join(dir, FileName), fileMagic, FileVersion); err != nil {
		return fmt.Errorf("geocode: %w", err)
	}
	return nil
}

// viewMust is viewAs for memory known to fit.
func viewMust[T, E any](v []E) []T {
	t, err := viewAs[T](v)
	if err != nil {
		panic(err)
	}
	return t
}

// Load reads dir/geocode.bin with the default tables.
func Load(dir string) (*Index, error) {
	t, err := DefaultTables()
	if err != nil {
		return nil, err
	}
	return LoadWith(dir, t)
}

// LoadWith reads dir/geocode.bin, normalising with tables t (which must
// be the tables the index was built with for house numbers and names to
// match as at build time). The index uses the file's sections in place,
// mapped read-only (binfmt.Open): loading decodes nothing but the small
// metadata, and checks that every reference in the file is in range
// (then lets go of the pages the check read: a query makes resident only
// what it reads).
func LoadWith(dir string, t *Tables) (*Index, error) {
	return load(dir, t, false)
}

// LoadDeferred is Load without the whole-file checks (checksum, every
// reference in range), which Verify runs later: opening takes as long at
// any size (a server verifies in the background and stops on a corrupt
// file). A truncated file or a bad section table still fails here.
func LoadDeferred(dir string) (*Index, error) {
	t, err := DefaultTables()
	if err != nil {
		return nil, err
	}
	return load(dir, t, true)
}

// Verify runs the checks LoadDeferred left for later, once; nil for an
// index loaded with Load or a nil one.
func (ix *Index) Verify() error {
	if ix == nil {
		return nil
	}
	return ix.deferred.Verify()
}

func load(dir string, t *Tables, deferred bool) (*Index, error) {
	if !recordsOK() {
		return nil, fmt.Errorf("geocode: record layout of this platform differs from the file's")
	}
	open := binfmt.Open
	if deferred {
		open = binfmt.OpenDeferred
	}
	f, err := open(filepath.Join(dir, FileName), fileMagic, FileVersion)
	if err != nil {
		return nil, fmt.Errorf("geocode: %w", err)
	}
	ix := &Index{t: t}
	r := &sectionReader{f: f}
	if err := f.JSON("meta", &ix.meta); err != nil {
		return nil, fmt.Errorf("geocode: %w", err)
	}
	ix.strs = strTable{blob: r.u8("str.blob"), off: r.u32("str.off")}
	ix.feats = records[feature](r, "feats")
	ix.ctxs = records[placeCtx](r, "ctxs")
	ix.areas = records[area](r, "areas")
	ix.pts = pointsOf(r, "points")
	ix.parts, ix.partCtx = r.u32("parts"), r.u32("partctx")
	s := &ix.search
	s.words = strTable{blob: r.u8("words.blob"), off: r.u32("words.off")}
	s.wordStop = r.u8("words.stop")
	s.postStart, s.postings = r.u32("post.start"), r.u32("post.items")
	s.nameStart, s.nameToks = r.u32("name.start"), r.u32("name.items")
	s.ctxStart, s.ctxToks, s.ctxLocal = r.u32("ctx.start"), r.u32("ctx.items"), r.u32("ctx.local")
	s.delHash, s.delWord = r.u64("del.hash"), r.u32("del.word")
	s.addrStreet, s.addrHN, s.addrFeat = r.u32("addr.street"), r.u32("addr.hn"), r.u32("addr.feat")
	s.interpStreet, s.interpFeat = r.u32("interp.street"), r.u32("interp.feat")
	s.placeName, s.placeFeat, s.postcodeFeat = r.u32("place.name"), r.u32("place.feat"), r.u32("postcode.feat")
	s.addrGrid = grid{cell: addrCell, keys: r.u64("addrgrid.keys"), start: r.u32("addrgrid.start"), ids: r.u32("addrgrid.ids")}
	s.segGrid = grid{cell: segCell, keys: r.u64("seggrid.keys"), start: r.u32("seggrid.start"), ids: r.u32("seggrid.ids")}
	s.segStart, s.partFeat = r.u32("seg.start"), r.u32("part.feat")
	s.lnStart, s.lnLang, s.lnName = r.u32("ln.start"), r.u32("ln.lang"), r.u32("ln.name")
	s.lnTokStart, s.lnToks = r.u32("ln.tokstart"), r.u32("ln.toks")
	if r.err != nil {
		return nil, fmt.Errorf("geocode: %w", r.err)
	}
	check := func() error {
		if err := ix.check(); err != nil {
			return fmt.Errorf("geocode: %w: %v", binfmt.ErrCorrupt, err)
		}
		return nil
	}
	if deferred {
		ix.deferred = binfmt.Defer(f, check)
		return ix, nil
	}
	if err := check(); err != nil {
		return nil, err
	}
	// The check read most of the file: its pages leave the resident set
	// again (they stay in the page cache) until queries touch them.
	f.Release()
	return ix, nil
}

// records returns byte section name as a slice of fixed records.
func records[T any](r *sectionReader, name string) []T {
	b, err := r.f.Uint8s(name)
	r.keep(err)
	if err != nil {
		return nil
	}
	v, err := viewAs[T](b)
	r.keep(err)
	return v
}

// pointsOf returns float64 section name as points.
func pointsOf(r *sectionReader, name string) []orb.Point {
	f, err := r.f.Float64s(name)
	r.keep(err)
	if err != nil {
		return nil
	}
	v, err := viewAs[orb.Point](f)
	r.keep(err)
	return v
}

// sectionReader reads typed sections, keeping the first error.
type sectionReader struct {
	f   *binfmt.File
	err error
}

func (r *sectionReader) u8(name string) []uint8 {
	v, err := r.f.Uint8s(name)
	r.keep(err)
	return v
}
func (r *sectionReader) u32(name string) []uint32 {
	v, err := r.f.Uint32s(name)
	r.keep(err)
	return v
}
func (r *sectionReader) u64(name string) []uint64 {
	v, err := r.f.Uint64s(name)
	r.keep(err)
	return v
}
func (r *sectionReader) keep(err error) {
	if r.err == nil {
		r.err = err
	}
}
