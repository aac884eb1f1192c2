package geocode

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
)

// LocationType tells how exact a candidate's location is (Google's
// geometry.location_type).
type LocationType string

// Location types.
const (
	// Rooftop is an address point or building.
	Rooftop LocationType = "ROOFTOP"
	// RangeInterpolated is a house number placed along an address range.
	RangeInterpolated LocationType = "RANGE_INTERPOLATED"
	// GeometricCenter is the centre of a street or area.
	GeometricCenter LocationType = "GEOMETRIC_CENTER"
	// Approximate is a place, postcode or administrative area.
	Approximate LocationType = "APPROXIMATE"
)

// ValidLocationType reports whether s names a location type, in any
// case ("rooftop" is ROOFTOP).
func ValidLocationType(s string) bool {
	switch LocationType(strings.ToUpper(s)) {
	case Rooftop, RangeInterpolated, GeometricCenter, Approximate:
		return true
	}
	return false
}

// resultTypes are Google's result and component types, which the
// reverse geocoder's result_type filter accepts; a valid type the index
// never produces (postal_town, airport, ...) just filters everything out.
var resultTypes = map[string]bool{
	"street_address": true, "route": true, "intersection": true, "political": true, "country": true,
	"administrative_area_level_1": true, "administrative_area_level_2": true, "administrative_area_level_3": true,
	"administrative_area_level_4": true, "administrative_area_level_5": true, "administrative_area_level_6": true,
	"administrative_area_level_7": true, "colloquial_area": true, "locality": true, "sublocality": true,
	"sublocality_level_1": true, "sublocality_level_2": true, "sublocality_level_3": true, "sublocality_level_4": true,
	"sublocality_level_5": true, "neighborhood": true, "premise": true, "subpremise": true, "plus_code": true,
	"postal_code": true, "postal_code_prefix": true, "postal_code_suffix": true, "postal_town": true,
	"natural_feature": true, "airport": true, "park": true, "point_of_interest": true, "establishment": true,
	"landmark": true, "street_number": true, "floor": true, "room": true, "post_box": true,
	"bus_station": true, "train_station": true, "transit_station": true, "parking": true,
	"archipelago": true, "continent": true, "tourist_attraction": true,
}

// ValidResultType reports whether s is a result type the geocoder knows.
func ValidResultType(s string) bool { return resultTypes[s] }

// Component is one part of a candidate's address.
type Component struct {
	// LongName is the full name ("Main Street", "Delaware").
	LongName string
	// ShortName is the abbreviated name ("Main St", "DE").
	ShortName string
	// Types are its Google types ("route"; "locality", "political").
	Types []string
}

// Candidate is one geocoding result.
type Candidate struct {
	// PlaceID identifies the result stably across builds of the same
	// data: "n123" (address node), "w45" (building or street, its
	// smallest way id), "i67.12" (number 12 of interpolation way 67),
	// "p19711" (postcode), "a..." (administrative area).
	PlaceID string
	// Kind is the class of the feature found.
	Kind Kind
	// Types are the result's Google types ("street_address", "route",
	// "locality"+"political", ...).
	Types []string
	// FormattedAddress is the address as one line.
	FormattedAddress string
	// Components are the address parts, most specific first.
	Components []Component
	// Location is the point of the result.
	Location orb.Point
	// LocationType tells how exact Location is.
	LocationType LocationType
	// Viewport is the box to show the result in.
	Viewport orb.Bound
	// PartialMatch is set when not every word of the query matched
	// exactly (a typo, a missing word, a house number not found).
	PartialMatch bool
	// Score orders forward results (higher is better).
	Score float64
	// Distance is, in reverse geocoding, the distance in metres from the
	// query point to the feature.
	Distance float64

	// Population and PlaceClass are a place's population tag (0 when
	// untagged) and type ("city", "town", ...); zero for other kinds.
	Population uint32
	PlaceClass string
	fid        uint32 // the feature found
}

// HasType reports whether the candidate carries result type t.
func (c *Candidate) HasType(t string) bool {
	for _, x := range c.Types {
		if x == t {
			return true
		}
	}
	return false
}

// Component returns the long and short name of the first component of
// type t ("" when none).
func (c *Candidate) Component(t string) (long, short string) {
	for _, comp := range c.Components {
		for _, x := range comp.Types {
			if x == t {
				return comp.LongName, comp.ShortName
			}
		}
	}
	return "", ""
}

var placeResultTypes = map[string][]string{
	"country": {"country", "political"}, "state": {"administrative_area_level_1", "political"},
	"county": {"administrative_area_level_2", "political"}, "city": {"locality", "political"},
	"town": {"locality", "political"}, "village": {"locality", "political"}, "hamlet": {"locality", "political"},
	"suburb": {"sublocality", "political"}, "quarter": {"sublocality", "political"},
	"neighbourhood": {"neighborhood", "political"}, "locality": {"colloquial_area", "political"},
	"isolated_dwelling": {"colloquial_area", "political"},
}

// placeID returns the stable id of a feature (hn for an interpolated
// number).
func (ix *Index) placeID(f *feature, hn int) string {
	switch f.kind {
	case KindInterpolation:
		return fmt.Sprintf("i%d.%d", f.osmID, hn)
	case KindPostcode:
		return "p" + strings.ReplaceAll(ix.str(f.name), " ", "")
	case KindPOI: // a node can be an address and a shop: two results
		return "e" + string(f.osmType) + strconv.FormatInt(f.osmID, 10)
	case KindStreet:
		if f.rank == streetAlias { // the route number of named roads
			return "r" + strconv.FormatInt(f.osmID, 10)
		}
	}
	if f.osmType == 0 {
		return fmt.Sprintf("s%x", hashString(Fold(ix.str(f.name))+"|"+strconv.FormatFloat(f.pt[0], 'f', 5, 64)+","+strconv.FormatFloat(f.pt[1], 'f', 5, 64)))
	}
	return string(f.osmType) + strconv.FormatInt(f.osmID, 10)
}

// hashString is FNV-1a, 64 bits.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// render makes the candidate of feature fid; hn is the house number of an
// interpolated result, at its point loc.
func (ix *Index) render(fid uint32, hn int, loc orb.Point) Candidate {
	return ix.renderIn(fid, hn, loc, ix.ctx(&ix.feats[fid]))
}

// renderIn is render with the names around the feature taken from ctx
// (the context of one road of a street, in reverse geocoding).
func (ix *Index) renderIn(fid uint32, hn int, loc orb.Point, ctx *placeCtx) Candidate {
	f := &ix.feats[fid]
	c := Candidate{Kind: f.kind, PlaceID: ix.placeID(f, hn), Location: f.pt, fid: fid}
	var street *feature
	if f.street != noRef && int(f.street) < len(ix.feats) {
		street = &ix.feats[f.street]
	}
	cc := ""
	if a := ix.area(ctx.country); a != nil {
		cc = strings.ToUpper(ix.str(a.short))
	}
	var number, route string
	switch f.kind {
	case KindAddress:
		c.Types = []string{"street_address"}
		c.LocationType = Rooftop
		number = ix.str(f.name)
		c.Viewport = padBound(f.bound, 75)
		if street != nil {
			route = ix.str(street.name)
		}
	case KindInterpolation:
		c.Types = []string{"street_address"}
		c.LocationType = RangeInterpolated
		number = strconv.Itoa(hn)
		c.Location = loc
		c.Viewport = padBound(loc.Bound(), 75)
		if street != nil {
			route = ix.str(street.name)
		}
	case KindStreet:
		c.Types = []string{"route"}
		c.LocationType = GeometricCenter
		route = ix.str(f.name)
		c.Viewport = padBound(f.bound, 50)
	case KindPOI:
		c.Types = []string{"establishment", "point_of_interest"}
		if _, v, ok := strings.Cut(ix.str(f.class), "="); ok {
			c.Types = append(c.Types, v)
		}
		c.LocationType = Rooftop
		if f.osmType != 'n' {
			c.LocationType = GeometricCenter
		}
		c.Viewport = padBound(f.bound, 75)
		if street != nil {
			route = ix.str(street.name)
			number = ix.str(f.unit)
		}
	case KindPlace:
		c.Types = placeResultTypes[ix.str(f.class)]
		c.Population, c.PlaceClass = f.pop, ix.str(f.class)
		c.LocationType = Approximate
		c.Viewport = f.bound
	case KindPostcode:
		c.Types = []string{"postal_code"}
		c.LocationType = Approximate
		c.Viewport = f.bound
	}
	if f.kind == KindPOI {
		c.Components = append(c.Components, Component{ix.str(f.name), ix.str(f.name), []string{"point_of_interest", "establishment"}})
	}
	if f.kind == KindPostcode {
		pc := ix.str(f.name)
		c.Components = append(c.Components, Component{pc, pc, []string{"postal_code"}})
	}
	if f.kind == KindAddress && f.unit != 0 {
		c.Components = append(c.Components, Component{ix.str(f.unit), ix.str(f.unit), []string{"subpremise"}})
	}
	if number != "" {
		c.Components = append(c.Components, Component{number, number, []string{"street_number"}})
	}
	if route != "" {
		c.Components = append(c.Components, Component{route, ix.shortRoute(route, cc), []string{"route"}})
	}
	placeName := ""
	// level of an administrative place node: 0 county, 1 state, 2
	// country; -1 for other features. Such a place carries only the
	// areas above it, not those of wherever its node sits.
	level := -1
	if f.kind == KindPlace {
		placeName = ix.str(f.name)
		short := placeName
		switch ix.str(f.class) {
		case "county":
			level = 0
			// The node says "New Castle", the boundary "New Castle
			// County": one name for the county, as reverse shows it.
			if ar := ix.area(ctx.county); ar != nil && strings.HasPrefix(Fold(ix.str(ar.name)), Fold(placeName)+" ") {
				placeName = ix.str(ar.name)
				short = placeName
			}
		case "state":
			level = 1
			if ar := ix.area(ctx.state); ar != nil && Fold(ix.str(ar.name)) == Fold(placeName) && ix.str(ar.short) != "" {
				short = ix.str(ar.short)
			} else if code := ix.t.stateCode(placeName); code != "" {
				short = code
			}
		case "country":
			level = 2
			if cc != "" {
				short = cc
			}
		}
		c.Components = append(c.Components, Component{placeName, short, c.Types})
	}
	if level >= 0 {
		for k, id := range []uint32{ctx.county, ctx.state, ctx.country} {
			ar := ix.area(id)
			if k <= level || ar == nil {
				continue
			}
			short := ix.str(ar.short)
			if short == "" {
				short = ix.str(ar.name)
			}
			c.Components = append(c.Components, Component{ix.str(ar.name), short, []string{areaTypes[k], "political"}})
		}
		c.FormattedAddress = formatAddress(&c, ix.t.addressFormat(cc))
		return c
	}
	if n := ix.str(ctx.neighbourhood); n != "" && n != placeName && f.kind != KindPostcode {
		c.Components = append(c.Components, Component{n, n, []string{"neighborhood", "political"}})
	}
	locality := ix.str(ctx.locality)
	if alt := ix.str(ctx.altLocality); alt != "" {
		locality = alt // the address's own addr:city
	}
	showLocality := locality != "" && locality != placeName
	if f.kind == KindPlace {
		showLocality = showLocality && f.rank > placeTypes["village"] // a hamlet's town
	}
	if showLocality {
		c.Components = append(c.Components, Component{locality, locality, []string{"locality", "political"}})
	}
	for _, a := range []struct {
		id  uint32
		typ string
	}{{ctx.county, "administrative_area_level_2"}, {ctx.state, "administrative_area_level_1"}, {ctx.country, "country"}} {
		if ar := ix.area(a.id); ar != nil && ix.str(ar.name) != placeName {
			short := ix.str(ar.short)
			if short == "" {
				short = ix.str(ar.name)
			}
			c.Components = append(c.Components, Component{ix.str(ar.name), short, []string{a.typ, "political"}})
		}
	}
	if pc := ix.str(ctx.postcode); pc != "" && f.kind != KindPlace && f.kind != KindPostcode {
		c.Components = append(c.Components, Component{pc, pc, []string{"postal_code"}})
	}
	c.FormattedAddress = formatAddress(&c, ix.t.addressFormat(cc))
	return c
}

// shortRoute abbreviates a US street name's type and directionals, the
// words after the first and a first directional ("North Main Street" ->
// "N Main St").
func (ix *Index) shortRoute(route, cc string) string {
	if cc != "US" {
		return route
	}
	words := strings.Fields(route)
	for i, w := range words {
		if i == 0 && len(words) > 1 && !isDirectional(ix.t.Words[strings.ToLower(w)]) {
			continue
		}
		if c, ok := ix.t.Words[strings.ToLower(w)]; ok && len(c) < len(w) && !strings.ContainsAny(c, "0123456789") {
			words[i] = strings.ToUpper(c[:1]) + c[1:]
			if isDirectional(c) {
				words[i] = strings.ToUpper(c)
			}
			if u, ok := ix.t.USShort[c]; ok {
				words[i] = u
			}
		}
	}
	return strings.Join(words, " ")
}

// formatAddress writes the components as one line in the country's
// format (configs/geocode.yaml, address_formats): "123 Main St, Newark,
// DE 19711, USA", "Carrer Major, 5, AD500 Andorra la Vella, Andorra",
// "Rua de Santa Catarina 10, 4000-447 Porto, Portugal".
func formatAddress(c *Candidate, f *AddressFormat) string {
	get := func(t string, short bool) string {
		l, s := c.Component(t)
		if short {
			return s
		}
		return l
	}
	var parts []string
	poi := get("point_of_interest", false)
	if poi != "" {
		parts = append(parts, poi)
	}
	if c.Kind == KindPlace && len(c.Components) > 0 && !c.HasType("locality") && !c.HasType("country") &&
		!c.HasType("administrative_area_level_1") && !(f.CountyAsLocality && c.HasType("administrative_area_level_2")) {
		parts = append(parts, c.Components[0].LongName) // a neighbourhood, suburb or hamlet's own name
	}
	locality := get("locality", false)
	if locality == "" {
		locality = get("sublocality", false)
	}
	if locality == "" && c.HasType("neighborhood") {
		locality = get("neighborhood", false)
	}
	if locality == "" && f.CountyAsLocality && c.HasType("administrative_area_level_2") {
		locality = get("administrative_area_level_2", false)
	}
	state := get("administrative_area_level_1", true)
	stateResult := ""
	if c.HasType("administrative_area_level_1") {
		stateResult = get("administrative_area_level_1", false)
		if c.Kind == KindPlace {
			state = stateResult // "Delaware, USA", not "DE, USA"
		}
	}
	unit := get("subpremise", false)
	if unit != "" {
		unit = "#" + unit
	}
	vals := map[string]string{
		"number":       get("street_number", false),
		"route":        get("route", f.ShortRoute),
		"unit":         unit,
		"postal_code":  get("postal_code", false),
		"locality":     locality,
		"state":        state,
		"state_result": stateResult,
		"country":      get("country", false),
	}
	if vals["route"] != "" {
		parts = append(parts, fillTemplate(f.Street, vals))
	}
	for _, t := range f.City {
		parts = append(parts, fillTemplate(t, vals))
	}
	if vals["country"] != "" {
		parts = append(parts, fillTemplate(f.Country, vals))
	}
	var out []string
	for _, p := range parts {
		if p != "" && (len(out) == 0 || p != out[len(out)-1]) {
			out = append(out, p) // "Monaco, Monaco" is Monaco once
		}
	}
	return strings.Join(out, ", ")
}

// fillTemplate replaces the {placeholders} of t with vals and folds the
// spaces and commas that an empty one leaves: "{route}, {number}" with no
// number is the route alone.
func fillTemplate(t string, vals map[string]string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			b.WriteString(t)
			break
		}
		j := strings.IndexByte(t[i:], '}')
		if j < 0 {
			b.WriteString(t)
			break
		}
		b.WriteString(t[:i])
		b.WriteString(vals[t[i+1:i+j]])
		t = t[i+j+1:]
	}
	s := strings.Join(strings.Fields(b.String()), " ")
	for {
		n := strings.ReplaceAll(strings.ReplaceAll(s, " ,", ","), ",,", ",")
		if n == s {
			break
		}
		s = n
	}
	return strings.Trim(s, ", ")
}

// isDirectional reports whether a canonical word is a compass direction.
func isDirectional(c string) bool {
	switch c {
	case "n", "s", "e", "w", "ne", "nw", "se", "sw":
		return true
	}
	return false
}
