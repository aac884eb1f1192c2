package geocode

import (
	"strconv"
	"strings"

	"github.com/paulmach/orb"
)

// addAddresses adds a feature per address, linked to its street, then
// places each synthetic street at the middle of its addresses.
func (b *builder) addAddresses() {
	x := b.x
	for _, a := range x.addrs {
		street := a.street
		if street == 0 {
			street = a.place
		}
		f := feature{kind: KindAddress, name: b.str(strings.TrimSpace(x.str(a.hn))), unit: b.str(x.str(a.unit)), pt: a.pt,
			bound: a.pt.Bound(), osmType: a.osmType, osmID: a.osmID}
		if !a.ring.empty() {
			f.bound = orb.LineString(x.geom[a.ring.start:a.ring.end]).Bound()
			b.addParts(&f, a.ring)
		}
		f.street = b.streetFor(street, a.pt, x.str(a.city))
		f.ctx = b.context(a.pt, x.str(a.city), x.str(a.postcode), "")
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
		first, ok1 := x.addrOfNode(it.first)
		last, ok2 := x.addrOfNode(it.last)
		if !ok1 || !ok2 {
			continue
		}
		from, err1 := strconv.Atoi(strings.TrimSpace(x.str(x.addrs[first].hn)))
		to, err2 := strconv.Atoi(strings.TrimSpace(x.str(x.addrs[last].hn)))
		if err1 != nil || err2 != nil || from == to {
			continue
		}
		street := it.street
		if street == 0 {
			street = x.addrs[first].street
		}
		if street == 0 {
			continue
		}
		step := 2
		if it.kind == "all" || it.kind == "alphabetic" {
			step = 1
		}
		line := x.geom[it.line.start:it.line.end]
		f := feature{kind: KindInterpolation, rank: uint8(step), hnFrom: int32(from), hnTo: int32(to),
			pt: alongLine(line, 0.5), bound: orb.LineString(line).Bound(), osmType: 'w', osmID: it.id}
		b.addParts(&f, it.line)
		city := x.str(x.addrs[first].city)
		f.street = b.streetFor(street, f.pt, city)
		f.ctx = b.context(f.pt, city, x.str(x.addrs[first].postcode), "")
		b.addFeature(f)
		b.counts["interpolation"]++
	}
}

// addTigerRanges adds the TIGER house number ranges on roads, when the
// extract has them, as interpolations of their street.
func (b *builder) addTigerRanges() {
	x := b.x
	for gi := range b.groups {
		for _, ri := range b.roadsOf(gi) {
			r := &x.roads[ri]
			line := x.line(int(ri))
			for _, tr := range x.tiger[r.ranges.start:r.ranges.end] {
				if tr.from == tr.to {
					continue
				}
				step := 2
				if (tr.from-tr.to)%2 != 0 {
					step = 1
				}
				f := feature{kind: KindInterpolation, rank: uint8(step), hnFrom: int32(tr.from), hnTo: int32(tr.to),
					pt: alongLine(line, 0.5), bound: orb.LineString(line).Bound(), osmType: 'w', osmID: r.id, street: b.groups[gi].feat}
				b.addParts(&f, r.line)
				f.ctx = b.roadContext(int(ri), "", tr.zip)
				b.addFeature(f)
				b.counts["interpolation"]++
			}
		}
	}
}

// addPOIs adds a feature per named point of interest.
func (b *builder) addPOIs() {
	x := b.x
	for _, p := range x.pois {
		f := feature{kind: KindPOI, name: b.str(x.str(p.name)), class: b.str(x.str(p.class)), street: noRef, pt: p.pt,
			bound: padBound(p.pt.Bound(), 50), osmType: p.osmType, osmID: p.osmID}
		if p.street != 0 {
			f.street = b.streetFor(p.street, p.pt, x.str(p.city))
			f.unit = b.str(strings.TrimSpace(x.str(p.hn))) // the POI's house number
		}
		f.ctx = b.context(p.pt, x.str(p.city), x.str(p.postcode), "")
		b.setNames(b.addFeature(f), p.names)
		b.counts["poi"]++
	}
}
