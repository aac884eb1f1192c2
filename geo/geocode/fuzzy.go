package geocode

import "strings"

// Typo tolerance: one edit on words of fuzzyMin runes or more, two on
// words of fuzzyTwo or more; digits are never fuzzy.
const (
	fuzzyMin = 4
	fuzzyTwo = 8
)

// Match costs, subtracted from a matched word's weight of 1.
const (
	costEdit1  = 0.3
	costEdit2  = 0.55
	costPrefix = 0.25
)

func fuzzyOK(w string) bool {
	if len(w) < fuzzyMin {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] >= '0' && w[i] <= '9' {
			return false
		}
	}
	return true
}

func maxEdits(w string) int {
	if len(w) >= fuzzyTwo {
		return 2
	}
	return 1
}

// deletions returns w and every string made by deleting up to n bytes of
// w (the symmetric-delete scheme: two words within n edits share one).
func deletions(w string, n int) []string {
	out := []string{w}
	seen := map[string]bool{w: true}
	frontier := []string{w}
	for range n {
		var next []string
		for _, s := range frontier {
			for i := 0; i < len(s); i++ {
				d := s[:i] + s[i+1:]
				if !seen[d] {
					seen[d] = true
					out = append(out, d)
					next = append(next, d)
				}
			}
		}
		frontier = next
	}
	return out
}

// editDistance returns the optimal-string-alignment distance of a and b
// (insertions, deletions, substitutions, adjacent transpositions), or
// max+1 once it exceeds max.
func editDistance(a, b string, max int) int {
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// wordMatch is a vocabulary word a query word may stand for.
type wordMatch struct {
	id   uint32
	cost float32
}

// maxPrefixWords bounds the words one prefix expands to.
const maxPrefixWords = 40

// wordMatches returns the vocabulary words w may stand for: itself,
// words within the edit budget, and, when prefix is set, words it begins.
func (ix *Index) wordMatches(w string, prefix bool) []wordMatch {
	return ix.wordMatchesN(w, prefix, maxPrefixWords, costPrefix)
}

// wordMatchesN is wordMatches with up to nPrefix words that w begins,
// each at cost prefixCost.
func (ix *Index) wordMatchesN(w string, prefix bool, nPrefix int, prefixCost float32) []wordMatch {
	var out []wordMatch
	add := func(id uint32, c float32) {
		for i := range out {
			if out[i].id == id {
				if c < out[i].cost {
					out[i].cost = c
				}
				return
			}
		}
		out = append(out, wordMatch{id, c})
	}
	first, found := ix.wordID(w)
	if found {
		add(first, 0)
	}
	if fuzzyOK(w) {
		n := maxEdits(w)
		for _, d := range deletions(w, n) {
			for _, id := range ix.deleted(d) {
				cand := ix.words.get(id)
				if cand == w {
					continue
				}
				if e := editDistance(w, cand, n); e <= n && e <= maxEdits(cand) {
					c := float32(costEdit1)
					if e == 2 {
						c = costEdit2
					}
					add(id, c)
				}
			}
		}
	}
	if prefix && len(w) >= 2 {
		// The words are sorted: those w begins follow it.
		for id, n := first, 0; int(id) < ix.words.len() && n < nPrefix; id, n = id+1, n+1 {
			cand := ix.words.get(id)
			if !strings.HasPrefix(cand, w) {
				break
			}
			if cand != w {
				add(id, prefixCost)
			}
		}
	}
	return out
}
