package bundle

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestCheckMemory(t *testing.T) {
	dir := t.TempDir()
	pbf := filepath.Join(dir, "x.osm.pbf")
	if err := os.WriteFile(pbf, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	xml := filepath.Join(dir, "x.osm")
	if err := os.WriteFile(xml, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		path  string
		limit int64
		want  string // "" for no error
	}{
		{"fits", pbf, 1000 * pbfMemoryFactor, ""},
		{"too large for the limit", pbf, 1000*pbfMemoryFactor - 1, "--memory-limit is 0.0 GB: raise it"},
		{"XML is not estimated", xml, 1, ""},
	} {
		_, err := checkMemory(tc.path, tc.limit)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if runtime.GOOS == "linux" && available() <= 0 {
		t.Error("no MemAvailable in /proc/meminfo")
	}
}
