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
	wQuery = 0.55
	// areaWordCredit is what a query word matching only a county, state
	// or country of a feature's context counts (1 for its locality,
	// neighbourhood or postcode): "Camí de Padern, La Massana" prefers the
	// street in the town of La Massana to one elsewhere in the parish.
	areaWordCredit = 0.9
	// laterGroupNameCredit is what a word after the part of the query
	// that names the street (leadGroup) counts when it matches a
	// feature's own name rather than its context:
	// "Lockerman St, Dover" writes the town after the comma, so "Dover"
	// there is Loockerman Street's town, not the name of Dover St
	// (elsewhere); a name written after the comma is still found, ranked
	// below the same name written first.
	laterGroupNameCredit = 0.5
	wName                = 0.35
	bonusHouse           = 0.12
	bonusInterp          = 0.08
	bonusStreet          = 0.02
	// bonusBounds lifts a result inside the bounds box above a slightly
	// better match outside ("Main St" near Newark gives E Main St there
	// before Main St elsewhere): a bias, as Google's, not a filter.
	bonusBounds = 0.15
	// candidatePool bounds the features scored in full per query.
	candidatePool = 2000
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
	byID    map[uint32]float32 // matches by word id, when there are many
	weight  float64
	// auto is set on the last word of an autocompletion: any word it
	// begins matches at autoPrefixCost.
	auto *autoPrefix
}

// Forward returns the candidates for a query, best first; none when
// nothing matches. They are named in q.Lang where the data has names in
// it.
func (ix *Index) Forward(q Query) []Candidate {
	res := ix.forwardAliased(q)
	ix.localizeAll(res, q.Lang)
	return res
}

// forwardAliased is Forward before the answers are named in q.Lang.
func (ix *Index) forwardAliased(q Query) []Candidate {
	res := ix.forward(q)
	// A query that is only a state code or a country's code or alias
	// ("DE", "USA", "AD") finds that state or country first.
	name, typ := ix.t.areaAlias(q.text())
	if name == "" {
		return res
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	q2 := q
	q2.Text, q2.HouseNumber, q2.Street, q2.City, q2.Postcode, q2.State, q2.Country = name, "", "", "", "", "", ""
	for _, c := range ix.forward(q2) {
		if !c.HasType(typ) {
			continue
		}
		out := []Candidate{c}
		for _, r := range res {
			if r.PlaceID != c.PlaceID {
				out = append(out, r)
			}
		}
		return out[:min(len(out), limit)]
	}
	if typ == "country" {
		if c, ok := ix.countryArea(ix.t.CountryCode(q.text())); ok && len(ix.filterComponents([]Candidate{c}, q.Components)) > 0 &&
			(!q.BoundsRestrict || q.Bounds == nil || q.Bounds.Contains(c.Location)) && q.kindWanted(KindPlace) {
			out := append([]Candidate{c}, res...)
			return out[:min(len(out), limit)]
		}
	}
	return res
}

// countryArea renders country cc when the index has no place node for it:
// at the centre of the index's places in that country, with their extent
// as viewport.
func (ix *Index) countryArea(cc string) (Candidate, bool) {
	id := noRef
	for i := range ix.areas {
		if a := &ix.areas[i]; a.level == 2 && strings.EqualFold(ix.str(a.short), cc) {
			id = uint32(i)
			break
		}
	}
	if id == noRef {
		return Candidate{}, false
	}
	var b orb.Bound
	n := 0
	for _, fid := range ix.placeFeat {
		f := &ix.feats[fid]
		if ix.ctx(f).country != id {
			continue
		}
		if n == 0 {
			b = f.pt.Bound()
		} else {
			b = b.Extend(f.pt)
		}
		n++
	}
	if n == 0 {
		return Candidate{}, false
	}
	c := ix.renderArea([]uint32{id}, 2, b.Center())
	c.Viewport = b
	return c, true
}

// forward is Forward without the state and country aliases.
func (ix *Index) forward(q Query) []Candidate { return ix.forwardMode(q, false) }

// forwardMode is forward, or with auto the autocompletion's search: the
// last word a prefix of up to autoPrefixWords words at a lower cost, the
// phrase, importance and focus scores (autoScore) added, no score margin.
func (ix *Index) forwardMode(q Query, auto bool) []Candidate {
	words, dropped := ix.t.parse(q.text())
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
		if auto && i == len(words)-1 && !w.Number {
			qw[i].auto = ix.newAutoPrefix(w.Text, q.text())
			qw[i].matches = qw[i].auto.matches(ix, w.Text)
		} else {
			qw[i].matches = ix.wordMatches(w.Text, i == len(words)-1 && !w.Number)
		}
		if len(qw[i].matches) > 8 {
			qw[i].byID = make(map[uint32]float32, len(qw[i].matches))
			for _, m := range qw[i].matches {
				qw[i].byID[m.id] = m.cost
			}
		}
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
		if !q.featureWanted(f.kind) || q.BoundsRestrict && q.Bounds != nil && !q.Bounds.Intersects(f.bound) {
			continue
		}
		var skip uint64
		if f.kind == KindStreet {
			if h := firstNumber(qw, -1); h >= 0 {
				skip = 1 << h
			}
		}
		s, exact, ok, _ := ix.matchAny(qw, fid, f.ctx, noRef, skip)
		if !ok {
			continue
		}
		s += ix.kindBonus(f)
		if auto {
			s += ix.autoScore(qw, fid, f.pt, q.Focus)
		}
		if q.Bounds != nil && q.Bounds.Intersects(f.bound) {
			s += bonusBounds // so that the box's features are among the finalists
		}
		pre = append(pre, scored{fid, s, exact})
	}
	sort.Slice(pre, func(i, j int) bool {
		if pre[i].score != pre[j].score {
			return pre[i].score > pre[j].score
		}
		return pre[i].fid < pre[j].fid
	})
	// With component filters, resolve more of the pool: the filters run
	// before the score cut-offs, so matching hits ranked below others
	// still come back.
	if n := finalists; len(pre) > n {
		if q.Components != (Components{}) || len(q.ResultTypes) > 0 || len(q.LocationTypes) > 0 {
			n = candidatePool
		}
		if auto {
			n = max(n, 4*limit)
		}
		pre = pre[:min(n, len(pre))]
	}
	var hits []hit
	for _, p := range pre {
		if h, ok := ix.resolve(qw, p.fid); ok {
			if q.Bounds != nil && q.Bounds.Contains(h.loc) {
				h.score += bonusBounds
			} else if q.Bounds != nil && q.BoundsRestrict {
				continue
			}
			if !q.kindWanted(ix.feats[h.fid].kind) {
				continue
			}
			if auto {
				h.score += ix.autoScore(qw, p.fid, h.loc, q.Focus)
			}
			hits = append(hits, h)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return ix.feats[hits[i].fid].kind < ix.feats[hits[j].fid].kind
	})
	type key struct {
		fid uint32
		hn  int
	}
	seen := map[key]bool{}
	// A street split into several ways in one town is several features
	// that render the same: keep the best of each (formatted address,
	// types).
	seenAddr := map[string]bool{}
	var res []Candidate
	var bestWords, stopWords uint64
	for i := range min(len(qw), 64) {
		if qw[i].Stop {
			stopWords |= 1 << i
		}
	}
	for _, h := range hits {
		k := key{h.fid, h.hn}
		if seen[k] || !auto && len(res) > 0 && h.score < res[0].Score-scoreMargin {
			continue
		}
		// A result that leaves out a word the best result matched (its
		// town, its postcode, its E of "E Main St") answers another
		// question: "Main St, Newark" lists Newark's Main Streets, not
		// New Jersey's.
		if len(res) > 0 && bestWords&^h.words&^stopWords != 0 {
			continue
		}
		seen[k] = true
		c := ix.render(h.fid, h.hn, h.loc)
		c.Score, c.PartialMatch = h.score, h.partial || dropped
		if len(ix.filterComponents([]Candidate{c}, q.Components)) == 0 || !typesMatch(&c, q.ResultTypes, q.LocationTypes) {
			continue
		}
		ak := c.FormattedAddress + "|" + strings.Join(c.Types, ",")
		if seenAddr[ak] {
			continue
		}
		seenAddr[ak] = true
		if len(res) == 0 {
			bestWords = h.words
		}
		res = append(res, c)
		if len(res) == limit {
			break
		}
	}
	return res
}

// hit is a scored feature before rendering: hn and loc are set for an
// interpolated number.
type hit struct {
	fid     uint32
	hn      int
	loc     orb.Point
	score   float64
	partial bool
	// words are the query words it matched (bits by index).
	words uint64
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
			n += len(ix.postingsOf(m.id))
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
			for _, fid := range ix.postingsOf(m.id) {
				if !seen[fid] {
					seen[fid] = true
					out = append(out, fid)
				}
			}
		}
	}
	return out
}

// matchWords scores a feature's name words against the query: each
// query word (but those in the skip mask) takes the best unused name
// word, else a context word. It returns wQuery*query coverage +
// wName*name coverage, whether every word matched exactly, false when
// no name word matched, and the query words (bits by index, the first
// 64) that matched a name or context word.
func (ix *Index) matchWords(qw []qword, name []uint32, ctx, ctx2 uint32, skip uint64) (float64, bool, bool, uint64) {
	lead := leadGroup(qw)
	var used, matched uint64
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
			if c, ok := w.cost(id); ok && 1-c > best {
				best, bestJ = 1-c, j
			}
		}
		if bestJ >= 0 && w.Group > lead && !w.Number {
			// A word after the street's part (not a number: postcodes
			// name postcode areas): the feature's context when it
			// matches as well, else the name at a lower credit.
			if ix.ctxCredit(w, ctx, ctx2) >= best*laterGroupNameCredit {
				bestJ = -1
			} else {
				best *= laterGroupNameCredit
			}
		}
		if bestJ >= 0 {
			if bestJ < 64 {
				used |= 1 << bestJ
			}
			if i < 64 {
				matched |= 1 << i
			}
			nameHit = true
			got += best * w.weight
			if !ix.isStop(name[bestJ]) {
				nameGot += best
			}
			exact = exact && best == 1
			continue
		}
		best = ix.ctxCredit(w, ctx, ctx2)
		got += best * w.weight
		exact = exact && (best == 1 || w.Stop)
		if best > 0 && i < 64 {
			matched |= 1 << i
		}
	}
	if !nameHit {
		return 0, false, false, 0
	}
	nameTotal := 0.0
	for _, id := range name {
		if !ix.isStop(id) {
			nameTotal++
		}
	}
	if auto := len(qw) > 0 && qw[len(qw)-1].auto != nil; auto && nameHit {
		nameGot += notYetTyped(ix, name, used)
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
	return wQuery*qcov + wName*ncov, exact, true, matched
}

// leadGroup is the comma-separated part of the query that names the
// street or place: the part of its first word that is not a house number
// (a structured query's empty free text, or a house number written
// apart, "24306, Dupont Blvd, Georgetown", comes before it).
func leadGroup(qw []qword) int {
	for i := range qw {
		if !qw[i].Number {
			return qw[i].Group
		}
	}
	return 0
}

// ctxCredit is what query word w counts matching a word of the contexts
// ctx and ctx2 (its town, county, state, postcode): 0 when none matches.
func (ix *Index) ctxCredit(w *qword, ctx, ctx2 uint32) float64 {
	best := 0.0
	for _, c := range [2]uint32{ctx, ctx2} {
		if int(c) >= len(ix.ctxs) {
			continue
		}
		local := int(ix.ctxLocal[c])
		for k, id := range ix.ctxTokens(c) {
			credit := 1.0
			if k >= local {
				credit = areaWordCredit
			}
			if cost, ok := w.cost(id); ok && credit*(1-cost) > best {
				best = credit * (1 - cost)
			}
		}
	}
	return best
}

// cost returns the cost of word id among the query word's matches.
func (w *qword) cost(id uint32) (float64, bool) {
	if w.byID != nil {
		if c, ok := w.byID[id]; ok {
			return float64(c), true
		}
	} else {
		for _, m := range w.matches {
			if m.id == id {
				return float64(m.cost), true
			}
		}
	}
	if w.auto != nil && w.auto.begins(id) {
		return autoPrefixCost, true
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

// resolve scores a matched feature: for a street and a query with a
// house number, the address (exact), else the interpolated number, else
// the street itself (partial).
func (ix *Index) resolve(qw []qword, fid uint32) (hit, bool) {
	f := &ix.feats[fid]
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
				if aid, ok := ix.addressOf(fid, tr.hn); ok {
					a := &ix.feats[aid]
					s, exact, _, m := ix.matchAny(qw, fid, a.ctx, f.ctx, tr.skip)
					return hit{fid: aid, loc: a.pt, score: s + bonusHouse, partial: !exact, words: m | tr.skip}, true
				}
			}
			if n, err := strconv.Atoi(tries[len(tries)-1].hn); err == nil {
				for _, iid := range ix.interpsOf(fid) {
					it := &ix.feats[iid]
					if pt, ok := ix.interpolate(it, n); ok {
						s, exact, _, m := ix.matchAny(qw, fid, it.ctx, f.ctx, 1<<h)
						return hit{fid: iid, hn: n, loc: pt, score: s + bonusInterp, partial: !exact, words: m | 1<<h}, true
					}
				}
			}
		}
	}
	s, exact, ok, m := ix.matchAny(qw, fid, f.ctx, noRef, 0)
	if !ok {
		return hit{}, false
	}
	return hit{fid: fid, loc: f.pt, score: s + ix.kindBonus(f), partial: !exact, words: m}, true
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
func (ix *Index) filterComponents(cs []Candidate, f Components) []Candidate {
	if f == (Components{}) {
		return cs
	}
	cc := ix.t.CountryCode(f.Country) // "USA", "United States" -> "US"
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
			ok = ok && (eq(l, f.Country) || eq(s, f.Country) || cc != "" && eq(s, cc))
		}
		if f.Route != "" {
			l, _ := c.Component("route")
			ok = ok && l != "" && ix.t.Normalize(l) == ix.t.Normalize(f.Route)
		}
		if f.AdministrativeArea != "" {
			found := false
			for _, t := range []string{"administrative_area_level_1", "administrative_area_level_2"} {
				l, s := c.Component(t)
				found = found || l != "" && (eq(l, f.AdministrativeArea) || eq(s, f.AdministrativeArea))
			}
			ok = ok && found
		}
		if ok {
			out = append(out, c)
		}
	}
	return out
}
