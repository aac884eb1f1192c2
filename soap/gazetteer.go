package soap

import (
	"strconv"
	"strings"

	"github.com/geosvc/geosvc/geo/geocode"
)

// addressInput is a location to check, field by field.
type addressInput struct {
	Country, State, City, Street, Premise, PostCode string
}

func (a addressInput) empty() bool { return a == addressInput{} }

// minSimilarity is the least geocode.Tables.Similarity by which a given
// street or city resembles the match's (a city: any place the geocoder
// finds for it): below, the given value matched nothing and is
// NotChecked rather than a Conflict with an unrelated match.
const minSimilarity = 0.5

// postcodeSearchM is how far from a town without a postcode of its own
// the postcode offered in place of a wrong one is looked for.
const postcodeSearchM = 10_000

// alternativesMargin: candidates scoring within this of the best are
// equally good, and a field on which they differ has Alternatives.
const alternativesMargin = 0.02

// gazetteerField describes one field of a Location: how to read the
// request's value and the geocoder result's component.
type gazetteerField struct {
	component string // Google component type
	given     func(addressInput) string
	set       func(*location, *locationField)
}

var gazetteerFields = []gazetteerField{
	{"country", func(a addressInput) string { return a.Country }, func(l *location, f *locationField) { l.Country = f }},
	{"administrative_area_level_1", func(a addressInput) string { return a.State }, func(l *location, f *locationField) { l.State = f }},
	{"postal_code", func(a addressInput) string { return a.PostCode }, func(l *location, f *locationField) { l.PostCode = f }},
	{"locality", func(a addressInput) string { return a.City }, func(l *location, f *locationField) { l.City = f }},
	{"route", func(a addressInput) string { return a.Street }, func(l *location, f *locationField) { l.Street = f }},
	{"street_number", func(a addressInput) string { return a.Premise }, func(l *location, f *locationField) { l.Premise = f }},
}

// statusRank orders the statuses a Location takes from its fields: the
// worst field decides.
var statusRank = map[string]int{
	statusOK: 0, statusCompleted: 1, statusNotChecked: 2, statusRangeCheck: 3, statusAlternatives: 4, statusIncomplete: 5, statusConflict: 6,
}

// checkLocation validates and completes an address with the gazetteer:
// the best match of the geocoder, field by field (see docs/soap.md,
// "GazetteerSimple and Gazetteer").
// checkLocation checks and completes an address with the geocoder's best
// match, comparing with the default names; with langs, the answer's names
// are then written in those languages (localizeLocation).
func checkLocation(ix *geocode.Index, in addressInput, langs []string) location {
	loc, best, ties := checkDefault(ix, in)
	if len(langs) > 0 && best != nil {
		localizeLocation(ix, &loc, *best, ties, langs)
	}
	return loc
}

// checkDefault is checkLocation in the default names; it also returns the
// best match and those as good as it (nil: none).
func checkDefault(ix *geocode.Index, in addressInput) (location, *geocode.Candidate, []geocode.Candidate) {
	loc := location{locationTail: locationTail{Encoding: encodingWGS84}}
	if in.empty() {
		loc.Status = statusEmpty
		return loc, nil, nil
	}
	// A street or city that nothing resembles matched nothing: it is
	// left out of the search and NotChecked.
	q := in
	cs := ix.Forward(forwardQuery(q))
	unmatched := map[string]bool{}
	if q.Street != "" && (len(cs) == 0 || !resembles(ix, q.Street, cs[0], "route")) {
		q.Street, q.Premise = "", ""
		unmatched["route"], unmatched["street_number"] = true, true
	}
	if q.City != "" && !knownCity(ix, q) {
		q.City = ""
		unmatched["locality"] = true
	}
	if len(unmatched) > 0 {
		cs = nil
		if !q.empty() {
			cs = ix.Forward(forwardQuery(q))
		}
	}
	notChecked := func(gf gazetteerField) {
		if v := gf.given(in); v != "" {
			gf.set(&loc, &locationField{Names: []nillableString{{Value: v}}, Status: statusNotChecked})
		}
	}
	if len(cs) == 0 {
		loc.Status = statusNotChecked
		for _, gf := range gazetteerFields {
			notChecked(gf)
		}
		return loc, nil, nil
	}
	best := cs[0]
	ties := []geocode.Candidate{best}
	for _, c := range cs[1:] {
		if c.Score >= best.Score-alternativesMargin {
			ties = append(ties, c)
		}
	}
	loc.Status = statusOK
	for _, gf := range gazetteerFields {
		if unmatched[gf.component] {
			if gf.given(in) == "" {
				gf.set(&loc, &locationField{Status: statusEmpty})
				continue
			}
			notChecked(gf)
			if statusRank[statusNotChecked] > statusRank[loc.Status] {
				loc.Status = statusNotChecked
			}
			continue
		}
		f := checkField(ix, gf, in, best, ties)
		gf.set(&loc, f)
		if statusRank[f.Status] > statusRank[loc.Status] {
			loc.Status = f.Status
		}
	}
	loc.Name = best.FormattedAddress
	if len(best.Types) > 0 {
		loc.Type = best.Types[0]
	}
	loc.FID = best.PlaceID
	loc.X = strconv.FormatFloat(best.Location[0], 'f', 7, 64)
	loc.Y = strconv.FormatFloat(best.Location[1], 'f', 7, 64)
	return loc, &best, ties
}

// checkField compares one field of the request with the best match (and
// the matches as good as it).
func checkField(ix *geocode.Index, gf gazetteerField, in addressInput, best geocode.Candidate, ties []geocode.Candidate) *locationField {
	given := strings.TrimSpace(gf.given(in))
	long, short := best.Component(gf.component)
	// Matches as good as the best that say something else here.
	var alts []string
	for _, c := range ties {
		l, _ := c.Component(gf.component)
		if l == "" {
			continue
		}
		dup := false
		for _, a := range alts {
			dup = dup || ix.Tables().Normalize(a) == ix.Tables().Normalize(l)
		}
		if !dup {
			alts = append(alts, l)
		}
	}
	f := &locationField{}
	names := func(vs ...string) []nillableString {
		out := make([]nillableString, len(vs))
		for i, v := range vs {
			out[i] = nillableString{Value: v}
		}
		return out
	}
	switch {
	case given != "" && long != "" && sameValue(ix, gf.component, given, long, short):
		f.Status, f.Names = statusOK, names(long)
		if gf.component == "street_number" && best.LocationType == geocode.RangeInterpolated {
			f.Status = statusRangeCheck // within a range of numbers, not a known address
		}
	case given != "" && len(alts) > 0 && !anySame(ix, gf.component, given, alts):
		// None of the matches as good as the best has the given value.
		f.Status, f.Current, f.Names = statusConflict, given, names(alts...)
	case len(alts) > 1:
		f.Status, f.Current, f.Names = statusAlternatives, given, names(alts...)
	case given != "" && long != "" && anySame(ix, gf.component, given, []string{long}):
		// Given in part ("Loockerman St" of "East Loockerman Street").
		f.Status, f.Current, f.Names = statusCompleted, given, names(long)
	case long == "" && given == "":
		f.Status = statusEmpty
	case long == "" && gf.component == "street_number":
		f.Status, f.Current = statusIncomplete, given // the street has no such number
	case long == "" && gf.component == "postal_code" && postcodeElsewhere(ix, given, best):
		// The match (a town) has no postcode, and the given one is
		// another town's: the postcode is wrong, the nearest one to the
		// match is offered.
		f.Status, f.Current = statusConflict, given
		if near := ix.Nearby(best.Location, postcodeSearchM, geocode.NearbyPostalCodes, 1); len(near) > 0 {
			if l, _ := near[0].Component("postal_code"); l != "" {
				f.Names = names(l)
			}
		}
	case long == "":
		// The match (a town, a street) says nothing of this field: the
		// given value could not be checked.
		f.Status, f.Names = statusNotChecked, names(given)
	case given == "":
		f.Status, f.Names = statusCompleted, names(long)
	default:
		f.Status, f.Current, f.Names = statusConflict, given, names(long)
	}
	return f
}

// anySame reports whether the given value names one of the values:
// exactly (sameValue), a street by some of its words ("Loockerman St"
// names "East Loockerman Street"), or a street or city with typos, every
// distinctive word matched within the geocoder's typo tolerance
// ("Rehobth Avenue" names "Rehoboth Avenue").
func anySame(ix *geocode.Index, component, given string, values []string) bool {
	for _, v := range values {
		if sameValue(ix, component, given, v, "") || component == "route" && wordsOf(ix, given, v) ||
			(component == "route" || component == "locality") && ix.Tables().Similarity(given, v) == 1 {
			return true
		}
	}
	return false
}

// wordsOf reports whether every word of part is a word of whole, once
// normalised.
func wordsOf(ix *geocode.Index, part, whole string) bool {
	have := map[string]bool{}
	for _, w := range strings.Fields(ix.Tables().Normalize(whole)) {
		have[w] = true
	}
	words := strings.Fields(ix.Tables().Normalize(part))
	for _, w := range words {
		if !have[w] {
			return false
		}
	}
	return len(words) > 0
}

// sameValue reports whether the request's value names the result's:
// equal once normalised (St = Street), a country by name, code or alias,
// a ZIP+4 matching its ZIP.
func sameValue(ix *geocode.Index, component, given, long, short string) bool {
	t := ix.Tables()
	if t.Normalize(given) == t.Normalize(long) || short != "" && t.Normalize(given) == t.Normalize(short) {
		return true
	}
	switch component {
	case "country":
		return short != "" && strings.EqualFold(t.CountryCode(given), short)
	case "postal_code":
		g := strings.ToUpper(strings.ReplaceAll(given, " ", ""))
		return strings.HasPrefix(g, strings.ToUpper(strings.ReplaceAll(long, " ", ""))+"-")
	}
	return false
}

// forwardQuery is the geocoder query of an address.
func forwardQuery(in addressInput) geocode.Query {
	return geocode.Query{HouseNumber: in.Premise, Street: in.Street, City: in.City,
		Postcode: in.PostCode, State: in.State, Country: in.Country}
}

// resembles reports whether the candidate's component of type t (long or
// short name) resembles the given value by minSimilarity.
func resembles(ix *geocode.Index, given string, c geocode.Candidate, t string) bool {
	long, short := c.Component(t)
	sim := ix.Tables().Similarity
	return long != "" && sim(given, long) >= minSimilarity || short != "" && sim(given, short) >= minSimilarity
}

// cityTypes are the components a city of a request may name.
var cityTypes = []string{"locality", "sublocality", "neighborhood", "colloquial_area", "postal_town", "administrative_area_level_3", "administrative_area_level_2"}

// knownCity reports whether the geocoder knows a place resembling the
// request's city (in its state and country when given).
func knownCity(ix *geocode.Index, in addressInput) bool {
	for _, c := range ix.Forward(geocode.Query{City: in.City, State: in.State, Country: in.Country, Limit: 5}) {
		for _, t := range cityTypes {
			if resembles(ix, in.City, c, t) {
				return true
			}
		}
	}
	return false
}

// postcodeElsewhere reports whether postcode is known to the geocoder in
// a town other than the match's.
func postcodeElsewhere(ix *geocode.Index, postcode string, best geocode.Candidate) bool {
	town, _ := best.Component("locality")
	if town == "" {
		return false
	}
	for _, c := range ix.Forward(geocode.Query{Postcode: postcode, Limit: 1, ResultTypes: []string{"postal_code"}}) {
		if long, short := c.Component("postal_code"); !sameValue(ix, "postal_code", postcode, long, short) {
			continue
		}
		if l, _ := c.Component("locality"); l != "" && ix.Tables().Similarity(l, town) < minSimilarity {
			return true
		}
	}
	return false
}
