package docs

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/geosvc/geosvc/keys"
)

// The pages the documentation must have, beside the repository's
// README.md (../README.md from here).
var requiredPages = []string{
	"README.md",
	"tdmv1.md", "adminv1.md", "geoboundariesv1.md", "timezonesv1.md", "zip4v1.md", "geocoderv1.md", "covidv1.md", "soap.md",
	"world.md", "health.md",
	"routing.md", "configuration.md", "operations.md", "errors.md", "data.md", "keys.md",
}

// checkedPages returns the pages whose links are checked: the repository's
// README.md, CONTRIBUTING.md and CHANGELOG.md, and every docs/*.md.
func checkedPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	top := []string{filepath.Join("..", "README.md"), filepath.Join("..", "CONTRIBUTING.md"), filepath.Join("..", "CHANGELOG.md")}
	return append(top, pages...)
}

func TestRequiredPagesExist(t *testing.T) {
	for _, p := range requiredPages {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("docs/%s: %v", p, err)
		}
	}
}

// readmeMaxLines is the length the repository's README.md may not pass:
// it is a guide, the reference lives in docs/ (the project's rule).
const readmeMaxLines = 250

func TestReadmeIsShort(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than %d: move reference material into docs/", n, readmeMaxLines)
	}
}

// TestLinksResolve checks every relative link of README.md and docs/*.md:
// the file or directory it names exists, and a #fragment names a heading
// of the target Markdown page (GitHub's anchors).
func TestLinksResolve(t *testing.T) {
	for _, page := range checkedPages(t) {
		name := "docs/" + page
		if filepath.Base(page) != page {
			name = filepath.Base(page) // ../README.md
		}
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			ls := links(string(src))
			if len(ls) == 0 {
				t.Fatalf("%s has no links: is the parser broken?", page)
			}
			for _, l := range ls {
				if err := resolve(page, l.dest); err != nil {
					t.Errorf("%s:%d: link %q: %v", page, l.line, l.dest, err)
				}
			}
		})
	}
}

// resolve reports why dest, a link on page, does not resolve; nil when it
// does or when it is not relative (a URL with a scheme).
func resolve(page, dest string) error {
	if isAbsolute(dest) {
		return nil
	}
	path, frag, _ := strings.Cut(dest, "#")
	p, err := url.PathUnescape(path)
	if err != nil {
		return err
	}
	target := page
	if p != "" {
		target = filepath.Join(filepath.Dir(page), filepath.FromSlash(p))
	}
	if _, err := os.Stat(target); err != nil {
		return fmt.Errorf("no such file: %s", target)
	}
	if frag == "" {
		return nil
	}
	if !strings.HasSuffix(strings.ToLower(target), ".md") {
		return fmt.Errorf("a #fragment on %s, which is not a Markdown page", target)
	}
	f, err := url.PathUnescape(frag)
	if err != nil {
		return err
	}
	src, err := os.ReadFile(target)
	if err != nil {
		return err
	}
	as := anchors(string(src))
	if !as[f] {
		return fmt.Errorf("%s has no heading with anchor #%s", target, f)
	}
	return nil
}

// isAbsolute reports whether dest carries a scheme (https:, mailto:) or is
// protocol-relative.
var schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

func isAbsolute(dest string) bool {
	return schemeRE.MatchString(dest) || strings.HasPrefix(dest, "//")
}

// link is a link destination and the line it is on.
type link struct {
	line int
	dest string
}

var (
	// inlineLinkRE matches [text](dest) and ![alt](dest), with an
	// optional title; dest may be wrapped in <> (and then hold spaces).
	inlineLinkRE = regexp.MustCompile(`!?\[[^\]]*\]\(\s*(?:<([^>]*)>|([^)\s]*))(?:\s+"[^"]*")?\s*\)`)
	// refDefRE matches a reference definition "[label]: dest".
	refDefRE = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$`)
	// codeSpanRE matches an inline code span.
	codeSpanRE = regexp.MustCompile("`+[^`]*`+")
)

// links returns the link destinations of a Markdown page, outside fenced
// code blocks and code spans.
func links(md string) []link {
	var out []link
	forEachProseLine(md, func(n int, line string) {
		line = codeSpanRE.ReplaceAllString(line, "")
		if m := refDefRE.FindStringSubmatch(line); m != nil {
			out = append(out, link{n, m[1]})
			return
		}
		for _, m := range inlineLinkRE.FindAllStringSubmatch(line, -1) {
			out = append(out, link{n, m[1] + m[2]})
		}
	})
	return out
}

// forEachProseLine calls f with every line (numbered from 1) outside
// fenced code blocks.
func forEachProseLine(md string, f func(n int, line string)) {
	fence := ""
	for i, line := range strings.Split(md, "\n") {
		if mark := fenceMark(line); mark != "" {
			switch {
			case fence == "":
				fence = mark
			case fence == mark && strings.Trim(line, mark[:1]+" ") == "":
				fence = ""
			}
			continue
		}
		if fence == "" {
			f(i+1, line)
		}
	}
}

// fenceMark returns the fence a line starts with (``` or ~~~, indented by
// at most three spaces), "" for any other line.
func fenceMark(line string) string {
	trimmed := strings.TrimLeft(line, " ")
	if len(line)-len(trimmed) > 3 {
		return ""
	}
	for _, mark := range []string{"```", "~~~"} {
		if strings.HasPrefix(trimmed, mark) {
			return mark
		}
	}
	return ""
}

var (
	headingRE = regexp.MustCompile(`^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	htmlIDRE  = regexp.MustCompile(`<[A-Za-z]+[^>]*\s(?:id|name)="([^"]+)"`)
	// linkTextRE keeps the text of a link or image in a heading.
	linkTextRE = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
)

// anchors returns the anchors GitHub gives a Markdown page: the slug of
// every heading (a repeated slug gets -1, -2, ...) and the id or name of
// every HTML element that has one.
func anchors(md string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	forEachProseLine(md, func(_ int, line string) {
		for _, m := range htmlIDRE.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		m := headingRE.FindStringSubmatch(line)
		if m == nil {
			return
		}
		s := slug(m[2])
		if n := seen[s]; n > 0 {
			out[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	})
	return out
}

// slug is GitHub's anchor of a heading: the heading's text (links reduced
// to their text, code spans to their content), lower-cased, with every
// character other than a letter, a digit, a space, '-' or '_' removed and
// each space turned into '-'.
func slug(heading string) string {
	text := linkTextRE.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlug(t *testing.T) {
	tests := []struct{ heading, want string }{
		{"Decisions where the specification says \"not shown\"", "decisions-where-the-specification-says-not-shown"},
		{"Endpoint, binding and actions", "endpoint-binding-and-actions"},
		{"geosvc build", "geosvc-build"},
		{"`geosvc build`", "geosvc-build"},
		{"GazetteerSimple and Gazetteer", "gazetteersimple-and-gazetteer"},
		{"tdmv1: time-distance matrix", "tdmv1-time-distance-matrix"},
		{"Port, data directory, extract", "port-data-directory-extract"},
		{"The +4 codes of the default layer are not USPS codes", "the-4-codes-of-the-default-layer-are-not-usps-codes"},
		{"Status codes, error bodies and service endpoints", "status-codes-error-bodies-and-service-endpoints"},
		{"snake_case and [a link](x.md)", "snake_case-and-a-link"},
		{"Région Île-de-France", "région-île-de-france"},
	}
	for _, tt := range tests {
		if got := slug(tt.heading); got != tt.want {
			t.Errorf("slug(%q) = %q, want %q", tt.heading, got, tt.want)
		}
	}
}

func TestLinksAndAnchorsOfAPage(t *testing.T) {
	md := strings.Join([]string{
		"# Title", // 1
		"See [a](a.md), ![img](i.png \"t\") and [b](<b c.md>).",   // 2
		"A [web link](https://example.org) and `[not](code.md)`.", // 3
		"```sh",                   // 4
		"[not a link](fenced.md)", // 5
		"# not a heading",         // 6
		"```",                     // 7
		"## Usage",                // 8
		"## Usage",                // 9
		"[ref]: ref.md \"Title\"", // 10
		"<a name=\"custom\"></a>", // 11
		"### `geosvc build` #",    // 12
	}, "\n")
	var got []string
	for _, l := range links(md) {
		got = append(got, fmt.Sprintf("%d %s", l.line, l.dest))
	}
	want := []string{"2 a.md", "2 i.png", "2 b c.md", "3 https://example.org", "10 ref.md"}
	if !slices.Equal(got, want) {
		t.Errorf("links = %q, want %q", got, want)
	}
	as := anchors(md)
	for _, a := range []string{"title", "usage", "usage-1", "custom", "geosvc-build"} {
		if !as[a] {
			t.Errorf("anchor %q missing from %v", a, as)
		}
	}
	if as["not-a-heading"] || len(as) != 5 {
		t.Errorf("anchors = %v, want exactly 5", as)
	}
}

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "page.md")
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("page.md", "# Page\n## Own section\n")
	write("other.md", "# Other\n## Some part\n")
	write("data.yaml", "x: 1\n")
	tests := []struct {
		dest string
		ok   bool
	}{
		{"other.md", true},
		{"other.md#some-part", true},
		{"other.md#other", true},
		{"other.md#missing", false},
		{"#own-section", true},
		{"#Own-Section", false},
		{"missing.md", false},
		{"data.yaml", true},
		{"data.yaml#x", false},
		{".", true},
		{"https://example.org/missing.md", true},
		{"mailto:someone@example.org", true},
	}
	for _, tt := range tests {
		if err := resolve(page, tt.dest); (err == nil) != tt.ok {
			t.Errorf("resolve(%q) = %v, want ok %v", tt.dest, err, tt.ok)
		}
	}
}

// TestDataVersions checks that docs/data.md states the versions of the
// time-zone data the code has (the tz rules of geo/timezone/zoneinfo.zip,
// the tz database and CLDR releases of the generated tables, the
// tzf-rel-lite module of go.mod), and that no other tz release (2025b,
// 2024a, ...) is named anywhere in README.md or docs/*.md.
func TestDataVersions(t *testing.T) {
	find := func(file, pattern string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.FromSlash(file))
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(pattern).FindStringSubmatch(string(b))
		if m == nil {
			t.Fatalf("%s: no match for %s", file, pattern)
		}
		return m[1]
	}
	rules := find("../geo/timezone/tzdata.go", `TZRulesVersion = "([^"]+)"`)
	goVersion := find("../geo/timezone/tzdata.go", `a copy of Go (\d+\.\d+\.\d+)'s lib/time/zoneinfo\.zip`)
	tables := find("../geo/timezone/internal/tzdb/tables.go", `TZDataVersion = "([^"]+)"`)
	cldr := find("../geo/timezone/internal/tzdb/tables.go", `CLDRVersion = "([^"]+)"`)
	tzf := find("../go.mod", `github\.com/ringsaturn/tzf-rel-lite (v\S+)`)
	// tzf-rel-lite v0.0.2025-b2 is built from timezone-boundary-builder 2025b.
	m := regexp.MustCompile(`^v0\.0\.(\d{4})-([a-z])\d*$`).FindStringSubmatch(tzf)
	if m == nil {
		t.Fatalf("go.mod: tzf-rel-lite version %s is not of the form v0.0.YYYY-xN", tzf)
	}
	boundaryBuilder := m[1] + m[2]

	src, err := os.ReadFile("data.md")
	if err != nil {
		t.Fatal(err)
	}
	data := strings.Join(strings.Fields(string(src)), " ")
	for _, want := range []string{
		"IANA tz database " + rules,
		"Go " + goVersion + "'s",
		"IANA tz database " + tables,
		"Unicode CLDR " + cldr,
		"tzf-rel-lite " + tzf,
		boundaryBuilder + " release of timezone-boundary-builder",
	} {
		if !strings.Contains(data, want) {
			t.Errorf("docs/data.md does not say %q", want)
		}
	}

	known := map[string]bool{rules: true, tables: true, boundaryBuilder: true}
	release := regexp.MustCompile(`\b(19|20)\d\d[a-z]\b`)
	for _, page := range checkedPages(t) {
		src, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range release.FindAllString(string(src), -1) {
			if !known[r] {
				t.Errorf("%s names tz release %s; the code has %s (rules), %s (tables), %s (polygons)", page, r, rules, tables, boundaryBuilder)
			}
		}
	}
}

// TestInterfaceNamesListed: operations.md lists exactly the interface
// names `keys create --interfaces` accepts (keys.Known).
func TestInterfaceNamesListed(t *testing.T) {
	b, err := os.ReadFile("operations.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)Interface names for `--interfaces` are the first path segment\\s*\\((.*?)\\) and `soap`").FindSubmatch(b)
	if m == nil {
		t.Fatal("operations.md: no list of interface names for --interfaces")
	}
	var listed []string
	for _, n := range regexp.MustCompile("`([a-z0-9]+)`").FindAllSubmatch(m[1], -1) {
		listed = append(listed, string(n[1]))
	}
	listed = append(listed, "soap")
	slices.Sort(listed)
	if want := keys.Known(); !slices.Equal(listed, want) {
		t.Errorf("operations.md lists %v, keys create accepts %v", listed, want)
	}
}
