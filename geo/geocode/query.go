package geocode

import (
	"slices"
	"strings"

	"github.com/paulmach/orb"
)

// MaxQueryWords bounds the words of a query that are searched; the rest
// are ignored (and the result marked partial).
const MaxQueryWords = 16

// Query is a forward geocoding request: free text, or structured fields
// (the SOAP gazetteer's), or both.
type Query struct {
	// Text is a free-form address in any order: "123 Main St, Newark, DE
	// 19711", "carrer major 5 andorra".
	Text string
	// Structured fields, appended to Text when set.
	HouseNumber, Street, City, Postcode, State, Country string
	// Bounds, when set, prefers results inside the box (a bias, not a
	// filter), or with BoundsRestrict keeps only the results inside it.
	Bounds         *orb.Bound
	BoundsRestrict bool
	// Focus, when set, ranks results nearer it higher (Autocomplete).
	Focus *orb.Point
	// Layers, when set, keep the results of these kinds (KindAddress
	// keeps interpolated addresses too).
	Layers []Kind
	// Lang lists languages, preferred first, as OSM's name:xx keys
	// ("de", "zh-Hant"): answers are named in the first the data has a
	// name in, feature by feature, else by their default name.
	Lang []string
	// Components filter results (Google's components parameter): only
	// results whose postal code, locality or country (name, ISO code or an
	// alias of configs/geocode.yaml) equals the given one are returned.
	Components Components
	// ResultTypes and LocationTypes, when set, keep the results carrying
	// one of these types and of one of these location types (Google's
	// result_type and location_type).
	ResultTypes   []string
	LocationTypes []LocationType
	// Limit is the most results returned; 0 means DefaultLimit.
	Limit int
}

// Components are the component filters of a Query; empty fields do not
// filter.
type Components struct {
	PostalCode, Locality, Country string
	// Route matches a route's long or short name ("Main St" or "Main
	// Street"); AdministrativeArea a county or state by name or code.
	Route, AdministrativeArea string
}

// Text returns the filter values as query text, for a query that has
// only components (Google accepts "components=postal_code:19711" alone).
func (c Components) Text() string {
	var parts []string
	for _, v := range []string{c.Route, c.Locality, c.AdministrativeArea, c.PostalCode, c.Country} {
		if v != "" {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, ", ")
}

// DefaultLimit is the most results Forward returns by default.
const DefaultLimit = 5

// kindWanted reports whether a result of kind k is kept by q.Layers.
func (q *Query) kindWanted(k Kind) bool {
	if len(q.Layers) == 0 {
		return true
	}
	if k == KindInterpolation {
		k = KindAddress
	}
	return slices.Contains(q.Layers, k)
}

// featureWanted reports whether a feature of kind k may give a result
// q.Layers keeps: a street gives its addresses.
func (q *Query) featureWanted(k Kind) bool {
	return q.kindWanted(k) || k == KindStreet && q.kindWanted(KindAddress)
}

// text returns the query's whole text.
func (q Query) text() string {
	parts := []string{q.Text}
	if q.Street != "" {
		parts = append(parts, strings.TrimSpace(q.HouseNumber+" "+q.Street))
	}
	for _, s := range []string{q.City, q.State + " " + q.Postcode, q.Country} {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

// Word is one word of a parsed query.
type Word struct {
	// Text is the canonical form ("st" for "Street").
	Text string
	// Group is the index of the comma-separated part it came from.
	Group int
	// Number reports a house-number-like word (digits, maybe one letter
	// after them: "12", "12b").
	Number bool
	// Stop reports a stop word.
	Stop bool
}

// Parse splits a free-form query into canonical words, comma groups kept.
// It never fails: an empty result means nothing searchable.
func (t *Tables) Parse(text string) []Word {
	out, _ := t.parse(text)
	return out
}

// parse is Parse that also reports whether words past MaxQueryWords were
// dropped.
func (t *Tables) parse(text string) ([]Word, bool) {
	var out []Word
	for g, part := range strings.Split(text, ",") {
		for _, w := range t.Tokens(part) {
			if len(out) == MaxQueryWords {
				return out, true
			}
			out = append(out, Word{Text: w, Group: g, Number: isHouseNumber(w), Stop: t.IsStopword(w)})
		}
	}
	return out, false
}

// isHouseNumber reports whether w looks like a house number: 1 to 6
// digits, optionally followed by one letter.
func isHouseNumber(w string) bool {
	n := 0
	for n < len(w) && w[n] >= '0' && w[n] <= '9' {
		n++
	}
	if n == 0 || n > 6 {
		return false
	}
	rest := w[n:]
	return rest == "" || len(rest) == 1 && rest[0] >= 'a' && rest[0] <= 'z'
}
