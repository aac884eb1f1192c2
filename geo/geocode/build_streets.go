package geocode

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/geo"
)

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
