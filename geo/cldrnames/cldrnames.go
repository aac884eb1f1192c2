// Package cldrnames holds the Unicode CLDR's names of countries and time
// zones in other languages than English (names.tsv.gz, written by
// internal/gen from Debian's unicode-cldr-core: CLDR 41, Unicode License),
// for the answers that name a country or a zone in the request's
// language when OSM's data has no name:xx for it.
package cldrnames

//go:generate go run ./internal/gen -out names.tsv.gz

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"strings"
	"sync"
)

//go:embed names.tsv.gz
var table []byte

type key struct{ lang, kind, id string }

var (
	once  sync.Once
	names map[key]string
)

func load() {
	names = map[key]string{}
	zr, err := gzip.NewReader(bytes.NewReader(table))
	if err != nil {
		panic("cldrnames: " + err.Error())
	}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), "\t", 4)
		if len(f) == 4 {
			names[key{f[0], f[1], f[2]}] = f[3]
		}
	}
}

// lookup returns the name of kind and id in the first of langs CLDR has
// it in, each BCP 47 tag tried whole, then without its last subtags
// ("zh-Hant-TW", "zh-Hant", "zh"); false when none has it.
func lookup(langs []string, kind, id string) (string, bool) {
	once.Do(load)
	for _, l := range langs {
		for tag := l; tag != ""; {
			if n, ok := names[key{tag, kind, id}]; ok {
				return n, true
			}
			i := strings.LastIndexByte(tag, '-')
			if i < 0 {
				break
			}
			tag = tag[:i]
		}
	}
	return "", false
}

// Country returns CLDR's name of the country with ISO 3166-1 alpha-2
// code iso2 in the first of langs that has one.
func Country(langs []string, iso2 string) (string, bool) {
	return lookup(langs, "T", strings.ToUpper(iso2))
}

// CountryIn is Country for one language.
func CountryIn(lang, iso2 string) (string, bool) {
	return lookup([]string{lang}, "T", strings.ToUpper(iso2))
}

// Zone returns the long name of a time zone's standard time (daylight
// false) or daylight time in lang: the zone's own name where CLDR gives
// it one (Europe/London's summer time), else its metazone's
// ("America_Eastern").
func Zone(lang, zone, metazone string, daylight bool) (string, bool) {
	k := "S"
	if daylight {
		k = "D"
	}
	if n, ok := lookup([]string{lang}, "Z"+k, zone); ok {
		return n, true
	}
	if metazone == "" {
		return "", false
	}
	return lookup([]string{lang}, "M"+k, metazone)
}
