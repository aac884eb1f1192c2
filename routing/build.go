package routing

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/internal/binfmt"
	"github.com/geosvc/geosvc/routing/cch"
	"github.com/geosvc/geosvc/routing/ch"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
	"github.com/geosvc/geosvc/routing/snap"
)

// smallComponent is OSRM's threshold of a small component (its
// --small-component-size, 1000 nodes), for the build's report.
const smallComponent = 1000

// BuildOption tunes Build.
type BuildOption func(*buildOptions)

type buildOptions struct {
	stage       func(name string) (done func())
	dir         string
	contraction Contraction
}

// WithContraction selects how Build makes the two contraction
// hierarchies (default ContractionAuto).
func WithContraction(c Contraction) BuildOption {
	return func(o *buildOptions) { o.contraction = c }
}

// WithStages has Build announce each of its stages (the edge-based graph,
// the snapping index, the CCH topology, each hierarchy): stage is called
// as one starts and the func it returns as it ends (a progress printer
// shows them with their time and memory).
func WithStages(stage func(name string) (done func())) BuildOption {
	return func(o *buildOptions) { o.stage = stage }
}

// WithDir has Build write the graph's files into dir (Files), each as
// soon as its part is complete, and let go of the part: a build then holds
// about one part at a time besides what the next parts read, and the
// graph it returns reads the files by memory-mapping, as Load does.
// Without it the graph stays in memory and Save writes it.
func WithDir(dir string) BuildOption {
	return func(o *buildOptions) { o.dir = dir }
}

// Build turns a road network into a routing graph with both hierarchies.
// The profile supplies the turn costs. Build consumes net: its edges,
// shape and restrictions are let go once copied (read what else you need
// of it, its Vertices and Report, before or after; they stay).
func Build(net *osmroad.Network, prof *profile.Profile, opts ...BuildOption) (*Graph, *BuildReport, error) {
	return buildWith(net, prof.TurnCostSide, net.DrivingSide, opts...)
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
	rep := &BuildReport{Import: net.Report}
	if len(net.Edges) == 0 {
		return nil, rep, fmt.Errorf("routing: the network has no drivable roads")
	}
	done := stage("routing: edge-based graph")
	g, in, err := baseGraph(net, turnCost, drivingSide, rep)
	if err != nil {
		return nil, rep, err
	}
	rep.EdgeGraphTime = time.Since(start)
	done()

	// The graph's own file first; its arrays are then read from it (the
	// shape stays until the snapping index copies it).
	parts := &partWriter{dir: o.dir}
	baseFile, err := parts.write(FileName, g.writeBase, g.readBase)
	if err != nil {
		return nil, rep, err
	}

	done = stage("routing: snapping index")
	t0 := time.Now()
	ix, err := snap.Build(in.shape, in.starts, in.ends)
	if err != nil {
		return nil, rep, fmt.Errorf("routing: snapping index: %w", err)
	}
	in.shape, in.starts, in.ends = nil, nil, nil
	g.snap = ix
	g.shape = ix.Shape()
	rep.SnapIndexTime = time.Since(t0)
	_, err = parts.write(snapFile, g.writeSnap, func(f *binfmt.File) (err error) {
		g.snap, err = snap.Load(f, "snap.")
		g.shape = g.snap.Shape()
		return err
	})
	done()
	if err != nil {
		return nil, rep, err
	}

	done = stage("routing: nested dissection and CCH topology")
	t0 = time.Now()
	g.cch, err = cch.Build(len(g.base.nodeEdge), in.tails, g.base.turnHead, in.coords, 2)
	in.tails, in.coords = nil, nil
	rep.CCHTime = time.Since(t0)
	if err == nil {
		_, err = parts.write(cchFile, g.writeCCH, func(f *binfmt.File) (err error) {
			g.cch, err = cch.ReadTopology(f, "cch.")
			return err
		})
	}
	done()
	if err != nil {
		return nil, rep, fmt.Errorf("routing: CCH topology: %w", err)
	}
	greedy := o.contraction.greedy(len(g.base.nodeEdge))
	rep.Greedy = greedy
	var contracted [2]*ch.Hierarchy
	if greedy {
		done := stage("routing: fastest and shortest hierarchies (greedy contraction)")
		contracted = g.contractBoth(&rep.ContractTime)
		done()
		if baseFile != nil {
			baseFile.Release()
		}
	}
	for m := chFastest; m <= chShortest; m++ {
		t0 := time.Now()
		h := contracted[m]
		done := func() {}
		if h == nil {
			done = stage("routing: " + m.String() + " hierarchy (perfect customization)")
			w := g.hierarchyWeights(m)
			if baseFile != nil {
				baseFile.Release() // the weights are read; the topology is next
			}
			h, err = g.chHierarchy(w, 2)
			rep.ContractTime[m] = time.Since(t0)
		}
		if err == nil {
			g.h[m] = h
			rep.Shortcuts[m] = h.Shortcuts()
			_, err = parts.write(hierarchyFile[m], func(w partSink) { g.writeHierarchy(w, m) }, func(*binfmt.File) error {
				if o.dir != "" {
					g.h[m] = nil // the next stage does not read it
				}
				return nil
			})
		}
		done()
		if err != nil {
			return nil, rep, fmt.Errorf("routing: %s hierarchy: %w", m, err)
		}
	}
	rep.TotalTime = time.Since(start)
	if o.dir != "" {
		// Every part is on disk: the graph reads them all from there.
		lg, err := Load(o.dir)
		if err != nil {
			return nil, rep, err
		}
		return lg, rep, nil
	}
	g.initPools()
	return g, rep, nil
}

// buildInputs are what the later stages of a build read of the network,
// taken before it is let go: the road shapes and each edge's range in them
// (for the snapping index), the turns' tails and a point of every node
// (for the nested dissection).
type buildInputs struct {
	shape        []orb.Point
	starts, ends []uint32
	tails        []uint32
	coords       [][2]float64
}

// baseGraph builds the edge-based graph of every component, numbers its
// nodes, copies what queries need of the network and lets the network's
// edges, shape and restrictions go.
func baseGraph(net *osmroad.Network, turnCost turnCostFunc, drivingSide string, rep *BuildReport) (*Graph, *buildInputs, error) {
	leftHand, nLeft, err := leftHandEdges(net, drivingSide)
	if err != nil {
		return nil, nil, err
	}
	rep.LeftHandEdges = nLeft
	ct := &condTable{}
	arcs, usable, stats := buildBaseGraph(net, turnCost, leftHand, ct)
	usable, copyOf, ws := expandWayRestrictions(arcs, usable, net.WayRestrictions, ct)
	rep.WayRestrictions, rep.WayRestrictionsVacuous, rep.Copies = ws.applied, ws.vacuous, ws.copies
	comp, sizes := components(arcs, usable)
	if len(copyOf) > 0 {
		// Components count road directions: a copy is its original's
		// (one that can go nowhere, as a via path whose only way on is
		// forbidden, is a component of its own, not counted).
		sizes = originalSizes(comp[:2*len(net.Edges)], len(sizes))
	}
	rep.TurnsRestricted = stats.turnsRestricted
	main := -1
	for c, s := range sizes {
		if s == 0 {
			continue
		}
		rep.Components++
		if main < 0 || s > sizes[main] {
			main = c
		}
		if s < smallComponent {
			rep.Small++
		}
	}
	if main >= 0 {
		rep.Largest = sizes[main]
	}

	g := &Graph{}
	nE := len(net.Edges)
	g.edgeNode = make([]int32, 2*nE)
	n := 0
	for id := range g.edgeNode {
		g.edgeNode[id] = -1
		if usable[id] {
			g.edgeNode[id] = int32(n)
			n++
		}
	}
	// The copies of via-way restrictions come last, each standing for its
	// original's directed edge.
	nOrig := n
	n += len(copyOf)
	dense := func(id uint32) uint32 {
		if id < uint32(2*nE) {
			return uint32(g.edgeNode[id])
		}
		return uint32(nOrig) + id - uint32(2*nE)
	}
	b := &g.base
	b.nodeEdge = make([]uint32, 0, n)
	for id := range g.edgeNode {
		if usable[id] {
			b.nodeEdge = append(b.nodeEdge, uint32(id))
		}
	}
	b.nodeEdge = append(b.nodeEdge, copyOf...)
	b.nodeTime = make([]uint32, n)
	b.nodeDist = make([]uint32, n)
	b.turnFirst = make([]uint32, n+1)
	turns := len(arcs.turns)
	b.turnHead = make([]uint32, 0, turns)
	b.turnMS = make([]uint32, 0, turns)
	b.turnKind = make([]uint8, 0, turns)
	var condArcs []uint32
	var condIDs []uint16
	for i, id := range b.nodeEdge {
		b.nodeTime[i], b.nodeDist[i] = edgeCosts(&net.Edges[id/2], id%2)
		b.turnFirst[i] = uint32(len(b.turnHead))
		arcID := id
		if i >= nOrig {
			arcID = uint32(2*nE + i - nOrig)
		}
		for _, a := range arcs.of(arcID) {
			h := dense(a.head)
			if a.cond != 0 {
				condArcs, condIDs = append(condArcs, uint32(len(b.turnHead))), append(condIDs, a.cond)
			}
			b.turnHead = append(b.turnHead, h)
			b.turnMS = append(b.turnMS, a.ms)
			b.turnKind = append(b.turnKind, a.kind)
			if he := b.nodeEdge[h]; he/2 == id/2 && he != id {
				rep.UTurns++
			}
		}
	}
	b.turnFirst[n] = uint32(len(b.turnHead))
	g.tc = newTurnConds(condArcs, condIDs, ct, len(b.turnHead))
	rep.ConditionalTurns = len(condArcs)
	arcs = nil
	rep.Nodes, rep.Turns = n, len(b.turnHead)
	g.copyNetwork(net)
	for i, l := range leftHand {
		if l {
			g.edgeFlags[i] |= edgeLeftHand
		}
	}
	// Every component stays routable (an island without a ferry answers
	// its own routes; cells between components no route joins are
	// empty); snapping prefers the main one: an edge none of whose
	// directions lies in it is flagged.
	rep.OffMainNodes = nOrig - rep.Largest
	// A via path's edge whose original node only a restricted path
	// enters lies on the main component through its copy.
	onMain := map[uint32]bool{}
	for k, id := range copyOf {
		if c := comp[2*nE+k]; c >= 0 && int(c) == main {
			onMain[id/2] = true
		}
	}
	for e := 0; e < nE; e++ {
		off := !onMain[uint32(e)]
		for dir := 0; dir < 2; dir++ {
			if c := comp[2*e+dir]; c >= 0 && int(c) == main {
				off = false
			}
		}
		if off {
			g.edgeFlags[e] |= edgeOffMain
		}
	}
	comp = nil
	in := &buildInputs{shape: g.shape, starts: make([]uint32, nE), ends: make([]uint32, nE)}
	for e := 0; e < nE; e++ {
		in.starts[e] = g.shapeFirst[e]
		in.ends[e] = g.shapeFirst[e]
		if g.edgeNode[2*e] >= 0 || g.edgeNode[2*e+1] >= 0 {
			in.ends[e] = g.shapeFirst[e+1]
		}
	}
	in.tails, in.coords = g.cchInput()
	bounds := orb.Bound{Min: orb.Point{math.Inf(1), math.Inf(1)}, Max: orb.Point{math.Inf(-1), math.Inf(-1)}}
	for _, p := range g.shape {
		bounds = bounds.Extend(p)
	}
	g.meta = Meta{
		Source:        net.Source,
		Timestamp:     net.Timestamp,
		Nodes:         n,
		Edges:         nE,
		Turns:         len(b.turnHead),
		Copies:        len(copyOf),
		Components:    rep.Components,
		OffMainNodes:  rep.OffMainNodes,
		Bounds:        [4]float64{bounds.Min[0], bounds.Min[1], bounds.Max[0], bounds.Max[1]},
		DrivingSide:   drivingSide,
		LeftHandEdges: rep.LeftHandEdges,
		BuiltAt:       time.Now().UTC().Truncate(time.Second),
	}
	g.meta.FormatVersion = formatVersion
	// The network is copied: let its edges, shape and restrictions go.
	net.Edges, net.Shape, net.ShapeNodes, net.Restrictions, net.WayRestrictions = nil, nil, nil, nil, nil
	return g, in, nil
}

// hierarchyWeights returns the packed weights of metric m of every turn
// (the turn and the node it enters); -1, no arc, for a turn closed
// without a time (a conditional restriction's plain value).
func (g *Graph) hierarchyWeights(m chMetric) []int64 {
	b := &g.base
	w := make([]int64, len(b.turnHead))
	for v := range b.nodeEdge {
		for i := b.turnFirst[v]; i < b.turnFirst[v+1]; i++ {
			h := b.turnHead[i]
			w[i] = weight(m, int64(b.turnMS[i])+int64(b.nodeTime[h]), int64(b.nodeDist[h]))
		}
	}
	for _, i := range g.closedTurns(0) {
		w[i] = -1
	}
	return w
}

// chHierarchy returns the contraction hierarchy of the turn weights w,
// derived from the CCH topology rather than contracted with witness
// searches (cch.Topology.HierarchyOf): its arcs are the ones some
// shortest path needs, with exact weights, in the nested-dissection order
// the CCH computed already.
func (g *Graph) chHierarchy(w []int64, workers int) (*ch.Hierarchy, error) {
	x, err := g.cch.HierarchyOf(context.Background(), w, workers)
	if err != nil {
		return nil, err
	}
	return hierarchyFrom(x)
}
