package routing

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/internal/binfmt"
	"github.com/geosvc/geosvc/routing/cch"
	"github.com/geosvc/geosvc/routing/ch"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/snap"
)

// Meta describes a built graph.
type Meta struct {
	// Source is the OSM file the graph was built from.
	Source string `json:"source"`
	// Timestamp is the OSM data date.
	Timestamp time.Time `json:"timestamp"`
	// FormatVersion is the graph file format version.
	FormatVersion uint32 `json:"format_version"`
	// Nodes is the number of edge-based nodes (drivable edge directions);
	// Edges the number of compressed road edges; Turns the number of
	// allowed turns.
	Nodes int `json:"nodes"`
	Edges int `json:"edges"`
	Turns int `json:"turns"`
	// Copies is the number of nodes, the last ones, that via-way turn
	// restrictions added as copies of others (each on its original's
	// directed edge); they are counted in Nodes.
	Copies int `json:"copies"`
	// Components is the number of strongly connected components of the
	// edge-based graph; OffMainNodes the nodes outside the largest one
	// (the main component), which points snap to only where no road of
	// the main one is within the radius. Both count original nodes only
	// (copies are their originals' road directions).
	Components   int `json:"components"`
	OffMainNodes int `json:"off_main_nodes"`
	// Bounds is the extent of the roads, [west, south, east, north].
	Bounds [4]float64 `json:"bounds"`
	// DrivingSide is "right" or "left": the profile's side, that of
	// every road outside the countries whose OSM boundary relation states
	// another (drivingside.go).
	DrivingSide string `json:"driving_side"`
	// LeftHandEdges counts the road edges where traffic keeps left.
	LeftHandEdges int `json:"left_hand_edges"`
	// BuiltAt is when the graph was built.
	BuiltAt time.Time `json:"built_at"`
}

// BuildReport describes a graph build.
type BuildReport struct {
	Import          osmroad.Report
	Nodes           int
	Turns           int
	UTurns          int
	TurnsRestricted int
	// ConditionalTurns counts the turns conditional restrictions close
	// at some times (turncond.go).
	ConditionalTurns int
	// WayRestrictions counts the via-way restriction paths applied (one
	// per from edge), WayRestrictionsVacuous those a car cannot drive
	// anyway (a turn along the path is forbidden), Copies the nodes they
	// added.
	WayRestrictions, WayRestrictionsVacuous, Copies int
	Components                                      int
	// Largest is the largest (main) component's size, OffMainNodes the
	// nodes of the others; Small counts the components below OSRM's
	// small-component size (1000 nodes).
	Largest, OffMainNodes, Small int
	// LeftHandEdges counts the road edges where traffic keeps left.
	LeftHandEdges int
	Shortcuts     [2]int
	// Greedy is true when the hierarchies were contracted greedily
	// rather than derived from the CCH (Contraction).
	Greedy        bool
	EdgeGraphTime time.Duration
	ContractTime  [2]time.Duration
	SnapIndexTime time.Duration
	CCHTime       time.Duration
	TotalTime     time.Duration
}

// String formats the report for people.
func (r *BuildReport) String() string {
	cond := ""
	if r.ConditionalTurns > 0 {
		cond = fmt.Sprintf("conditional turn restrictions: %d turns closed at some times (by time with departure times)\n", r.ConditionalTurns)
	}
	return strings.Replace(fmt.Sprintf(
		"edge-based graph: %d nodes, %d turns (%d U-turns at dead ends), %d turns restricted, built in %v\n"+
			"via-way restrictions: %d paths applied with %d node copies, %d paths not drivable anyway\n"+
			"components: %d, the main one of %d nodes; the others (%d below %d nodes) hold %d nodes: every one is routable, points snap to them only where no road of the main one is within the radius\n"+
			"hierarchies %s: fastest %d shortcuts in %v, shortest %d shortcuts in %v\n"+
			"snapping index: %v; CCH topology: %v; total %v",
		r.Nodes, r.Turns, r.UTurns, r.TurnsRestricted, r.EdgeGraphTime.Round(time.Millisecond),
		r.WayRestrictions, r.Copies, r.WayRestrictionsVacuous,
		r.Components, r.Largest, r.Small, smallComponent, r.OffMainNodes,
		map[bool]string{false: "from the CCH (perfect customization)", true: "by greedy contraction"}[r.Greedy], r.Shortcuts[0], r.ContractTime[0].Round(time.Millisecond), r.Shortcuts[1], r.ContractTime[1].Round(time.Millisecond),
		r.SnapIndexTime.Round(time.Millisecond), r.CCHTime.Round(time.Millisecond), r.TotalTime.Round(time.Millisecond)),
		"\ncomponents: ", "\n"+cond+"components: ", 1)
}

// Graph is the routing engine over one data set. It is read-only and safe
// for concurrent use.
type Graph struct {
	meta Meta
	// tc are the conditional turn restrictions' turns (nil without
	// any).
	tc *turnConds

	// Road edges (index = osmroad edge id).
	edgeFrom, edgeTo []uint32
	shapeFirst       []uint32 // edge e's shape is shape[shapeFirst[e]:shapeFirst[e+1]]
	shape            []orb.Point
	shapeNode        []int64   // OSM node id of each shape point (empty for a graph without them)
	edgeLen          []float64 // metres
	edgeName         []uint32
	edgeRef          []uint32 // route numbers, destination and exit number
	edgeDest         []uint32 // of each edge, indexes into names
	edgeExit         []uint32
	names            []string
	local            localNames // names in other languages (localnames.go)
	edgeClass        []uint8
	classes          []string
	edgeRoadType     []uint8
	edgeFlags        []uint8 // edgeToll | edgeUnpaved | edgeFerry | ...
	edgeLayer        []uint8 // OSM layer=* of each edge, as int8
	edgeNode         []int32 // dense node of directed id 2e+dir, or -1
	// Truck tags: per edge the hgv access of each direction and the
	// hazmat bans (truckBits); the edges with dimension limits,
	// ascending, and numTruckLimits limits of each (truckedges.go).
	edgeTruck   []uint8
	truckEdges  []uint32
	truckLimits []uint32

	base baseCSR
	h    [2]*ch.Hierarchy
	snap *snap.Index
	// cch is the metric-independent CCH topology over the turn arcs (input
	// arc i is turn i of base); custom metrics customize it.
	cch     *cch.Topology
	metrics *metricCache

	// Speed profiles: the current one and the ones held for metrics that
	// name them, newest first (speedstate.go).
	speedMu   sync.Mutex
	speedCur  atomic.Pointer[SpeedProfile]
	speedHeld []*SpeedProfile

	pools [2]sync.Pool // *ch.Query per metric
	// tdPool holds the labels of time-dependent searches (*tdState).
	tdPool sync.Pool

	// copies lists, per original node, the copies via-way restrictions
	// made of it (nil without any): a destination is reached on them too.
	copies map[uint32][]uint32

	// files are the memory-mapped files the graph reads (nil for a graph
	// built in memory), for Release.
	files []*binfmt.File

	// The road index of MapRoads, built on its first call.
	mapOnce sync.Once
	mapIx   *mapIndex

	// The junction index of JunctionsWithin, built on its first call.
	junctionsOnce sync.Once
	junctions     *junctionIndex

	// The road edges at each vertex, for Reached.Vertex, built on its
	// first call.
	vertexOnce sync.Once
	vertices   *vertexIndex

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
	g.edgeLayer = make([]uint8, nE)
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
		g.edgeLayer[i] = uint8(e.Layer)
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
	if len(net.ShapeNodes) == len(net.Shape) {
		g.shapeNode = make([]int64, 0, len(g.shape))
		for i := range net.Edges {
			e := &net.Edges[i]
			g.shapeNode = append(g.shapeNode, net.ShapeNodes[e.ShapeStart:e.ShapeEnd]...)
		}
	}
	g.copyTruck(net.Edges)
	g.copyLocalNames(net)
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
	// Capacity capped: the shape array is the mapped file, read-only, and
	// an append by a caller must copy rather than write into the next
	// edge's shape.
	return g.shape[g.shapeFirst[e]:g.shapeFirst[e+1]:g.shapeFirst[e+1]]
}

func (g *Graph) initPools() {
	g.initCopies()
	g.metrics = newMetricCache(g, defaultMetricCacheBytes)
	for m := chFastest; m <= chShortest; m++ {
		h := g.h[m]
		g.pools[m].New = func() any { return h.NewQuery() }
	}
}

func (g *Graph) query(m chMetric) *ch.Query { return g.pools[m].Get().(*ch.Query) }

func (g *Graph) release(m chMetric, q *ch.Query) { g.pools[m].Put(q) }
