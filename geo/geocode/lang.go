package geocode

import (
	"errors"
	"regexp"
	"strings"

	"golang.org/x/text/language"
)

// MaxLangTags bounds the tags of a language list that are read.
const MaxLangTags = 10

// langPattern is the syntax ParseLangs accepts: tags of BCP 47's syntax,
// a language of 2 to 8 letters and subtags of 1 to 8 letters or digits,
// separated by commas (api/openapi.yaml's pattern of lang).
var langPattern = regexp.MustCompile(`^ *[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*( *, *[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*)* *$`)

// ErrLang is ParseLangs' error for a malformed list.
var ErrLang = errors.New("not BCP 47 language tags separated by commas (de, fr-CA, zh-Hant)")

// ParseLangs reads a list of BCP 47 tags, preferred first ("de-CH, fr"),
// as the languages of Query.Lang: OSM name:xx keys, each tag followed by
// its shorter forms ("zh-Hant-TW", "zh-Hant", "zh"). A tag Go's x/text
// knows is written in its canonical form ("ZH-hant" is "zh-Hant"), one it
// does not as given; tags after the MaxLangTags-th are not read.
func ParseLangs(s string) ([]string, error) {
	if !langPattern.MatchString(s) {
		return nil, ErrLang
	}
	var tags []string
	for i, p := range strings.Split(s, ",") {
		if i == MaxLangTags {
			break
		}
		p = strings.TrimSpace(p)
		if t, err := language.Parse(p); err == nil {
			p = t.String()
		}
		tags = append(tags, p)
	}
	return langKeys(tags), nil
}

// AcceptLanguages reads an Accept-Language header as ParseLangs does a
// list, by the q values; nil when it is malformed or names no language.
func AcceptLanguages(h string) []string {
	ts, _, err := language.ParseAcceptLanguage(h)
	if err != nil {
		return nil
	}
	var tags []string
	for _, t := range ts {
		if t != language.Und && t.String() != "mul" { // "*"
			tags = append(tags, t.String())
		}
	}
	return langKeys(tags)
}

// langKeys lists each tag, then its shorter forms, without repeats.
func langKeys(tags []string) []string {
	var keys []string
	seen := map[string]bool{}
	for _, t := range tags {
		for s := t; s != ""; {
			if !seen[s] {
				seen[s] = true
				keys = append(keys, s)
			}
			i := strings.LastIndexByte(s, '-')
			if i < 0 {
				break
			}
			s = s[:i]
		}
	}
	return keys
}
