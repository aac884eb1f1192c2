package geocode

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Fold returns s in lower case without accents, with every run of
// characters other than letters and digits turned into one space, and
// trimmed. The Catalan middle dot (l·l) and apostrophes join or split as a
// reader expects: "Sant Julià de Lòria" -> "sant julia de loria",
// "d'Andorra" -> "d andorra", "Col·legi" -> "collegi".
func Fold(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, " ")
	}
	var b strings.Builder
	b.Grow(len(s))
	space := true // no leading space
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r == '·': // Catalan l·l
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			switch r {
			case 'ß':
				b.WriteString("ss")
			case 'ø', 'Ø':
				b.WriteByte('o')
			case 'æ', 'Æ':
				b.WriteString("ae")
			case 'ł', 'Ł':
				b.WriteByte('l')
			case 'đ', 'Đ':
				b.WriteByte('d')
			default:
				b.WriteRune(unicode.ToLower(r))
			}
			space = false
		default:
			if !space {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// Tokens returns the canonical words of s: Fold, split on spaces, each
// word replaced by its canonical form from the tables ("N. Main Street"
// -> ["n", "main", "st"]).
func (t *Tables) Tokens(s string) []string {
	f := Fold(s)
	if f == "" {
		return nil
	}
	words := strings.Fields(f)
	for i, w := range words {
		if c, ok := t.Words[w]; ok {
			words[i] = c
		}
	}
	return words
}

// Normalize returns the canonical form of a name or query as one string
// (Tokens joined by spaces): the key two spellings of one street share.
func (t *Tables) Normalize(s string) string { return strings.Join(t.Tokens(s), " ") }

// NormalizeHouseNumber returns the canonical form of a house number:
// folded, without spaces ("12 B" -> "12b", "12-B" -> "12b").
func NormalizeHouseNumber(s string) string {
	return strings.ReplaceAll(Fold(s), " ", "")
}
