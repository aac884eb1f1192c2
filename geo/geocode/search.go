package geocode

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/paulmach/orb"
)

// search holds the structures queries use, computed when the index is
// built (finish) and stored in geocode.bin with the rest: lists of lists
// as one array of items and one of offsets, maps as arrays sorted by key
// (binary search), strings as ids into a table.
type search struct {
	// words is the vocabulary (canonical words of names and contexts),
	// sorted: a word's id is its rank, so a prefix's words are a run.
	words    strTable
	wordStop []uint8 // 1 for a stop word, by word id
	// postings[postStart[w]:postStart[w+1]] are the searchable features
	// whose name has word w.
	postStart, postings []uint32
	// nameToks[nameStart[f]:nameStart[f+1]] are the word ids of feature
	// f's name (searchable kinds only).
	nameStart, nameToks []uint32
	// ctxToks[ctxStart[c]:ctxStart[c+1]] are the word ids of context c's
	// names, its ctxLocal[c] local ones (locality, neighbourhood,
	// postcode) first.
	ctxStart, ctxToks, ctxLocal []uint32
	// The symmetric-delete index of typos: the words (delWord) that
	// have a deletion hashing to delHash, sorted by hash, then word.
	delHash []uint64
	delWord []uint32
	// Addresses by street feature and normalised house number (a string
	// id), sorted by street, then number.
	addrStreet, addrHN, addrFeat []uint32
	// Interpolations by street feature, sorted by street.
	interpStreet, interpFeat []uint32
	// Place features by folded name (a string id), sorted by name;
	// postcode features.
	placeName, placeFeat []uint32
	postcodeFeat         []uint32

	addrGrid grid // addresses by bound
	// segGrid holds the segments of the streets and interpolations by
	// bound. They are numbered part by part: part p has segments
	// segStart[p] to segStart[p+1]-1 (none for a building's outline);
	// partFeat is the feature of each part.
	segGrid  grid
	segStart []uint32
	partFeat []uint32

	// The names of features in other languages (OSM's name:xx): entries
	// lnStart[f] to lnStart[f+1]-1 are feature f's, each a language
	// (lnLang) and a name (lnName), string ids; lnToks[lnTokStart[i]:
	// lnTokStart[i+1]] are the word ids of entry i's name, none when they
	// are those of the feature's name. The words are in the postings, so
	// a feature is found by any of its names.
	lnStart, lnLang, lnName []uint32
	lnTokStart, lnToks      []uint32
}

// Grid cell sizes of the index, degrees.
const (
	addrCell = 0.002
	segCell  = 0.004
)

// seg is one segment of a street or interpolation geometry.
type seg struct {
	feat uint32
	part uint32
	i    uint32 // segment from point i to i+1 of the part
}

// seg returns segment id.
func (ix *Index) seg(id uint32) seg {
	p, _ := slices.BinarySearch(ix.segStart, id+1) // the first part after it
	p--
	return seg{feat: ix.partFeat[p], part: uint32(p), i: id - ix.segStart[p]}
}

// nsegs returns the number of segments.
func (ix *Index) nsegs() int {
	if len(ix.segStart) == 0 {
		return 0
	}
	return int(ix.segStart[len(ix.segStart)-1])
}

// searchable reports whether forward search finds a feature by its name.
func searchable(k Kind) bool {
	return k == KindStreet || k == KindPlace || k == KindPOI || k == KindPostcode
}

// wordID returns the id of a canonical word.
func (ix *Index) wordID(w string) (uint32, bool) { return ix.words.search(w) }

// postingsOf returns the searchable features whose name has word id.
func (ix *Index) postingsOf(id uint32) []uint32 {
	return ix.postings[ix.postStart[id]:ix.postStart[id+1]]
}

// nameTokens returns the word ids of feature fid's name.
func (ix *Index) nameTokens(fid uint32) []uint32 {
	return ix.nameToks[ix.nameStart[fid]:ix.nameStart[fid+1]]
}

// ctxTokens returns the word ids of context c's names.
func (ix *Index) ctxTokens(c uint32) []uint32 { return ix.ctxToks[ix.ctxStart[c]:ix.ctxStart[c+1]] }

// isStop reports whether word id is a stop word.
func (ix *Index) isStop(id uint32) bool { return ix.wordStop[id] != 0 }

// deleted returns the words with a deletion that hashes as d does.
func (ix *Index) deleted(d string) []uint32 {
	h := hashString(d)
	i, _ := slices.BinarySearch(ix.delHash, h)
	j := i
	for j < len(ix.delHash) && ix.delHash[j] == h {
		j++
	}
	return ix.delWord[i:j]
}

// addressOf returns the address with normalised house number hn on
// street feature street.
func (ix *Index) addressOf(street uint32, hn string) (uint32, bool) {
	i, ok := slices.BinarySearchFunc(ix.addrStreet, street, cmp.Compare[uint32])
	if !ok {
		return 0, false
	}
	for ; i < len(ix.addrStreet) && ix.addrStreet[i] == street; i++ {
		switch c := strings.Compare(ix.str(ix.addrHN[i]), hn); {
		case c == 0:
			return ix.addrFeat[i], true
		case c > 0:
			return 0, false
		}
	}
	return 0, false
}

// interpsOf returns the interpolations of street feature street.
func (ix *Index) interpsOf(street uint32) []uint32 {
	i, _ := slices.BinarySearch(ix.interpStreet, street)
	j := i
	for j < len(ix.interpStreet) && ix.interpStreet[j] == street {
		j++
	}
	return ix.interpFeat[i:j]
}

// placesNamed returns the place features whose folded name is name, in
// feature order.
func (ix *Index) placesNamed(name string) []uint32 {
	i, _ := slices.BinarySearchFunc(ix.placeName, name, func(id uint32, s string) int { return strings.Compare(ix.str(id), s) })
	j := i
	for j < len(ix.placeName) && ix.str(ix.placeName[j]) == name {
		j++
	}
	return ix.placeFeat[i:j]
}

// finish computes the search structures of an index just built and
// freezes its string table.
func (ix *Index) finish() {
	s := &ix.search
	vocab := map[string]uint32{}
	var words []string
	word := func(w string) uint32 {
		if id, ok := vocab[w]; ok {
			return id
		}
		id := uint32(len(words))
		vocab[w] = id
		words = append(words, w)
		return id
	}
	type hnEntry struct {
		street uint32
		hn     string
		fid    uint32
	}
	var addrs []hnEntry
	type nameEntry struct {
		name string
		fid  uint32
	}
	var places []nameEntry
	n := len(ix.feats)
	s.nameStart = make([]uint32, n+1)
	for i := range ix.feats {
		f := &ix.feats[i]
		fid := uint32(i)
		switch {
		case searchable(f.kind):
			var toks []string
			if f.kind == KindPostcode {
				toks = strings.Fields(Fold(ix.str(f.name)))
				s.postcodeFeat = append(s.postcodeFeat, fid)
			} else {
				toks = ix.t.Tokens(ix.str(f.name))
			}
			for _, tk := range toks {
				s.nameToks = append(s.nameToks, word(tk))
			}
		case f.kind == KindAddress:
			// A range ("42-44") is found by its whole text and by its
			// first number.
			hn := ix.str(f.name)
			addrs = append(addrs, hnEntry{f.street, NormalizeHouseNumber(hn), fid})
			if w := strings.Fields(Fold(hn)); len(w) > 1 && isHouseNumber(w[0]) {
				addrs = append(addrs, hnEntry{f.street, w[0], fid})
			}
		case f.kind == KindInterpolation:
			s.interpStreet = append(s.interpStreet, f.street)
			s.interpFeat = append(s.interpFeat, fid)
		}
		s.nameStart[i+1] = uint32(len(s.nameToks))
		if f.kind == KindPlace {
			places = append(places, nameEntry{Fold(ix.str(f.name)), fid})
		}
	}
	ix.finishNames(word)
	s.ctxStart = make([]uint32, len(ix.ctxs)+1)
	s.ctxLocal = make([]uint32, len(ix.ctxs))
	for i := range ix.ctxs {
		c := &ix.ctxs[i]
		first := len(s.ctxToks)
		add := func(name string) {
			for _, tk := range ix.t.Tokens(name) {
				if id := word(tk); !slices.Contains(s.ctxToks[first:], id) {
					s.ctxToks = append(s.ctxToks, id)
				}
			}
		}
		add(ix.str(c.locality))
		add(ix.str(c.altLocality))
		add(ix.str(c.neighbourhood))
		add(ix.str(c.postcode))
		s.ctxLocal[i] = uint32(min(len(s.ctxToks)-first, math.MaxUint16))
		for _, a := range []uint32{c.county, c.state, c.country} {
			if ar := ix.area(a); ar != nil {
				add(ix.str(ar.name))
				add(ix.str(ar.short))
				if a == c.country {
					if cc, ok := ix.t.Countries[strings.ToUpper(ix.str(ar.short))]; ok {
						for _, al := range cc.Aliases {
							add(al)
						}
					}
				}
			}
		}
		s.ctxStart[i+1] = uint32(len(s.ctxToks))
	}
	s.finishWords(ix.t, words)
	// Addresses: the first of one street and number wins.
	slices.SortStableFunc(addrs, func(a, b hnEntry) int {
		return cmp.Or(cmp.Compare(a.street, b.street), strings.Compare(a.hn, b.hn))
	})
	for i, a := range addrs {
		if i > 0 && a.street == addrs[i-1].street && a.hn == addrs[i-1].hn {
			continue
		}
		s.addrStreet = append(s.addrStreet, a.street)
		s.addrHN = append(s.addrHN, ix.strs.intern(a.hn))
		s.addrFeat = append(s.addrFeat, a.fid)
	}
	sortPairs(s.interpStreet, s.interpFeat)
	slices.SortStableFunc(places, func(a, b nameEntry) int { return strings.Compare(a.name, b.name) })
	for _, p := range places {
		s.placeName = append(s.placeName, ix.strs.intern(p.name))
		s.placeFeat = append(s.placeFeat, p.fid)
	}
	ix.finishGrids()
	ix.strs.freeze()
}

// finishWords renumbers the words by rank (in nameToks and ctxToks) and
// derives the postings, stop words and typo index.
func (s *search) finishWords(t *Tables, words []string) {
	order := make([]uint32, len(words))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(words[a], words[b]) })
	rank := make([]uint32, len(words))
	sorted := make([]string, len(words))
	for r, id := range order {
		rank[id] = uint32(r)
		sorted[r] = words[id]
	}
	for i, id := range s.nameToks {
		s.nameToks[i] = rank[id]
	}
	for i, id := range s.ctxToks {
		s.ctxToks[i] = rank[id]
	}
	for i, id := range s.lnToks {
		s.lnToks[i] = rank[id]
	}
	s.words = frozenTable(sorted)
	// Postings: a feature once per word of its name, features in order.
	s.postStart = make([]uint32, len(sorted)+1)
	last := make([]uint32, len(sorted))
	each := func(fn func(w, fid uint32)) {
		for i := range last {
			last[i] = noRef
		}
		for f := 0; f+1 < len(s.nameStart); f++ {
			alt := s.lnToks[:0]
			if f+1 < len(s.lnStart) {
				alt = s.lnToks[s.lnTokStart[s.lnStart[f]]:s.lnTokStart[s.lnStart[f+1]]]
			}
			for _, w := range slices.Concat(s.nameToks[s.nameStart[f]:s.nameStart[f+1]], alt) {
				if last[w] != uint32(f) {
					last[w] = uint32(f)
					fn(w, uint32(f))
				}
			}
		}
	}
	each(func(w, _ uint32) { s.postStart[w+1]++ })
	for i := 1; i < len(s.postStart); i++ {
		s.postStart[i] += s.postStart[i-1]
	}
	s.postings = make([]uint32, s.postStart[len(sorted)])
	pos := slices.Clone(s.postStart[:len(sorted)])
	each(func(w, fid uint32) {
		s.postings[pos[w]] = fid
		pos[w]++
	})
	s.wordStop = make([]uint8, len(sorted))
	for id, w := range sorted {
		if t.IsStopword(w) {
			s.wordStop[id] = 1
		}
	}
	type del struct {
		h uint64
		w uint32
	}
	var dels []del
	for id, w := range sorted {
		if fuzzyOK(w) {
			for _, d := range deletions(w, maxEdits(w)) {
				dels = append(dels, del{hashString(d), uint32(id)})
			}
		}
	}
	slices.SortFunc(dels, func(a, b del) int { return cmp.Or(cmp.Compare(a.h, b.h), cmp.Compare(a.w, b.w)) })
	s.delHash = make([]uint64, len(dels))
	s.delWord = make([]uint32, len(dels))
	for i, d := range dels {
		s.delHash[i], s.delWord[i] = d.h, d.w
	}
}

// sortPairs sorts keys and vals by key, stably.
func sortPairs(keys, vals []uint32) {
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(keys[a], keys[b]) })
	k, v := slices.Clone(keys), slices.Clone(vals)
	for i, j := range idx {
		keys[i], vals[i] = k[j], v[j]
	}
}

// finishGrids indexes the addresses and the segments of streets and
// interpolations.
func (ix *Index) finishGrids() {
	s := &ix.search
	var addrs []uint32
	nparts := len(ix.partCtx)
	s.segStart = make([]uint32, nparts+1)
	s.partFeat = make([]uint32, nparts)
	for i := range ix.feats {
		f := &ix.feats[i]
		if f.kind == KindAddress {
			addrs = append(addrs, uint32(i))
		}
		for p := f.part0; p < f.part0+f.nparts; p++ {
			s.partFeat[p] = uint32(i)
			if f.kind == KindStreet || f.kind == KindInterpolation {
				s.segStart[p+1] = uint32(max(0, len(ix.part(p))-1))
			}
		}
	}
	for p := 1; p <= nparts; p++ {
		s.segStart[p] += s.segStart[p-1]
	}
	s.addrGrid = buildGrid(addrCell, func(yield func(orb.Bound, uint32)) {
		for _, fid := range addrs {
			yield(ix.feats[fid].bound, fid)
		}
	})
	s.segGrid = buildGrid(segCell, func(yield func(orb.Bound, uint32)) {
		for p := range nparts {
			pts := ix.part(uint32(p))
			for i := s.segStart[p]; i < s.segStart[p+1]; i++ {
				j := i - s.segStart[p]
				yield(pts[j].Bound().Extend(pts[j+1]), i)
			}
		}
	})
}
