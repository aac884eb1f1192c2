package geocode

import (
	"strconv"

	"github.com/paulmach/orb"
)

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
		c := ix.ctxs[b.context(p, "", ix.str(pc), "")]
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
