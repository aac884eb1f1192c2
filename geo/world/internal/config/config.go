// Package config reads configs/world.yaml, the rules geo/world's generator
// applies to its sources: what becomes of the Natural Earth features
// without an ISO id, which repeated ids are merged, and the description
// appended to each US county's name. The generator and geo/world's tests
// read the same embedded file through this package.
package config

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/geosvc/geosvc/configs"
)

// Config is configs/world.yaml.
type Config struct {
	// Countries are the rules for Natural Earth's countries.
	Countries Countries `yaml:"countries"`
	// Counties is the rule naming US counties.
	Counties Counties `yaml:"counties"`
}

// Countries holds the rules for Natural Earth's countries.
type Countries struct {
	// Unidentified lists every feature without an id, by name.
	Unidentified []Unidentified `yaml:"unidentified"`
	// Duplicates maps an id carried by several features to the name of
	// the one feature they become.
	Duplicates map[string]string `yaml:"duplicates"`
}

// Unidentified is what becomes of a feature without an id: exactly one
// of ID, Parts and Omit is set.
type Unidentified struct {
	// Name is the feature's Natural Earth name.
	Name string `yaml:"name"`
	// ID is the ISO 3166-1 numeric code the feature is given.
	ID string `yaml:"id"`
	// ISO2 is the alpha-2 code, for an ID github.com/biter777/countries
	// does not know.
	ISO2 string `yaml:"iso2"`
	// As is the name of the feature when it is not merged into another.
	As string `yaml:"as"`
	// Parts split the feature's polygons among several ids.
	Parts []Part `yaml:"parts"`
	// Omit leaves the feature out.
	Omit bool `yaml:"omit"`
}

// Part is one id a feature's polygons are split into.
type Part struct {
	// ID is the part's ISO 3166-1 numeric code, As its name.
	ID string `yaml:"id"`
	As string `yaml:"as"`
	// Box is west, south, east, north: a polygon goes to this part when
	// its bounding box lies in Box.
	Box [4]float64 `yaml:"box"`
}

// Counties holds the county name rule.
type Counties struct {
	// Default is the description of a county no other rule covers.
	Default string `yaml:"default"`
	// States maps a 2-digit state FIPS code to its counties' description.
	States map[string]string `yaml:"states"`
	// Listed are FIPS prefixes whose counties must each be in Counties.
	Listed []string `yaml:"listed"`
	// Counties maps a 5-digit county FIPS code to its description.
	Counties map[string]string `yaml:"counties"`
}

// Load parses the embedded configs/world.yaml.
func Load() (*Config, error) {
	b, err := configs.FS.ReadFile(configs.WorldFile)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return Parse(b)
}

// Parse parses and checks a world.yaml; unknown keys are errors.
func Parse(b []byte) (*Config, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var c Config
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("config: %s: %w", configs.WorldFile, err)
	}
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("config: %s: %w", configs.WorldFile, err)
	}
	return &c, nil
}

func (c *Config) check() error {
	seen := map[string]bool{}
	for _, u := range c.Countries.Unidentified {
		if u.Name == "" || seen[u.Name] {
			return fmt.Errorf("unidentified: empty or repeated name %q", u.Name)
		}
		seen[u.Name] = true
		set := 0
		for _, b := range []bool{u.ID != "", len(u.Parts) > 0, u.Omit} {
			if b {
				set++
			}
		}
		if set != 1 {
			return fmt.Errorf("unidentified %q: give exactly one of id, parts and omit", u.Name)
		}
		if u.ID != "" && !numeric(u.ID, 3) {
			return fmt.Errorf("unidentified %q: id %q is not a 3-digit code", u.Name, u.ID)
		}
		for _, p := range u.Parts {
			if !numeric(p.ID, 3) || p.As == "" || p.Box[0] >= p.Box[2] || p.Box[1] >= p.Box[3] {
				return fmt.Errorf("unidentified %q: part %+v needs a 3-digit id, a name and a box west < east, south < north", u.Name, p)
			}
		}
	}
	for id, name := range c.Countries.Duplicates {
		if !numeric(id, 3) || name == "" {
			return fmt.Errorf("duplicates: %q: %q", id, name)
		}
	}
	for st := range c.Counties.States {
		if !numeric(st, 2) {
			return fmt.Errorf("counties.states: %q is not a 2-digit state FIPS code", st)
		}
	}
	for fips := range c.Counties.Counties {
		if !numeric(fips, 5) {
			return fmt.Errorf("counties.counties: %q is not a 5-digit county FIPS code", fips)
		}
	}
	for _, p := range c.Counties.Listed {
		if !numeric(p, len(p)) || len(p) < 2 || len(p) > 5 {
			return fmt.Errorf("counties.listed: %q is not a FIPS prefix", p)
		}
	}
	return nil
}

// numeric reports whether s is n decimal digits.
func numeric(s string, n int) bool {
	if len(s) != n {
		return false
	}
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

// Describe returns the description of county fips by the rule's
// precedence (its own entry, its state's, the default) and whether the
// county must have an entry of its own and has none.
func (c *Counties) Describe(fips string) (desc string, missing bool) {
	if d, ok := c.Counties[fips]; ok {
		return d, false
	}
	for _, p := range c.Listed {
		if strings.HasPrefix(fips, p) {
			missing = true
		}
	}
	if len(fips) >= 2 {
		if d, ok := c.States[fips[:2]]; ok {
			return d, missing
		}
	}
	return c.Default, missing
}

// FullName returns county fips's name with its description appended.
func (c *Counties) FullName(fips, name string) string {
	d, _ := c.Describe(fips)
	if d == "" {
		return name
	}
	return name + " " + d
}
