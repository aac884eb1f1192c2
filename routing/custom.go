package routing

import (
	"context"
	"math"
	"sync"

	"github.com/geosvc/geosvc/routing/cch"
	"github.com/geosvc/geosvc/routing/profile"
)

// customMetric is a Metric compiled into integer weights over the
// graph's turn arcs and customized on the CCH topology. Every weight is a
// pair: the spec's own quantity (time in ms, distance in dm, fuel in
// microlitres, risk in 1e-12 crashes), then time ms << 32 + distance dm,
// so ties break by the weight, then time, then distance, totally and
// deterministically. It is read-only and safe for concurrent use.
type customMetric struct {
	g    *Graph
	spec Metric
	// Per node: the weight of traversing it, its time (custom speeds
	// applied) and whether the avoid flags leave it usable.
	nodeW  []int64
	nodeMS []uint32
	usable []bool
	// areas is what closing the spec's areas found and cost.
	areas areaClosure
	// truck holds a truck metric's rules (nil for a car).
	truck *truckRules
	// bucket is, while compiling, the travel time of each directed edge
	// in the spec's speed bucket (0: unchanged; nil without a bucket).
	bucket []uint32
	// weights[i] is turn arc i's input weight (Inf when avoided).
	weights []cch.Weight
	m       *cch.Metric
	pool    sync.Pool // *cch.Query
}

// customizeWorkers is the number of goroutines a customization uses.
const customizeWorkers = 2

// compileMetric turns a spec into node and arc weights.
// A bucket of a speed version the graph does not hold leaves the times
// unchanged (customize refuses it first).
func (g *Graph) compileMetric(spec Metric, tab *metricTables) *customMetric {
	b := &g.base
	n := len(b.nodeEdge)
	cm := &customMetric{g: g, spec: spec, nodeW: make([]int64, n), nodeMS: make([]uint32, n)}
	cm.bucket, _ = g.bucketOverrides(spec)
	cm.usable, cm.areas = g.usableNodes(spec)
	cm.truck = g.truckRulesOf(spec, tab)
	cm.weights = make([]cch.Weight, len(b.turnHead))
	// Nodes, then arcs (which read the nodes' weights), each split over
	// the customization's goroutines.
	parallelRanges(n, customizeWorkers, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			cm.compileNode(v, tab)
		}
	})
	parallelRanges(n, customizeWorkers, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			for i := b.turnFirst[v]; i < b.turnFirst[v+1]; i++ {
				h := b.turnHead[i]
				if !cm.usable[h] {
					cm.weights[i] = cch.Inf
					continue
				}
				w := cm.turnW(tab, i) + cm.nodeW[h]
				if cm.truck != nil {
					w += cm.truck.turnPenalty(v, h)
				}
				cm.weights[i] = cch.Weight{
					W: w,
					S: weight(chFastest, int64(b.turnMS[i])+int64(cm.nodeMS[h]), int64(b.nodeDist[h])),
				}
			}
		}
	})
	cm.bucket = nil
	// Conditional turn restrictions close their turns at the spec's
	// time (without one, those closed without a time).
	for _, i := range g.closedTurns(spec.Turns) {
		cm.weights[i] = cch.Inf
	}
	return cm
}

// compileNode sets node v's time (custom speeds applied) and weight.
func (cm *customMetric) compileNode(v int, tab *metricTables) {
	g, b, spec := cm.g, &cm.g.base, cm.spec
	e := b.nodeEdge[v] / 2
	rt := profile.RoadType(g.edgeRoadType[e])
	ms := b.nodeTime[v]
	if cm.bucket != nil {
		if t := cm.bucket[b.nodeEdge[v]]; t > 0 {
			ms = t
		}
	}
	kmh := 0.0
	if int(rt) < numRoadTypes {
		kmh = spec.Speeds[rt]
	}
	if kmh == 0 {
		kmh = spec.Speeds[profile.Defaultspeed]
	}
	if kmh > 0 {
		ms = uint32(math.Round(g.edgeLen[e] / (kmh / 3.6) * 1000))
	}
	if cm.truck != nil {
		ms = cm.truck.truckMS(g, e, ms, kmh > 0)
	}
	cm.nodeMS[v] = ms
	switch spec.Objective {
	case ObjectiveShortest:
		cm.nodeW[v] = int64(b.nodeDist[v])
	case ObjectiveEfficient:
		speed := maxSpeedKmh * 1.0
		if ms > 0 {
			speed = g.edgeLen[e] / (float64(ms) / 1000) * 3.6
		}
		cm.nodeW[v] = tab.fuel(g.edgeLen[e], speed)
	case ObjectiveSafest:
		cm.nodeW[v] = tab.risk(g.edgeLen[e], rt)
	default:
		cm.nodeW[v] = int64(ms)
	}
}

// parallelRanges calls fn on workers consecutive ranges covering [0, n),
// each on its own goroutine, and waits for them.
func parallelRanges(n, workers int, fn func(lo, hi int)) {
	var wg sync.WaitGroup
	per := (n + workers - 1) / workers
	for lo := 0; lo < n; lo += per {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			fn(lo, hi)
		}(lo, min(lo+per, n))
	}
	wg.Wait()
}

// turnW is the spec's weight of turn i itself.
func (cm *customMetric) turnW(tab *metricTables, i uint32) int64 {
	b := &cm.g.base
	switch cm.spec.Objective {
	case ObjectiveFastest:
		return int64(b.turnMS[i])
	case ObjectiveSafest:
		switch b.turnKind[i] {
		case turnAcross:
			return tab.riskAcross
		case turnU:
			return tab.riskUTurn
		}
	}
	return 0
}

// customize compiles the metric spec and customizes it.
func (g *Graph) customize(ctx context.Context, spec Metric) (*customMetric, error) {
	if err := g.checkBucket(spec.Bucket); err != nil {
		return nil, err
	}
	cm := g.compileMetric(spec, defaultMetricTables())
	m, err := g.cch.Customize(ctx, cm.weights, cch.Options{Workers: customizeWorkers})
	if err != nil {
		return nil, err
	}
	cm.m = m
	cm.pool.New = func() any { return m.NewQuery() }
	return cm, nil
}

// bytes returns the memory the metric holds, for cache accounting.
func (cm *customMetric) bytes() int64 {
	return cm.m.Bytes() + int64(len(cm.weights))*16 + int64(len(cm.nodeW))*(8+4+1) + int64(len(cm.areas.edges))*4 + 128
}

// whole and partial return node n's pair weight and that of its first
// fraction f (each lane rounded on its own).
func (cm *customMetric) whole(n uint32) cch.Weight {
	return cch.Weight{W: cm.nodeW[n], S: weight(chFastest, int64(cm.nodeMS[n]), int64(cm.g.base.nodeDist[n]))}
}

func (cm *customMetric) partial(n uint32, f float64) cch.Weight {
	ms := int64(math.Round(float64(cm.nodeMS[n]) * f))
	dm := int64(math.Round(float64(cm.g.base.nodeDist[n]) * f))
	return cch.Weight{W: int64(math.Round(float64(cm.nodeW[n]) * f)), S: weight(chFastest, ms, dm)}
}

// endpoints returns s's CCH endpoints as a source (the cost from the
// point to the end of its node) or a target (minus that cost, on the
// node's copies too), on usable nodes only.
func (cm *customMetric) endpoints(s Snap, source bool, buf []cch.Endpoint) []cch.Endpoint {
	var ph [2]phantom
	buf = buf[:0]
	ps := cm.g.phantoms(chFastest, s, ph[:0])
	if !source {
		ps = cm.g.withCopies(ps)
	}
	for _, p := range ps {
		if !cm.usable[p.node] {
			continue
		}
		w, pw := cm.whole(p.node), cm.partial(p.node, p.frac)
		d := cch.Weight{W: w.W - pw.W, S: w.S - pw.S}
		if !source {
			d = cch.Weight{W: -d.W, S: -d.S}
		}
		buf = append(buf, cch.Endpoint{Node: p.node, Init: d})
	}
	return buf
}

// accepts reports whether a snap may land on road edge e: some
// direction of it is a usable node.
func (cm *customMetric) accepts(e uint32) bool {
	for dir := uint32(0); dir < 2; dir++ {
		if n := cm.g.edgeNode[directedID(e, dir)]; n >= 0 && cm.usable[n] {
			return true
		}
	}
	return false
}

// avoidFilter returns whether an edge may be snapped to under m's avoid
// flags and areas.
func (g *Graph) avoidFilter(m Metric) func(e uint32) bool {
	usable, _ := g.usableNodes(m)
	cm := &customMetric{g: g, usable: usable}
	return cm.accepts
}

// usableNodes returns, per node, whether m's avoid flags, areas and (for
// a truck) vehicle leave it usable, and what closing the areas found.
func (g *Graph) usableNodes(m Metric) ([]bool, areaClosure) {
	avoid := m.Avoid
	usable := make([]bool, len(g.base.nodeEdge))
	var flags uint8
	if avoid&AvoidFerry != 0 {
		flags |= edgeFerry
	}
	if avoid&AvoidToll != 0 {
		flags |= edgeToll
	}
	if avoid&AvoidUnpaved != 0 {
		flags |= edgeUnpaved
	}
	motorway := make([]bool, len(g.classes))
	if avoid&AvoidMotorway != 0 {
		for i, c := range g.classes {
			motorway[i] = c == "motorway" || c == "motorway_link"
		}
	}
	for v, id := range g.base.nodeEdge {
		e := id / 2
		usable[v] = g.edgeFlags[e]&flags == 0 && !motorway[g.edgeClass[e]]
	}
	if m.Profile == ProfileTruck {
		g.closeForTruck(m.Vehicle, usable)
	}
	closure := g.closeAreas(m.Areas)
	if len(closure.edges) > 0 {
		// Every node of a closed edge: its two directions and the
		// copies via-way restrictions made of them, which share their
		// original's directed edge.
		closed := make([]bool, len(g.edgeFrom))
		for _, e := range closure.edges {
			closed[e] = true
		}
		for v, id := range g.base.nodeEdge {
			if closed[id/2] {
				usable[v] = false
			}
		}
	}
	return usable, closure
}

// route computes the best route of the metric between two snapped points.
func (cm *customMetric) route(from, to Snap) (*Route, error) {
	if !from.OK || !to.OK {
		return nil, ErrNotSnapped
	}
	var sb, tb [2]cch.Endpoint
	src := cm.endpoints(from, true, sb[:0])
	dst := cm.endpoints(to, false, tb[:0])
	if len(src) == 0 || len(dst) == 0 {
		return nil, ErrNoRoute
	}
	q := cm.pool.Get().(*cch.Query)
	defer cm.pool.Put(q)
	best, meet := q.ShortestPath(src, dst)
	if best.IsInf() {
		return nil, ErrNoRoute
	}
	path := q.Path(meet)
	d, dist := toUnits(chFastest, best.S)
	return cm.g.routeOf(path, from, to, int(d), int(dist), cm.nodeMS), nil
}

// weightOf returns the least pair weight between two snapped points (Inf
// when there is none): what tests compare with the Dijkstra oracle.
func (cm *customMetric) weightOf(from, to Snap) cch.Weight {
	var sb, tb [2]cch.Endpoint
	src := cm.endpoints(from, true, sb[:0])
	dst := cm.endpoints(to, false, tb[:0])
	q := cm.pool.Get().(*cch.Query)
	defer cm.pool.Put(q)
	w, _ := q.ShortestPath(src, dst)
	return w
}
