package api

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/uuid"
)

// oaProbes returns the probes of every limit of the input's schema.
func oaProbes(t *testing.T, in oaInput) []oaProbe {
	s := in.schema
	var ps []oaProbe
	add := func(inside bool, what string, v any) {
		ps = append(ps, oaProbe{what: what, inside: inside, value: v})
	}
	if in.part == "whole" {
		if s["additionalProperties"] == false {
			ps = append(ps, oaProbe{what: "an unknown member (additionalProperties: false)", extra: true})
		} else {
			ps = append(ps, oaProbe{what: "an unknown member", inside: true, extra: true})
		}
		return ps
	}
	if in.required && in.in != "path" {
		ps = append(ps, oaProbe{what: "left out (required)", remove: true})
	}
	typ, _ := s["type"].(string)
	isParam := in.in != "body"
	// type
	switch {
	case in.part == "names":
	case typ == "integer" && isParam:
		add(false, "1.5 (type integer)", "1.5")
		add(false, "x (type integer)", "x")
	case typ == "number" && isParam:
		add(false, "x (type number)", "x")
	case typ == "integer" || typ == "number" || typ == "array" || typ == "object":
		add(false, `"x" (type `+typ+`)`, "x")
	case typ == "string" && !isParam:
		add(false, "5 (type string)", 5)
	}
	// no limit at all: any value of the type is valid
	limited := false
	for _, k := range []string{"minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "pattern", "enum", "format"} {
		if _, ok := s[k]; ok {
			limited = true
		}
	}
	if !limited && in.part != "names" {
		switch typ {
		case "string":
			add(true, `"zz" (no limit stated)`, "zz")
		case "integer":
			add(true, "7 (no limit stated)", 7)
		case "number":
			add(true, "0.5 (no limit stated)", 0.5)
		}
	}
	// numeric bounds
	step := 1e-6
	if typ == "integer" {
		step = 1
	}
	if lo, ok := s["minimum"].(float64); ok {
		if s["exclusiveMinimum"] == true {
			add(true, fmt.Sprintf("%v (exclusive minimum %v)", lo+step, lo), lo+step)
			add(false, fmt.Sprintf("%v (exclusive minimum)", lo), lo)
		} else {
			add(true, fmt.Sprintf("%v (minimum)", lo), lo)
			add(false, fmt.Sprintf("%v (minimum %v)", lo-step, lo), lo-step)
		}
	}
	if hi, ok := s["maximum"].(float64); ok {
		if s["exclusiveMaximum"] == true {
			add(true, fmt.Sprintf("%v (exclusive maximum %v)", hi-step, hi), hi-step)
			add(false, fmt.Sprintf("%v (exclusive maximum)", hi), hi)
		} else {
			add(true, fmt.Sprintf("%v (maximum)", hi), hi)
			add(false, fmt.Sprintf("%v (maximum %v)", hi+step, hi), hi+step)
		}
	}
	// lengths
	if n, ok := s["maxLength"].(float64); ok {
		add(true, fmt.Sprintf("of %g characters (maxLength)", n), oaFill(t, in, int(n)))
		add(false, fmt.Sprintf("of %g characters (maxLength %g)", n+1, n), oaFill(t, in, int(n)+1))
	}
	if n, ok := s["minLength"].(float64); ok && n > 0 {
		add(true, fmt.Sprintf("of %g characters (minLength)", n), oaFill(t, in, int(n)))
		add(false, fmt.Sprintf("of %g characters (minLength %g)", n-1, n), oaFill(t, in, int(n)-1))
	}
	// items
	if typ == "array" {
		item := oaItem(t, in)
		list := func(n int) []any { return slices.Repeat([]any{item}, n) }
		if n, ok := s["maxItems"].(float64); ok {
			add(true, fmt.Sprintf("of %g items (maxItems)", n), list(int(n)))
			add(false, fmt.Sprintf("of %g items (maxItems %g)", n+1, n), list(int(n)+1))
		}
		if n, ok := s["minItems"].(float64); ok && n > 0 {
			add(true, fmt.Sprintf("of %g items (minItems)", n), list(int(n)))
			add(false, fmt.Sprintf("of %g items (minItems %g)", n-1, n), list(int(n)-1))
		}
	}
	// enum
	if enum := oaList(s["enum"]); enum != nil {
		for _, v := range enum {
			add(true, fmt.Sprintf("%v (enum)", v), v)
		}
		add(false, fmt.Sprintf("zz%v (not in enum %v)", enum[0], enum), fmt.Sprintf("zz%v", enum[0]))
	}
	// pattern
	if pat, ok := s["pattern"].(string); ok {
		re := regexp.MustCompile(pat)
		inside, err := oaStrings(pat)
		if err != nil {
			t.Fatalf("%s: pattern %s: %v", in, pat, err)
		}
		if ex, ok := in.example.(string); ok {
			inside = append(inside, ex)
		}
		seen := map[string]bool{}
		outside := 0
		for _, v := range inside {
			if !re.MatchString(v) {
				t.Fatalf("%s: the generated %q does not match %s", in, v, pat)
			}
			add(true, fmt.Sprintf("%q (pattern)", v), v)
			muts := []string{v + "0", v + "x", "x" + v}
			if v != "" {
				muts = append(muts, v[:len(v)-1])
			}
			for _, m := range muts {
				if !seen[m] && !re.MatchString(m) {
					seen[m] = true
					outside++
					add(false, fmt.Sprintf("%q (not matching the pattern)", m), m)
				}
			}
		}
		if outside == 0 {
			t.Errorf("%s: no string just outside pattern %s", in, pat)
		}
	}
	// format
	switch s["format"] {
	case "date":
		ex, _ := in.example.(string)
		add(true, fmt.Sprintf("%q (format date)", ex), ex)
		for _, v := range []string{"2020-02-30", "2020-6-01", ex + "x", "20200601"} {
			add(false, fmt.Sprintf("%q (not a date)", v), v)
		}
	case "uuid":
		add(true, "a new uuid (format uuid)", uuid.NewString())
		add(false, `"not-a-uuid" (format uuid)`, "not-a-uuid")
		add(false, "a uuid and a digit (format uuid)", uuid.NewString()+"0")
	case nil, "int64", "binary":
	default:
		t.Errorf("%s: format %v: the test does not know how to probe it", in, s["format"])
	}
	return ps
}

// oaFill returns a string of n characters valid by the input's pattern
// (if any): its example with 'a's inserted where the pattern allows.
func oaFill(t *testing.T, in oaInput, n int) string {
	ex, _ := in.example.(string)
	pat, _ := in.schema["pattern"].(string)
	if pat == "" {
		if n >= len(ex) {
			return strings.Repeat("a", n-len(ex)) + ex
		}
		return strings.Repeat("a", n)
	}
	re := regexp.MustCompile(pat)
	for i := 0; i <= len(ex) && n >= len(ex); i++ {
		if re.MatchString(ex[:i] + "a" + ex[i:]) {
			return ex[:i] + strings.Repeat("a", n-len(ex)) + ex[i:]
		}
	}
	t.Fatalf("%s: cannot make a string of %d characters from the example %q that matches %s", in, n, ex, pat)
	return ""
}

// oaItem returns an item of an array input: the example's first, else
// one its items' schema describes.
func oaItem(t *testing.T, in oaInput) any {
	if ex, ok := in.example.([]any); ok && len(ex) > 0 {
		return ex[0]
	}
	items := oaObj(in.schema["items"])
	if ex, ok := items["example"]; ok {
		return ex
	}
	if enum := oaList(items["enum"]); len(enum) > 0 {
		return enum[0]
	}
	if pat, ok := items["pattern"].(string); ok {
		if ss, err := oaStrings(pat); err == nil && len(ss) > 0 {
			return ss[0]
		}
	}
	t.Fatalf("%s: no item to fill the array with", in)
	return nil
}

// oaStrings returns strings a pattern matches: the shortest choice
// everywhere, then each choice's other options one at a time (another
// branch of an alternation, the most repeats of a repetition (two more
// than the fewest when unbounded), the highest printable character of a
// class instead of the lowest).
func oaStrings(pattern string) ([]string, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, err
	}
	var arity []int
	gen := func(pick func(id, n int) int) string {
		var b strings.Builder
		id := 0
		choose := func(n int) int {
			k := pick(id, n)
			id++
			return k
		}
		var walk func(r *syntax.Regexp)
		walk = func(r *syntax.Regexp) {
			switch r.Op {
			case syntax.OpLiteral:
				b.WriteString(string(r.Rune))
			case syntax.OpCharClass:
				lo, hi := oaClassEnds(r.Rune)
				if lo == hi {
					b.WriteRune(lo)
				} else {
					b.WriteRune([]rune{lo, hi}[choose(2)])
				}
			case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
				b.WriteByte('a')
			case syntax.OpCapture:
				walk(r.Sub[0])
			case syntax.OpConcat:
				for _, s := range r.Sub {
					walk(s)
				}
			case syntax.OpAlternate:
				walk(r.Sub[choose(len(r.Sub))])
			case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
				lo, hi := 0, 2
				switch r.Op {
				case syntax.OpPlus:
					lo, hi = 1, 3
				case syntax.OpQuest:
					hi = 1
				case syntax.OpRepeat:
					lo, hi = r.Min, r.Max
					if hi < 0 {
						hi = lo + 2
					}
				}
				n := lo
				if hi > lo && choose(2) == 1 {
					n = hi
				}
				for range n {
					walk(r.Sub[0])
				}
			}
		}
		walk(re)
		return b.String()
	}
	out := []string{gen(func(_, n int) int { arity = append(arity, n); return 0 })}
	seen := map[string]bool{out[0]: true}
	for id, n := range arity {
		for k := 1; k < n; k++ {
			s := gen(func(i, _ int) int {
				if i == id {
					return k
				}
				return 0
			})
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// oaClassEnds returns the lowest and highest printable ASCII characters
// of a character class (its lowest rune when it has none).
func oaClassEnds(ranges []rune) (lo, hi rune) {
	lo, hi = -1, -1
	for i := 0; i+1 < len(ranges); i += 2 {
		a, b := max(ranges[i], ' '), min(ranges[i+1], '~')
		if a > b {
			continue
		}
		if lo < 0 || a < lo {
			lo = a
		}
		if b > hi {
			hi = b
		}
	}
	if lo < 0 {
		return ranges[0], ranges[0]
	}
	return lo, hi
}
