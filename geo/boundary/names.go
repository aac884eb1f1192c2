package boundary

import (
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/cldrnames"
)

// NameIn returns the area's name in the first of langs (OSM name:xx
// keys, preferred first: "de-CH", "de", "fr") that it has a name:xx tag
// for or, for a country (admin0), that CLDR names the country in; else
// its name.
func (a *Area) NameIn(langs []string) string {
	for _, l := range langs {
		if n, ok := a.nameIn([]string{l}); ok {
			return n
		}
		if a.Admin == 0 && a.CountryISO2 != "" {
			if n, ok := cldrnames.CountryIn(l, a.CountryISO2); ok {
				return n
			}
		}
	}
	return a.Name
}

// nameIn is NameIn without the fallback: false when no language matches.
func (a *Area) nameIn(langs []string) (string, bool) {
	if len(a.Names) == 0 {
		return "", false
	}
	for _, l := range langs {
		if n, ok := a.Names[l]; ok && n != "" {
			return n, true
		}
		for k, n := range a.Names { // "zh-hant" as tagged, "zh-Hant" asked
			if n != "" && strings.EqualFold(k, l) {
				return n, true
			}
		}
	}
	return "", false
}

// CountryNameIn returns the name of the area's country in the first of
// langs that the layer's admin0 area at p has a name:xx tag for, or
// that CLDR names the country in; else CountryName (its English name).
func (l *Layer) CountryNameIn(a *Area, p orb.Point, langs []string) string {
	if len(langs) == 0 {
		return a.CountryName
	}
	c := a
	if a.Admin != 0 {
		var ok bool
		if c, ok = l.AdminAt(p, 0); !ok || c.CountryISO2 != a.CountryISO2 {
			c = nil
		}
	}
	for _, lang := range langs {
		if c != nil {
			if n, ok := c.nameIn([]string{lang}); ok {
				return n
			}
		}
		if n, ok := cldrnames.CountryIn(lang, a.CountryISO2); ok && a.CountryISO2 != "" {
			return n
		}
	}
	return a.CountryName
}
