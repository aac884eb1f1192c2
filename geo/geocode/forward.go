package geocode

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
)

// Ranking weights: how much of the query matched, how much of the
// feature's name matched, and bonuses by what was found.
const (
	wQuery      = 0.55
	wName       = 0.35
	bonusHouse  = 0.12
	bonusInterp = 0.08
	bonusStreet = 0.02
	bonusBounds = 0.05
	// candidatePool bounds the features scored in full per query.
	candidatePool = 5000
	// finalists are the best pre-scored features resolved to house
	// numbers.
	finalists = 60
	// scoreMargin: results scoring this much below the best are dropped.
	scoreMargin = 0.2
)

// qword is a query word with the vocabulary words it may stand for.
type qword struct {
	Word
	matches []wordMatch
	weight  float64
}

// Forward returns the candidates for a query, best first; none when
// nothing matches.
func (ix *Index) Forward(q Query) []Candidate {
	words := ix.t.Parse(q.text())
	if len(words) == 0 {
		return nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	qw := make([]qword, len(words))
	allStop := true
	for i, w := range words {
		allStop = allStop && w.Stop
		qw[i] = qword{Word: w, weight: 1}
		if w.Stop {
			qw[i].weight = 0.3
		}
		qw[i].matches = ix.s.match(w.Text, i == len(words)-1 && !w.Number)
	}
	cands := ix.gather(qw, allStop)
	type scored struct {
		fid   uint32
		score float64
		exact bool
	}
	pre := make([]scored, 0, len(cands))
	for _, fid := range cands {
		f := &ix.feats[fid]
		var skip uint64
		if f.kind == KindStreet {
			if h := firstNumber(qw, -1); h >= 0 {
				skip = 1 << h
			}
		}
		s, exact, ok := ix.match(qw, ix.s.nameToks[fid], ix.s.ctxToks[f.ctx], nil, skip)
		if !ok {
			continue
		}
		pre = append(pre, scored{fid, s + ix.kindBonus(f), exact})
	}
	sort.Slice(pre, func(i, j int) bool {
		if pre[i].score != pre[j].score {
			return pre[i].score > pre[j].score
		}
		return pre[i].fid < pre[j].fid
	})
	if len(pre) > finalists {
		pre = pre[:finalists]
	}
	var out []Candidate
	for _, p := range pre {
		out = append(out, ix.resolve(qw, p.fid, q)...)
	}
	for i := range out {
		if q.Bounds != nil && q.Bounds.Contains(out[i].Location) {
			out[i].Score += bonusBounds
		}
	}
	out = filterComponents(out, q.Components)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Kind < out[j].Kind
	})
	seen := map[string]bool{}
	res := out[:0]
	for _, c := range out {
		if seen[c.PlaceID] || len(res) > 0 && c.Score < res[0].Score-scoreMargin {
			continue
		}
		seen[c.PlaceID] = true
		res = append(res, c)
		if len(res) == limit {
			break
		}
	}
	return res
}

// firstNumber returns the index of the first house-number word after
// index after, -1 when none.
func firstNumber(qw []qword, after int) int {
	for i := after + 1; i < len(qw); i++ {
		if qw[i].Number {
			return i
		}
	}
	return -1
}

// gather returns the features whose names share words with the query,
// taking the rarest query words first until the pool is full.
func (ix *Index) gather(qw []qword, allStop bool) []uint32 {
	type wsize struct{ i, n int }
	var sizes []wsize
	for i, w := range qw {
		if w.Stop && !allStop {
			continue
		}
		n := 0
		for _, m := range w.matches {
			n += len(ix.s.postings[m.id])
		}
		if n > 0 {
			sizes = append(sizes, wsize{i, n})
		}
	}
	sort.Slice(sizes, func(a, b int) bool { return sizes[a].n < sizes[b].n })
	seen := map[uint32]bool{}
	var out []uint32
	total := 0
	for k, ws := range sizes {
		if k > 0 && total+ws.n > candidatePool {
			break
		}
		total += ws.n
		for _, m := range qw[ws.i].matches {
			for _, fid := range ix.s.postings[m.id] {
				if !seen[fid] {
					seen[fid] = true
					out = append(out, fid)
				}
			}
		}
	}
	return out
}

// match scores a feature's words against the query: each query word
// (but those in the skip mask) takes the best unused name word, else a context word. It
// returns wQuery*query coverage + wName*name coverage, whether every
// word matched exactly, and false when no name word matched.
func (ix *Index) match(qw []qword, name, ctx, ctx2 []uint32, skip uint64) (float64, bool, bool) {
	var used uint64
	var got, total, nameGot float64
	exact := true
	nameHit := false
	for i := range qw {
		if i < 64 && skip&(1<<i) != 0 {
			continue
		}
		w := &qw[i]
		total += w.weight
		best, bestJ := 0.0, -1
		for j, id := range name {
			if j < 64 && used&(1<<j) != 0 {
				continue
			}
			if c, ok := cost(w.matches, id); ok && 1-c > best {
				best, bestJ = 1-c, j
			}
		}
		if bestJ >= 0 {
			if bestJ < 64 {
				used |= 1 << bestJ
			}
			nameHit = true
			got += best * w.weight
			if !ix.t.IsStopword(ix.s.words[name[bestJ]]) {
				nameGot += best
			}
			exact = exact && best == 1
			continue
		}
		best = 0
		for _, list := range [][]uint32{ctx, ctx2} {
			for _, id := range list {
				if c, ok := cost(w.matches, id); ok && 1-c > best {
					best = 1 - c
				}
			}
		}
		got += best * w.weight
		exact = exact && (best == 1 || w.Stop)
	}
	if !nameHit {
		return 0, false, false
	}
	nameTotal := 0.0
	for _, id := range name {
		if !ix.t.IsStopword(ix.s.words[id]) {
			nameTotal++
		}
	}
	ncov := 1.0
	if nameTotal > 0 {
		ncov = math.Min(1, nameGot/nameTotal)
	}
	qcov := 1.0
	if total > 0 {
		qcov = got / total
	}
	exact = exact && ncov == 1
	return wQuery*qcov + wName*ncov, exact, true
}

// cost returns the cost of word id among a query word's matches.
func cost(ms []wordMatch, id uint32) (float64, bool) {
	for _, m := range ms {
		if m.id == id {
			return float64(m.cost), true
		}
	}
	return 0, false
}

// kindBonus ranks features of equal match: streets over POIs, bigger
// places first.
func (ix *Index) kindBonus(f *feature) float64 {
	switch f.kind {
	case KindStreet:
		return bonusStreet
	case KindPlace:
		b := 0.04 - 0.004*float64(f.rank)
		if f.pop > 0 {
			b += 0.01 * math.Log10(float64(f.pop)+1) / 7
		}
		return b
	case KindPOI:
		return -0.02
	}
	return 0
}

// resolve turns a matched feature into candidates: for a street and a
// query with a house number, the address (exact), else the interpolated
// number, else the street itself (partial).
func (ix *Index) resolve(qw []qword, fid uint32, q Query) []Candidate {
	f := &ix.feats[fid]
	name := ix.s.nameToks[fid]
	ctx := ix.s.ctxToks[f.ctx]
	if f.kind == KindStreet {
		for h := firstNumber(qw, -1); h >= 0; h = firstNumber(qw, h) {
			// "42-44" is two words: try them together, then the first.
			type try struct {
				hn   string
				skip uint64
			}
			tries := []try{{NormalizeHouseNumber(qw[h].Text), 1 << h}}
			if h+1 < len(qw) && qw[h+1].Number && h+1 < 64 {
				tries = append([]try{{NormalizeHouseNumber(qw[h].Text + qw[h+1].Text), 1<<h | 1<<(h+1)}}, tries...)
			}
			for _, tr := range tries {
				if aid, ok := ix.s.addrs[hnKey{fid, tr.hn}]; ok {
					a := &ix.feats[aid]
					s, exact, _ := ix.match(qw, name, ix.s.ctxToks[a.ctx], ctx, tr.skip)
					c := ix.render(aid, 0, orb.Point{})
					c.Score = s + bonusHouse
					c.PartialMatch = !exact
					return []Candidate{c}
				}
			}
			if n, err := strconv.Atoi(tries[len(tries)-1].hn); err == nil {
				for _, iid := range ix.s.interps[fid] {
					it := &ix.feats[iid]
					if pt, ok := ix.interpolate(it, n); ok {
						s, exact, _ := ix.match(qw, name, ix.s.ctxToks[it.ctx], ctx, 1<<h)
						c := ix.render(iid, n, pt)
						c.Score = s + bonusInterp
						c.PartialMatch = !exact
						return []Candidate{c}
					}
				}
			}
		}
	}
	s, exact, ok := ix.match(qw, name, ctx, nil, 0)
	if !ok {
		return nil
	}
	c := ix.render(fid, 0, orb.Point{})
	c.Score = s + ix.kindBonus(f)
	c.PartialMatch = !exact
	return []Candidate{c}
}

// interpolate places number n on an interpolation feature, false when
// the range does not hold it.
func (ix *Index) interpolate(f *feature, n int) (orb.Point, bool) {
	from, to := int(f.hnFrom), int(f.hnTo)
	lo, hi := min(from, to), max(from, to)
	if n < lo || n > hi || f.nparts == 0 {
		return orb.Point{}, false
	}
	if step := int(f.rank); step == 2 && (n-from)%2 != 0 {
		return orb.Point{}, false
	}
	t := float64(n-from) / float64(to-from)
	return alongLine(ix.part(f.part0), t), true
}

// filterComponents keeps the candidates that agree with every set
// component filter.
func filterComponents(cs []Candidate, f Components) []Candidate {
	if f == (Components{}) {
		return cs
	}
	eq := func(a, b string) bool { return Fold(a) == Fold(b) }
	out := cs[:0]
	for _, c := range cs {
		ok := true
		if f.PostalCode != "" {
			pc, _ := c.Component("postal_code")
			ok = ok && strings.HasPrefix(Fold(pc), Fold(f.PostalCode))
		}
		if f.Locality != "" {
			l, _ := c.Component("locality")
			n, _ := c.Component("neighborhood")
			s, _ := c.Component("sublocality")
			ok = ok && (eq(l, f.Locality) || eq(n, f.Locality) || eq(s, f.Locality))
		}
		if f.Country != "" {
			l, s := c.Component("country")
			ok = ok && (eq(l, f.Country) || eq(s, f.Country))
		}
		if ok {
			out = append(out, c)
		}
	}
	return out
}
