package routing

// This file lists the Graph API that the rest of geosvc codes against while
// the engine is being written; every body is replaced by the real
// implementation in this issue. It must not survive the issue.

import (
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/osmroad"
)

// FileName is the routing graph's file name inside a data bundle directory.
const FileName = "routing.graph"

// Graph is the routing engine over one data set.
type Graph struct{}

// Meta describes a built graph.
type Meta struct {
	Source        string
	Timestamp     time.Time
	FormatVersion uint32
	Nodes, Edges  int
}

// BuildReport describes a graph build.
type BuildReport struct{}

// Targets is the destination side of a many-to-many table (the CH buckets),
// built once and reusable across calls and goroutines.
type Targets struct{}

// Build turns a road network into a routing graph with both hierarchies.
// (Final signature: Build(net *osmroad.Network, prof *profile.Profile).)
func Build(net *osmroad.Network, prof any) (*Graph, *BuildReport, error) {
	panic("routing.Build: pending")
}

// Load reads a graph file written by Save.
func Load(path string) (*Graph, error) { panic("routing.Load: pending") }

// Save writes the graph to path atomically.
func (g *Graph) Save(path string) error { panic("pending") }

// Meta returns the graph's description.
func (g *Graph) Meta() Meta { panic("pending") }

// Snap places p on the nearest road within radiusM metres.
func (g *Graph) Snap(p orb.Point, radiusM float64) Snap { panic("pending") }

// SnapAll snaps every point.
func (g *Graph) SnapAll(pts []orb.Point, radiusM float64) []Snap { panic("pending") }

// NewTargets builds the destination-side buckets for metric m.
func (g *Graph) NewTargets(m Metric, dst []Snap) *Targets { panic("pending") }

// Bytes returns the memory held by the targets.
func (t *Targets) Bytes() int64 { panic("pending") }

// Table computes the rows of src against every target, one goroutine.
func (g *Graph) Table(src []Snap, t *Targets) Table { panic("pending") }

// TableParallel is Table spread over workers goroutines.
func (g *Graph) TableParallel(src []Snap, t *Targets, workers int) Table { panic("pending") }

// Route computes the best route from one snapped point to another.
func (g *Graph) Route(m Metric, from, to Snap) (*Route, error) { panic("pending") }
