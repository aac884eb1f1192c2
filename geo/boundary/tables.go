package boundary

import (
	"fmt"
	"sort"

	"go.yaml.in/yaml/v3"

	"github.com/geosvc/geosvc/configs"
)

// Config file names in configs/.
const (
	AdminLevelsFile   = "admin_levels.yaml"
	GeoBoundariesFile = "geoboundaries.yaml"
)

// FirstNewCategory is the code of the first category made at build time
// for a boundary=* value the configuration does not list.
const FirstNewCategory = 990

// AdminLevels maps OSM admin_level to admin category per country.
type AdminLevels struct {
	// Default is the table of countries without one of their own.
	Default map[int]int `yaml:"default"`
	// Countries are the tables by ISO 3166-1 alpha-2 code.
	Countries map[string]map[int]int `yaml:"countries"`
}

// Category returns the admin category (0..8) of OSM admin_level level in
// country iso2, and false when the level has none there.
func (t *AdminLevels) Category(iso2 string, level int) (int, bool) {
	m, ok := t.Countries[iso2]
	if !ok {
		m = t.Default
	}
	c, ok := m[level]
	return c, ok
}

// ParseAdminLevels reads an admin_levels.yaml; nil reads the embedded one.
func ParseAdminLevels(b []byte) (*AdminLevels, error) {
	if b == nil {
		var err error
		if b, err = configs.FS.ReadFile(AdminLevelsFile); err != nil {
			return nil, err
		}
	}
	var t AdminLevels
	if err := yaml.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", AdminLevelsFile, err)
	}
	check := func(where string, m map[int]int) error {
		for l, c := range m {
			if l < 1 || l > 11 || c < 0 || c > MaxAdmin {
				return fmt.Errorf("%s: %s: admin_level %d -> admin%d out of range (levels 1..11, admin0..admin8)", AdminLevelsFile, where, l, c)
			}
		}
		return nil
	}
	if len(t.Default) == 0 {
		return nil, fmt.Errorf("%s: no default table", AdminLevelsFile)
	}
	if err := check("default", t.Default); err != nil {
		return nil, err
	}
	for cc, m := range t.Countries {
		if err := check(cc, m); err != nil {
			return nil, err
		}
	}
	return &t, nil
}

// geoTable is the parsed geoboundaries.yaml.
type geoTable struct {
	Categories []Category `yaml:"categories"`
}

// categorySet finds categories by boundary value.
type categorySet struct {
	cats    []Category
	byValue map[string]int // boundary value -> index in cats
}

// ParseGeoCategories reads a geoboundaries.yaml; nil reads the embedded
// one.
func ParseGeoCategories(b []byte) ([]Category, error) {
	if b == nil {
		var err error
		if b, err = configs.FS.ReadFile(GeoBoundariesFile); err != nil {
			return nil, err
		}
	}
	var t geoTable
	if err := yaml.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", GeoBoundariesFile, err)
	}
	seen := map[int]bool{}
	vals := map[string]bool{}
	for _, c := range t.Categories {
		if c.Code <= AdminCategoryBase+MaxAdmin || c.Code >= FirstNewCategory || seen[c.Code] || c.Name == "" {
			return nil, fmt.Errorf("%s: category %d %q: codes must be unique, above 908 and below %d, with a name", GeoBoundariesFile, c.Code, c.Name, FirstNewCategory)
		}
		seen[c.Code] = true
		for _, v := range c.Boundaries {
			if vals[v] || v == "administrative" {
				return nil, fmt.Errorf("%s: boundary=%s listed twice (or administrative)", GeoBoundariesFile, v)
			}
			vals[v] = true
		}
	}
	sort.Slice(t.Categories, func(i, j int) bool { return t.Categories[i].Code < t.Categories[j].Code })
	return t.Categories, nil
}

func newCategorySet(cats []Category) *categorySet {
	s := &categorySet{cats: cats, byValue: map[string]int{}}
	for i, c := range cats {
		for _, v := range c.Boundaries {
			s.byValue[v] = i
		}
	}
	return s
}

// addNew gives every value not yet in the set a category of its own,
// numbered from FirstNewCategory in the order of the values, and returns
// the new categories.
func (s *categorySet) addNew(values []string) []Category {
	sort.Strings(values)
	next := FirstNewCategory
	for _, c := range s.cats {
		if c.Code >= next {
			next = c.Code + 1
		}
	}
	var out []Category
	for _, v := range values {
		if _, ok := s.byValue[v]; ok {
			continue
		}
		c := Category{Code: next, Name: v, Boundaries: []string{v}}
		next++
		s.byValue[v] = len(s.cats)
		s.cats = append(s.cats, c)
		out = append(out, c)
	}
	return out
}

// lookup returns the category of boundary value v and the sub-category
// the tag lookup function gives, if any.
func (s *categorySet) lookup(v string, tag func(string) string) (c *Category, sub *SubCategory) {
	i, ok := s.byValue[v]
	if !ok {
		return nil, nil
	}
	c = &s.cats[i]
	if c.SubKey == "" {
		return c, nil
	}
	tv := tag(c.SubKey)
	for k := range c.Sub {
		for _, sv := range c.Sub[k].Values {
			if sv == tv {
				return c, &c.Sub[k]
			}
		}
	}
	return c, nil
}
