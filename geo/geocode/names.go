package geocode

import (
	"math"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/geo"
)

// langName is a name of a feature in one language: the xx of an OSM
// name:xx tag and its value, as string ids (of the extract's table
// while reading, of the index's once built).
type langName struct {
	lang, name uint32
}

// notLanguage are name: suffixes that are not languages (OSM's
// name:left, name:source, ...): the short ones a language tag could be
// mistaken for.
var notLanguage = map[string]bool{"old": true, "alt": true, "loc": true, "nat": true, "reg": true, "int": true, "ref": true}

// isLangKey reports whether the suffix of a name:xx key is a language
// tag as OSM writes them: a 2- or 3-letter language, then subtags of
// 2 to 8 letters or digits ("de", "zh-Hant", "be-tarask", "sr-Latn").
func isLangKey(k string) bool {
	lang, rest, sub := strings.Cut(k, "-")
	if len(lang) < 2 || len(lang) > 3 || notLanguage[lang] || !isLower(lang) || sub && rest == "" {
		return false
	}
	for rest != "" {
		var sub string
		sub, rest, _ = strings.Cut(rest, "-")
		if len(sub) < 2 || len(sub) > 8 || !isAlnum(sub) {
			return false
		}
	}
	return true
}

func isLower(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// langNames keeps the name:xx tags of t whose xx is a language tag (in
// x.names) and returns their span.
func (x *extract) langNames(t osm.Tags) span {
	sp := span{uint32(len(x.names)), uint32(len(x.names))}
	for _, tag := range t {
		k, ok := strings.CutPrefix(tag.Key, "name:")
		if !ok || tag.Value == "" || !isLangKey(k) {
			continue
		}
		x.names = append(x.names, langName{x.strs.intern(k), x.strs.intern(tag.Value)})
	}
	sp.end = uint32(len(x.names))
	return sp
}

// setNames records the name:xx tags (sp of the extract's names) of the
// feature just added, fid.
func (b *builder) setNames(fid uint32, sp span) {
	if sp.empty() {
		return
	}
	if b.ix.names == nil {
		b.ix.names = map[uint32][]langName{}
	}
	for _, n := range b.x.names[sp.start:sp.end] {
		b.ix.names[fid] = append(b.ix.names[fid], langName{b.str(b.x.str(n.lang)), b.str(b.x.str(n.name))})
	}
}

// langNamesOf returns the name:xx entries of feature fid (indexes into
// lnLang and lnName).
func (ix *Index) langNamesOf(fid uint32) (lo, hi uint32) {
	if int(fid)+1 >= len(ix.lnStart) {
		return 0, 0
	}
	return ix.lnStart[fid], ix.lnStart[fid+1]
}

// NameIn returns feature fid's name in the first of langs (OSM name:xx
// keys, "de", "zh-Hant") it has one for, else "".
func (ix *Index) nameIn(fid uint32, langs []string) string {
	lo, hi := ix.langNamesOf(fid)
	if lo == hi {
		return ""
	}
	for _, l := range langs {
		for i := lo; i < hi; i++ {
			if strings.EqualFold(ix.str(ix.lnLang[i]), l) {
				return ix.str(ix.lnName[i])
			}
		}
	}
	return ""
}

// altTokens returns the word ids of name:xx entry i, empty when they
// are those of the feature's name.
func (ix *Index) altTokens(i uint32) []uint32 {
	return ix.lnToks[ix.lnTokStart[i]:ix.lnTokStart[i+1]]
}

// finishNames lays out the name:xx tags of the features being built
// (ix.names) as the search's ln* arrays; word numbers the words of a
// name that differs from the feature's (word ids before finishWords
// ranks them).
func (ix *Index) finishNames(word func(string) uint32) {
	s := &ix.search
	n := len(ix.feats)
	s.lnStart = make([]uint32, n+1)
	s.lnTokStart = []uint32{0}
	s.lnLang, s.lnName, s.lnToks = []uint32{}, []uint32{}, []uint32{}
	for i := range n {
		f := &ix.feats[i]
		own := ""
		if searchable(f.kind) {
			own = ix.t.Normalize(ix.str(f.name))
		}
		seen := map[string]bool{own: true}
		for _, ln := range ix.names[uint32(i)] {
			s.lnLang = append(s.lnLang, ln.lang)
			s.lnName = append(s.lnName, ln.name)
			if toks := ix.t.Tokens(ix.str(ln.name)); searchable(f.kind) && !seen[strings.Join(toks, " ")] {
				seen[strings.Join(toks, " ")] = true
				for _, tk := range toks {
					s.lnToks = append(s.lnToks, word(tk))
				}
			}
			s.lnTokStart = append(s.lnTokStart, uint32(len(s.lnToks)))
		}
		s.lnStart[i+1] = uint32(len(s.lnLang))
	}
	ix.names = nil
}

// localizeAll names every candidate in langs (see localize).
func (ix *Index) localizeAll(cs []Candidate, langs []string) {
	if len(langs) == 0 {
		return
	}
	for i := range cs {
		ix.localize(&cs[i], langs)
	}
}

// localize names candidate c in the first of langs that the data has a
// name in, component by component: the feature's own name, its street's,
// and the names of the places and areas around it (by the place node of
// that name nearest to c); a component without a name in langs keeps
// its default name. The formatted address is written again from the
// new names.
func (ix *Index) localize(c *Candidate, langs []string) {
	own, street := noRef, noRef
	if c.fid != noRef && int(c.fid) < len(ix.feats) {
		f := &ix.feats[c.fid]
		switch f.kind {
		case KindAddress, KindInterpolation:
			street = f.street
		case KindStreet:
			street = c.fid
		case KindPOI:
			own, street = c.fid, f.street
		case KindPlace:
			own = c.fid
		}
	}
	type change struct{ from, to string }
	var changes []change
	for i := range c.Components {
		comp := &c.Components[i]
		name := ""
		switch t := t0(comp.Types); {
		case t == "route" && street != noRef && int(street) < len(ix.feats):
			name = ix.nameIn(street, langs)
		case t == "point_of_interest" && own != noRef:
			name = ix.nameIn(own, langs)
		case i == 0 && own != noRef && ix.feats[own].kind == KindPlace:
			name = ix.nameIn(own, langs)
		case t == "locality" || t == "sublocality" || t == "neighborhood" || t == "colloquial_area" ||
			t == "country" || strings.HasPrefix(t, "administrative_area_level_"):
			name = ix.placeNameIn(comp.LongName, c.Location, langs)
		}
		if name == "" || name == comp.LongName {
			continue
		}
		changes = append(changes, change{comp.LongName, name})
		if comp.ShortName == comp.LongName || t0(comp.Types) == "route" {
			comp.ShortName = name
		}
		comp.LongName = name
	}
	if len(changes) == 0 {
		return
	}
	if c.fid != noRef {
		cc := ""
		if _, s := c.Component("country"); s != "" {
			cc = strings.ToUpper(s)
		}
		c.FormattedAddress = formatAddress(c, ix.t.addressFormat(cc))
		return
	}
	// An area (reverse geocoding's county, state, country) is written as
	// it was, with its names replaced.
	parts := strings.Split(c.FormattedAddress, ", ")
	for i, p := range parts {
		for _, ch := range changes {
			if p == ch.from {
				parts[i] = ch.to
			}
		}
	}
	c.FormattedAddress = strings.Join(parts, ", ")
}

func t0(types []string) string {
	if len(types) == 0 {
		return ""
	}
	return types[0]
}

// placeNameIn returns, in the first of langs the data has it in, the
// name of the place node named name nearest to p; "" when there is no
// such node or it has no name in langs.
func (ix *Index) placeNameIn(name string, p orb.Point, langs []string) string {
	best, bestD := noRef, math.Inf(1)
	for _, fid := range ix.placesNamed(Fold(name)) {
		if lo, hi := ix.langNamesOf(fid); lo == hi {
			continue
		}
		if d := geo.HaversineM(p, ix.feats[fid].pt); d < bestD {
			best, bestD = fid, d
		}
	}
	if best == noRef {
		return ""
	}
	return ix.nameIn(best, langs)
}

// Localize returns a copy of candidate c (an answer of this index) named
// in the first of langs the data has names in, as Forward names its
// answers with Query.Lang; c is left as it is.
func (ix *Index) Localize(c Candidate, langs []string) Candidate {
	if len(langs) == 0 {
		return c
	}
	c.Components = append([]Component(nil), c.Components...)
	ix.localize(&c, langs)
	return c
}
