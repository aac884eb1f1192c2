package geocode

import (
	"strconv"
	"strings"

	"github.com/paulmach/orb"
)

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
