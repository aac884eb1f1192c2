package geocode

// The context of a feature: the areas around a point (country, state,
// county, neighbourhood), its locality and its postcode, from the
// boundary layer (BuildOptions.Admins), TIGER tags on roads and place
// nodes, in that order of trust.

import (
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/paulmach/orb"
)

// placeRadius is how far a place node names the land around it, by type.
var placeRadius = map[string]float64{
	"city": 12000, "town": 6000, "village": 3000, "hamlet": 1500, "suburb": 1500, "neighbourhood": 700, "quarter": 1000,
}

// placeTypeBit numbers the place types (placeTypes) for nearestPlace.
var placeTypeBit = func() map[string]uint16 {
	m := map[string]uint16{}
	for _, t := range slices.Sorted(maps.Keys(placeTypes)) {
		m[t] = 1 << len(m)
	}
	return m
}()

// nearestPlace returns the place of one of types nearest p relative to its
// radius, -1 when none is in range; accept, when set, filters the places.
func (b *builder) nearestPlace(p orb.Point, accept func(int) bool, types ...string) int {
	best, bestScore := -1, 1.0
	kx := metresPerDegLat * math.Cos(p[1]*math.Pi/180) // a local plane: places within 12 km
	var mask uint16
	for _, t := range types {
		mask |= placeTypeBit[t]
	}
	b.placeGrid.near(p, 12000, func(id uint32) {
		pl := &b.x.places[id]
		r := pl.radius
		if pl.typeBit&mask == 0 || r == 0 {
			return
		}
		dx, dy := (pl.pt[0]-p[0])*kx, (pl.pt[1]-p[1])*metresPerDegLat
		if s := math.Sqrt(dx*dx+dy*dy) / r; s < bestScore && (accept == nil || accept(int(id))) {
			best, bestScore = int(id), s
		}
	})
	return best
}

// nearestRoad returns the road with TIGER tags nearest p within radius
// metres, -1 when none; want filters the roads.
func (b *builder) nearestRoad(p orb.Point, radius float64, want func(*rawRoad) bool) int {
	best, bestD := -1, radius
	x := b.x
	kx := kxAt(p)
	b.roadGrid.near(p, radius, func(k uint32) {
		if d, _ := segDistK(p, x.geom[k-1], x.geom[k], kx); d < bestD {
			ri := x.roadOfPoint(k)
			if want == nil || want(&x.roads[ri]) {
				best, bestD = ri, d
			}
		}
	})
	return best
}

// adminCtx fills c's county, state, country and neighbourhood from the
// boundary layer's areas containing p and returns the locality and the
// smallest postal-code area's code (either may be empty). The base
// layer's state and county are not used here but returned in base, for
// when the extract's own data name none (stateAndCounty).
func (b *builder) adminCtx(p orb.Point, c *placeCtx) (locality, postal string, base placeCtx) {
	var areas []AdminArea
	cc := ""
	base = placeCtx{county: noRef, state: noRef, country: noRef}
	for _, a := range b.admins(p) {
		if a.Postal {
			if postal == "" { // the smallest
				postal = a.Name
			}
			continue
		}
		if a.Level == 2 && a.Code != "" {
			cc = strings.ToUpper(a.Code)
		}
		areas = append(areas, a)
	}
	sort.Slice(areas, func(i, j int) bool { return areas[i].Level < areas[j].Level })
	for _, a := range areas {
		dst := c
		if a.Base && a.Level != 2 {
			dst = &base
		}
		switch b.t.componentType(cc, a.Level) {
		case "country":
			c.country = b.areaAt(b.countryName(cc, a.Name), cc, 2, &a)
		case "administrative_area_level_1":
			short := b.t.stateCode(a.Name)
			if short == "" {
				if i := strings.IndexByte(a.Code, '-'); i > 0 {
					short = a.Code[i+1:]
				} else {
					short = a.Name
				}
			}
			dst.state = b.areaAt(a.Name, short, a.Level, &a)
		case "administrative_area_level_2":
			dst.county = b.areaAt(a.Name, a.Name, a.Level, &a)
		case "locality":
			locality = a.Name
		case "neighborhood", "sublocality":
			if c.neighbourhood == 0 {
				c.neighbourhood = b.str(a.Name)
			}
		}
	}
	return locality, postal, base
}

// stateAndCounty fills c's state and county where the extract's areas
// named none. The state: from a TIGER county tag ("New Castle, DE", the
// feature's own or that of the nearest road within 1 km), else the base
// layer's. The county: the base layer's, under its Census name ("Kent
// County", "Baltimore city"), when it lies in c's state; else the county
// the TIGER tag names.
func (b *builder) stateAndCounty(p orb.Point, county string, c *placeCtx, base placeCtx) {
	if c.county != noRef && c.state != noRef {
		return
	}
	if county == "" {
		if i := b.nearestRoad(p, 1000, func(r *rawRoad) bool { return r.county != 0 }); i >= 0 {
			county = b.x.str(b.x.roads[i].county)
		}
	}
	tigerCounty, st, tagged := strings.Cut(county, ",")
	st = strings.TrimSpace(strings.SplitN(st, ";", 2)[0])
	if c.state == noRef && tagged {
		if name := b.stateName(st); name != "" {
			c.state = b.area(name, st, 4)
		}
	}
	if c.state == noRef {
		c.state = base.state
	}
	if c.county == noRef && base.county != noRef && (c.state == noRef || b.sameArea(c.state, base.state)) {
		c.county = base.county
	}
	if c.county == noRef && tagged {
		name := strings.TrimSpace(tigerCounty) + " County"
		c.county = b.area(name, name, 6)
	}
}

// sameArea reports whether two area ids name the same area (noRef is
// none).
func (b *builder) sameArea(x, y uint32) bool {
	if x == y {
		return true
	}
	if x == noRef || y == noRef {
		return false
	}
	return Fold(b.ix.str(b.ix.areas[x].name)) == Fold(b.ix.str(b.ix.areas[y].name))
}

// placeAdmin returns the state and county area ids of place i (noRef when
// unknown), from the boundary layer, cached.
func (b *builder) placeAdmin(i int) [2]uint32 {
	if pa := b.placeAreas[i]; pa.ok {
		return pa.v
	}
	c := placeCtx{county: noRef, state: noRef, country: noRef}
	base := c
	if b.admins != nil {
		_, _, base = b.adminCtx(b.x.places[i].pt, &c)
	}
	b.stateAndCounty(b.x.places[i].pt, "", &c, base)
	v := [2]uint32{c.state, c.county}
	b.placeAreas[i] = placeAreas{v, true}
	return v
}

// context returns the context id of a feature at p with its own addr:city
// and addr:postcode (either may be empty).
func (b *builder) context(p orb.Point, city, postcode, county string) uint32 {
	return b.contextWith(b.placeAt(p, county), p, city, postcode)
}

// roadContext is context at the midpoint of road ri, with its county.
func (b *builder) roadContext(ri int, city, postcode string) uint32 {
	return b.contextWith(b.roadPlaceAt(ri), alongLine(b.x.line(ri), 0.5), city, postcode)
}

// contextWith is context with placeAt's answer pv at p.
func (b *builder) contextWith(pv placeVal, p orb.Point, city, postcode string) uint32 {
	c, locality, postal := pv.c, pv.locality, pv.postal
	if postcode == "" {
		postcode = postal // the postal-code area around p
	}
	if postcode == "" && len(b.roadGrid.keys) > 0 {
		if i := b.nearestRoad(p, 300, func(r *rawRoad) bool { return !r.zip.empty() }); i >= 0 {
			postcode = b.x.str(b.x.zips[b.x.roads[i].zip.start])
		}
	}
	if c.country == noRef && b.country != "" {
		c.country = b.area(b.countryName(b.country, ""), b.country, 2)
	}
	if c.country == noRef {
		if i := b.nearestPlace(p, nil, "country"); i >= 0 {
			c.country = b.area(b.x.places[i].name, "", 2)
		}
	}
	c.locality = b.str(locality)
	if city != "" && Fold(city) != Fold(locality) {
		c.altLocality = b.str(city)
	}
	c.postcode = b.str(b.postcode(postcode))
	return b.ctxOf(c)
}

// placeVal is placeAt's answer.
type placeVal struct {
	c                placeCtx
	locality, postal string
}

// placeAt returns the areas around p (county, state, neighbourhood), its
// locality (the city polygon of the boundary layer, else the nearest
// city, town, village or hamlet node in the same state and county) and
// the postal-code area of the boundary layer around it, if any.
func (b *builder) placeAt(p orb.Point, county string) placeVal {
	c, locality, postal := b.placeAtUncached(p, county)
	return placeVal{c, locality, postal}
}

// roadPlaceAt is placeAt at the midpoint of road ri with its county,
// memoised (the names of a way share it).
func (b *builder) roadPlaceAt(ri int) placeVal {
	if id := b.roadPlace[ri]; id != noRef {
		return b.placeVals[id]
	}
	r := &b.x.roads[ri]
	if ri > 0 && b.x.roads[ri-1].line == r.line && b.x.roads[ri-1].county == r.county && b.roadPlace[ri-1] != noRef {
		b.roadPlace[ri] = b.roadPlace[ri-1]
		return b.placeVals[b.roadPlace[ri]]
	}
	v := b.placeAt(alongLine(b.x.line(ri), 0.5), b.x.str(r.county))
	id, ok := b.placeValIDs[v]
	if !ok {
		id = uint32(len(b.placeVals))
		b.placeVals = append(b.placeVals, v)
		b.placeValIDs[v] = id
	}
	b.roadPlace[ri] = id
	return v
}

func (b *builder) placeAtUncached(p orb.Point, county string) (c placeCtx, locality, postal string) {
	c = placeCtx{county: noRef, state: noRef, country: noRef}
	// accept keeps the place nodes that lie in the feature's state (and
	// county when both are known): the nearest town across a state line
	// is not the feature's city.
	base := c
	if b.admins != nil {
		locality, postal, base = b.adminCtx(p, &c)
	}
	b.stateAndCounty(p, county, &c, base)
	accept := func(i int) bool {
		pa := b.placeAdmin(i)
		if c.state != noRef && !b.sameArea(pa[0], c.state) {
			return false
		}
		return c.county == noRef || pa[1] == noRef || b.sameArea(pa[1], c.county)
	}
	if locality == "" && c.county != noRef {
		// An independent city is its own county ("Baltimore city",
		// "Alexandria city"): without a city area of its own, the
		// county-equivalent names the locality.
		if name, ok := strings.CutSuffix(b.ix.str(b.ix.areas[c.county].name), " city"); ok && name != "" {
			locality = name
		}
	}
	if locality == "" {
		if i := b.nearestPlace(p, accept, "city", "town", "village", "hamlet"); i >= 0 {
			locality = b.x.places[i].name
		}
	}
	if c.neighbourhood == 0 {
		if i := b.nearestPlace(p, accept, "suburb", "neighbourhood", "quarter"); i >= 0 && b.x.places[i].name != locality {
			c.neighbourhood = b.str(b.x.places[i].name)
		}
	}
	return c, locality, postal
}

func (b *builder) countryName(cc, fallback string) string {
	if c, ok := b.t.Countries[cc]; ok {
		return c.Name
	}
	if fallback != "" {
		return fallback
	}
	return cc
}

func (b *builder) stateName(code string) string {
	for n, c := range b.t.USStates {
		if c == code {
			return n
		}
	}
	return ""
}
