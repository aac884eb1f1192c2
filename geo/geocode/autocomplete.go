package geocode

import (
	"math"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// MaxAutocompleteLimit is the most results Autocomplete returns.
const MaxAutocompleteLimit = 20

// The autocompletion's scoring (docs/geocoderv1.md, "Autocomplete"):
// a result scores its text match as Forward does (wQuery * the share of
// the query's words matched + wName * the share of the name's words
// matched, each word 1 when exact, 1-autoPrefixCost when the last word
// begins it, 1-costEdit1 or 1-costEdit2 with typos), plus
//
//   - phraseStart when the name begins with the whole typed phrase
//     (the words in order, the last a prefix), phraseInside when the
//     phrase is inside the name;
//   - in the name's share, each word after the last one matched counts
//     notTyped (half a word): it may not be typed yet ("Rehob" may
//     become Rehoboth Beach), though a name without it matches better;
//   - its importance: a place by its type and population (autoPlace,
//     autoPlaceStep, autoPopulation), a street autoStreet, a route
//     number autoRoute, a point of interest autoPOI;
//   - with a focus, focusWeight * exp(-d / focusScale), d its distance
//     in metres to the focus.
const (
	autoPrefixWords = 200
	autoPrefixCost  = 0.1
	phraseStart     = 0.1
	phraseInside    = 0.05
	autoPlace       = 0.2
	autoPlaceStep   = 0.02
	autoPopulation  = 0.03
	autoStreet      = 0.03
	autoRoute       = 0.01
	autoPOI         = 0.02
	focusWeight     = 0.25
	focusScale      = 20000.0
	notTyped        = 0.5
)

// Autocomplete returns the completions of text typed so far, best
// first: the last word may be the beginning of a word, the whole text
// the beginning of a name; results are ranked by text match, importance
// and, with q.Focus, distance to it (see the constants above); q.Limit
// is at most MaxAutocompleteLimit (0: DefaultLimit).
func (ix *Index) Autocomplete(q Query) []Candidate {
	q.Limit = min(q.Limit, MaxAutocompleteLimit)
	res := ix.forwardMode(q, true)
	ix.localizeAll(res, q.Lang)
	return res
}

// autoScore is what autocompletion adds to the text match of feature
// fid, found at loc: phrase, importance and focus.
func (ix *Index) autoScore(qw []qword, fid uint32, loc orb.Point, focus *orb.Point) float64 {
	f := &ix.feats[fid]
	s := ix.phraseScore(qw, fid)
	switch f.kind {
	case KindPlace:
		s += max(0, autoPlace-autoPlaceStep*float64(f.rank))
		if f.pop > 0 {
			s += autoPopulation * math.Min(1, math.Log10(float64(f.pop)+1)/7)
		}
	case KindStreet:
		s += autoStreet
		if f.rank != 0 {
			s += autoRoute - autoStreet
		}
	case KindPOI:
		s += autoPOI
	}
	if focus != nil {
		s += focusWeight * math.Exp(-geo.HaversineM(*focus, loc)/focusScale)
	}
	return s
}

// phraseScore is phraseStart when a name of feature fid begins with the
// query's words (those of its first comma group but house numbers),
// phraseInside when it holds them in a row elsewhere, else 0.
func (ix *Index) phraseScore(qw []qword, fid uint32) float64 {
	lead := leadGroup(qw)
	var phrase []*qword
	for i := range qw {
		if qw[i].Group == lead && !qw[i].Number {
			phrase = append(phrase, &qw[i])
		}
	}
	if len(phrase) == 0 {
		return 0
	}
	best := ix.phraseIn(phrase, ix.nameTokens(fid))
	lo, hi := ix.langNamesOf(fid)
	for i := lo; i < hi && best < phraseStart; i++ {
		best = max(best, ix.phraseIn(phrase, ix.altTokens(i)))
	}
	return best
}

// phraseIn scores phrase against one name's words.
func (ix *Index) phraseIn(phrase []*qword, name []uint32) float64 {
	for at := 0; at+len(phrase) <= len(name); at++ {
		ok := true
		for k, w := range phrase {
			id := name[at+k]
			if k == len(phrase)-1 {
				c, found := w.cost(id)
				ok = found && c == 0 || w.auto != nil && w.auto.begins(id) || strings.HasPrefix(ix.words.get(id), w.Text)
			} else if c, found := w.cost(id); !found || c != 0 {
				ok = false
			}
			if !ok {
				break
			}
		}
		if ok {
			if at == 0 {
				return phraseStart
			}
			return phraseInside
		}
	}
	return 0
}

// matchAny is matchWords on the best of feature fid's names: its name
// and its names in other languages.
func (ix *Index) matchAny(qw []qword, fid, ctx, ctx2 uint32, skip uint64) (float64, bool, bool, uint64) {
	s, exact, ok, m := ix.matchWords(qw, ix.nameTokens(fid), ctx, ctx2, skip)
	lo, hi := ix.langNamesOf(fid)
	for i := lo; i < hi; i++ {
		if alt := ix.altTokens(i); len(alt) > 0 {
			if s2, e2, ok2, m2 := ix.matchWords(qw, alt, ctx, ctx2, skip); ok2 && (!ok || s2 > s) {
				s, exact, ok, m = s2, e2, ok2, m2
			}
		}
	}
	return s, exact, ok, m
}

// autoPrefix is the last word of an autocompletion as typed: the words
// of the vocabulary it may begin, by its canonical form ("court" is
// "ct"), as typed ("court" begins "courthouse") and by the full forms
// of the tables it begins ("highw" begins "highway", which is "hwy").
type autoPrefix struct {
	prefixes []string
	// ranges are the word ids the prefixes begin: the vocabulary is
	// sorted, so each prefix's words are one run [lo, hi).
	ranges [][2]uint32
	canon  []uint32 // word ids of canonical forms it begins
}

// newAutoPrefix returns the autoPrefix of canonical word w, the last of
// text.
func (ix *Index) newAutoPrefix(w, text string) *autoPrefix {
	a := &autoPrefix{prefixes: []string{w}}
	f := strings.Fields(Fold(text))
	raw := ""
	if len(f) > 0 {
		raw = f[len(f)-1]
	}
	if raw != "" && raw != w {
		a.prefixes = append(a.prefixes, raw)
	}
	for _, p := range a.prefixes {
		// No word has the byte 0xff (UTF-8 never does): p+"\xff" sorts
		// after every word p begins.
		lo, _ := ix.words.search(p)
		hi, _ := ix.words.search(p + "\xff")
		a.ranges = append(a.ranges, [2]uint32{lo, hi})
	}
	if raw != "" && !isHouseNumber(raw) {
		for full, c := range ix.t.Words {
			if strings.HasPrefix(full, raw) {
				if id, ok := ix.wordID(c); ok {
					a.canon = append(a.canon, id)
				}
			}
		}
	}
	return a
}

// matches returns the word's matches for gathering candidates: itself
// and its typos (as Forward), up to autoPrefixWords words that one of
// its prefixes begins, the canonical forms it begins.
func (a *autoPrefix) matches(ix *Index, w string) []wordMatch {
	out := ix.wordMatchesN(w, true, autoPrefixWords, autoPrefixCost)
	seen := map[uint32]bool{}
	for _, m := range out {
		seen[m.id] = true
	}
	add := func(id uint32) {
		if !seen[id] {
			seen[id] = true
			out = append(out, wordMatch{id, autoPrefixCost})
		}
	}
	for _, p := range a.prefixes[1:] {
		first, _ := ix.wordID(p)
		for id, n := first, 0; int(id) < ix.words.len() && n < autoPrefixWords; id, n = id+1, n+1 {
			if !strings.HasPrefix(ix.words.get(id), p) {
				break
			}
			add(id)
		}
	}
	for _, id := range a.canon {
		add(id)
	}
	return out
}

// begins reports whether the typed word begins vocabulary word id (or
// id is a canonical form of a word it begins).
func (a *autoPrefix) begins(id uint32) bool {
	for _, r := range a.ranges {
		if id >= r[0] && id < r[1] {
			return true
		}
	}
	for _, c := range a.canon {
		if c == id {
			return true
		}
	}
	return false
}

// notYetTyped is what an autocompletion adds to the matched words of a
// name (matchWords' nameGot): notTyped for each word other than a stop
// word after the last one the query matched (used: bits by position).
func notYetTyped(ix *Index, name []uint32, used uint64) float64 {
	last := -1
	for j := range min(len(name), 64) {
		if used&(1<<j) != 0 {
			last = j
		}
	}
	n := 0.0
	for j := last + 1; j < len(name); j++ {
		if !ix.isStop(name[j]) {
			n += notTyped
		}
	}
	return n
}
