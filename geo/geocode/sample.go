package geocode

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// addressQueries returns an address's query in the three forms of the
// evaluation: full ("123 Main St, Newark, DE 19711"), lower case without
// city or postcode ("123 main st"), and with one typo in the street name
// (seeded by the address).
func addressQueries(ix *Index, fid uint32) (full, lower, typo string) {
	f := &ix.feats[fid]
	c := ix.render(fid, 0, f.pt)
	street := ix.str(ix.feats[f.street].name)
	hn := ix.str(f.name)
	city, _ := c.Component("locality")
	_, state := c.Component("administrative_area_level_1")
	pc, _ := c.Component("postal_code")
	_, cc := c.Component("country")
	if cc == "US" {
		full = fmt.Sprintf("%s %s, %s, %s %s", hn, street, city, state, pc)
		lower = strings.ToLower(hn + " " + street)
	} else {
		full = fmt.Sprintf("%s %s, %s %s", street, hn, pc, city)
		lower = strings.ToLower(street + " " + hn)
	}
	r := rand.New(rand.NewPCG(uint64(fid), 7))
	typoStreet := typo1(street, r)
	if cc == "US" {
		typo = hn + " " + typoStreet
	} else {
		typo = typoStreet + " " + hn
	}
	return
}

// typo1 makes one typo (substitution, deletion, insertion or
// transposition) in the longest word of s.
func typo1(s string, r *rand.Rand) string {
	words := strings.Fields(s)
	if len(words) == 0 {
		return s
	}
	wi := 0
	for i, w := range words {
		if len([]rune(w)) > len([]rune(words[wi])) {
			wi = i
		}
	}
	w := []rune(words[wi])
	if len(w) < 2 {
		return s
	}
	i := 1 + r.IntN(len(w)-1) // keep the first letter, as people do
	letter := rune('a' + r.IntN(26))
	switch r.IntN(4) {
	case 0:
		w[i] = letter
	case 1:
		w = append(w[:i:i], w[i+1:]...)
	case 2:
		w = append(w[:i:i], append([]rune{letter}, w[i:]...)...)
	default:
		if i+1 < len(w) {
			w[i], w[i+1] = w[i+1], w[i]
		} else {
			w[i-1], w[i] = w[i], w[i-1]
		}
	}
	words[wi] = string(w)
	return strings.Join(words, " ")
}

// SampleQueries returns n queries seeded by seed, made from the index's
// own records as the quality evaluation makes them: half addresses (full,
// lower case without city, or with one typo in the street name), half
// "Street, Town" and "Place, Town". Load tests rotate through them.
func (ix *Index) SampleQueries(n int, seed uint64) []string {
	var addrs, named []uint32
	for i := range ix.feats {
		switch ix.feats[i].kind {
		case KindAddress:
			addrs = append(addrs, uint32(i))
		case KindPlace, KindStreet:
			named = append(named, uint32(i))
		}
	}
	if len(addrs)+len(named) == 0 {
		return nil
	}
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]string, n)
	for i := range out {
		if i%2 == 0 && len(addrs) > 0 || len(named) == 0 {
			full, lower, typo := addressQueries(ix, addrs[r.IntN(len(addrs))])
			out[i] = []string{full, lower, typo}[r.IntN(3)]
		} else {
			f := &ix.feats[named[r.IntN(len(named))]]
			out[i] = strings.TrimSuffix(ix.str(f.name)+", "+ix.str(ix.ctx(f).locality), ", ")
		}
	}
	return out
}
