package geocode

import (
	"fmt"
	"slices"
)

// check verifies a loaded index's references: every id, offset and
// range in the file is within what it refers to, so that no query reads
// out of range. It reads each section once.
func (ix *Index) check() error {
	n, nstr, nctx, nparts := uint32(len(ix.feats)), uint32(ix.strs.len()), uint32(len(ix.ctxs)), uint32(len(ix.partCtx))
	s := &ix.search
	nwords := uint32(s.words.len())
	switch {
	case !offsets(ix.strs.off, len(ix.strs.blob)) || !offsets(s.words.off, len(s.words.blob)):
		return fmt.Errorf("string offsets")
	case len(ix.parts) != 2*int(nparts):
		return fmt.Errorf("%d part offsets for %d parts", len(ix.parts), nparts)
	case len(s.wordStop) != int(nwords) || len(s.postStart) != int(nwords)+1 || !offsets(s.postStart, len(s.postings)):
		return fmt.Errorf("postings")
	case len(s.nameStart) != int(n)+1 || !offsets(s.nameStart, len(s.nameToks)):
		return fmt.Errorf("name words")
	case len(s.ctxStart) != int(nctx)+1 || len(s.ctxLocal) != int(nctx) || !offsets(s.ctxStart, len(s.ctxToks)):
		return fmt.Errorf("context words")
	case len(s.delHash) != len(s.delWord):
		return fmt.Errorf("typo index")
	case len(s.addrStreet) != len(s.addrHN) || len(s.addrStreet) != len(s.addrFeat) || len(s.interpStreet) != len(s.interpFeat) ||
		len(s.placeName) != len(s.placeFeat):
		return fmt.Errorf("lookup sizes")
	case !below(s.postings, n) || !below(s.addrFeat, n) || !below(s.interpFeat, n) || !below(s.placeFeat, n) || !below(s.postcodeFeat, n):
		return fmt.Errorf("feature reference")
	case !below(s.nameToks, nwords) || !below(s.ctxToks, nwords):
		return fmt.Errorf("word reference")
	case len(s.segStart) != int(nparts)+1 || !offsets(s.segStart, int(s.segStart[len(s.segStart)-1])) || len(s.partFeat) != int(nparts) ||
		!below(s.partFeat, n):
		return fmt.Errorf("segments")
	case !s.addrGrid.valid(n) || !s.segGrid.valid(uint32(ix.nsegs())):
		return fmt.Errorf("grid")
	case len(s.lnStart) != int(n)+1 || !offsets(s.lnStart, len(s.lnLang)) || len(s.lnName) != len(s.lnLang) ||
		!below(s.lnLang, nstr) || !below(s.lnName, nstr) || len(s.lnTokStart) != len(s.lnLang)+1 ||
		!offsets(s.lnTokStart, len(s.lnToks)) || !below(s.lnToks, nwords):
		return fmt.Errorf("names in other languages")
	}
	for i := 0; i < len(ix.parts); i += 2 {
		if ix.parts[i] > ix.parts[i+1] || int(ix.parts[i+1]) > len(ix.pts) {
			return fmt.Errorf("part %d", i/2)
		}
	}
	for i, c := range ix.partCtx {
		if c != noRef && c >= nctx {
			return fmt.Errorf("context of part %d", i)
		}
	}
	for i := range ix.ctxs {
		if c := &ix.ctxs[i]; max(c.locality, c.altLocality, c.neighbourhood, c.postcode) >= nstr {
			return fmt.Errorf("context %d", i)
		}
	}
	for i := range ix.feats {
		f := &ix.feats[i]
		if max(f.name, f.unit, f.class) >= nstr || f.ctx >= nctx || f.street != noRef && f.street >= n ||
			f.nparts > 0 && uint64(f.part0)+uint64(f.nparts) > uint64(nparts) {
			return fmt.Errorf("feature %d", i)
		}
	}
	for p := range nparts {
		if s.segStart[p+1]-s.segStart[p] > uint32(max(0, int(ix.parts[2*p+1])-int(ix.parts[2*p])-1)) {
			return fmt.Errorf("segments of part %d", p)
		}
	}
	return nil
}

// offsets reports whether off is a list of offsets into size items:
// increasing from 0 to size.
func offsets(off []uint32, size int) bool {
	if len(off) == 0 || off[0] != 0 || int(off[len(off)-1]) != size {
		return false
	}
	for i := 1; i < len(off); i++ {
		if off[i] < off[i-1] {
			return false
		}
	}
	return true
}

// below reports whether every value of v is less than n.
func below(v []uint32, n uint32) bool {
	m := uint32(0)
	for _, x := range v {
		m = max(m, x)
	}
	return len(v) == 0 || m < n
}

// valid reports whether a loaded grid is well formed, with ids below n.
func (g *grid) valid(n uint32) bool {
	return len(g.start) == len(g.keys)+1 && offsets(g.start, len(g.ids)) && below(g.ids, n) &&
		slices.IsSorted(g.keys)
}
