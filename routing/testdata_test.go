package routing

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
)

// osmModuleDir returns the directory of the paulmach/osm module, whose
// testdata holds the default extracts, or "" when go cannot tell.
var osmModuleDir = sync.OnceValue(func() string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/paulmach/osm").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// extractPath returns the path of a named test extract, skipping the test
// when it is not on this machine.
func extractPath(t testing.TB, name string) string {
	t.Helper()
	var p string
	switch name {
	case "delaware":
		p = filepath.Join(osmModuleDir(), "testdata", "delaware-latest.osm.pbf")
	case "andorra":
		p = filepath.Join(osmModuleDir(), "testdata", "andorra-latest.osm.bz2")
	default:
		p = filepath.Join("..", "..", "shared", "data", "osm", name+".osm.pbf")
	}
	if _, err := os.Stat(p); err != nil {
		t.Skipf("extract %s not available: %v", name, err)
	}
	return p
}

func carProfile(t testing.TB) *profile.Profile {
	t.Helper()
	p, err := profile.Load(filepath.Join("..", "configs", "car.yaml"))
	if err != nil {
		t.Fatalf("car profile: %v", err)
	}
	return p
}

var (
	graphsMu sync.Mutex
	graphs   = map[string]*Graph{}
)

// testGraph builds (once per test binary) the graph of a named extract.
func testGraph(t testing.TB, name string) *Graph {
	t.Helper()
	path := extractPath(t, name)
	graphsMu.Lock()
	defer graphsMu.Unlock()
	if g, ok := graphs[name]; ok {
		return g
	}
	prof := carProfile(t)
	net, err := osmroad.Read(path, prof)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	g, rep, err := Build(net, prof)
	if err != nil {
		t.Fatalf("build %s: %v", name, err)
	}
	t.Logf("%s:\n%s\n%s", name, net.Report, rep)
	graphs[name] = g
	return g
}

// roadPoints returns n seeded random points lying on (or within jitterM
// metres of) roads of the graph, snapped.
func roadPoints(g *Graph, n int, seed int64, jitterM float64) []Snap {
	rng := rand.New(rand.NewSource(seed + 1))
	pts := g.RandomRoadPoints(n, seed)
	for i := range pts {
		if jitterM > 0 {
			// about 1e-5 degrees per metre
			pts[i][0] += (rng.Float64()*2 - 1) * jitterM * 1.2e-5
			pts[i][1] += (rng.Float64()*2 - 1) * jitterM * 0.9e-5
		}
	}
	return g.SnapAll(pts, 0)
}
