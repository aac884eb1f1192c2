package osmroad

import (
	"cmp"
	"slices"
	"strings"

	"github.com/paulmach/osm"
)

// LocalName is a street name in another language: OSM's name:xx of the
// ways whose name is Names[Name].
type LocalName struct {
	// Name indexes Network.Names: the way's name (its name tag).
	Name uint32
	// Lang is the xx of name:xx ("de", "zh-Hant", "be-tarask").
	Lang string
	// Text is the name in that language.
	Text string
}

// localKey is a name table entry in one language.
type localKey struct {
	name uint32
	lang string
}

// notLanguage are name: suffixes that are not languages (OSM's
// name:left, name:source, ...): the short ones a language tag could be
// mistaken for (as geo/geocode reads name:xx).
var notLanguage = map[string]bool{"old": true, "alt": true, "loc": true, "nat": true, "reg": true, "int": true, "ref": true}

// isLangKey reports whether the suffix of a name:xx key is a language
// tag as OSM writes them: a 2- or 3-letter lower-case language, then
// subtags of 2 to 8 letters or digits ("de", "zh-Hant", "sr-Latn"), the
// same test as geo/geocode's.
func isLangKey(k string) bool {
	lang, rest, sub := strings.Cut(k, "-")
	if len(lang) < 2 || len(lang) > 3 || notLanguage[lang] || sub && rest == "" {
		return false
	}
	for i := 0; i < len(lang); i++ {
		if lang[i] < 'a' || lang[i] > 'z' {
			return false
		}
	}
	for rest != "" {
		var s string
		s, rest, _ = strings.Cut(rest, "-")
		if len(s) < 2 || len(s) > 8 {
			return false
		}
		for i := 0; i < len(s); i++ {
			c := s[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				return false
			}
		}
	}
	return true
}

// localNames records the name:xx tags of a car way named name (its name
// tag, interned as id): per name and language the first way's value
// wins; a later way of the same name with another value in that
// language is counted as a conflict. Ways named by their refs only have
// no name:xx kept (their display name is a route number).
func (b *builder) localNames(id uint32, t osm.Tags) {
	name := t.Find("name")
	if name == "" {
		return
	}
	for _, tag := range t {
		k, ok := strings.CutPrefix(tag.Key, "name:")
		v := strings.TrimSpace(tag.Value)
		if !ok || v == "" || v == name || !isLangKey(k) {
			continue
		}
		if b.local == nil {
			b.local = map[localKey]string{}
		}
		key := localKey{id, k}
		if old, seen := b.local[key]; seen {
			if old != v {
				b.rep.LocalNameConflicts++
			}
			continue
		}
		b.local[key] = strings.Clone(v)
	}
}

// localNameList returns the recorded name:xx by name id, then language,
// and fills in the report's figures.
func (b *builder) localNameList() []LocalName {
	out := make([]LocalName, 0, len(b.local))
	langs := map[string]bool{}
	for k, v := range b.local {
		out = append(out, LocalName{Name: k.name, Lang: k.lang, Text: v})
		langs[k.lang] = true
	}
	slices.SortFunc(out, func(a, c LocalName) int {
		return cmp.Or(cmp.Compare(a.Name, c.Name), cmp.Compare(a.Lang, c.Lang))
	})
	r := &b.rep
	r.LocalNames = len(out)
	r.LocalNameLangs = len(langs)
	named := map[uint32]bool{}
	for _, l := range out {
		named[l.Name] = true
		// As the routing file keeps them: a name id, a language index
		// and a string (its bytes and a 4-byte offset) per entry.
		r.LocalNameBytes += 4 + 4 + 4 + len(l.Text)
	}
	for l := range langs {
		r.LocalNameBytes += 4 + len(l)
	}
	r.LocalNamed = len(named)
	return out
}
