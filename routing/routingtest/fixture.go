// Package routingtest gives other packages' tests the routing graphs of
// routing's hand-written OSM fixtures (routing/testdata/*.osm, each with
// its routes worked out by hand in its comment), built with the car
// profile of configs/car.yaml, once per fixture and test binary.
package routingtest

import (
	"path/filepath"
	"runtime"
	"sync"
	"testing"

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
	mu.Lock()
	b := graphs[name]
	if b == nil {
		b = &built{}
		graphs[name] = b
	}
	mu.Unlock()
	b.once.Do(func() { b.g, b.err = build(name) })
	if b.err != nil {
		tb.Fatalf("routing fixture %s: %v", name, b.err)
	}
	return b.g
}

// build reads and builds a fixture; the paths are found from this file's
// own place in the module, whichever package's test calls.
func build(name string) (*routing.Graph, error) {
	_, self, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(self), "..", "..")
	prof, err := profile.Load(filepath.Join(root, "configs", "car.yaml"))
	if err != nil {
		return nil, err
	}
	net, err := osmroad.Read(filepath.Join(root, "routing", "testdata", name), prof)
	if err != nil {
		return nil, err
	}
	g, _, err := routing.Build(net, prof)
	return g, err
}
