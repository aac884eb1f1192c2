package routing

import (
	"fmt"
	"sort"
	"strings"

	"github.com/geosvc/geosvc/internal/binfmt"
	"github.com/geosvc/geosvc/routing/osmroad"
)

// localNames are the street names of the name table in other languages
// (OSM's name:xx of the ways with a name): entry i names names[name[i]]
// in langs[lang[i]] as text[i], sorted by name id, then language. Only
// the languages the data has are in langs (sorted).
type localNames struct {
	langs []string
	name  []uint32
	lang  []uint32
	text  []string
}

// copyLocalNames keeps the network's name:xx table.
func (g *Graph) copyLocalNames(net *osmroad.Network) {
	ln := &g.local
	ln.langs, ln.name, ln.lang, ln.text = []string{}, []uint32{}, []uint32{}, []string{}
	idx := map[string]uint32{}
	for _, l := range net.LocalNames {
		if _, ok := idx[l.Lang]; !ok {
			idx[l.Lang] = 0
			ln.langs = append(ln.langs, l.Lang)
		}
	}
	sort.Strings(ln.langs)
	for i, l := range ln.langs {
		idx[l] = uint32(i)
	}
	for _, l := range net.LocalNames { // sorted by name, then language
		ln.name = append(ln.name, l.Name)
		ln.lang = append(ln.lang, idx[l.Lang])
		ln.text = append(ln.text, l.Text)
	}
}

// writeLocalNames adds the name:xx table's sections.
func (g *Graph) writeLocalNames(w partSink) {
	w.AddStrings("names.langs", g.local.langs)
	w.AddUint32s("names.local.name", g.local.name)
	w.AddUint32s("names.local.lang", g.local.lang)
	w.AddStrings("names.local.text", g.local.text)
}

// readLocalNames reads the name:xx table's sections.
func (g *Graph) readLocalNames(r *sectionReader) {
	g.local.langs = r.strs("names.langs")
	g.local.name = r.u32("names.local.name")
	g.local.lang = r.u32("names.local.lang")
	g.local.text = r.strs("names.local.text")
}

// checkLocalNames checks the table's arrays agree in length.
func (g *Graph) checkLocalNames() error {
	n := len(g.local.name)
	if len(g.local.lang) != n || len(g.local.text) != n {
		return fmt.Errorf("%w: local name arrays disagree in length", binfmt.ErrCorrupt)
	}
	return nil
}

// validateLocalNames checks every index of the table and its order.
func (g *Graph) validateLocalNames() error {
	ln := &g.local
	for i := range ln.name {
		if int(ln.name[i]) >= len(g.names) || int(ln.lang[i]) >= len(ln.langs) {
			return fmt.Errorf("%w: local name out of range", binfmt.ErrCorrupt)
		}
		if i > 0 && (ln.name[i] < ln.name[i-1] || ln.name[i] == ln.name[i-1] && ln.lang[i] <= ln.lang[i-1]) {
			return fmt.Errorf("%w: local names not sorted", binfmt.ErrCorrupt)
		}
	}
	return nil
}

// NameLanguages returns the languages the graph has street names in
// besides their name (the xx of OSM's name:xx), sorted.
func (g *Graph) NameLanguages() []string { return append([]string(nil), g.local.langs...) }

// LocalNameCount is the number of street names in other languages the
// graph keeps (one per name and language).
func (g *Graph) LocalNameCount() int { return len(g.local.name) }

// NameLangs are the languages a request names streets in, resolved
// against one graph's (Graph.NameLangs).
type NameLangs struct {
	keys []string // the request's, preferred first
	idx  []int32  // index into langs of each key, -1 when the data lacks it
}

// NameLangs resolves a request's languages (OSM name:xx keys, preferred
// first, each followed by its shorter forms as geo/geocode.ParseLangs
// lists them: "de-CH", "de") against the languages the graph has,
// case-insensitively.
func (g *Graph) NameLangs(keys []string) NameLangs {
	nl := NameLangs{keys: keys, idx: make([]int32, len(keys))}
	for i, k := range keys {
		nl.idx[i] = -1
		for j, l := range g.local.langs {
			if strings.EqualFold(k, l) {
				nl.idx[i] = int32(j)
				break
			}
		}
	}
	return nl
}

// nameIn returns the text of name id in the first of nl's languages the
// table has it in and that language's position in nl; ok false when
// there is none.
func (g *Graph) nameIn(id uint32, nl NameLangs) (text string, at int, ok bool) {
	ln := &g.local
	lo := sort.Search(len(ln.name), func(i int) bool { return ln.name[i] >= id })
	hi := lo
	for hi < len(ln.name) && ln.name[hi] == id {
		hi++
	}
	if lo == hi {
		return "", 0, false
	}
	for k, li := range nl.idx {
		if li < 0 {
			continue
		}
		for i := lo; i < hi; i++ {
			if ln.lang[i] == uint32(li) {
				return ln.text[i], k, true
			}
		}
	}
	return "", 0, false
}

// LocalizeRoute names the segments of routes in the first of langs the
// data has each street's name in (OSM's name:xx of the road's name),
// keeping a segment's name where it has none in langs (and a road named
// by its route numbers only as it is), so that Steps describe the route
// in that language. It returns the language used: of the languages some
// segment was named in, the one langs prefers ("" when every name stayed
// the default: no language of langs in the data for these roads).
func (g *Graph) LocalizeRoute(langs NameLangs, routes ...*Route) string {
	if len(g.local.name) == 0 || len(langs.keys) == 0 {
		return ""
	}
	best := len(langs.keys)
	for _, r := range routes {
		if r == nil {
			continue
		}
		for i := range r.Segments {
			s := &r.Segments[i]
			if int(s.Edge) >= len(g.edgeName) {
				continue
			}
			id := g.edgeName[s.Edge]
			if id == 0 || s.Name != g.names[id] {
				continue
			}
			if text, at, ok := g.nameIn(id, langs); ok {
				s.Name = text
				best = min(best, at)
			}
		}
	}
	if best == len(langs.keys) {
		return ""
	}
	return langs.keys[best]
}

// EdgeNameIn is EdgeName in the first of langs the data has the road's
// name in (a road named by its route numbers keeps them).
func (g *Graph) EdgeNameIn(e uint32, langs NameLangs) string {
	if int(e) < len(g.edgeName) && len(langs.keys) > 0 {
		if id := g.edgeName[e]; id != 0 {
			if text, _, ok := g.nameIn(id, langs); ok {
				return text
			}
		}
	}
	return g.EdgeName(e)
}
