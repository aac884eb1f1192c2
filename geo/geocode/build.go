package geocode

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/boundary"
)

// BuildOptions configures Build.
type BuildOptions struct {
	// Tables normalise names; nil means DefaultTables.
	Tables *Tables
	// Admins gives the administrative areas around a point (the boundary
	// layer, with the world base layer); nil uses the world base layer
	// alone (countries, US states and counties). Place nodes and TIGER
	// county tags fill what it leaves open.
	Admins AdminLookup
}

// Build reads the OSM extract at path (.osm.pbf, .osm, .osm.bz2, .osm.gz)
// and returns its geocoding index.
func Build(path string, opts BuildOptions) (*Index, error) {
	t := opts.Tables
	if t == nil {
		var err error
		if t, err = DefaultTables(); err != nil {
			return nil, err
		}
	}
	x, err := readOSM(path)
	if err != nil {
		return nil, fmt.Errorf("geocode: %w", err)
	}
	admins := opts.Admins
	if admins == nil {
		w, err := boundary.World()
		if err != nil {
			return nil, fmt.Errorf("geocode: %w", err)
		}
		admins = BoundaryAdmins(w)
	}
	b := newBuilder(t, x, admins)
	ix := b.build()
	ix.meta.Source = filepath.Base(path)
	ix.init()
	return ix, nil
}

// builder turns an extract into an Index.
type builder struct {
	t      *Tables
	x      *extract
	admins AdminLookup
	ix     *Index

	strIDs  map[string]uint32
	ctxIDs  map[placeCtx]uint32
	areaIDs map[areaKey]uint32
	// placeCache memoises placeAt.
	placeCache map[placeKey]placeVal
	// placeAreas caches placeAdmin by place index.
	placeAreas map[int][2]uint32

	placeGrid *grid // place index -> x.places
	segGrid   *grid // index into segs
	segs      []roadSeg
	// country is the extract's main country (mainCountry), the country
	// of features outside every country's area.
	country string

	// The streets (addStreets): road groups, their indexes by normalised
	// name, and the synthetic streets of addresses whose street has no
	// road, by normalised name and city.
	groups    []roadGroup
	byKey     map[string][]int
	synthetic map[string]uint32
	// counts are the features added, by kind.
	counts map[string]int
}

func newBuilder(t *Tables, x *extract, admins AdminLookup) *builder {
	b := &builder{t: t, x: x, admins: admins, ix: &Index{t: t, strs: []string{""}, parts: []uint32{0}},
		strIDs: map[string]uint32{"": 0}, ctxIDs: map[placeCtx]uint32{}, areaIDs: map[areaKey]uint32{},
		placeAreas: map[int][2]uint32{},
		placeGrid:  newGrid(0.05), segGrid: newGrid(0.004)}
	for i, p := range x.places {
		b.placeGrid.add(p.pt, uint32(i))
	}
	for i, r := range x.roads {
		if r.county == "" && len(r.zip) == 0 {
			continue // only TIGER tags are looked up by position
		}
		for j := 1; j < len(r.line); j++ {
			b.segGrid.addBound(r.line[j-1].Bound().Extend(r.line[j]), uint32(len(b.segs)))
			b.segs = append(b.segs, roadSeg{uint32(i), uint32(j)})
		}
	}
	b.country = b.mainCountry()
	return b
}

// mainCountry returns the country (ISO 3166-1 alpha-2) most of the
// extract's roads lie in, by the boundary layer at the middle of up to
// 500 roads spread over the extract; "" without a boundary layer. It is
// the country of a feature that lies in no country's area (a coastal road
// just outside a coarse coastline).
func (b *builder) mainCountry() string {
	if b.admins == nil || len(b.x.roads) == 0 {
		return ""
	}
	counts := map[string]int{}
	step := max(1, len(b.x.roads)/500)
	for i := 0; i < len(b.x.roads); i += step {
		for _, a := range b.admins(alongLine(b.x.roads[i].line, 0.5)) {
			if a.Level == 2 && a.Code != "" {
				counts[strings.ToUpper(a.Code)]++
				break
			}
		}
	}
	return mostCommon(counts)
}

func (b *builder) str(s string) uint32 { return intern(b.strIDs, &b.ix.strs, s) }

// intern returns v's index in *list, appending it (and noting it in ids)
// the first time.
func intern[K comparable](ids map[K]uint32, list *[]K, v K) uint32 {
	if id, ok := ids[v]; ok {
		return id
	}
	id := uint32(len(*list))
	*list = append(*list, v)
	ids[v] = id
	return id
}

func (b *builder) area(name, short string, level int) uint32 {
	return b.areaAt(name, short, level, nil)
}

// areaAt is area with the boundary layer's area, whose bounding box and
// inside point locate it.
func (b *builder) areaAt(name, short string, level int, at *AdminArea) uint32 {
	if name == "" {
		return noRef
	}
	k := areaKey{name: b.str(name), short: b.str(short), level: uint8(level)}
	id, ok := b.areaIDs[k]
	if !ok {
		id = uint32(len(b.ix.areas))
		b.ix.areas = append(b.ix.areas, area{name: k.name, short: k.short, level: k.level})
		b.areaIDs[k] = id
	}
	if a := &b.ix.areas[id]; at != nil && a.bound == (orb.Bound{}) {
		a.bound, a.center = at.Bound, at.Center
	}
	return id
}

func (b *builder) addFeature(f feature) uint32 {
	b.ix.feats = append(b.ix.feats, f)
	return uint32(len(b.ix.feats) - 1)
}

// addParts stores geometry parts and sets f's part range.
func (b *builder) addParts(f *feature, parts ...[]orb.Point) {
	f.part0 = uint32(len(b.ix.parts) - 1)
	for _, p := range parts {
		b.ix.pts = append(b.ix.pts, p...)
		b.ix.parts = append(b.ix.parts, uint32(len(b.ix.pts)))
		b.ix.partCtx = append(b.ix.partCtx, noRef)
	}
	f.nparts = uint32(len(parts))
}

// build adds the features of every kind, in this order (feature ids
// follow it), then the areas' viewports and the postcodes.
func (b *builder) build() *Index {
	b.counts = map[string]int{}
	b.addPlaces()
	b.addStreets()
	b.addAddresses()
	b.addInterpolations()
	b.addTigerRanges()
	b.addPOIs()
	b.addLocalities()
	b.areaViewports()
	b.addPostcodes()
	b.ix.meta.Counts = b.counts
	return b.ix
}

// addPlaces adds a feature per place node.
func (b *builder) addPlaces() {
	for _, p := range b.x.places {
		f := feature{kind: KindPlace, rank: placeTypes[p.typ], name: b.str(p.name), street: noRef,
			class: b.str(p.typ), pop: uint32(min(p.population, math.MaxUint32)), pt: p.pt,
			bound: padBound(p.pt.Bound(), math.Max(500, placeRadius[p.typ]/2)), osmType: 'n', osmID: p.id}
		f.ctx = b.context(p.pt, "", "", "")
		b.addFeature(f)
		b.counts["place"]++
	}
}

func (b *builder) ctxOf(c placeCtx) uint32 { return intern(b.ctxIDs, &b.ix.ctxs, c) }

// mostCommon returns the most frequent key, the smallest on ties.
func mostCommon(m map[string]int) string {
	best, n := "", 0
	for k, c := range m {
		if c > n || c == n && k < best {
			best, n = k, c
		}
	}
	return best
}

// postcode returns the canonical form of a postcode: upper case, a US
// ZIP+4 cut to its five digits, the first of a list.
func (b *builder) postcode(pc string) string {
	pc = strings.TrimSpace(pc)
	if i := strings.IndexAny(pc, ";:,"); i >= 0 {
		pc = strings.TrimSpace(pc[:i])
	}
	if len(pc) == 10 && pc[5] == '-' && isDigits(pc[:5]) && isDigits(pc[6:]) {
		pc = pc[:5]
	}
	return strings.ToUpper(pc)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
