package docs

import (
	"os/exec"
	"strings"
	"testing"
)

// layerOf is the row of ARCHITECTURE.md's package table a package of the
// module belongs to (by its path inside the module): a package may import
// only packages of higher rows, and of its own row only where sideways
// imports are allowed (routing into geo; inside one subtree).
func layerOf(rel string) int {
	top, _, _ := strings.Cut(rel, "/")
	switch top {
	case "cmd", "scripts":
		return 0
	case "api", "soap", "worker":
		return 1
	case "bundle", "keys", "queue":
		return 2
	case "routing":
		return 3
	case "geo":
		return 4
	case "internal", "configs", "docs":
		return 5
	}
	return -1
}

// TestPackageLayers: no package imports one of a lower row of
// ARCHITECTURE.md's table, nor a sibling of its row in another subtree
// (api, soap and worker import none of each other; nor do bundle, keys
// and queue), and every package of the module has a row.
func TestPackageLayers(t *testing.T) {
	const mod = "github.com/geosvc/geosvc/"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", mod+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		from := layerOf(pkg)
		if from < 0 {
			t.Errorf("%s has no row in ARCHITECTURE.md's package table", pkg)
			continue
		}
		fromTop, _, _ := strings.Cut(pkg, "/")
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			dep := strings.TrimPrefix(imp, mod)
			to := layerOf(dep)
			depTop, _, _ := strings.Cut(dep, "/")
			checked++
			switch {
			case to < from:
				t.Errorf("%s imports %s, a package of a lower row", pkg, dep)
			case to == from && from != 0 && from != 5 && fromTop != depTop:
				t.Errorf("%s imports %s, a sibling of its row", pkg, dep)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d imports checked: go list output %q...", checked, out[:min(len(out), 200)])
	}
}
