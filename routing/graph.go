package routing

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/cch"
	"github.com/geosvc/geosvc/routing/ch"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
	"github.com/geosvc/geosvc/routing/snap"
)

// FileName is the routing graph's file name inside a data bundle directory.
const FileName = "routing.graph"

// Meta describes a built graph.
type Meta struct {
	// Source is the OSM file the graph was built from.
	Source string `json:"source"`
	// Timestamp is the OSM data date.
	Timestamp time.Time `json:"timestamp"`
	// FormatVersion is the graph file format version.
	FormatVersion uint32 `json:"format_version"`
	// Nodes is the number of edge-based nodes (drivable edge directions in
	// the largest strongly connected component); Edges the number of
	// compressed road edges; Turns the number of allowed turns.
	Nodes int `json:"nodes"`
	Edges int `json:"edges"`
	Turns int `json:"turns"`
	// Shortcuts per metric.
	ShortcutsFastest  int `json:"shortcuts_fastest"`
	ShortcutsShortest int `json:"shortcuts_shortest"`
	// DrivingSide is "right" or "left".
	DrivingSide string `json:"driving_side"`
	// BuiltAt is when the graph was built.
	BuiltAt time.Time `json:"built_at"`
}

// BuildReport describes a graph build.
type BuildReport struct {
	Import           osmroad.Report
	Nodes            int
	Turns            int
	UTurns           int
	TurnsRestricted  int
	Components       int
	NodesDropped     int
	EdgesUnsnappable int
	Shortcuts        [2]int
	EdgeGraphTime    time.Duration
	ContractTime     [2]time.Duration
	SnapIndexTime    time.Duration
	CCHTime          time.Duration
	TotalTime        time.Duration
}

// String formats the report for people.
func (r *BuildReport) String() string {
	return fmt.Sprintf(
		"edge-based graph: %d nodes, %d turns (%d U-turns at dead ends), %d turns restricted, built in %v\n"+
			"components: %d; kept the largest, dropped %d nodes (%d road edges not snappable)\n"+
			"hierarchies from the CCH (perfect customization): fastest %d shortcuts in %v, shortest %d shortcuts in %v\n"+
			"snapping index: %v; CCH topology: %v; total %v",
		r.Nodes, r.Turns, r.UTurns, r.TurnsRestricted, r.EdgeGraphTime.Round(time.Millisecond),
		r.Components, r.NodesDropped, r.EdgesUnsnappable,
		r.Shortcuts[0], r.ContractTime[0].Round(time.Millisecond), r.Shortcuts[1], r.ContractTime[1].Round(time.Millisecond),
		r.SnapIndexTime.Round(time.Millisecond), r.CCHTime.Round(time.Millisecond), r.TotalTime.Round(time.Millisecond))
}

// Graph is the routing engine over one data set. It is read-only and safe
// for concurrent use.
type Graph struct {
	meta Meta

	// Road edges (index = osmroad edge id).
	edgeFrom, edgeTo []uint32
	shapeFirst       []uint32 // edge e's shape is shape[shapeFirst[e]:shapeFirst[e+1]]
	shape            []orb.Point
	edgeLen          []float64 // metres
	edgeName         []uint32
	edgeRef          []uint32 // route numbers, destination and exit number
	edgeDest         []uint32 // of each edge, indexes into names
	edgeExit         []uint32
	names            []string
	edgeClass        []uint8
	classes          []string
	edgeRoadType     []uint8
	edgeFlags        []uint8 // edgeToll | edgeUnpaved | edgeFerry
	edgeNode         []int32 // dense node of directed id 2e+dir, or -1

	base baseCSR
	h    [2]*ch.Hierarchy
	snap *snap.Index
	// cch is the metric-independent CCH topology over the turn arcs (input
	// arc i is turn i of base); custom metrics customize it.
	cch     *cch.Topology
	metrics *metricCache

	pools [2]sync.Pool // *ch.Query per metric

	boundsOnce sync.Once
	bounds     orb.Bound

	// The road index of MapRoads, built on its first call.
	mapOnce sync.Once
	mapIx   *mapIndex

	// The junction index of JunctionsWithin, built on its first call.
	junctionsOnce sync.Once
	junctions     *junctionIndex

	// Reverse turn adjacency, built on demand for backward Reach and the
	// Dijkstra oracle: the turns into node v are revArc[revFirst[v]:
	// revFirst[v+1]], from nodes revTail[...].
	reverseOnce     sync.Once
	revFirst        []uint32
	revTail, revArc []uint32
}

// baseCSR is the uncontracted edge-based graph over dense node ids.
type baseCSR struct {
	nodeEdge  []uint32 // directed id
	nodeTime  []uint32 // ms
	nodeDist  []uint32 // dm
	turnFirst []uint32
	turnHead  []uint32
	turnMS    []uint32
	turnKind  []uint8 // turnPlain, turnAcross or turnU
}

// Meta returns the graph's description.
func (g *Graph) Meta() Meta { return g.meta }

// weight encodes a time (ms) and a distance (dm) as one lexicographic
// weight for metric m: the primary quantity in the high 32 bits.
func weight(m chMetric, ms, dm int64) int64 {
	if m == chShortest {
		return dm<<32 + ms
	}
	return ms<<32 + dm
}

// unweight splits a weight into its time (ms) and distance (dm).
func unweight(m chMetric, w int64) (ms, dm int64) {
	hi, lo := w>>32, w&0xffffffff
	if m == chShortest {
		return lo, hi
	}
	return hi, lo
}

// nodeWeight is the weight of traversing node n.
func (g *Graph) nodeWeight(m chMetric, n uint32) int64 {
	return weight(m, int64(g.base.nodeTime[n]), int64(g.base.nodeDist[n]))
}

// BuildOption tunes Build.
type BuildOption func(*buildOptions)

type buildOptions struct {
	stage func(name string) (done func())
}

// WithStages has Build announce each of its stages (the edge-based graph,
// the CCH topology with the snapping index, each hierarchy): stage is
// called as one starts and the func it returns as it ends (a progress
// printer shows them with their time and memory).
func WithStages(stage func(name string) (done func())) BuildOption {
	return func(o *buildOptions) { o.stage = stage }
}

// Build turns a road network into a routing graph with both hierarchies.
// The profile supplies the turn costs.
func Build(net *osmroad.Network, prof *profile.Profile, opts ...BuildOption) (*Graph, *BuildReport, error) {
	return buildWith(net, prof.TurnCostS, net.DrivingSide, opts...)
}

// buildWith is Build with an explicit turn-cost function.
func buildWith(net *osmroad.Network, turnCost turnCostFunc, drivingSide string, opts ...BuildOption) (*Graph, *BuildReport, error) {
	var o buildOptions
	for _, opt := range opts {
		opt(&o)
	}
	stage := o.stage
	if stage == nil {
		stage = func(string) func() { return func() {} }
	}
	start := time.Now()
	done := stage("routing: edge-based graph")
	rep := &BuildReport{Import: net.Report}
	if len(net.Edges) == 0 {
		return nil, rep, fmt.Errorf("routing: the network has no drivable roads")
	}
	arcs, usable, stats := buildBaseGraph(net, turnCost, drivingSide)
	keep, comps := largestComponent(arcs, usable)
	rep.Components = comps
	rep.TurnsRestricted = stats.turnsRestricted

	g := &Graph{}
	nE := len(net.Edges)
	g.edgeNode = make([]int32, 2*nE)
	for id := range g.edgeNode {
		g.edgeNode[id] = -1
		if keep[id] {
			g.edgeNode[id] = int32(len(g.base.nodeEdge))
			g.base.nodeEdge = append(g.base.nodeEdge, uint32(id))
		} else if usable[id] {
			rep.NodesDropped++
		}
	}
	n := len(g.base.nodeEdge)
	g.base.nodeTime = make([]uint32, n)
	g.base.nodeDist = make([]uint32, n)
	g.base.turnFirst = make([]uint32, n+1)
	for i, id := range g.base.nodeEdge {
		g.base.nodeTime[i], g.base.nodeDist[i] = edgeCosts(&net.Edges[id/2], id%2)
		g.base.turnFirst[i] = uint32(len(g.base.turnHead))
		for _, a := range arcs[id] {
			if h := g.edgeNode[a.head]; h >= 0 {
				g.base.turnHead = append(g.base.turnHead, uint32(h))
				g.base.turnMS = append(g.base.turnMS, a.ms)
				g.base.turnKind = append(g.base.turnKind, a.kind)
				if a.head/2 == id/2 && a.head != id {
					rep.UTurns++
				}
			}
		}
	}
	g.base.turnFirst[n] = uint32(len(g.base.turnHead))
	rep.Nodes, rep.Turns = n, len(g.base.turnHead)
	g.copyNetwork(net)
	for e := 0; e < nE; e++ {
		if g.edgeNode[2*e] < 0 && g.edgeNode[2*e+1] < 0 {
			rep.EdgesUnsnappable++
		}
	}
	rep.EdgeGraphTime = time.Since(start)
	done()

	// The CCH topology (nested dissection on both cores) beside the snap
	// index, then both contraction hierarchies from it.
	var wg sync.WaitGroup
	var snapErr error
	tails, heads, coords := g.cchInput() // before the snap index moves the shapes
	done = stage("routing: nested dissection, CCH topology and snapping index")
	wg.Add(1)
	go func() {
		defer wg.Done()
		t0 := time.Now()
		snapErr = g.buildSnapIndex()
		rep.SnapIndexTime = time.Since(t0)
	}()
	t0 := time.Now()
	var cchErr error
	g.cch, cchErr = cch.Build(n, tails, heads, coords, 2)
	rep.CCHTime = time.Since(t0)
	tails, heads, coords = nil, nil, nil
	wg.Wait()
	done()
	if snapErr != nil {
		return nil, rep, fmt.Errorf("routing: snapping index: %w", snapErr)
	}
	if cchErr != nil {
		return nil, rep, fmt.Errorf("routing: CCH topology: %w", cchErr)
	}
	for m := chFastest; m <= chShortest; m++ {
		t0 := time.Now()
		done := stage("routing: " + m.String() + " hierarchy (perfect customization)")
		h, err := g.chHierarchy(m, 2)
		done()
		if err != nil {
			return nil, rep, fmt.Errorf("routing: %s hierarchy: %w", m, err)
		}
		g.h[m] = h
		rep.ContractTime[m] = time.Since(t0)
		rep.Shortcuts[m] = h.Shortcuts()
	}

	g.meta = Meta{
		Source:            net.Source,
		Timestamp:         net.Timestamp,
		FormatVersion:     formatVersion,
		Nodes:             n,
		Edges:             nE,
		Turns:             len(g.base.turnHead),
		ShortcutsFastest:  rep.Shortcuts[chFastest],
		ShortcutsShortest: rep.Shortcuts[chShortest],
		DrivingSide:       drivingSide,
		BuiltAt:           time.Now().UTC().Truncate(time.Second),
	}
	g.initPools()
	rep.TotalTime = time.Since(start)
	return g, rep, nil
}

// chHierarchy returns the contraction hierarchy of metric m, derived
// from the CCH topology rather than contracted with witness searches: the
// perfect customization of the turn weights keeps exactly the arcs some
// shortest path needs, with exact weights, which makes them a contraction
// hierarchy in the nested-dissection order (Dibbelt, Strasser, Wagner,
// "Customizable Contraction Hierarchies", JEA 2016, section 5). Building
// it costs two customizations, not a contraction with its witness
// searches and priority queue, and the order is the one the CCH already
// computed.
func (g *Graph) chHierarchy(m chMetric, workers int) (*ch.Hierarchy, error) {
	b := &g.base
	w := make([]int64, len(b.turnHead))
	for v := range b.nodeEdge {
		for i := b.turnFirst[v]; i < b.turnFirst[v+1]; i++ {
			h := b.turnHead[i]
			w[i] = weight(m, int64(b.turnMS[i])+int64(b.nodeTime[h]), int64(b.nodeDist[h]))
		}
	}
	x, err := g.cch.HierarchyOf(context.Background(), w, workers)
	if err != nil {
		return nil, err
	}
	h := &ch.Hierarchy{
		UpFirst: x.UpFirst, UpHead: x.UpHead, UpWeight: x.UpWeight, UpMid: x.UpMid,
		DownFirst: x.DownFirst, DownTail: x.DownTail, DownWeight: x.DownWeight, DownMid: x.DownMid,
		Loop: x.Loop, LoopMid: x.LoopMid,
	}
	if err := h.SetOrder(x.Order); err != nil {
		return nil, err
	}
	return h, h.Validate()
}

// copyNetwork keeps what queries need of the road network.
func (g *Graph) copyNetwork(net *osmroad.Network) {
	nE := len(net.Edges)
	g.edgeFrom = make([]uint32, nE)
	g.edgeTo = make([]uint32, nE)
	g.edgeLen = make([]float64, nE)
	g.edgeName = make([]uint32, nE)
	g.edgeRef = make([]uint32, nE)
	g.edgeDest = make([]uint32, nE)
	g.edgeExit = make([]uint32, nE)
	g.edgeClass = make([]uint8, nE)
	g.edgeRoadType = make([]uint8, nE)
	g.edgeFlags = make([]uint8, nE)
	g.shapeFirst = make([]uint32, nE+1)
	g.names = append([]string(nil), net.Names...)
	if len(g.names) == 0 {
		g.names = []string{""}
	}
	classIdx := map[string]uint8{}
	for i := range net.Edges {
		e := &net.Edges[i]
		g.edgeFrom[i], g.edgeTo[i] = e.From, e.To
		g.edgeLen[i] = e.LengthM
		g.edgeName[i] = e.Name
		g.edgeRef[i], g.edgeDest[i], g.edgeExit[i] = e.Ref, e.Destination, e.Exit
		g.edgeRoadType[i] = uint8(e.RoadType)
		g.edgeFlags[i] = edgeFlagsOf(e)
		c, ok := classIdx[e.Class]
		if !ok {
			c = uint8(len(g.classes))
			classIdx[e.Class] = c
			g.classes = append(g.classes, e.Class)
		}
		g.edgeClass[i] = c
		g.shapeFirst[i] = uint32(len(g.shape))
		g.shape = append(g.shape, net.Shape[e.ShapeStart:e.ShapeEnd]...)
	}
	g.shapeFirst[nE] = uint32(len(g.shape))
}

// signText returns the name-table text of edge e in one of the sign
// arrays ("" for a graph without them).
func (g *Graph) signText(a []uint32, e uint32) string {
	if int(e) >= len(a) {
		return ""
	}
	return g.names[a[e]]
}

func (g *Graph) edgeShape(e uint32) []orb.Point {
	return g.shape[g.shapeFirst[e]:g.shapeFirst[e+1]]
}

func (g *Graph) initPools() {
	g.metrics = newMetricCache(g, defaultMetricCacheBytes)
	for m := chFastest; m <= chShortest; m++ {
		h := g.h[m]
		g.pools[m].New = func() any { return h.NewQuery() }
	}
}

func (g *Graph) query(m chMetric) *ch.Query { return g.pools[m].Get().(*ch.Query) }

func (g *Graph) release(m chMetric, q *ch.Query) { g.pools[m].Put(q) }
