package geocode

import (
	"cmp"
	"math"
	"slices"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// roadGroup is the roads of one street: one name, joined where they meet
// (their indexes: builder.roadsOf).
type roadGroup struct {
	key uint32 // normalised name (builder.keys)
	// place is the locality and state of its roads (placeKey ids);
	// mid is the midpoint of its road midRoad, the one nearest the
	// middle of the group, where the street's context is taken (so it
	// has that locality).
	place   uint32
	mid     orb.Point
	midRoad uint32
	feat    uint32
}

// roadsOf returns the roads of group gi.
func (b *builder) roadsOf(gi int) []uint32 { return b.groupRoads[b.groupStart[gi]:b.groupStart[gi+1]] }

// addStreets adds a feature per street: the roads of one name that share
// a node, one street per town they run through (b.groups), and indexes
// the streets by bounding box for streetFor.
func (b *builder) addStreets() {
	x := b.x
	b.groupStreets()
	names, zips, counties := map[string]int{}, map[string]int{}, map[string]int{}
	var parts []span
	for gi := range b.groups {
		g := &b.groups[gi]
		roads := b.roadsOf(gi)
		f := feature{kind: KindStreet, street: noRef, rank: streetAlias}
		if !x.roads[roads[0]].alias {
			f.rank = streetRef
			for _, ri := range roads {
				if !x.roads[ri].byRef {
					f.rank = 0
				}
			}
		}
		clear(names)
		clear(zips)
		clear(counties)
		parts = parts[:0]
		var bound orb.Bound
		minID := int64(math.MaxInt64)
		for k, ri := range roads {
			r := &x.roads[ri]
			names[x.str(r.name)]++
			for _, z := range x.zips[r.zip.start:r.zip.end] {
				zips[x.str(z)]++
			}
			if r.county != 0 {
				counties[x.str(r.county)]++
			}
			parts = append(parts, r.line)
			if k == 0 {
				bound = orb.LineString(x.line(int(ri))).Bound()
			} else {
				bound = bound.Union(orb.LineString(x.line(int(ri))).Bound())
			}
			minID = min(minID, r.id)
		}
		f.name = b.str(mostCommon(names))
		f.bound = bound
		f.pt = b.nearestOnSpans(bound.Center(), parts)
		f.osmType, f.osmID = 'w', minID
		b.addParts(&f, parts...)
		if county := mostCommon(counties); county == x.str(x.roads[g.midRoad].county) {
			f.ctx = b.contextWith(b.roadPlaceAt(int(g.midRoad)), g.mid, "", mostCommon(zips))
		} else {
			f.ctx = b.context(g.mid, "", mostCommon(zips), county)
		}
		for k, ri := range roads {
			r := &x.roads[ri]
			zip := ""
			if !r.zip.empty() {
				zip = x.str(x.zips[r.zip.start])
			}
			if c := b.roadContext(int(ri), "", zip); c != f.ctx {
				b.ix.partCtx[f.part0+uint32(k)] = c
			}
		}
		g.feat = b.addFeature(f)
		// The name:xx of the street: of its first road that has some
		// and bears the street's name.
		for _, ri := range roads {
			if r := &x.roads[ri]; !r.names.empty() && x.str(r.name) == b.ix.str(f.name) {
				b.setNames(g.feat, r.names)
				break
			}
		}
		b.counts["street"]++
	}
	b.streetGrid = buildGrid(streetCell, func(yield func(orb.Bound, uint32)) {
		for gi := range b.groups {
			yield(b.ix.feats[b.groups[gi].feat].bound, uint32(gi))
		}
	})
}

// streetFor returns the street an address, interpolation or POI at p
// names (name: a string of the extract): the nearest street of that
// normalised name within 2 km, else a synthetic street of that name in
// that city, created on first use (and counted as a street), whose box
// grows with every feature it serves.
func (b *builder) streetFor(name uint32, p orb.Point, city string) uint32 {
	ix := b.ix
	key := b.key(name)
	// The streets of that name whose box is within 2 km, in group order
	// (the first of equally near ones wins).
	var cands []uint32
	b.streetGrid.near(p, 2000*1.01, func(gi uint32) {
		if b.groups[gi].key == key {
			cands = append(cands, gi)
		}
	})
	slices.Sort(cands)
	best, bestD := noRef, 2000.0
	for _, gi := range slices.Compact(cands) {
		fid := b.groups[gi].feat
		if d := b.distToFeature(p, &ix.feats[fid]); d < bestD {
			best, bestD = fid, d
		}
	}
	if best != noRef {
		return best
	}
	skey := [2]uint32{key, b.keys.intern(Fold(city))}
	if fid, ok := b.synthetic[skey]; ok {
		f := &ix.feats[fid]
		f.bound = f.bound.Extend(p)
		return fid
	}
	f := feature{kind: KindStreet, name: b.str(b.x.str(name)), street: noRef, pt: p, bound: p.Bound()}
	f.ctx = b.context(p, city, "", "")
	fid := b.addFeature(f)
	b.synthetic[skey] = fid
	b.counts["street"]++
	return fid
}

// distToFeature returns the distance in metres from p to a street's
// geometry (its point when it has none).
func (b *builder) distToFeature(p orb.Point, f *feature) float64 {
	if f.nparts == 0 {
		return geo.HaversineM(p, f.pt)
	}
	best := math.Inf(1)
	kx := kxAt(p)
	for i := f.part0; i < f.part0+f.nparts; i++ {
		pt := b.part(i)
		for j := 1; j < len(pt); j++ {
			if d, _ := segDistK(p, pt[j-1], pt[j], kx); d < best {
				best = d
			}
		}
	}
	return best
}

// part returns geometry part i of the index being built.
func (b *builder) part(i uint32) []orb.Point {
	return b.x.geom[b.ix.parts[2*i]:b.ix.parts[2*i+1]]
}

// placeKey is what groupStreets keys a road's place by: its locality
// (folded), its state and whether the road is a route-number alias.
type placeKey struct {
	locality string
	state    uint32
	alias    bool
}

// groupStreets sets b.groups: the roads of one normalised name that
// share a node and lie in the same locality and state (each road placed
// by its midpoint) are one group, so that a highway through several
// towns is a street in each, with that town and its postcode, not one
// 60 km street named after one of them; then the groups of one name in
// one place within streetJoinGap of each other are joined (joinGroups).
// Groups come in the order of their first road.
func (b *builder) groupStreets() {
	x := b.x
	n := len(x.roads)
	// nk is the key two roads must share at a node to be joined: the
	// normalised name, and whether it is a route-number alias (a street
	// of its own).
	nk := make([]uint32, n)
	for i := range x.roads {
		nk[i] = b.key(x.roads[i].name)<<1 | b2u(x.roads[i].alias)
	}
	sets := b.joinAtNodes(nk)
	x.nodeRefs = nil // node references are needed no more
	// One group per connected street and locality: the runs of a road
	// in one town are one street even where another town's run lies
	// between them.
	placeIDs := map[placeKey]uint32{}
	var noLocality []bool // by place id
	roadPl := make([]uint32, n)
	gk := make([]uint64, n) // the connected roads and place of each road
	for i := range x.roads {
		pv := b.roadPlaceAt(i)
		pk := placeKey{Fold(pv.locality), pv.c.state, x.roads[i].alias}
		pl, ok := placeIDs[pk]
		if !ok {
			pl = uint32(len(placeIDs))
			placeIDs[pk] = pl
			noLocality = append(noLocality, pk.locality == "")
		}
		roadPl[i] = pl
		gk[i] = uint64(sets.find(i))<<32 | uint64(pl)
	}
	groupOf, ng := numberRuns(gk)
	gkey, gplace := make([]uint32, ng), make([]uint32, ng)
	for i, gi := range groupOf {
		gkey[gi], gplace[gi] = nk[i]>>1, roadPl[i]
	}
	first := csrOf(len(gkey), groupOf) // roads by group, in road order
	bounds := make([]orb.Bound, len(gkey))
	for gi := range bounds {
		for k, ri := range first.list(gi) {
			if k == 0 {
				bounds[gi] = orb.LineString(x.line(int(ri))).Bound()
			} else {
				bounds[gi] = bounds[gi].Union(orb.LineString(x.line(int(ri))).Bound())
			}
		}
	}
	joined := b.joinGroups(gkey, gplace, bounds, func(gi int) bool {
		return b.keys.get(gkey[gi]) != "" && !noLocality[gplace[gi]]
	})
	// The joined groups, in the order of their first group, each with
	// the roads of its groups in group order.
	out := make([]uint32, len(gkey))
	rootOut := make([]uint32, len(gkey))
	for i := range rootOut {
		rootOut[i] = noRef
	}
	b.groups = b.groups[:0]
	for gi := range gkey {
		r := joined.find(gi)
		if rootOut[r] == noRef {
			rootOut[r] = uint32(len(b.groups))
			b.groups = append(b.groups, roadGroup{key: gkey[gi], place: gplace[gi]})
		}
		out[gi] = rootOut[r]
	}
	b.groupStart = make([]uint32, len(b.groups)+1)
	for gi := range gkey {
		b.groupStart[out[gi]+1] += uint32(len(first.list(gi)))
	}
	for i := 1; i < len(b.groupStart); i++ {
		b.groupStart[i] += b.groupStart[i-1]
	}
	b.groupRoads = make([]uint32, n)
	pos := slices.Clone(b.groupStart[:len(b.groups)])
	for gi := range gkey {
		o := out[gi]
		pos[o] += uint32(copy(b.groupRoads[pos[o]:], first.list(gi)))
	}
	for oi := range b.groups {
		b.groups[oi].mid, b.groups[oi].midRoad = b.middleRoadPoint(b.roadsOf(oi))
	}
}

// numberRuns numbers the distinct keys in the order of their first
// occurrence and returns the number of each key, and how many there are.
func numberRuns(keys []uint64) ([]uint32, int) {
	order := make([]uint32, len(keys))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return cmp.Or(cmp.Compare(keys[a], keys[b]), cmp.Compare(a, b)) })
	var firsts []uint32 // the first index of each key, in key order
	run := make([]uint32, len(keys))
	for i, o := range order {
		if i == 0 || keys[o] != keys[order[i-1]] {
			firsts = append(firsts, o)
		}
		run[o] = uint32(len(firsts) - 1)
	}
	byFirst := make([]uint32, len(firsts))
	for i := range byFirst {
		byFirst[i] = uint32(i)
	}
	slices.SortFunc(byFirst, func(a, b uint32) int { return cmp.Compare(firsts[a], firsts[b]) })
	number := make([]uint32, len(firsts))
	for n, r := range byFirst {
		number[r] = uint32(n)
	}
	for i, r := range run {
		run[i] = number[r]
	}
	return run, len(firsts)
}

func b2u(v bool) uint32 {
	if v {
		return 1
	}
	return 0
}

// joinAtNodes returns the sets of roads joined where two roads of one key
// share a node (by their node references, through a list of the roads at
// each node).
func (b *builder) joinAtNodes(key []uint32) disjointSets {
	x := b.x
	sets := newDisjointSets(len(x.roads))
	start := make([]uint32, x.nodes+1)
	for _, r := range x.roads {
		for _, j := range x.nodeRefs[r.refs.start:r.refs.end] {
			start[j+1]++
		}
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	at := make([]uint32, start[x.nodes])
	pos := slices.Clone(start[:x.nodes])
	for i, r := range x.roads {
		for _, j := range x.nodeRefs[r.refs.start:r.refs.end] {
			at[pos[j]] = uint32(i)
			pos[j]++
		}
	}
	pos = nil
	for j := range x.nodes {
		roads := at[start[j]:start[j+1]]
		for k, ri := range roads {
			// The first road of this key at the node (roads come in
			// road order).
			for _, rj := range roads[:k] {
				if key[rj] == key[ri] {
					sets.union(int(ri), int(rj))
					break
				}
			}
		}
	}
	return sets
}

// middleRoadPoint returns the midpoint of the road, of those given, whose
// midpoint is nearest the centre of their bounding box, and that road.
func (b *builder) middleRoadPoint(roads []uint32) (orb.Point, uint32) {
	var bound orb.Bound
	for k, ri := range roads {
		if k == 0 {
			bound = orb.LineString(b.x.line(int(ri))).Bound()
		} else {
			bound = bound.Union(orb.LineString(b.x.line(int(ri))).Bound())
		}
	}
	best, bestRoad, bestD := orb.Point{}, uint32(0), math.Inf(1)
	for _, ri := range roads {
		m := alongLine(b.x.line(int(ri)), 0.5)
		if d := geo.HaversineM(m, bound.Center()); d < bestD {
			best, bestRoad, bestD = m, ri, d
		}
	}
	return best, bestRoad
}

// streetJoinGap is how far apart (in metres, between bounding boxes) the
// pieces of one street in one place may lie and still be joined.
const streetJoinGap = 500

// joinGroups returns the sets of road groups joined where two joinable
// groups of one normalised name lie in the same locality and state and
// within streetJoinGap of each other: a street split into several
// unconnected ways (a divided carriageway, a gap in the data) is one
// street with several parts. Groups of one name and place are compared
// along a sweep by west edge, not each with every other: a name repeated
// in every town of a country stays cheap.
func (b *builder) joinGroups(key, place []uint32, bounds []orb.Bound, joinable func(int) bool) disjointSets {
	sets := newDisjointSets(len(key))
	var order []uint32
	for gi := range key {
		if joinable(gi) {
			order = append(order, uint32(gi))
		}
	}
	slices.SortFunc(order, func(a, c uint32) int {
		return cmp.Or(cmp.Compare(key[a], key[c]), cmp.Compare(place[a], place[c]), cmp.Compare(a, c))
	})
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && key[order[hi]] == key[order[lo]] && place[order[hi]] == place[order[lo]] {
			hi++
		}
		run := order[lo:hi]
		lo = hi
		if len(run) < 2 {
			continue
		}
		// pad bounds how far east of a group's box another's may start
		// and still be within the gap (padBound's widening, at most).
		pad := 0.0
		for _, gi := range run {
			d := padBound(bounds[gi], streetJoinGap)
			pad = math.Max(pad, math.Max(d.Max[0]-bounds[gi].Max[0], bounds[gi].Min[0]-d.Min[0]))
		}
		pad = pad*(1+1e-9) + 1e-12
		byX := slices.Clone(run)
		slices.SortFunc(byX, func(a, c uint32) int {
			return cmp.Or(cmp.Compare(bounds[a].Min[0], bounds[c].Min[0]), cmp.Compare(a, c))
		})
		for u, gu := range byX {
			for _, gv := range byX[u+1:] {
				if bounds[gv].Min[0] > bounds[gu].Max[0]+pad {
					break
				}
				a, c := min(gu, gv), max(gu, gv)
				if padBound(bounds[a], streetJoinGap).Intersects(bounds[c]) {
					sets.union(int(c), int(a))
				}
			}
		}
	}
	return sets
}

// nearestOnSpans returns the point of the lines (spans of the extract's
// geometry) nearest p.
func (b *builder) nearestOnSpans(p orb.Point, parts []span) orb.Point {
	best, bestD := p, math.Inf(1)
	for _, sp := range parts {
		pt := b.x.geom[sp.start:sp.end]
		for j := 1; j < len(pt); j++ {
			if d, t := segDist(p, pt[j-1], pt[j]); d < bestD {
				best, bestD = lerp(pt[j-1], pt[j], t), d
			}
		}
	}
	return best
}

// csr is a list of lists: list i is items[start[i]:start[i+1]].
type csr struct {
	start, items []uint32
}

func (c csr) list(i int) []uint32 { return c.items[c.start[i]:c.start[i+1]] }

// csrOf returns, for n lists, the indexes i of of in list of[i], in
// increasing order.
func csrOf(n int, of []uint32) csr {
	c := csr{start: make([]uint32, n+1), items: make([]uint32, len(of))}
	for _, l := range of {
		c.start[l+1]++
	}
	for i := 1; i <= n; i++ {
		c.start[i] += c.start[i-1]
	}
	pos := slices.Clone(c.start[:n])
	for i, l := range of {
		c.items[pos[l]] = uint32(i)
		pos[l]++
	}
	return c
}

// disjointSets is a union-find over 0..n-1 with path halving.
type disjointSets []int32

func newDisjointSets(n int) disjointSets {
	d := make(disjointSets, n)
	for i := range d {
		d[i] = int32(i)
	}
	return d
}

// find returns the representative of i's set.
func (d disjointSets) find(i int) int {
	for int(d[i]) != i {
		d[i] = d[d[i]]
		i = int(d[i])
	}
	return i
}

// union merges the sets of a and b.
func (d disjointSets) union(a, b int) { d[d.find(a)] = int32(d.find(b)) }
