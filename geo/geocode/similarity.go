package geocode

// Similarity returns how much of a given name (a street, a city) another
// name accounts for, from 0 to 1: the share of the given name's
// distinctive words (its words other than stop words and the canonical
// street types, directionals and ordinals of the tables, unless it has
// no others) that match a word of the other, exactly once normalised or
// within the geocoder's typo tolerance (one edit on words of 4 letters or
// more, two on words of 8 or more, none on numbers). "Plugh Blvd" and
// "Mall Blvd" share only "blvd": 0; "Loockrman Street" and "E
// Loockerman St" 1.
func (t *Tables) Similarity(given, other string) float64 {
	generic := map[string]bool{}
	for _, c := range t.Words {
		generic[c] = true
	}
	var words, all []string
	for _, w := range t.Tokens(given) {
		if t.stop[w] {
			continue
		}
		all = append(all, w)
		if !generic[w] {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		words = all
	}
	if len(words) == 0 {
		return 0
	}
	have := t.Tokens(other)
	matched := 0
	for _, w := range words {
		for _, h := range have {
			if w == h || fuzzyOK(w) && fuzzyOK(h) && editDistance(w, h, maxEdits(w)) <= maxEdits(w) {
				matched++
				break
			}
		}
	}
	return float64(matched) / float64(len(words))
}
