package geocode

import (
	"fmt"
	"path/filepath"

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
// areageom).
const FileVersion = 6

// Save writes the index to dir/geocode.bin.
func (ix *Index) Save(dir string) error {
	w := binfmt.NewWriter()
	n := len(ix.feats)
	kind := make([]uint8, n)
	rank := make([]uint8, n)
	osmType := make([]uint8, n)
	u32 := map[string][]uint32{}
	cols := []string{"name", "street", "unit", "class", "ctx", "pop", "part0", "nparts"}
	for _, c := range cols {
		u32[c] = make([]uint32, n)
	}
	hn := make([]int32, 2*n)
	osmID := make([]int64, n)
	geom := make([]float64, 6*n) // pt, bound
	for i := range ix.feats {
		f := &ix.feats[i]
		kind[i], rank[i], osmType[i] = uint8(f.kind), f.rank, f.osmType
		u32["name"][i], u32["street"][i], u32["unit"][i], u32["class"][i] = f.name, f.street, f.unit, f.class
		u32["ctx"][i], u32["pop"][i], u32["part0"][i], u32["nparts"][i] = f.ctx, f.pop, f.part0, f.nparts
		hn[2*i], hn[2*i+1] = f.hnFrom, f.hnTo
		osmID[i] = f.osmID
		copy(geom[6*i:], []float64{f.pt[0], f.pt[1], f.bound.Min[0], f.bound.Min[1], f.bound.Max[0], f.bound.Max[1]})
	}
	w.AddJSON("meta", ix.meta)
	w.AddStrings("strings", ix.strs)
	w.AddUint8s("feat.kind", kind)
	w.AddUint8s("feat.rank", rank)
	w.AddUint8s("feat.osmtype", osmType)
	for _, c := range cols {
		w.AddUint32s("feat."+c, u32[c])
	}
	w.AddInt32s("feat.hn", hn)
	w.AddInt64s("feat.osmid", osmID)
	w.AddFloat64s("feat.geom", geom)
	ctx := make([]uint32, 7*len(ix.ctxs))
	for i, c := range ix.ctxs {
		copy(ctx[7*i:], []uint32{c.locality, c.altLocality, c.neighbourhood, c.postcode, c.county, c.state, c.country})
	}
	w.AddUint32s("ctx", ctx)
	areas := make([]uint32, 3*len(ix.areas))
	for i, a := range ix.areas {
		copy(areas[3*i:], []uint32{a.name, a.short, uint32(a.level)})
	}
	w.AddUint32s("areas", areas)
	areaGeom := make([]float64, 6*len(ix.areas))
	for i, a := range ix.areas {
		copy(areaGeom[6*i:], []float64{a.bound.Min[0], a.bound.Min[1], a.bound.Max[0], a.bound.Max[1], a.center[0], a.center[1]})
	}
	w.AddFloat64s("areageom", areaGeom)
	w.AddUint32s("parts", ix.parts)
	w.AddUint32s("partctx", ix.partCtx)
	pts := make([]float64, 2*len(ix.pts))
	for i, p := range ix.pts {
		pts[2*i], pts[2*i+1] = p[0], p[1]
	}
	w.AddFloat64s("points", pts)
	if err := w.WriteFile(filepath.Join(dir, FileName), fileMagic, FileVersion); err != nil {
		return fmt.Errorf("geocode: %w", err)
	}
	return nil
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
// match as at build time).
func LoadWith(dir string, t *Tables) (*Index, error) {
	f, err := binfmt.Open(filepath.Join(dir, FileName), fileMagic, FileVersion)
	if err != nil {
		return nil, fmt.Errorf("geocode: %w", err)
	}
	ix := &Index{t: t}
	r := &sectionReader{f: f}
	if err := f.JSON("meta", &ix.meta); err != nil {
		return nil, fmt.Errorf("geocode: %w", err)
	}
	strs, err := f.Strings("strings")
	if err != nil {
		return nil, fmt.Errorf("geocode: %w", err)
	}
	ix.strs = strs
	kind, rank, osmType := r.u8("feat.kind"), r.u8("feat.rank"), r.u8("feat.osmtype")
	name, street, unit, class := r.u32("feat.name"), r.u32("feat.street"), r.u32("feat.unit"), r.u32("feat.class")
	ctxs, pop, part0, nparts := r.u32("feat.ctx"), r.u32("feat.pop"), r.u32("feat.part0"), r.u32("feat.nparts")
	hn := r.i32("feat.hn")
	osmID := r.i64("feat.osmid")
	geom := r.f64("feat.geom")
	ctx, areas, parts, pts := r.u32("ctx"), r.u32("areas"), r.u32("parts"), r.f64("points")
	partCtx, areaGeom := r.u32("partctx"), r.f64("areageom")
	if r.err != nil {
		return nil, fmt.Errorf("geocode: %w", r.err)
	}
	n := len(kind)
	for _, l := range []int{len(rank), len(osmType), len(name), len(street), len(unit), len(class), len(ctxs), len(pop), len(part0), len(nparts), len(osmID)} {
		if l != n {
			return nil, fmt.Errorf("geocode: %w: feature columns of different lengths", binfmt.ErrCorrupt)
		}
	}
	if len(hn) != 2*n || len(geom) != 6*n || len(ctx)%7 != 0 || len(areas)%3 != 0 || len(pts)%2 != 0 || len(parts) == 0 {
		return nil, fmt.Errorf("geocode: %w: section sizes", binfmt.ErrCorrupt)
	}
	ix.pts = make([]orb.Point, len(pts)/2)
	for i := range ix.pts {
		ix.pts[i] = orb.Point{pts[2*i], pts[2*i+1]}
	}
	ix.parts = append([]uint32(nil), parts...)
	for _, p := range ix.parts {
		if int(p) > len(ix.pts) {
			return nil, fmt.Errorf("geocode: %w: part offset", binfmt.ErrCorrupt)
		}
	}
	if len(partCtx) != len(parts)-1 {
		return nil, fmt.Errorf("geocode: %w: part contexts", binfmt.ErrCorrupt)
	}
	for _, c := range partCtx {
		if c != noRef && int(c) >= len(ctx)/7 {
			return nil, fmt.Errorf("geocode: %w: part context", binfmt.ErrCorrupt)
		}
	}
	ix.partCtx = append([]uint32(nil), partCtx...)
	ix.ctxs = make([]placeCtx, len(ctx)/7)
	for i := range ix.ctxs {
		c := ctx[7*i:]
		ix.ctxs[i] = placeCtx{c[0], c[1], c[2], c[3], c[4], c[5], c[6]}
		if max(c[0], c[1], c[2], c[3]) >= uint32(len(strs)) {
			return nil, fmt.Errorf("geocode: %w: context string", binfmt.ErrCorrupt)
		}
	}
	ix.areas = make([]area, len(areas)/3)
	if len(areaGeom) != 6*len(ix.areas) {
		return nil, fmt.Errorf("geocode: %w: area geometry", binfmt.ErrCorrupt)
	}
	for i := range ix.areas {
		g := areaGeom[6*i:]
		ix.areas[i] = area{name: areas[3*i], short: areas[3*i+1], level: uint8(areas[3*i+2]),
			bound: orb.Bound{Min: orb.Point{g[0], g[1]}, Max: orb.Point{g[2], g[3]}}, center: orb.Point{g[4], g[5]}}
	}
	ix.feats = make([]feature, n)
	for i := range ix.feats {
		g := geom[6*i:]
		ix.feats[i] = feature{kind: Kind(kind[i]), rank: rank[i], name: name[i], street: street[i], unit: unit[i],
			class: class[i], ctx: ctxs[i], pop: pop[i], hnFrom: hn[2*i], hnTo: hn[2*i+1],
			pt: orb.Point{g[0], g[1]}, bound: orb.Bound{Min: orb.Point{g[2], g[3]}, Max: orb.Point{g[4], g[5]}},
			part0: part0[i], nparts: nparts[i], osmType: osmType[i], osmID: osmID[i]}
		f := &ix.feats[i]
		if f.name >= uint32(len(strs)) || f.ctx >= uint32(len(ix.ctxs)) || f.street != noRef && f.street >= uint32(n) ||
			f.nparts > 0 && uint64(f.part0)+uint64(f.nparts) >= uint64(len(ix.parts)) {
			return nil, fmt.Errorf("geocode: %w: feature %d", binfmt.ErrCorrupt, i)
		}
	}
	ix.init()
	return ix, nil
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
func (r *sectionReader) i32(name string) []int32 {
	v, err := r.f.Int32s(name)
	r.keep(err)
	return v
}
func (r *sectionReader) i64(name string) []int64 {
	v, err := r.f.Int64s(name)
	r.keep(err)
	return v
}
func (r *sectionReader) f64(name string) []float64 {
	v, err := r.f.Float64s(name)
	r.keep(err)
	return v
}
func (r *sectionReader) keep(err error) {
	if r.err == nil {
		r.err = err
	}
}
