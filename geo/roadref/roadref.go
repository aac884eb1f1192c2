// Package roadref reads the route numbers of roads (the OSM ref tag) the
// way road signs and users write them: "I 95;US 13" is I-95 and US-13.
// The geocoder searches roads by these numbers and the route planner names
// unnamed roads with them.
package roadref

import "strings"

// Numbers returns the route numbers of an OSM ref tag as signs write
// them: "I 95;US 13" -> "I-95", "US-13"; "CG-1" stays; parts without a
// letter and a digit ("(221)") are dropped.
func Numbers(ref string) []string {
	var out []string
	for _, r := range strings.Split(ref, ";") {
		r = strings.Join(strings.Fields(r), " ")
		if r == "" {
			continue
		}
		if !strings.ContainsFunc(r, isASCIILetter) || !strings.ContainsAny(r, "0123456789") {
			continue // "(221)": no route number a user would type
		}
		if a, b, ok := strings.Cut(r, " "); ok && isLetters(a) && b != "" && b[0] >= '0' && b[0] <= '9' {
			r = a + "-" + b
		}
		out = append(out, r)
	}
	return out
}

func isLetters(s string) bool {
	for _, c := range s {
		if !isASCIILetter(c) {
			return false
		}
	}
	return s != ""
}

func isASCIILetter(c rune) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
