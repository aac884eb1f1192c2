package api

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/api/console"
	"github.com/geosvc/geosvc/routing"
)

// TestConsoleMatch: the page carries the map-matching section and loads
// match.js after console.js (whose state it reads); match.js posts to
// matchv1 with the key, reads GPX and GeoJSON traces, and keeps to
// matchv1's 5,000 points.
func TestConsoleMatch(t *testing.T) {
	files := console.Files()
	read := func(name string) string {
		b, err := fs.ReadFile(files, name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	page, js := read("index.html"), read("match.js")
	if c, m := strings.Index(page, `src="/console/console.js"`), strings.Index(page, `src="/console/match.js"`); c < 0 || m < 0 || m < c {
		t.Errorf("index.html loads console.js at %d and match.js at %d: want both, console.js first", c, m)
	}
	for _, want := range []string{`id="match-section"`, `id="match-file" type="file"`, `id="match-summary"`, `id="match-roads"`} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	for _, want := range []string{"fetch('/matchv1/match'", "'x-api-key': st.key", "'trkpt', 'rtept', 'wpt'",
		"case 'LineString'", "case 'MultiLineString'", "window.geosvcMatch"} {
		if !strings.Contains(js, want) {
			t.Errorf("match.js lacks %q", want)
		}
	}
	if !strings.Contains(js, fmt.Sprintf("MAX_POINTS = %d;", routing.MaxTracePoints)) {
		t.Errorf("match.js's limit is not matchv1's %d", routing.MaxTracePoints)
	}
}
