package geocode

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/geo"
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

// roadGroup is the roads of one street: one name, joined where they meet.
type roadGroup struct {
	key   string
	roads []int
	// place is the locality and state of its roads ("" locality: none);
	// mid is the midpoint of its road nearest the middle of the group,
	// where the street's context is taken (so it has that locality).
	place string
	mid   orb.Point
	feat  uint32
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

// addStreets adds a feature per street: the roads of one name that share
// a node, one street per town they run through (b.groups, indexed by
// normalised name in b.byKey).
func (b *builder) addStreets() {
	x := b.x
	b.groups = b.joinStreets(b.groupRoads())
	b.byKey = map[string][]int{}
	for gi := range b.groups {
		g := &b.groups[gi]
		f := feature{kind: KindStreet, street: noRef, rank: streetAlias}
		if !x.roads[g.roads[0]].alias {
			f.rank = streetRef
			for _, ri := range g.roads {
				if !x.roads[ri].byRef {
					f.rank = 0
				}
			}
		}
		names := map[string]int{}
		zips := map[string]int{}
		counties := map[string]int{}
		var parts [][]orb.Point
		var bound orb.Bound
		minID := int64(math.MaxInt64)
		for k, ri := range g.roads {
			r := &x.roads[ri]
			names[r.name]++
			for _, z := range r.zip {
				zips[z]++
			}
			if r.county != "" {
				counties[r.county]++
			}
			parts = append(parts, r.line)
			if k == 0 {
				bound = r.line.Bound()
			} else {
				bound = bound.Union(r.line.Bound())
			}
			minID = min(minID, r.id)
		}
		f.name = b.str(mostCommon(names))
		f.bound = bound
		f.pt = nearestOnParts(bound.Center(), parts)
		f.osmType, f.osmID = 'w', minID
		b.addParts(&f, parts...)
		f.ctx = b.context(g.mid, "", mostCommon(zips), mostCommon(counties))
		for k, ri := range g.roads {
			r := &x.roads[ri]
			zip := ""
			if len(r.zip) > 0 {
				zip = r.zip[0]
			}
			if c := b.context(alongLine(r.line, 0.5), "", zip, r.county); c != f.ctx {
				b.ix.partCtx[f.part0+uint32(k)] = c
			}
		}
		g.feat = b.addFeature(f)
		b.byKey[g.key] = append(b.byKey[g.key], gi)
		b.counts["street"]++
	}
}

// streetFor returns the street an address, interpolation or POI at p
// names: the nearest street of that name within 2 km, else a synthetic
// street of that name in that city, created on first use (and counted
// as a street), whose box grows with every feature it serves.
func (b *builder) streetFor(name string, p orb.Point, city string) uint32 {
	ix := b.ix
	key := b.t.Normalize(name)
	best, bestD := noRef, 2000.0
	for _, gi := range b.byKey[key] {
		fid := b.groups[gi].feat
		f := &ix.feats[fid]
		if d := b.distToFeature(p, f); d < bestD {
			best, bestD = fid, d
		}
	}
	if best != noRef {
		return best
	}
	skey := key + "\x00" + Fold(city)
	if fid, ok := b.synthetic[skey]; ok {
		f := &ix.feats[fid]
		f.bound = f.bound.Extend(p)
		return fid
	}
	f := feature{kind: KindStreet, name: b.str(name), street: noRef, pt: p, bound: p.Bound()}
	f.ctx = b.context(p, city, "", "")
	fid := b.addFeature(f)
	if b.synthetic == nil {
		b.synthetic = map[string]uint32{}
	}
	b.synthetic[skey] = fid
	b.counts["street"]++
	return fid
}

// addAddresses adds a feature per address, linked to its street, then
// places each synthetic street at the middle of its addresses.
func (b *builder) addAddresses() {
	for _, a := range b.x.addrs {
		street := a.street
		if street == "" {
			street = a.place
		}
		f := feature{kind: KindAddress, name: b.str(strings.TrimSpace(a.hn)), unit: b.str(a.unit), pt: a.pt,
			bound: a.pt.Bound(), osmType: a.osmType, osmID: a.osmID}
		if len(a.ring) > 0 {
			f.bound = orb.LineString(a.ring).Bound()
			b.addParts(&f, a.ring)
		}
		f.street = b.streetFor(street, a.pt, a.city)
		f.ctx = b.context(a.pt, a.city, a.postcode, "")
		b.addFeature(f)
		b.counts["address"]++
	}
	for _, fid := range b.synthetic {
		f := &b.ix.feats[fid]
		f.pt = f.bound.Center()
	}
}

// addInterpolations adds the interpolation ways between two numbered
// nodes.
func (b *builder) addInterpolations() {
	x := b.x
	for _, it := range x.interps {
		first, ok1 := x.nodeAddr[it.nodes[0]]
		last, ok2 := x.nodeAddr[it.nodes[len(it.nodes)-1]]
		if !ok1 || !ok2 {
			continue
		}
		from, err1 := strconv.Atoi(strings.TrimSpace(x.addrs[first].hn))
		to, err2 := strconv.Atoi(strings.TrimSpace(x.addrs[last].hn))
		if err1 != nil || err2 != nil || from == to {
			continue
		}
		street := it.street
		if street == "" {
			street = x.addrs[first].street
		}
		if street == "" {
			continue
		}
		step := 2
		if it.kind == "all" || it.kind == "alphabetic" {
			step = 1
		}
		f := feature{kind: KindInterpolation, rank: uint8(step), hnFrom: int32(from), hnTo: int32(to),
			pt: alongLine(it.line, 0.5), bound: it.line.Bound(), osmType: 'w', osmID: it.id}
		b.addParts(&f, it.line)
		f.street = b.streetFor(street, f.pt, x.addrs[first].city)
		f.ctx = b.context(f.pt, x.addrs[first].city, x.addrs[first].postcode, "")
		b.addFeature(f)
		b.counts["interpolation"]++
	}
}

// addTigerRanges adds the TIGER house number ranges on roads, when the
// extract has them, as interpolations of their street.
func (b *builder) addTigerRanges() {
	for gi := range b.groups {
		for _, ri := range b.groups[gi].roads {
			r := &b.x.roads[ri]
			for _, tr := range r.ranges {
				if tr.from == tr.to {
					continue
				}
				step := 2
				if (tr.from-tr.to)%2 != 0 {
					step = 1
				}
				f := feature{kind: KindInterpolation, rank: uint8(step), hnFrom: int32(tr.from), hnTo: int32(tr.to),
					pt: alongLine(r.line, 0.5), bound: r.line.Bound(), osmType: 'w', osmID: r.id, street: b.groups[gi].feat}
				b.addParts(&f, r.line)
				f.ctx = b.context(f.pt, "", tr.zip, r.county)
				b.addFeature(f)
				b.counts["interpolation"]++
			}
		}
	}
}

// addPOIs adds a feature per named point of interest.
func (b *builder) addPOIs() {
	for _, p := range b.x.pois {
		f := feature{kind: KindPOI, name: b.str(p.name), class: b.str(p.class), street: noRef, pt: p.pt,
			bound: padBound(p.pt.Bound(), 50), osmType: p.osmType, osmID: p.osmID}
		if p.street != "" {
			f.street = b.streetFor(p.street, p.pt, p.city)
			f.unit = b.str(strings.TrimSpace(p.hn)) // the POI's house number
		}
		f.ctx = b.context(p.pt, p.city, p.postcode, "")
		b.addFeature(f)
		b.counts["poi"]++
	}
}

// addLocalities adds a place for each locality that features are in (a
// city area of the boundary layer, or an independent city that is its own
// county) but that no place node names in that state: at the centre of
// its addresses, streets and POIs, with their extent as its box. So
// "Baltimore, MD" finds Baltimore in an extract that cuts the city's
// relation and has no place node for it.
func (b *builder) addLocalities() {
	ix := b.ix
	type key struct{ locality, state uint32 }
	have := map[key]bool{}
	for i := range ix.feats {
		if f := &ix.feats[i]; f.kind == KindPlace {
			have[key{b.str(Fold(ix.str(f.name))), ix.ctxs[f.ctx].state}] = true
		}
	}
	type acc struct {
		sx, sy float64
		n      int
		bound  orb.Bound
		ctx    placeCtx
	}
	accs := map[key]*acc{}
	var order []key
	for i := range ix.feats {
		f := &ix.feats[i]
		if f.kind != KindAddress && f.kind != KindStreet && f.kind != KindPOI {
			continue
		}
		c := ix.ctxs[f.ctx]
		if c.locality == 0 {
			continue
		}
		k := key{b.str(Fold(ix.str(c.locality))), c.state}
		if have[k] {
			continue
		}
		a := accs[k]
		if a == nil {
			c.neighbourhood, c.altLocality, c.postcode = 0, 0, 0
			a = &acc{bound: f.pt.Bound(), ctx: c}
			accs[k] = a
			order = append(order, k)
		}
		a.sx += f.pt[0]
		a.sy += f.pt[1]
		a.n++
		a.bound = a.bound.Extend(f.pt)
	}
	for _, k := range order {
		a := accs[k]
		name := a.ctx.locality
		c := a.ctx
		c.locality = 0
		p := orb.Point{a.sx / float64(a.n), a.sy / float64(a.n)}
		f := feature{kind: KindPlace, rank: placeTypes["city"], name: name, class: b.str("city"), street: noRef,
			pt: p, bound: padBound(a.bound, 500), ctx: b.ctxOf(c)}
		b.addFeature(f)
		b.counts["locality"]++
	}
}

// addPostcodes adds a feature per postcode, at the centre of the
// addresses and streets that carry it, in the town most of them name.
func (b *builder) addPostcodes() {
	ix := b.ix
	type acc struct {
		sx, sy float64
		n      int
		bound  orb.Bound
		towns  map[uint32]int // localities of the features, by count
	}
	pcs := map[uint32]*acc{}
	var order []uint32
	for i := range ix.feats {
		f := &ix.feats[i]
		if f.kind != KindAddress && f.kind != KindStreet {
			continue
		}
		pc := ix.ctxs[f.ctx].postcode
		if pc == 0 {
			continue
		}
		a := pcs[pc]
		if a == nil {
			a = &acc{bound: f.pt.Bound(), towns: map[uint32]int{}}
			pcs[pc] = a
			order = append(order, pc)
		}
		a.sx += f.pt[0]
		a.sy += f.pt[1]
		a.n++
		a.bound = a.bound.Extend(f.pt)
		fc := &ix.ctxs[f.ctx]
		if town := fc.altLocality; town != 0 {
			a.towns[town]++
		} else if fc.locality != 0 {
			a.towns[fc.locality]++
		}
	}
	for _, pc := range order {
		a := pcs[pc]
		p := orb.Point{a.sx / float64(a.n), a.sy / float64(a.n)}
		f := feature{kind: KindPostcode, name: pc, street: noRef, pt: p, bound: padBound(a.bound, 200)}
		c := ix.ctxs[b.context(p, "", ix.strs[pc], "")]
		c.locality, c.neighbourhood, c.altLocality = 0, 0, 0
		// The postcode's city: the locality most of its features name
		// (the lowest string id among equals, for a stable build).
		best := 0
		for town, n := range a.towns {
			if n > best || n == best && town < c.locality {
				c.locality, best = town, n
			}
		}
		f.ctx = b.ctxOf(c)
		b.addFeature(f)
		b.counts["postcode"]++
	}
}

// areaViewports gives the place nodes of a county, state or country the
// extent of the features in that area as their box (the viewport of
// their results), instead of the small box around the node.
func (b *builder) areaViewports() {
	ix := b.ix
	key := func(level int, name uint32) string { return strconv.Itoa(level) + "|" + Fold(ix.str(name)) }
	bounds := map[string]orb.Bound{}
	for i := range ix.feats {
		f := &ix.feats[i]
		if f.kind == KindPlace {
			continue
		}
		c := &ix.ctxs[f.ctx]
		for level, id := range []uint32{c.county, c.state, c.country} {
			if id == noRef {
				continue
			}
			k := key(level, ix.areas[id].name)
			if bd, ok := bounds[k]; ok {
				bounds[k] = bd.Union(f.bound)
			} else {
				bounds[k] = f.bound
			}
		}
	}
	for i := range ix.feats {
		f := &ix.feats[i]
		if f.kind != KindPlace {
			continue
		}
		level := -1
		switch ix.str(f.class) {
		case "county":
			level = 0
		case "state":
			level = 1
		case "country":
			level = 2
		}
		if bd, ok := bounds[key(level, f.name)]; ok && level >= 0 {
			f.bound = bd.Extend(f.pt)
		}
	}
}

func (b *builder) ctxOf(c placeCtx) uint32 { return intern(b.ctxIDs, &b.ix.ctxs, c) }

// distToFeature returns the distance in metres from p to a street's
// geometry (its point when it has none).
func (b *builder) distToFeature(p orb.Point, f *feature) float64 {
	if f.nparts == 0 {
		return geo.HaversineM(p, f.pt)
	}
	best := math.Inf(1)
	for i := f.part0; i < f.part0+f.nparts; i++ {
		pt := b.ix.part(i)
		for j := 1; j < len(pt); j++ {
			if d, _ := segDist(p, pt[j-1], pt[j]); d < best {
				best = d
			}
		}
	}
	return best
}

// groupRoads joins the roads of one normalised name that share a node
// and lie in the same locality and state (each road placed by its
// midpoint): a highway through several towns is a street in each, with
// that town and its postcode, not one 60 km street named after one of
// them.
func (b *builder) groupRoads() []roadGroup {
	x := b.x
	sets := newDisjointSets(len(x.roads))
	find := sets.find
	keys := make([]string, len(x.roads))
	type nk struct {
		n   osm.NodeID
		key string
	}
	seen := map[nk]int{}
	places := make([]string, len(x.roads))
	for i := range x.roads {
		r := &x.roads[i]
		keys[i] = b.t.Normalize(r.name)
		c, locality, _ := b.placeAt(alongLine(r.line, 0.5), r.county)
		places[i] = Fold(locality) + "\x00" + strconv.FormatUint(uint64(c.state), 10)
		if r.alias { // a route number of a named road: a street of its own
			places[i] += "\x00alias"
		}
		for _, n := range r.nodes {
			k := nk{n, keys[i]}
			if r.alias {
				k.key += "\x00alias"
			}
			if j, ok := seen[k]; ok {
				sets.union(i, j)
			} else {
				seen[k] = i
			}
		}
	}
	// One group per connected street and locality: the runs of a road
	// in one town are one street even where another town's run lies
	// between them.
	type gk struct {
		root  int
		place string
	}
	idx := map[gk]int{}
	var groups []roadGroup
	for i := range x.roads {
		r := gk{find(i), places[i]}
		gi, ok := idx[r]
		if !ok {
			gi = len(groups)
			idx[r] = gi
			groups = append(groups, roadGroup{key: keys[i], place: places[i]})
		}
		groups[gi].roads = append(groups[gi].roads, i)
	}
	return groups
}

// middleRoadPoint returns the midpoint of the road, of those given, whose
// midpoint is nearest the centre of their bounding box.
func (b *builder) middleRoadPoint(roads []int) orb.Point {
	var bound orb.Bound
	for k, ri := range roads {
		if k == 0 {
			bound = b.x.roads[ri].line.Bound()
		} else {
			bound = bound.Union(b.x.roads[ri].line.Bound())
		}
	}
	best, bestD := orb.Point{}, math.Inf(1)
	for _, ri := range roads {
		m := alongLine(b.x.roads[ri].line, 0.5)
		if d := geo.HaversineM(m, bound.Center()); d < bestD {
			best, bestD = m, d
		}
	}
	return best
}

// streetJoinGap is how far apart (in metres, between bounding boxes) the
// pieces of one street in one place may lie and still be joined.
const streetJoinGap = 500

// joinStreets joins the road groups of one normalised name that lie in the
// same locality and state and within streetJoinGap of each other: a street
// split into several unconnected ways (a divided carriageway, a gap in the
// data) is one street with several parts.
func (b *builder) joinStreets(groups []roadGroup) []roadGroup {
	x := b.x
	bounds := make([]orb.Bound, len(groups))
	byKey := map[string][]int{}
	for gi := range groups {
		g := &groups[gi]
		for k, ri := range g.roads {
			if k == 0 {
				bounds[gi] = x.roads[ri].line.Bound()
			} else {
				bounds[gi] = bounds[gi].Union(x.roads[ri].line.Bound())
			}
		}
		if g.key != "" && !strings.HasPrefix(g.place, "\x00") {
			byKey[g.key] = append(byKey[g.key], gi)
		}
	}
	sets := newDisjointSets(len(groups))
	find := sets.find
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		list := byKey[k]
		for a := 0; a < len(list); a++ {
			near := padBound(bounds[list[a]], streetJoinGap)
			for c := a + 1; c < len(list); c++ {
				if groups[list[a]].place == groups[list[c]].place && near.Intersects(bounds[list[c]]) {
					sets.union(list[c], list[a])
				}
			}
		}
	}
	idx := map[int]int{}
	var out []roadGroup
	for gi := range groups {
		r := find(gi)
		oi, ok := idx[r]
		if !ok {
			oi = len(out)
			idx[r] = oi
			out = append(out, roadGroup{key: groups[gi].key, place: groups[gi].place})
		}
		out[oi].roads = append(out[oi].roads, groups[gi].roads...)
	}
	for oi := range out {
		out[oi].mid = b.middleRoadPoint(out[oi].roads)
	}
	return out
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

// nearestOnParts returns the point of the parts nearest p.
func nearestOnParts(p orb.Point, parts [][]orb.Point) orb.Point {
	best, bestD := p, math.Inf(1)
	for _, pt := range parts {
		for j := 1; j < len(pt); j++ {
			if d, t := segDist(p, pt[j-1], pt[j]); d < bestD {
				best, bestD = lerp(pt[j-1], pt[j], t), d
			}
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

// disjointSets is a union-find over 0..n-1 with path halving.
type disjointSets []int

func newDisjointSets(n int) disjointSets {
	d := make(disjointSets, n)
	for i := range d {
		d[i] = i
	}
	return d
}

// find returns the representative of i's set.
func (d disjointSets) find(i int) int {
	for d[i] != i {
		d[i] = d[d[i]]
		i = d[i]
	}
	return i
}

// union merges the sets of a and b.
func (d disjointSets) union(a, b int) { d[d.find(a)] = d.find(b) }
