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
func checkLocation(ix *geocode.Index, in addressInput) location {
	loc := location{locationTail: locationTail{Encoding: encodingWGS84}}
	if in.empty() {
		loc.Status = statusEmpty
		return loc
	}
	cs := ix.Forward(geocode.Query{HouseNumber: in.Premise, Street: in.Street, City: in.City,
		Postcode: in.PostCode, State: in.State, Country: in.Country})
	if len(cs) == 0 {
		loc.Status = statusNotChecked
		for _, gf := range gazetteerFields {
			if v := gf.given(in); v != "" {
				gf.set(&loc, &locationField{Names: []nillableString{{Value: v}}, Status: statusNotChecked})
			}
		}
		return loc
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
	return loc
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
// exactly (sameValue), or a street by some of its words ("Loockerman St"
// names "East Loockerman Street").
func anySame(ix *geocode.Index, component, given string, values []string) bool {
	for _, v := range values {
		if sameValue(ix, component, given, v, "") || component == "route" && wordsOf(ix, given, v) {
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
