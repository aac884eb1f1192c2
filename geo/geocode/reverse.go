package geocode

import (
	"fmt"
	"math"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// Default reverse tolerances in metres.
const (
	// DefaultAddressTolerance is how far an address may be from the query
	// point.
	DefaultAddressTolerance = 50
	// DefaultStreetTolerance is how far a street may be.
	DefaultStreetTolerance = 200
)

// ReverseOptions configures Reverse.
type ReverseOptions struct {
	// AddressTolerance and StreetTolerance are the largest distances in
	// metres to an address and to a street; 0 means the defaults.
	AddressTolerance, StreetTolerance float64
	// ResultTypes, when set, keep the results carrying one of these
	// types (Google's result_type).
	ResultTypes []string
	// LocationTypes, when set, keep the results of these location types
	// (Google's location_type).
	LocationTypes []LocationType
	// Lang lists languages, preferred first, as Query.Lang.
	Lang []string
}

// Reverse returns the closest addressable location to p within the
// tolerances and the areas around it, most specific first: the street
// address, the street, the neighbourhood, the city, the county, the
// state, the country and the postal code. None when no address or street
// is within tolerance.
func (ix *Index) Reverse(p orb.Point, opts ReverseOptions) []Candidate {
	if opts.AddressTolerance <= 0 {
		opts.AddressTolerance = DefaultAddressTolerance
	}
	if opts.StreetTolerance <= 0 {
		opts.StreetTolerance = DefaultStreetTolerance
	}
	sg, sd, _ := ix.nearestSegment(p, opts.StreetTolerance, KindStreet)
	nearStreet := noRef
	if sg >= 0 {
		nearStreet = ix.seg(uint32(sg)).feat
	}
	// Nearer an address than any street (in a yard, in a building): the
	// nearest address, whatever its street. Nearer a street (on the
	// road): an address on that street is preferred.
	aid, ad, as := ix.nearestAddress(p, opts.AddressTolerance, noRef)
	if aid != noRef && sg >= 0 && sd < ad {
		aid, ad, as = ix.nearestAddress(p, opts.AddressTolerance, nearStreet)
	}
	var out []Candidate
	var ctx *placeCtx
	var streetFid = noRef
	switch {
	case aid != noRef && (sg < 0 || ad <= sd || as <= sd+addressSlack):
		c := ix.render(aid, 0, orb.Point{})
		c.Distance = ad
		out = append(out, c)
		ctx = ix.ctx(&ix.feats[aid])
		streetFid = ix.feats[aid].street
	case sg >= 0:
		streetFid = nearStreet
		// The road under the point names the place: a highway through
		// several towns is in the town where the point is.
		ctx = ix.ctxOfPart(&ix.feats[streetFid], ix.seg(uint32(sg)).part)
		if c, ok := ix.reverseInterpolated(p, streetFid, opts.StreetTolerance); ok {
			out = append(out, c)
		}
	default:
		return nil
	}
	if streetFid != noRef && int(streetFid) < len(ix.feats) {
		c := ix.renderIn(streetFid, 0, orb.Point{}, ctx)
		if sg >= 0 && ix.seg(uint32(sg)).feat == streetFid {
			c.Distance = sd
			// Located on its road nearest the point, not at the middle of
			// the whole street.
			part := ix.part(ix.seg(uint32(sg)).part)
			c.Location = alongLine(part, 0.5)
			c.Viewport = padBound(orb.LineString(part).Bound(), 50)
		}
		out = append(out, c)
	}
	out = append(out, ix.areaResults(ctx, p)...)
	out = filterReverse(out, opts)
	ix.localizeAll(out, opts.Lang)
	return out
}

// Reverse ranking: from a point nearer a street than any address, an
// address on another street than that one counts otherStreetPenalty
// metres further; an address is preferred to the street unless the
// street is addressSlack metres nearer (address points sit off the
// street, on the building).
const (
	otherStreetPenalty = 20
	addressSlack       = 30
)

// nearestAddress returns the address nearest p within tol metres (a
// building by its walls), its distance (to the walls of a building, 0
// inside) and its ranking distance: to its location, plus
// otherStreetPenalty when it is not on street (noRef for no
// preference). From off the road (the address no farther than the
// street) the address wins; from the road, its ranking distance is
// weighed against the street's.
//
// Inside an addressed building the most specific address around p wins:
// the smallest such building, or the address node inside it (or on its
// walls) nearer p than the building's own location (an entrance, a unit,
// a shop). Outside, the addresses are ranked by the distance to their
// location, the node or the building's rooftop point: one measure for
// both, so a building's wall a metre away does not outrank the shop node
// next to it.
func (ix *Index) nearestAddress(p orb.Point, tol float64, street uint32) (uint32, float64, float64) {
	best, bestD, bestRank := noRef, math.Inf(1), math.Inf(1)
	var inside []uint32 // addressed buildings around p
	ix.addrGrid.near(p, tol, func(id uint32) {
		f := &ix.feats[id]
		d := geo.HaversineM(p, f.pt)
		near := d
		if f.nparts > 0 { // a building within tol counts, by its walls
			near = ringDist(p, ix.part(f.part0))
			if near == 0 {
				inside = append(inside, id)
			}
		}
		if near > tol {
			return
		}
		penalty := 0.0
		if street != noRef && f.street != street {
			penalty = otherStreetPenalty
		}
		if rank := d + penalty; rank < bestRank || rank == bestRank && id < best {
			best, bestD, bestRank = id, near, rank
		}
	})
	if len(inside) > 0 {
		id, d := ix.innermostAddress(p, tol, inside)
		return id, d, 0
	}
	return best, bestD, bestRank
}

// innermostAddress returns, of the addressed buildings around p, the
// smallest, or the address node inside it nearest p when one is within
// tol metres and nearer than the building's rooftop point, and its
// distance from p.
func (ix *Index) innermostAddress(p orb.Point, tol float64, buildings []uint32) (uint32, float64) {
	best, bestA := noRef, math.Inf(1)
	for _, id := range buildings {
		if a := ringArea(ix.part(ix.feats[id].part0)); a < bestA || a == bestA && id < best {
			best, bestA = id, a
		}
	}
	ring, rb := ix.part(ix.feats[best].part0), padBound(ix.feats[best].bound, onWall)
	node, nodeD := noRef, math.Min(tol, geo.HaversineM(p, ix.feats[best].pt))
	ix.addrGrid.near(p, tol, func(id uint32) {
		f := &ix.feats[id]
		// Inside, or on the outline: an entrance is a vertex of the
		// building way, and the even-odd test counts points on a wall
		// on some walls only.
		if f.nparts > 0 || !rb.Contains(f.pt) || ringDist(f.pt, ring) > onWall {
			return
		}
		if d := geo.HaversineM(p, f.pt); d < nodeD || node != noRef && d == nodeD && id < node {
			node, nodeD = id, d
		}
	})
	if node != noRef {
		return node, nodeD
	}
	return best, 0
}

// onWall is how far (metres) from a building's outline a node still
// counts as on it.
const onWall = 0.01

// nearestSegment returns the segment of a feature of kind k nearest p
// within tol metres (-1 when none), its distance and the fraction along
// it of the closest point.
func (ix *Index) nearestSegment(p orb.Point, tol float64, k Kind) (int, float64, float64) {
	best, bestD, bestT := -1, tol, 0.0
	kx := kxAt(p)
	ix.segGrid.near(p, tol, func(id uint32) {
		sg := ix.seg(id)
		if f := &ix.feats[sg.feat]; f.kind != k || k == KindStreet && f.rank == streetAlias {
			return
		}
		pts := ix.part(sg.part)
		d, t := segDistK(p, pts[sg.i], pts[sg.i+1], kx)
		if d < bestD || d == bestD && int(id) < best {
			best, bestD, bestT = int(id), d, t
		}
	})
	return best, bestD, bestT
}

// reverseInterpolated returns the interpolated address of street fid
// nearest p, if an interpolation of that street passes within tol.
func (ix *Index) reverseInterpolated(p orb.Point, fid uint32, tol float64) (Candidate, bool) {
	bestD := tol
	var best Candidate
	found := false
	for _, iid := range ix.interpsOf(fid) {
		f := &ix.feats[iid]
		pts := ix.part(f.part0)
		total := lineLength(pts)
		if total == 0 {
			continue
		}
		var along float64
		for j := 1; j < len(pts); j++ {
			d, t := segDist(p, pts[j-1], pts[j])
			l := geo.HaversineM(pts[j-1], pts[j])
			if d < bestD {
				frac := (along + t*l) / total
				n := float64(f.hnFrom) + frac*float64(f.hnTo-f.hnFrom)
				step := int(f.rank)
				num := int(math.Round(n))
				if step == 2 && (num-int(f.hnFrom))%2 != 0 {
					num++
				}
				pt, ok := ix.interpolate(f, num)
				if !ok {
					pt = lerp(pts[j-1], pts[j], t)
				}
				best = ix.render(iid, num, pt)
				best.Distance = d
				bestD, found = d, true
			}
			along += l
		}
	}
	return best, found
}

// areaResults returns the neighbourhood, city, county, state, country and
// postal code of a context, each its own result.
func (ix *Index) areaResults(ctx *placeCtx, p orb.Point) []Candidate {
	var out []Candidate
	seen := map[uint32]bool{}
	for _, name := range []uint32{ctx.neighbourhood, ctx.altLocality, ctx.locality} {
		if name == 0 {
			continue
		}
		if pid, ok := ix.nearestPlaceNamed(ix.str(name), p); ok && !seen[pid] {
			seen[pid] = true
			out = append(out, ix.render(pid, 0, orb.Point{}))
		}
	}
	areas := []uint32{ctx.county, ctx.state, ctx.country}
	for i, a := range areas {
		ar := ix.area(a)
		if ar == nil {
			continue
		}
		if pid, ok := ix.areaPlace(ar, i, p); ok {
			if !seen[pid] {
				seen[pid] = true
				out = append(out, ix.render(pid, 0, orb.Point{}))
			}
			continue
		}
		out = append(out, ix.renderArea(areas[i:], i, p))
	}
	if pc := ix.str(ctx.postcode); pc != "" {
		var postings []uint32
		if w, ok := ix.wordID(Fold(pc)); ok {
			postings = ix.postingsOf(w)
		}
		for _, fid := range postings {
			if ix.feats[fid].kind == KindPostcode && ix.str(ix.feats[fid].name) == pc {
				out = append(out, ix.render(fid, 0, orb.Point{}))
				break
			}
		}
	}
	return out
}

// areaPlace returns the place node of an administrative area of kind k
// (areaTypes: county, state, country) nearest p: a place of that kind
// with the area's name, or with its name without the last word ("New
// Castle" for "New Castle County").
func (ix *Index) areaPlace(ar *area, k int, p orb.Point) (uint32, bool) {
	name := ix.str(ar.name)
	class := [3]string{"county", "state", "country"}[k]
	for _, n := range []string{name, name[:max(0, strings.LastIndexByte(name, ' '))]} {
		if n == "" {
			continue
		}
		// Of that kind only: the parish of Andorra la Vella is not the
		// town of that name.
		best, bestD := noRef, math.Inf(1)
		for _, fid := range ix.placesNamed(Fold(n)) {
			if ix.str(ix.feats[fid].class) != class {
				continue
			}
			if d := geo.HaversineM(p, ix.feats[fid].pt); d < bestD {
				best, bestD = fid, d
			}
		}
		if best != noRef {
			return best, true
		}
	}
	return noRef, false
}

// nearestPlaceNamed returns the place feature of that name nearest p.
func (ix *Index) nearestPlaceNamed(name string, p orb.Point) (uint32, bool) {
	best, bestD := noRef, math.Inf(1)
	for _, fid := range ix.placesNamed(Fold(name)) {
		if d := geo.HaversineM(p, ix.feats[fid].pt); d < bestD {
			best, bestD = fid, d
		}
	}
	return best, best != noRef
}

// filterReverse applies the result_type and location_type filters.
func filterReverse(cs []Candidate, opts ReverseOptions) []Candidate {
	out := cs[:0]
	for _, c := range cs {
		if typesMatch(&c, opts.ResultTypes, opts.LocationTypes) {
			out = append(out, c)
		}
	}
	return out
}

// typesMatch reports whether c carries one of the result types and is of
// one of the location types (an empty list allows any).
func typesMatch(c *Candidate, resultTypes []string, locTypes []LocationType) bool {
	ok := len(resultTypes) == 0
	for _, t := range resultTypes {
		ok = ok || c.HasType(t)
	}
	if len(locTypes) > 0 {
		lok := false
		for _, t := range locTypes {
			lok = lok || c.LocationType == t
		}
		ok = ok && lok
	}
	return ok
}

// areaTypes are the result types of a context's county, state and
// country.
var areaTypes = [3]string{"administrative_area_level_2", "administrative_area_level_1", "country"}

// renderArea makes the result of an administrative area that has no place
// node: areas[0] is the area (kind k of areaTypes), the rest the areas
// above it. It is located at a point inside it with its bounding box as
// the viewport (the boundary layer's); an area known only by name is
// located at the query point p, approximately.
func (ix *Index) renderArea(areas []uint32, k int, p orb.Point) Candidate {
	ar := ix.area(areas[0])
	loc, vp := p, padBound(p.Bound(), 5000)
	if ar.bound != (orb.Bound{}) {
		loc, vp = ar.center, ar.bound
	}
	c := Candidate{Kind: KindPlace, Types: []string{areaTypes[k], "political"}, Location: loc,
		LocationType: Approximate, Viewport: vp,
		PlaceID: fmt.Sprintf("a%x", hashString(areaTypes[k]+"|"+ix.str(ar.name)+"|"+ix.str(ar.short))), fid: noRef}
	cc := ""
	for j, a := range areas {
		x := ix.area(a)
		if x == nil {
			continue
		}
		short := ix.str(x.short)
		if short == "" {
			short = ix.str(x.name)
		}
		if k+j == 2 {
			cc = strings.ToUpper(short)
		}
		c.Components = append(c.Components, Component{ix.str(x.name), short, []string{areaTypes[k+j], "political"}})
	}
	switch k {
	case 0: // "Kent County, DE, USA"
		c.FormattedAddress = formatAddress(&c, ix.t.addressFormat(cc))
	case 1: // "Delaware, USA"
		country := fillTemplate(ix.t.addressFormat(cc).Country, map[string]string{"country": c.Components[len(c.Components)-1].LongName})
		c.FormattedAddress = ix.str(ar.name)
		if len(c.Components) > 1 {
			c.FormattedAddress += ", " + country
		}
	default: // "United States"
		c.FormattedAddress = ix.str(ar.name)
	}
	return c
}
