package geocode

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/geosvc/geosvc/configs"
)

// TablesFile is the base name of the normalisation tables in configs.
const TablesFile = "geocode.yaml"

// Tables are the normalisation tables (configs/geocode.yaml): canonical
// word forms, stop words, postcode patterns, countries, US states and the
// admin-level mapping.
type Tables struct {
	// Words maps a normalised word to its canonical form ("street": "st").
	Words map[string]string `yaml:"words"`
	// USShort maps a canonical word to how a US route's short_name
	// writes it when that differs from the canonical form with a capital
	// ("av": "Ave", USPS Publication 28).
	USShort map[string]string `yaml:"us_short"`
	// Stopwords need not match on either side of a comparison.
	Stopwords []string `yaml:"stopwords"`
	// Postcodes maps an ISO country code to a regexp a normalised postcode
	// token matches.
	Postcodes map[string]string `yaml:"postcodes"`
	// Countries maps an ISO 3166-1 alpha-2 code to its name and aliases.
	Countries map[string]Country `yaml:"countries"`
	// USStates maps a US state name to its USPS code.
	USStates map[string]string `yaml:"us_states"`
	// AdminLevels maps a country code (or "default") and an OSM
	// admin_level to a Google component type.
	AdminLevels map[string]map[int]string `yaml:"admin_levels"`
	// AddressFormats says how formatted_address is written, by country
	// code (or "default").
	AddressFormats map[string]*AddressFormat `yaml:"address_formats"`

	stop      map[string]bool
	postcodes []postcodeRE
}

// AddressFormat is how a country writes an address on one line
// (formatted_address), after the name of a point of interest or of a
// neighbourhood. Templates take {placeholders}; a placeholder whose
// component is missing is empty, and the spaces and commas around it fold
// away. A part that ends up empty is left out; parts are joined with ", ".
type AddressFormat struct {
	// Street is the street line: {number}, {route} and {unit} (a
	// subpremise, written "#4").
	Street string `yaml:"street"`
	// City are the parts after the street line: {postal_code},
	// {locality} (the locality, else the sublocality, else the
	// neighbourhood of a neighbourhood result), {state} (the first-level
	// area's short name; its long name when the result is that area) and
	// {state_result} (the first-level area's long name, only when the
	// result is that area).
	City []string `yaml:"city"`
	// Country is the last part: "{country}" (the country's long name) or
	// a literal ("USA").
	Country string `yaml:"country"`
	// ShortRoute writes a route by its short name (USPS abbreviations:
	// "N Main St") rather than its long name.
	ShortRoute bool `yaml:"short_route"`
	// CountyAsLocality names a county result's county where its locality
	// would be (a second-level area is then not written as a place name
	// before the street).
	CountyAsLocality bool `yaml:"county_as_locality"`
}

// addressFormat returns the format of country cc, else the default one.
func (t *Tables) addressFormat(cc string) *AddressFormat {
	if f, ok := t.AddressFormats[cc]; ok {
		return f
	}
	if f, ok := t.AddressFormats["default"]; ok {
		return f
	}
	return &defaultAddressFormat
}

// defaultAddressFormat is the format of tables without one.
var defaultAddressFormat = AddressFormat{Street: "{route}, {number}", City: []string{"{postal_code} {locality}", "{state_result}"}, Country: "{country}"}

// Country is one entry of Tables.Countries.
type Country struct {
	// Name is the name results show.
	Name string `yaml:"name"`
	// Aliases are the forms a query may use.
	Aliases []string `yaml:"aliases"`
}

type postcodeRE struct {
	country string
	re      *regexp.Regexp
}

// ParseTables reads tables from YAML.
func ParseTables(b []byte) (*Tables, error) {
	var t Tables
	if err := yaml.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("geocode tables: %w", err)
	}
	t.stop = map[string]bool{}
	for _, w := range t.Stopwords {
		t.stop[strings.ToLower(w)] = true
	}
	codes := make([]string, 0, len(t.Postcodes))
	for c := range t.Postcodes {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		re, err := regexp.Compile(t.Postcodes[c])
		if err != nil {
			return nil, fmt.Errorf("geocode tables: postcode pattern of %s: %w", c, err)
		}
		t.postcodes = append(t.postcodes, postcodeRE{c, re})
	}
	if t.Words == nil {
		t.Words = map[string]string{}
	}
	return &t, nil
}

// DefaultTables returns the tables embedded from configs/geocode.yaml.
func DefaultTables() (*Tables, error) {
	b, err := configs.FS.ReadFile(TablesFile)
	if err != nil {
		return nil, fmt.Errorf("geocode tables: %w", err)
	}
	return ParseTables(b)
}

// IsStopword reports whether the normalised word w is a stop word.
func (t *Tables) IsStopword(w string) bool { return t.stop[w] }

// IsPostcode reports whether the normalised token looks like a postcode
// of some country in the tables.
func (t *Tables) IsPostcode(tok string) bool {
	for _, p := range t.postcodes {
		if p.re.MatchString(tok) {
			return true
		}
	}
	return false
}

// componentType returns the Google component type of an OSM admin_level
// in country cc ("" when it has none).
func (t *Tables) componentType(cc string, level int) string {
	if m, ok := t.AdminLevels[cc]; ok {
		return m[level]
	}
	return t.AdminLevels["default"][level]
}

// stateCode returns the USPS code of a US state name, "" if unknown.
func (t *Tables) stateCode(name string) string {
	for n, c := range t.USStates {
		if strings.EqualFold(n, name) {
			return c
		}
	}
	return ""
}

// CountryCode returns the ISO 3166-1 alpha-2 code of a country named by
// its code, name or one of its aliases in the tables ("USA", "united
// states" -> "US"); "" when unknown.
func (t *Tables) CountryCode(s string) string {
	f := Fold(strings.TrimSpace(s))
	if f == "" {
		return ""
	}
	codes := make([]string, 0, len(t.Countries))
	for cc := range t.Countries {
		codes = append(codes, cc)
	}
	sort.Strings(codes)
	for _, cc := range codes {
		c := t.Countries[cc]
		if Fold(cc) == f || Fold(c.Name) == f {
			return cc
		}
		for _, a := range c.Aliases {
			if Fold(a) == f {
				return cc
			}
		}
	}
	return ""
}

// areaAlias returns, for a query that is only a US state code or a
// country's code or alias of the tables ("DE", "USA"), the name to search
// ("Delaware", "United States") and the result type wanted
// (administrative_area_level_1, country); "" otherwise, and for the name
// itself.
func (t *Tables) areaAlias(text string) (name, typ string) {
	if len(text) > 40 || strings.ContainsAny(text, "0123456789") {
		return "", "" // not a code or a country name: spare the table walk
	}
	f := Fold(strings.TrimSpace(text))
	if f == "" {
		return "", ""
	}
	if cc := t.CountryCode(text); cc != "" {
		if n := t.Countries[cc].Name; Fold(n) != f {
			return n, "country"
		}
		return "", ""
	}
	best := ""
	for n, code := range t.USStates {
		if Fold(code) == f && (best == "" || n < best) {
			best = n
		}
	}
	if best != "" {
		return best, "administrative_area_level_1"
	}
	return "", ""
}
