package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// docBaseURL is the base URL the documentation's examples use.
const docBaseURL = "http://localhost:8080"

// exampleFiles are the pages whose curl examples TestDocExamples runs,
// relative to this directory: README.md first, then docs/*.md.
func exampleFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join("..", "..", "README.md")}, pages...)
}

// example is one curl command of a page, with the status the page says it
// answers and the answer it shows.
type example struct {
	line    int    // line of the command's first line
	command string // the command as a shell reads it (continuations and here-document included)
	status  int    // from the "# -> STATUS" line after it; 0 when missing
	answer  string // the comment lines after the status: the documented answer
}

var (
	statusLineRE = regexp.MustCompile(`^#\s*->\s*(\d{3})\b`)
	heredocRE    = regexp.MustCompile(`<<-?\s*['"]?([A-Za-z_]+)['"]?`)
	uuidRE       = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
)

// parseExamples returns the curl commands of the sh and bash code blocks
// of a Markdown page.
func parseExamples(md string) []example {
	lines := strings.Split(md, "\n")
	var out []example
	inShell, inOther := false, false
	for i := 0; i < len(lines); i++ {
		trimmed := strings.TrimSpace(lines[i])
		switch {
		case strings.HasPrefix(trimmed, "```") && !inShell && !inOther:
			info := strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))
			inShell = info == "sh" || info == "bash"
			inOther = !inShell
			continue
		case strings.HasPrefix(trimmed, "```"):
			inShell, inOther = false, false
			continue
		case !inShell || !strings.HasPrefix(trimmed, "curl "):
			continue
		}
		ex := example{line: i + 1}
		cmd := []string{lines[i]}
		for continues(strings.Join(cmd, "\n")) && i+1 < len(lines) {
			i++
			cmd = append(cmd, lines[i])
		}
		if m := heredocRE.FindStringSubmatch(strings.Join(cmd, "\n")); m != nil {
			for i+1 < len(lines) {
				i++
				cmd = append(cmd, lines[i])
				if strings.TrimSpace(lines[i]) == m[1] {
					break
				}
			}
		}
		ex.command = strings.Join(cmd, "\n")
		if i+1 < len(lines) {
			if m := statusLineRE.FindStringSubmatch(strings.TrimSpace(lines[i+1])); m != nil {
				i++
				ex.status, _ = strconv.Atoi(m[1])
				var answer []string
				for i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "#") {
					i++
					answer = append(answer, strings.TrimPrefix(strings.TrimSpace(lines[i]), "#"))
				}
				ex.answer = strings.Join(answer, "\n")
			}
		}
		out = append(out, ex)
	}
	return out
}

// continues reports whether a shell command goes on on the next line: it
// ends in a backslash, or a quoted string is still open.
func continues(cmd string) bool {
	var quote rune
	escaped := false
	for _, r := range cmd {
		switch {
		case escaped:
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			}
		case r == '\\':
			escaped = true
		case quote == '"':
			if r == '"' {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		}
	}
	return quote != 0 || escaped
}

func TestContinues(t *testing.T) {
	tests := []struct {
		cmd  string
		want bool
	}{
		{`curl -s http://localhost:8080/v1/info`, false},
		{`curl -s \`, true},
		{`curl -d '{"a":1,`, true},
		{`curl -d '{"a":1,` + "\n" + ` "b":2}'`, false},
		{`curl -d "{\"a\":1,`, true},
		{`curl -d 'a\' -H x`, false}, // no escapes inside single quotes
		{`curl -d "a'b"`, false},
		{`curl -d 'a"b'`, false},
	}
	for _, tt := range tests {
		if got := continues(tt.cmd); got != tt.want {
			t.Errorf("continues(%q) = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

func TestParseExamples(t *testing.T) {
	md := strings.Join([]string{
		"Text with curl in it.",
		"```sh",
		"KEY=gs_...",
		"curl -s http://localhost:8080/v1/info",
		"# -> 200",
		"# {\"service\":\"geosvc\",",
		"#  \"uuid\":\"834b6bcf-366a-412c-9502-78806a74c228\"}",
		"curl -s -X POST http://localhost:8080/tdmv1/order \\",
		"  -H 'content-type: application/json' \\",
		"  -d '{\"a\":1,",
		"       \"b\":\"a \\\\ b\"}'",
		"# -> 400",
		"curl -s http://localhost:8080/soap --data-binary @- <<EOF",
		"<Envelope>$KEY</Envelope>",
		"EOF",
		"# -> 200",
		"curl -s http://localhost:8080/healthz",
		"```",
		"```python",
		"curl -s http://localhost:8080/not-shell",
		"```",
		"```",
		"curl -s http://localhost:8080/no-language",
		"```",
	}, "\n")
	got := parseExamples(md)
	want := []example{
		{4, "curl -s http://localhost:8080/v1/info", 200, " {\"service\":\"geosvc\",\n  \"uuid\":\"834b6bcf-366a-412c-9502-78806a74c228\"}"},
		{8, "curl -s -X POST http://localhost:8080/tdmv1/order \\\n  -H 'content-type: application/json' \\\n  -d '{\"a\":1,\n       \"b\":\"a \\\\ b\"}'", 400, ""},
		{13, "curl -s http://localhost:8080/soap --data-binary @- <<EOF\n<Envelope>$KEY</Envelope>\nEOF", 200, ""},
		{17, "curl -s http://localhost:8080/healthz", 0, ""},
	}
	if !slices.Equal(got, want) {
		t.Errorf("parseExamples:\n got %+v\nwant %+v", got, want)
	}
}

// TestDocExamples runs every curl example of README.md and docs/*.md with
// sh, as a user would paste it (curl's -o and -w added to capture the
// status), against `geosvc serve` on the Delaware bundle
// (embedded Redis, the demo key in $KEY) and checks that each answers the
// status its "# -> STATUS" line documents. A uuid shown in an answer
// stands for the one the server returns: later commands of the page get
// the real one. A command answering a running job (Queued, Processing) is
// repeated until the job has ended, as the pages say to poll fetch.
func TestDocExamples(t *testing.T) {
	ci := os.Getenv("CI") == "true"
	need := func(what string, err error) {
		t.Helper()
		if ci {
			t.Fatalf("CI=true and %s: %v", what, err)
		}
		t.Skipf("%s: %v", what, err)
	}
	if testing.Short() && !ci {
		t.Skip("-short: skipping the documentation examples (they start a server on the Delaware bundle)")
	}
	curl, err := exec.LookPath("curl")
	if err != nil {
		need("curl is not installed", err)
	}
	pages := map[string][]example{}
	total := 0
	for _, f := range exampleFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pages[f] = parseExamples(string(b))
		total += len(pages[f])
	}
	if n := len(pages[exampleFiles(t)[0]]); n < 8 {
		t.Fatalf("README.md has %d curl examples, want at least 8 (info, tdmv1 order and fetch, adminv1, geoboundariesv1, timezonesv1, zip4v1, geocoderv1, SOAP)", n)
	}

	data, err := delawareBundle(t)
	if err != nil {
		need("no Delaware bundle", err)
	}
	// The embedded Redis and the embedded configuration.
	base, key, env, _ := plainServe(t, data, "NO_PROXY=127.0.0.1", "no_proxy=127.0.0.1")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	body := filepath.Join(t.TempDir(), "body")
	shellEnv := slices.Concat(env, []string{"KEY=" + key, "GEOSVC_EXAMPLE_BODY=" + body})
	for _, f := range exampleFiles(t) {
		name := strings.TrimPrefix(filepath.ToSlash(f), "../../")
		t.Run(name, func(t *testing.T) {
			uuids := map[string]string{} // documented -> returned
			for _, ex := range pages[f] {
				if ex.status == 0 {
					t.Errorf("%s:%d: the curl example has no \"# -> STATUS\" line after it", name, ex.line)
					continue
				}
				cmd := strings.ReplaceAll(ex.command, docBaseURL, base)
				for doc, real := range uuids {
					cmd = strings.ReplaceAll(cmd, doc, real)
				}
				// The status goes to stdout, the answer to a file.
				cmd = curl + ` -o "$GEOSVC_EXAMPLE_BODY" -w '%{http_code}' --max-time 60` +
					strings.TrimPrefix(strings.TrimSpace(cmd), "curl")
				status, answer, err := runExample(ctx, cmd, shellEnv, body)
				if err != nil {
					t.Errorf("%s:%d: %v", name, ex.line, err)
					continue
				}
				if status != ex.status {
					t.Errorf("%s:%d: status %d, documented %d; answer %.300s", name, ex.line, status, ex.status, answer)
				}
				for _, doc := range uuidRE.FindAllString(ex.answer, -1) {
					if _, ok := uuids[doc]; !ok {
						if real := uuidRE.FindString(answer); real != "" {
							uuids[doc] = real
						}
					}
				}
				for _, m := range missingStrings(ex.answer, answer, uuids) {
					t.Errorf("%s:%d: documented %s, not in the answer %.300s", name, ex.line, m, answer)
				}
			}
		})
	}
	t.Logf("ran %d curl examples of %d pages", total, len(pages))
}

// runExample runs cmd with sh and returns the status it printed and the
// answer it wrote to body. While the answer is that of a running matrix
// job (Queued or Processing) it runs cmd again, for up to two minutes: a
// fetch polled until the job has ended.
func runExample(ctx context.Context, cmd string, env []string, body string) (int, string, error) {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if err := os.Remove(body); err != nil && !os.IsNotExist(err) {
			return 0, "", err
		}
		c := exec.CommandContext(ctx, "sh", "-c", cmd)
		c.Env = env
		var stderr strings.Builder
		c.Stderr = &stderr
		out, err := c.Output()
		if err != nil {
			return 0, "", fmt.Errorf("%v: %s", err, stderr.String())
		}
		status, err := strconv.Atoi(strings.TrimSpace(string(out)))
		if err != nil {
			return 0, "", fmt.Errorf("curl printed %q, not a status", out)
		}
		answer, err := os.ReadFile(body)
		if err != nil && !os.IsNotExist(err) { // no file: an empty answer
			return 0, "", err
		}
		running := strings.Contains(string(answer), `"status":"Queued"`) || strings.Contains(string(answer), `"status":"Processing"`)
		if !running || time.Now().After(deadline) {
			return status, string(answer), nil
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stringMemberRE matches a JSON member whose value is a string on one
// line.
var stringMemberRE = regexp.MustCompile(`"([A-Za-z_][A-Za-z0-9_]*)":"((?:[^"\\\n]|\\.)*)"`)

// volatileMembers are the string members whose value changes from run to
// run or build to build (a version, a bundle id, a time, a token).
var volatileMembers = map[string]bool{"version": true, "id": true, "timeStamp": true, "token": true, "expires_at": true, "key_id": true}

// missingStrings returns the string members ("key":"value") of a
// documented answer that the real answer does not have, once their
// documented uuids are replaced by the returned ones: a documented
// "summary":"Ogletown Road" where the server answers "summary":"" is an
// example that misleads. A value shortened with "...", and the volatile
// members, are not checked.
func missingStrings(documented, answer string, uuids map[string]string) []string {
	var missing []string
	for _, m := range stringMemberRE.FindAllStringSubmatch(documented, -1) {
		member := m[0]
		if volatileMembers[m[1]] || strings.Contains(m[2], "...") {
			continue
		}
		for doc, real := range uuids {
			member = strings.ReplaceAll(member, doc, real)
		}
		if !strings.Contains(answer, member) {
			missing = append(missing, member)
		}
	}
	return missing
}

func TestMissingStrings(t *testing.T) {
	uuids := map[string]string{"834b6bcf-366a-412c-9502-78806a74c228": "085541d5-69f1-476c-af5a-040552f5f169"}
	tests := []struct {
		documented, answer string
		want               []string
	}{
		// docs/osrm.md showed a summary without steps; the server answers "".
		{` {"legs":[{"steps":[],"summary":"Ogletown Road, Delaware Turnpike",`, `{"legs":[{"steps":[],"summary":"","weight":1168.2}]}`,
			[]string{`"summary":"Ogletown Road, Delaware Turnpike"`}},
		{` {"legs":[{"steps":[],"summary":"",`, `{"legs":[{"steps":[],"summary":"","weight":1168.2}]}`, nil},
		// A documented uuid stands for the returned one.
		{` {"uuid":"834b6bcf-366a-412c-9502-78806a74c228"}`, `{"uuid":"085541d5-69f1-476c-af5a-040552f5f169"}`, nil},
		// Shortened values and volatile members are not checked.
		{` {"attribution":"(c) OpenStreetMap contributors, ODbL; ...","version":"2a9d1ab","name":"a \"b\""}`,
			`{"version":"dev","attribution":"(c) OpenStreetMap contributors, ODbL","name":"a \"b\""}`, nil},
		{` {"message":"y must be an integer in 0..16383 at zoom 14"}`, `{"message":"a tile is {z}/{x}/{y}.png"}`,
			[]string{`"message":"y must be an integer in 0..16383 at zoom 14"`}},
	}
	for _, tt := range tests {
		if got := missingStrings(tt.documented, tt.answer, uuids); !slices.Equal(got, tt.want) {
			t.Errorf("missingStrings(%q, %q) = %q, want %q", tt.documented, tt.answer, got, tt.want)
		}
	}
}
