package geocode

import (
	"math"
	"sort"
	"strings"
)

// searchIndex holds the structures queries use, derived from the stored
// index when it is built or loaded.
type searchIndex struct {
	vocab    map[string]uint32 // canonical word -> word id
	words    []string
	postings [][]uint32 // word id -> searchable features whose name has it
	nameToks [][]uint32 // feature -> name word ids (searchable kinds only)
	ctxToks  [][]uint32 // context -> word ids of its names, local ones first
	ctxLocal []uint16   // context -> how many of ctxToks are local (locality, neighbourhood, postcode)
	deletes  map[string][]uint32
	sorted   []uint32 // word ids by word, for prefixes
	stop     []bool   // word id -> stop word

	addrs   map[hnKey]uint32    // street feature + house number -> address
	interps map[uint32][]uint32 // street feature -> interpolations
	places  map[string][]uint32 // folded place name -> place features

	addrGrid *grid // addresses and POIs by bound
	segGrid  *grid // street segments by bound
	segs     []seg
}

// hnKey identifies an address on a street.
type hnKey struct {
	street uint32
	hn     string
}

// seg is one segment of a street or interpolation geometry.
type seg struct {
	feat uint32
	part uint32
	i    uint32 // segment from point i to i+1 of the part
}

// searchable reports whether forward search finds a feature by its name.
func searchable(k Kind) bool {
	return k == KindStreet || k == KindPlace || k == KindPOI || k == KindPostcode
}

// init derives the search structures.
func (ix *Index) init() {
	s := &searchIndex{vocab: map[string]uint32{}, deletes: map[string][]uint32{},
		addrs: map[hnKey]uint32{}, interps: map[uint32][]uint32{}, places: map[string][]uint32{},
		addrGrid: newGrid(0.002), segGrid: newGrid(0.002)}
	ix.s = s
	word := func(w string) uint32 {
		if id, ok := s.vocab[w]; ok {
			return id
		}
		id := uint32(len(s.words))
		s.vocab[w] = id
		s.words = append(s.words, w)
		s.postings = append(s.postings, nil)
		return id
	}
	s.nameToks = make([][]uint32, len(ix.feats))
	for i := range ix.feats {
		f := &ix.feats[i]
		fid := uint32(i)
		switch {
		case searchable(f.kind):
			var toks []string
			if f.kind == KindPostcode {
				toks = strings.Fields(Fold(ix.str(f.name)))
			} else {
				toks = ix.t.Tokens(ix.str(f.name))
			}
			ids := make([]uint32, len(toks))
			for j, tk := range toks {
				ids[j] = word(tk)
				if p := s.postings[ids[j]]; len(p) == 0 || p[len(p)-1] != fid {
					s.postings[ids[j]] = append(p, fid)
				}
			}
			s.nameToks[i] = ids
		case f.kind == KindAddress:
			// A range ("42-44") is found by its whole text and by its
			// first number.
			hn := ix.str(f.name)
			keys := []string{NormalizeHouseNumber(hn)}
			if w := strings.Fields(Fold(hn)); len(w) > 1 && isHouseNumber(w[0]) {
				keys = append(keys, w[0])
			}
			for _, key := range keys {
				k := hnKey{f.street, key}
				if _, dup := s.addrs[k]; !dup {
					s.addrs[k] = fid
				}
			}
		case f.kind == KindInterpolation:
			s.interps[f.street] = append(s.interps[f.street], fid)
		}
		switch f.kind {
		case KindPlace:
			n := Fold(ix.str(f.name))
			s.places[n] = append(s.places[n], fid)
		case KindAddress:
			s.addrGrid.addBound(f.bound, fid)
		case KindStreet, KindInterpolation:
			for p := f.part0; p < f.part0+f.nparts; p++ {
				pts := ix.part(p)
				for j := 1; j < len(pts); j++ {
					b := pts[j-1].Bound().Extend(pts[j])
					s.segGrid.addBound(b, uint32(len(s.segs)))
					s.segs = append(s.segs, seg{feat: fid, part: p, i: uint32(j - 1)})
				}
			}
		}
	}
	s.ctxToks = make([][]uint32, len(ix.ctxs))
	s.ctxLocal = make([]uint16, len(ix.ctxs))
	for i := range ix.ctxs {
		c := &ix.ctxs[i]
		var ids []uint32
		add := func(name string) {
			for _, tk := range ix.t.Tokens(name) {
				id := word(tk)
				dup := false
				for _, x := range ids {
					dup = dup || x == id
				}
				if !dup {
					ids = append(ids, id)
				}
			}
		}
		add(ix.str(c.locality))
		add(ix.str(c.altLocality))
		add(ix.str(c.neighbourhood))
		add(ix.str(c.postcode))
		s.ctxLocal[i] = uint16(min(len(ids), math.MaxUint16))
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
		s.ctxToks[i] = ids
	}
	s.stop = make([]bool, len(s.words))
	for id, w := range s.words {
		s.stop[id] = ix.t.IsStopword(w)
	}
	s.sorted = make([]uint32, len(s.words))
	for i := range s.sorted {
		s.sorted[i] = uint32(i)
	}
	sort.Slice(s.sorted, func(a, b int) bool { return s.words[s.sorted[a]] < s.words[s.sorted[b]] })
	for id, w := range s.words {
		if !fuzzyOK(w) {
			continue
		}
		for _, d := range deletions(w, maxEdits(w)) {
			s.deletes[d] = append(s.deletes[d], uint32(id))
		}
	}
}
