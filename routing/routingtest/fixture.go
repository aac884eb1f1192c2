// Package routingtest gives other packages' tests the routing graphs of
// routing's hand-written OSM fixtures (routing/testdata/*.osm, each with
// its routes worked out by hand in its comment) and of the real extracts
// (Delaware, Andorra, ...), built with the car profile of
// configs/car.yaml and the hierarchies derived from the CCH, once per
// fixture or extract and test binary.
package routingtest

import (
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/geosvc/geosvc/geo/osmfile/extracts"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
)

// built is one fixture's graph, built on first use.
type built struct {
	once sync.Once
	g    *routing.Graph
	err  error
}

var (
	mu     sync.Mutex
	graphs = map[string]*built{}
)

// Graph returns the graph of routing/testdata/NAME (e.g. "ramp.osm"),
// failing tb when it cannot be built.
func Graph(tb testing.TB, name string) *routing.Graph {
	tb.Helper()
	g, err := once(name, func() (*routing.Graph, error) {
		return build(filepath.Join(root(), "routing", "testdata", name))
	})
	if err != nil {
		tb.Fatalf("routing fixture %s: %v", name, err)
	}
	return g
}

// Extract returns the graph of the named real extract (extracts.Path:
// "delaware", "andorra", ...). When the extract is not on this machine
// the test is skipped, or, under CI=true, fails.
func Extract(tb testing.TB, name string) *routing.Graph {
	tb.Helper()
	path := extracts.Require(tb, name)
	g, err := once("extract:"+name, func() (*routing.Graph, error) { return build(path) })
	if err != nil {
		tb.Fatalf("routing extract %s: %v", name, err)
	}
	return g
}

// once builds the graph of key with fn on its first call.
func once(key string, fn func() (*routing.Graph, error)) (*routing.Graph, error) {
	mu.Lock()
	b := graphs[key]
	if b == nil {
		b = &built{}
		graphs[key] = b
	}
	mu.Unlock()
	b.once.Do(func() { b.g, b.err = fn() })
	return b.g, b.err
}

// root is the module's directory, found from this file's own place in it,
// whichever package's test calls.
func root() string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "..")
}

// build reads and builds an OSM file with the car profile.
func build(path string) (*routing.Graph, error) {
	prof, err := profile.Load(filepath.Join(root(), "configs", "car.yaml"))
	if err != nil {
		return nil, err
	}
	net, err := osmroad.Read(path, prof)
	if err != nil {
		return nil, err
	}
	// Other packages' tests take the hierarchies derived from the CCH,
	// built in seconds even under the race detector (the greedy
	// contraction of Delaware takes minutes there); routing's own tests
	// check both contractions (TestContractionsAgree).
	g, _, err := routing.Build(net, prof, routing.WithContraction(routing.ContractionDerived))
	return g, err
}
