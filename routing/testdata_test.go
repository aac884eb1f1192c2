package routing

import (
	"math/rand"
	"path/filepath"
	"sync"
	"testing"

	"github.com/geosvc/geosvc/geo/osmfile/extracts"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
)

// extractPath returns the path of a named test extract, skipping the test
// when it is not on this machine.
func extractPath(t testing.TB, name string) string {
	t.Helper()
	return extracts.Require(t, name)
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
	pts := g.randomRoadPoints(n, seed)
	for i := range pts {
		if jitterM > 0 {
			// about 1e-5 degrees per metre
			pts[i][0] += (rng.Float64()*2 - 1) * jitterM * 1.2e-5
			pts[i][1] += (rng.Float64()*2 - 1) * jitterM * 0.9e-5
		}
	}
	return g.SnapAll(Fastest, pts, 0)
}
