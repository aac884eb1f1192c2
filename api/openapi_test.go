package api

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// oaDoc is the parsed OpenAPI document, YAML mappings as map[string]any.
type oaDoc map[string]any

// oaMethods are the operation keys of an OpenAPI path item.
var oaMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// loadOpenAPI parses the embedded document.
func loadOpenAPI(t testing.TB) oaDoc {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(openAPIDoc, &v); err != nil {
		t.Fatalf("openapi.yaml does not parse: %v", err)
	}
	n, err := oaNormalize(v, "")
	if err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	m, ok := n.(map[string]any)
	if !ok {
		t.Fatalf("openapi.yaml is a %T, want a mapping", n)
	}
	return oaDoc(m)
}

// oaNormalize makes v JSON-like: mapping keys must be strings (OpenAPI's
// are, and an unquoted 200 would not be), numbers are float64.
func oaNormalize(v any, at string) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			n, err := oaNormalize(e, at+"/"+k)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	case map[any]any:
		for k := range x {
			if _, ok := k.(string); !ok {
				return nil, fmt.Errorf("%s: key %v is a %T, want a string (quote it)", at, k, k)
			}
		}
		return nil, fmt.Errorf("%s: unexpected mapping type %T", at, x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			n, err := oaNormalize(e, fmt.Sprintf("%s/%d", at, i))
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case uint64:
		return float64(x), nil
	case time.Time:
		return nil, fmt.Errorf("%s: unquoted timestamp %v (quote it: JSON has no timestamps)", at, x)
	}
	return v, nil
}

// oaObj returns v as a mapping, nil when it is not one.
func oaObj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// resolve returns the component a local $ref names.
func (d oaDoc) resolve(ref string) (map[string]any, error) {
	rest, ok := strings.CutPrefix(ref, "#/components/")
	if !ok {
		return nil, fmt.Errorf("$ref %q: want #/components/<kind>/<name>", ref)
	}
	kind, name, ok := strings.Cut(rest, "/")
	if !ok || strings.Contains(name, "/") {
		return nil, fmt.Errorf("$ref %q: want #/components/<kind>/<name>", ref)
	}
	c := oaObj(oaObj(oaObj(d["components"])[kind])[name])
	if c == nil {
		return nil, fmt.Errorf("$ref %q: no such component", ref)
	}
	return c, nil
}

// deref follows $refs to the object they name (nil when one does not
// resolve).
func (d oaDoc) deref(m map[string]any) map[string]any {
	for i := 0; m != nil && i < 10; i++ {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m
		}
		m, _ = d.resolve(ref)
	}
	return m
}

// operations returns the document's operations by "METHOD /path".
func (d oaDoc) operations() map[string]map[string]any {
	ops := map[string]map[string]any{}
	for path, item := range oaObj(d["paths"]) {
		for _, m := range oaMethods {
			if op := oaObj(oaObj(item)[m]); op != nil {
				ops[strings.ToUpper(m)+" "+path] = op
			}
		}
	}
	return ops
}

// methodsAt returns the documented methods of path, sorted.
func (d oaDoc) methodsAt(path string) []string {
	var out []string
	for _, m := range oaMethods {
		if oaObj(oaObj(oaObj(d["paths"])[path])[m]) != nil {
			out = append(out, strings.ToUpper(m))
		}
	}
	sort.Strings(out)
	return out
}

// oaWalk calls fn for every mapping of v with its location.
func oaWalk(v any, at string, fn func(m map[string]any, at string)) {
	switch x := v.(type) {
	case map[string]any:
		fn(x, at)
		for k, e := range x {
			oaWalk(e, at+"/"+k, fn)
		}
	case []any:
		for i, e := range x {
			oaWalk(e, fmt.Sprintf("%s/%d", at, i), fn)
		}
	}
}

// validate checks a JSON value (numbers as float64) against schema s and
// returns the problems found, each with its JSON path. It knows the parts
// of OpenAPI 3.0 schemas the document uses. It is stricter than OpenAPI
// on one point, on purpose: an object schema with properties and no
// additionalProperties refuses keys it does not list, so that a field the
// server sends but the document lacks is found.
func (d oaDoc) validate(s map[string]any, v any, at string) []string {
	s = d.deref(s)
	if s == nil {
		return []string{at + ": schema does not resolve"}
	}
	if alts, ok := s["oneOf"].([]any); ok {
		matched, fails := 0, []string(nil)
		for i, a := range alts {
			p := d.validate(oaObj(a), v, at)
			if len(p) == 0 {
				matched++
			} else {
				fails = append(fails, fmt.Sprintf("(oneOf %d) %s", i, strings.Join(p, "; ")))
			}
		}
		if matched != 1 {
			return []string{fmt.Sprintf("%s: matches %d of the oneOf schemas, want 1: %s", at, matched, strings.Join(fails, " | "))}
		}
		return nil
	}
	if v == nil {
		if s["nullable"] == true {
			return nil
		}
		return []string{at + ": null, but the schema is not nullable"}
	}
	var probs []string
	bad := func(format string, args ...any) { probs = append(probs, at+": "+fmt.Sprintf(format, args...)) }
	if enum, ok := s["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return e == v }) {
		bad("%v is not one of %v", v, enum)
	}
	num, isNum := v.(float64)
	switch s["type"] {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			bad("a %T, want an object", v)
			break
		}
		props := oaObj(s["properties"])
		for _, r := range oaList(s["required"]) {
			if _, ok := m[r.(string)]; !ok {
				bad("required %q missing", r)
			}
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps := oaObj(props[k]); ps != nil {
				probs = append(probs, d.validate(ps, m[k], at+"."+k)...)
			} else if props != nil && s["additionalProperties"] != true {
				bad("%q is not in the schema's properties", k)
			}
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			bad("a %T, want an array", v)
			break
		}
		if n, ok := s["minItems"].(float64); ok && float64(len(a)) < n {
			bad("%d items, want at least %g", len(a), n)
		}
		if n, ok := s["maxItems"].(float64); ok && float64(len(a)) > n {
			bad("%d items, want at most %g", len(a), n)
		}
		for i, e := range a {
			probs = append(probs, d.validate(oaObj(s["items"]), e, fmt.Sprintf("%s[%d]", at, i))...)
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			bad("a %T, want a string", v)
			break
		}
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(str) {
			bad("%q does not match %s", str, p)
		}
		if n, ok := s["maxLength"].(float64); ok && float64(utf8.RuneCountInString(str)) > n {
			bad("%d characters, want at most %g", utf8.RuneCountInString(str), n)
		}
		if n, ok := s["minLength"].(float64); ok && float64(utf8.RuneCountInString(str)) < n {
			bad("%d characters, want at least %g", utf8.RuneCountInString(str), n)
		}
		switch s["format"] {
		case "date-time":
			if _, err := time.Parse(time.RFC3339Nano, str); err != nil {
				bad("%q is not a date-time", str)
			}
		case "uuid":
			if !regexp.MustCompile(`^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$`).MatchString(str) {
				bad("%q is not a uuid", str)
			}
		}
	case "integer", "number":
		if !isNum {
			bad("a %T, want a %s", v, s["type"])
			break
		}
		if s["type"] == "integer" && num != math.Trunc(num) {
			bad("%v is not an integer", num)
		}
		if lo, ok := s["minimum"].(float64); ok && (num < lo || num == lo && s["exclusiveMinimum"] == true) {
			bad("%v is below %v (exclusive: %v)", num, lo, s["exclusiveMinimum"] == true)
		}
		if hi, ok := s["maximum"].(float64); ok && (num > hi || num == hi && s["exclusiveMaximum"] == true) {
			bad("%v is above %v (exclusive: %v)", num, hi, s["exclusiveMaximum"] == true)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			bad("a %T, want a boolean", v)
		}
	case nil:
	default:
		bad("unknown schema type %v", s["type"])
	}
	return probs
}

// oaList returns v as a sequence, nil when it is not one.
func oaList(v any) []any {
	s, _ := v.([]any)
	return s
}

// oaJSON round-trips v through JSON (numbers become float64).
func oaJSON(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestOpenAPIDocument(t *testing.T) {
	d := loadOpenAPI(t)
	if v, _ := d["openapi"].(string); !regexp.MustCompile(`^3\.0\.\d+$`).MatchString(v) {
		t.Errorf("openapi = %q, want 3.0.x", v)
	}
	info := oaObj(d["info"])
	for _, k := range []string{"title", "version", "description"} {
		if s, _ := info[k].(string); s == "" {
			t.Errorf("info.%s is missing", k)
		}
	}
	if len(oaObj(d["paths"])) == 0 {
		t.Fatal("no paths")
	}
	comps := oaObj(d["components"])
	for _, k := range []string{"schemas", "responses", "parameters", "securitySchemes"} {
		if len(oaObj(comps[k])) == 0 {
			t.Errorf("components.%s is missing", k)
		}
	}
	ids := map[string]string{}
	for key, op := range d.operations() {
		id, _ := op["operationId"].(string)
		if id == "" {
			t.Errorf("%s has no operationId", key)
		} else if other, dup := ids[id]; dup {
			t.Errorf("operationId %s is used by %s and %s", id, other, key)
		}
		ids[id] = key
		if s, _ := op["summary"].(string); s == "" {
			t.Errorf("%s has no summary", key)
		}
		ok2xx := false
		for code, r := range oaObj(op["responses"]) {
			if !regexp.MustCompile(`^[1-5][0-9][0-9]$`).MatchString(code) {
				t.Errorf("%s: response key %q is not a status code", key, code)
			}
			ok2xx = ok2xx || code[0] == '2'
			if desc, _ := d.deref(oaObj(r))["description"].(string); desc == "" {
				t.Errorf("%s %s: response has no description", key, code)
			}
		}
		if !ok2xx {
			t.Errorf("%s documents no 2xx response", key)
		}
		for _, p := range oaList(op["parameters"]) {
			p := d.deref(oaObj(p))
			if p["name"] == nil || p["in"] == nil || oaObj(p["schema"]) == nil {
				t.Errorf("%s: parameter %v lacks name, in or schema", key, p)
			}
		}
	}
}

// TestOpenAPIExamples: every example validates against the schema beside
// it (media types, parameters and schemas).
func TestOpenAPIExamples(t *testing.T) {
	d := loadOpenAPI(t)
	n := 0
	oaWalk(map[string]any(d), "#", func(m map[string]any, at string) {
		s := oaObj(m["schema"])
		if s == nil {
			if strings.Contains(at, "/schemas/") && m["example"] != nil && m["type"] != nil {
				s = m // a schema's own example
			} else {
				return
			}
		}
		check := func(where string, ex any) {
			n++
			for _, p := range d.validate(s, oaJSON(t, ex), "example") {
				t.Errorf("%s: %s", where, p)
			}
		}
		if ex, ok := m["example"]; ok {
			check(at+"/example", ex)
		}
		for name, ex := range oaObj(m["examples"]) {
			check(at+"/examples/"+name, oaObj(ex)["value"])
		}
	})
	if n < 20 {
		t.Errorf("checked %d examples, want the document's 20 or more", n)
	}
}

// TestOpenAPIRefsResolve: every $ref (and discriminator mapping) names an
// existing component, and every component is referenced.
func TestOpenAPIRefsResolve(t *testing.T) {
	d := loadOpenAPI(t)
	used := map[string]bool{}
	refs := 0
	oaWalk(map[string]any(d), "#", func(m map[string]any, at string) {
		var targets []string
		if ref, ok := m["$ref"]; ok {
			s, ok := ref.(string)
			if !ok {
				t.Errorf("%s: $ref is a %T", at, ref)
				return
			}
			targets = append(targets, s)
		}
		if disc := oaObj(m["discriminator"]); disc != nil {
			for _, v := range oaObj(disc["mapping"]) {
				s, _ := v.(string)
				targets = append(targets, s)
			}
		}
		for _, ref := range targets {
			refs++
			if _, err := d.resolve(ref); err != nil {
				t.Errorf("%s: %v", at, err)
			}
			used[ref] = true
		}
	})
	if refs == 0 {
		t.Fatal("no $ref in the document")
	}
	for kind, cs := range oaObj(d["components"]) {
		if kind == "securitySchemes" {
			continue // named by security requirements, not $ref
		}
		for name := range oaObj(cs) {
			if ref := "#/components/" + kind + "/" + name; !used[ref] {
				t.Errorf("%s is never referenced", ref)
			}
		}
	}
}

// TestOpenAPINoStrayKeys checks that no member of the document outside
// its examples is null: an unquoted description holding ", " inside a flow
// mapping ({type: string, description: a, b}) splits into a cut-short
// description and a stray key whose value is null, which YAML accepts and
// strict OpenAPI validators refuse.
func TestOpenAPINoStrayKeys(t *testing.T) {
	d := loadOpenAPI(t)
	checked := 0
	oaWalk(map[string]any(d), "#", func(m map[string]any, at string) {
		if strings.Contains(at, "/example") {
			return // examples may hold JSON nulls
		}
		for k, v := range m {
			checked++
			if v == nil {
				t.Errorf("%s: member %q is null (quote a description holding \", \")", at, k)
			}
		}
	})
	if checked < 1000 {
		t.Fatalf("only %d members found", checked)
	}
}
