package geocode

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
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
	ix := newBuilder(t, x, admins).build()
	ix.meta.Source = filepath.Base(path)
	ix.finish() // the builder and the extract are garbage by now
	return ix, nil
}

// builder turns an extract into an Index.
type builder struct {
	t      *Tables
	x      *extract
	admins AdminLookup
	ix     *Index

	ctxIDs  map[placeCtx]uint32
	areaIDs map[areaKey]uint32
	// roadPlace memoises placeAt at the midpoint of each road (an index
	// into placeVals, noRef until computed): a road's midpoint is looked
	// up when its street is grouped and again for its context.
	roadPlace   []uint32
	placeVals   []placeVal
	placeValIDs map[placeVal]uint32
	// placeAreas caches placeAdmin by place index.
	placeAreas []placeAreas

	placeGrid grid // place index -> x.places
	// roadGrid holds the segments of the roads with TIGER tags, each by
	// the index in x.geom of its end point.
	roadGrid grid
	// country is the extract's main country (mainCountry), the country
	// of features outside every country's area.
	country string

	// The streets (addStreets): road groups, the roads of group g
	// (groupRoads[groupStart[g]:groupStart[g+1]]), the groups by
	// bounding box (streetGrid), and the synthetic streets of addresses
	// whose street has no road, by normalised name and folded city.
	groups     []roadGroup
	groupStart []uint32
	groupRoads []uint32
	streetGrid grid
	synthetic  map[[2]uint32]uint32
	// keys are normalised names (streets) and folded names (cities),
	// keyOf the normalised name of each string of x.strs (noRef: not
	// yet known).
	keys  strTable
	keyOf []uint32
	// counts are the features added, by kind.
	counts map[string]int
}

// placeAreas is placeAdmin's answer for one place.
type placeAreas struct {
	v  [2]uint32
	ok bool
}

// streetCell is the cell size (degrees) of the grid of streets by
// bounding box that streetFor searches within 2 km.
const streetCell = 0.02

func newBuilder(t *Tables, x *extract, admins AdminLookup) *builder {
	b := &builder{t: t, x: x, admins: admins, ix: &Index{t: t, strs: newStrTable(), parts: []uint32{}},
		ctxIDs: map[placeCtx]uint32{}, areaIDs: map[areaKey]uint32{},
		placeAreas: make([]placeAreas, len(x.places)), placeValIDs: map[placeVal]uint32{},
		keys: newStrTable(), keyOf: make([]uint32, x.strs.len()), synthetic: map[[2]uint32]uint32{}}
	for i := range b.keyOf {
		b.keyOf[i] = noRef
	}
	b.placeGrid = buildGrid(0.05, func(yield func(orb.Bound, uint32)) {
		for i, p := range x.places {
			yield(p.pt.Bound(), uint32(i))
		}
	})
	// One entry per segment of each road line with TIGER tags (the
	// names of a way share its line and its tags), by the index of its
	// end point.
	b.roadGrid = buildGrid(0.004, func(yield func(orb.Bound, uint32)) {
		for i, r := range x.roads {
			if r.county == 0 && r.zip.empty() || i > 0 && x.roads[i-1].line == r.line {
				continue // only TIGER tags are looked up by position
			}
			for k := r.line.start + 1; k < r.line.end; k++ {
				yield(x.geom[k-1].Bound().Extend(x.geom[k]), k)
			}
		}
	})
	b.roadPlace = make([]uint32, len(x.roads))
	for i := range b.roadPlace {
		b.roadPlace[i] = noRef
	}
	b.country = b.mainCountry()
	return b
}

// line returns the points of road i.
func (x *extract) line(i int) []orb.Point {
	r := &x.roads[i]
	return x.geom[r.line.start:r.line.end]
}

// roadOfPoint returns the first road whose line holds point k of geom.
func (x *extract) roadOfPoint(k uint32) int {
	return sort.Search(len(x.roads), func(i int) bool { return x.roads[i].line.end > k })
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
		for _, a := range b.admins(alongLine(b.x.line(i), 0.5)) {
			if a.Level == 2 && a.Code != "" {
				counts[strings.ToUpper(a.Code)]++
				break
			}
		}
	}
	return mostCommon(counts)
}

func (b *builder) str(s string) uint32 { return b.ix.strs.intern(s) }

// key returns the id of the normalised form of string id of x.strs.
func (b *builder) key(id uint32) uint32 {
	if k := b.keyOf[id]; k != noRef {
		return k
	}
	k := b.keys.intern(b.t.Normalize(b.x.str(id)))
	b.keyOf[id] = k
	return k
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

// addParts sets f's parts: spans of the extract's geometry, which
// becomes the index's points.
func (b *builder) addParts(f *feature, parts ...span) {
	f.part0 = uint32(len(b.ix.partCtx))
	for _, p := range parts {
		b.ix.parts = append(b.ix.parts, p.start, p.end)
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
	b.ix.pts = b.x.geom
	return b.ix
}

// addPlaces adds a feature per place node.
func (b *builder) addPlaces() {
	for _, p := range b.x.places {
		f := feature{kind: KindPlace, rank: placeTypes[p.typ], name: b.str(p.name), street: noRef,
			class: b.str(p.typ), pop: uint32(min(p.population, math.MaxUint32)), pt: p.pt,
			bound: padBound(p.pt.Bound(), math.Max(500, placeRadius[p.typ]/2)), osmType: 'n', osmID: p.id}
		f.ctx = b.context(p.pt, "", "", "")
		b.setNames(b.addFeature(f), p.names)
		b.counts["place"]++
	}
}

func (b *builder) ctxOf(c placeCtx) uint32 {
	if id, ok := b.ctxIDs[c]; ok {
		return id
	}
	id := uint32(len(b.ix.ctxs))
	b.ix.ctxs = append(b.ix.ctxs, c)
	b.ctxIDs[c] = id
	return id
}

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
