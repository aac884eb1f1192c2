package osmroad

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/paulmach/orb"
	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/geo/roadref"
	"github.com/geosvc/geosvc/routing/profile"
	"github.com/geosvc/geosvc/routing/speeds"
)

// Node flags kept per needed node.
const (
	nodePresent uint8 = 1 << iota // coordinates read
	nodeSignal                    // highway=traffic_signals
	nodeBarrier                   // stops a car
)

const noVertex = ^uint32(0)

// builder collects what the OSM passes deliver and builds the Network.
type builder struct {
	prof  *profile.Profile
	truck *profile.Truck
	start time.Time

	// Counters written from the PBF decoder goroutines.
	nodesRead, waysRead, relsRead atomic.Int64
	newest                        newestTime
	timestamp                     time.Time

	// Pass 1: car ways and restriction relations, in file order.
	ways     []wayRec
	refs     []int64 // node ids of the car ways, back to back
	names    map[string]uint32
	nameList []string
	local    map[localKey]string // name:xx of the names (localnames.go)
	rels     []relRec
	sides    map[string]bool // driving_side=left by country code (drivingside.go)
	condWays []CondMaxspeedWay
	skipped  map[string]int // RestrictionsSkipped by reason
	rep      Report

	// After pass 1: the needed nodes, sorted by id.
	ids    []int64
	refIdx []uint32 // refs as indexes into ids
	coords []orb.Point
	flags  []uint8

	// Pass 2: the ref (exit number) of each motorway junction node,
	// written from the decoder goroutines.
	exitsMu sync.Mutex
	exits   map[int64]string
}

// wayRec is one car way: its node refs refs[refStart:refEnd] and what the
// profile made of it.
type wayRec struct {
	id               int64
	refStart, refEnd uint32
	name             uint32
	// ref, dest and exit index the name table: the way's route numbers
	// (ref), where its signs lead (destination:ref, destination) and its
	// exit number (junction:ref).
	ref, dest, exit uint32
	w               profile.Way
	// truck is what the way's tags say to trucks.
	truck profile.TruckTags
}

func newBuilder(prof *profile.Profile) *builder {
	return &builder{
		prof:     prof,
		truck:    profile.DefaultTruck(),
		start:    time.Now(),
		names:    map[string]uint32{"": 0},
		nameList: []string{""},
	}
}

func (b *builder) seen(ts time.Time) { b.newest.see(ts) }

// filterWay counts a way and reports whether it may be a car way; it runs
// in the decoder goroutines.
func (b *builder) filterWay(w *osm.Way) bool {
	b.waysRead.Add(1)
	b.seen(w.Timestamp)
	return b.prof.IsCarCandidate(w.Tags.Find("highway"), w.Tags.Find("route"))
}

// filterRelation counts a relation and keeps restrictions; it runs in the
// decoder goroutines.
func (b *builder) filterRelation(r *osm.Relation) bool {
	b.relsRead.Add(1)
	b.seen(r.Timestamp)
	return r.Tags.Find("type") == "restriction" || isDrivingSideRelation(r)
}

// object handles a way or relation that passed the filters.
func (b *builder) object(o osm.Object) {
	switch o := o.(type) {
	case *osm.Way:
		b.way(o)
	case *osm.Relation:
		if isDrivingSideRelation(o) {
			b.countrySide(o)
			return
		}
		b.relation(o)
	}
}

// way records a car way.
func (b *builder) way(w *osm.Way) {
	attrs, ok := b.prof.Way(w.Tags)
	if !ok {
		return
	}
	start := len(b.refs)
	for _, n := range w.Nodes {
		id := int64(n.ID)
		if len(b.refs) > start && b.refs[len(b.refs)-1] == id {
			continue // a repeated node adds no segment
		}
		b.refs = append(b.refs, id)
	}
	if len(b.refs)-start < 2 {
		b.refs = b.refs[:start]
		b.rep.WaysTooShort++
		return
	}
	b.rep.CarWays++
	if attrs.Route {
		b.rep.Ferries++
	}
	tt := b.truck.TruckTags(w.Tags)
	b.rep.Truck.countWay(tt, w.Tags.Find("hgv") != "")
	b.condMaxspeed(w, attrs, b.refs[start:])
	name := b.intern(wayName(w.Tags))
	b.localNames(name, w.Tags)
	b.ways = append(b.ways, wayRec{
		id:       int64(w.ID),
		refStart: uint32(start),
		refEnd:   uint32(len(b.refs)),
		name:     name,
		ref:      b.intern(wayRef(w.Tags)),
		dest:     b.intern(destination(w.Tags)),
		exit:     b.intern(strings.TrimSpace(w.Tags.Find("junction:ref"))),
		w:        attrs,
		truck:    tt,
	})
}

// condMaxspeed records w's conditional maximum speeds, by direction,
// on the nodes it keeps (refs).
func (b *builder) condMaxspeed(w *osm.Way, attrs profile.Way, refs []int64) {
	read := false
	for _, d := range []struct {
		key      string
		fwd, bwd bool
	}{{"maxspeed:conditional", true, true}, {"maxspeed:forward:conditional", true, false}, {"maxspeed:backward:conditional", false, true}} {
		v := w.Tags.Find(d.key)
		if v == "" {
			continue
		}
		parts, skipped := speeds.ParseConditionalMaxspeed(v)
		b.rep.CondMaxspeedSkipped += skipped
		fwd, bwd := d.fwd && attrs.Forward, d.bwd && attrs.Backward
		if len(parts) == 0 || (!fwd && !bwd) {
			continue
		}
		read = true
		b.condWays = append(b.condWays, CondMaxspeedWay{Nodes: append([]int64(nil), refs...), Forward: fwd, Backward: bwd, Parts: parts})
	}
	if read {
		b.rep.CondMaxspeedWays++
	}
}

// wayRef is a way's route numbers as signs write them ("I 95;US 202" ->
// "I-95 / US-202"), else its raw ref.
func wayRef(t osm.Tags) string {
	if refs := roadref.Numbers(t.Find("ref")); len(refs) > 0 {
		return strings.Join(refs, " / ")
	}
	return strings.TrimSpace(t.Find("ref"))
}

// destination is where a way's signs lead, as a route description says
// it: the route numbers of destination:ref ("I 95 North" -> "I-95
// North"), then the places of destination ("Wilmington;Baltimore"),
// joined by ": " ("I-95 North: Wilmington, Baltimore"); "" without those
// tags.
func destination(t osm.Tags) string {
	var refs []string
	for _, r := range strings.Split(t.Find("destination:ref"), ";") {
		if n := roadref.Numbers(r); len(n) > 0 {
			refs = append(refs, n[0])
		} else if r = strings.Join(strings.Fields(r), " "); r != "" {
			refs = append(refs, r)
		}
	}
	var places []string
	for _, d := range strings.Split(placeList(t.Find("destination")), ";") {
		if d = strings.Join(strings.Fields(d), " "); d != "" {
			places = append(places, d)
		}
	}
	parts := make([]string, 0, 2)
	if len(refs) > 0 {
		parts = append(parts, strings.Join(refs, " / "))
	}
	if len(places) > 0 {
		parts = append(parts, strings.Join(places, ", "))
	}
	return strings.Join(parts, ": ")
}

// placeList reads a comma written without a space after it as OSM's ";"
// between two places ("Martin Luther King Jr Boulevard,Fourth Street", a
// common mistagging); a comma and a space stay part of one place's name
// ("Washington, DC").
func placeList(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == ',' && (i+1 == len(v) || v[i+1] != ' ') {
			b.WriteByte(';')
			continue
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// wayName is the street name shown for a way: name, else its route
// numbers as signs write them ("I 95;US 202" -> "I-95 / US-202"), else
// the raw ref, else "".
func wayName(t osm.Tags) string {
	if n := t.Find("name"); n != "" {
		return n
	}
	if refs := roadref.Numbers(t.Find("ref")); len(refs) > 0 {
		return strings.Join(refs, " / ")
	}
	return t.Find("ref")
}

func (b *builder) intern(s string) uint32 {
	if i, ok := b.names[s]; ok {
		return i
	}
	i := uint32(len(b.nameList))
	b.names[s] = i
	b.nameList = append(b.nameList, s)
	return i
}

// endWaysPass indexes the nodes the car ways need.
func (b *builder) endWaysPass() {
	ids := slices.Clone(b.refs)
	slices.Sort(ids)
	b.ids = slices.Compact(ids)
	b.refIdx = make([]uint32, len(b.refs))
	for i, id := range b.refs {
		j, _ := slices.BinarySearch(b.ids, id)
		b.refIdx[i] = uint32(j)
	}
	b.refs = nil
	b.coords = make([]orb.Point, len(b.ids))
	b.flags = make([]uint8, len(b.ids))
}

// node handles a node of the PBF node pass; it runs in the decoder
// goroutines, writing only the slots of its own node.
func (b *builder) node(n *osm.Node) {
	b.nodesRead.Add(1)
	b.seen(n.Timestamp)
	b.placeNode(n)
}

// placeNode stores the coordinates and flags of a needed node.
func (b *builder) placeNode(n *osm.Node) {
	i, ok := slices.BinarySearch(b.ids, int64(n.ID))
	if !ok {
		return
	}
	f := nodePresent
	if len(n.Tags) > 0 {
		signal, barrier := b.prof.Node(n.Tags)
		if signal {
			f |= nodeSignal
		}
		if barrier {
			f |= nodeBarrier
		}
	}
	b.coords[i] = orb.Point{n.Lon, n.Lat}
	b.flags[i] = f
	if n.Tags.Find("highway") == "motorway_junction" {
		if ref := strings.TrimSpace(n.Tags.Find("ref")); ref != "" {
			b.exitsMu.Lock()
			if b.exits == nil {
				b.exits = map[int64]string{}
			}
			b.exits[int64(n.ID)] = ref
			b.exitsMu.Unlock()
		}
	}
}

// part is a run of consecutive nodes of a way that all have coordinates:
// refIdx[start:end].
type part struct {
	way        int32
	start, end uint32
}

// build turns the collected ways and nodes into the Network.
func (b *builder) build() *Network {
	b.mergeCoincident()
	parts := b.splitParts()
	isV := b.markVertices(parts)
	vid, vertices := b.numberVertices(isV)
	net := &Network{
		Vertices:      vertices,
		Signal:        make([]bool, len(vertices)),
		Barrier:       make([]bool, len(vertices)),
		Names:         b.nameList,
		DrivingSide:   b.prof.DrivingSide,
		Sides:         b.countrySides(),
		CondMaxspeeds: b.condWays,
	}
	for i, v := range vid {
		if v == noVertex {
			continue
		}
		net.Signal[v] = b.flags[i]&nodeSignal != 0
		net.Barrier[v] = b.flags[i]&nodeBarrier != 0
	}
	wayEdges := b.emitEdges(net, parts, isV, vid)
	net.Names = b.nameList // the edges may have added exit numbers
	net.LocalNames = b.localNameList()
	b.mapRestrictions(net, wayEdges, vid)

	r := &b.rep
	r.NodesRead = int(b.nodesRead.Load())
	r.WaysRead = int(b.waysRead.Load())
	r.RelationsRead = int(b.relsRead.Load())
	r.Vertices = len(net.Vertices)
	r.Edges = len(net.Edges)
	r.ShapePoints = len(net.Shape)
	for i := range net.Edges {
		r.Truck.countEdge(net.Edges[i].Truck)
	}
	for v := range net.Vertices {
		if net.Signal[v] {
			r.TrafficSignals++
		}
		if net.Barrier[v] {
			r.Barriers++
		}
	}
	if r.MissingNodeRefs > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d node references of car ways have no coordinates in the file (extract boundary?): the ways were cut there", r.MissingNodeRefs))
	}
	if r.WaysTooShort > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d car ways have fewer than two distinct nodes and were dropped", r.WaysTooShort))
	}
	net.Timestamp = b.timestamp
	if net.Timestamp.IsZero() {
		net.Timestamp = b.newest.time()
	}
	r.Duration = time.Since(b.start)
	r.PeakRSSBytes = peakRSS()
	net.Report = *r
	return net
}

// mergeCoincident folds nodes that follow each other in a car way at the
// very same position into one (the first by id), so that no edge has
// length 0. Their flags are combined, and ways that shrink below two
// distinct nodes are dropped.
func (b *builder) mergeCoincident() {
	var parent map[uint32]uint32
	find := func(i uint32) uint32 {
		for {
			p, ok := parent[i]
			if !ok {
				return i
			}
			i = p
		}
	}
	for _, w := range b.ways {
		for k := w.refStart + 1; k < w.refEnd; k++ {
			i, j := b.refIdx[k-1], b.refIdx[k]
			if b.flags[i]&b.flags[j]&nodePresent == 0 || b.coords[i] != b.coords[j] {
				continue
			}
			if parent == nil {
				parent = map[uint32]uint32{}
			}
			ri, rj := find(i), find(j)
			if ri == rj {
				continue
			}
			if rj < ri {
				ri, rj = rj, ri
			}
			parent[rj] = ri
			b.flags[ri] |= b.flags[rj]
		}
	}
	if parent == nil {
		return
	}
	b.rep.Warnings = append(b.rep.Warnings, fmt.Sprintf("%d nodes lie at the very position of the node before them in a car way: merged into it", len(parent)))
	for k := range b.refIdx {
		b.refIdx[k] = find(b.refIdx[k])
	}
	for r := range b.rels {
		if len(b.rels[r].viaWays) > 0 {
			continue
		}
		if i, ok := slices.BinarySearch(b.ids, b.rels[r].viaNode); ok {
			b.rels[r].viaNode = b.ids[find(uint32(i))]
		}
	}
	// Drop the repeats merging made, way by way, in place.
	ways := b.ways[:0]
	out := uint32(0)
	for _, w := range b.ways {
		start := out
		for k := w.refStart; k < w.refEnd; k++ {
			if out > start && b.refIdx[out-1] == b.refIdx[k] {
				continue
			}
			b.refIdx[out] = b.refIdx[k]
			out++
		}
		if out-start < 2 {
			out = start
			b.rep.WaysTooShort++
			b.rep.CarWays--
			if w.w.Route {
				b.rep.Ferries--
			}
			continue
		}
		w.refStart, w.refEnd = start, out
		ways = append(ways, w)
	}
	b.ways = ways
	b.refIdx = b.refIdx[:out]
}

// splitParts cuts every car way into runs of nodes with coordinates.
func (b *builder) splitParts() []part {
	parts := make([]part, 0, len(b.ways))
	for wi, w := range b.ways {
		s := w.refStart
		for i := w.refStart; i <= w.refEnd; i++ {
			if i < w.refEnd && b.flags[b.refIdx[i]]&nodePresent != 0 {
				continue
			}
			if i < w.refEnd {
				b.rep.MissingNodeRefs++
			}
			if i-s >= 2 {
				parts = append(parts, part{way: int32(wi), start: s, end: i})
			}
			s = i + 1
		}
	}
	return parts
}

// markVertices returns which needed nodes are graph vertices: part ends,
// nodes used twice or more, signals, barriers and restriction via nodes;
// plus the middle node of any closed loop that would otherwise be an edge
// from a vertex to itself.
func (b *builder) markVertices(parts []part) []bool {
	uses := make([]uint8, len(b.ids))
	isV := make([]bool, len(b.ids))
	for _, p := range parts {
		for _, n := range b.refIdx[p.start:p.end] {
			if uses[n] < 2 {
				uses[n]++
			}
		}
		isV[b.refIdx[p.start]] = true
		isV[b.refIdx[p.end-1]] = true
	}
	for i, u := range uses {
		if u >= 2 || u > 0 && b.flags[i]&(nodeSignal|nodeBarrier) != 0 {
			isV[i] = true
		}
	}
	for _, r := range b.rels {
		if len(r.viaWays) > 0 {
			continue
		}
		if i, ok := slices.BinarySearch(b.ids, r.viaNode); ok && uses[i] > 0 {
			isV[i] = true
		}
	}
	for _, p := range parts {
		nodes := b.refIdx[p.start:p.end]
		s := 0
		for j := 1; j < len(nodes); j++ {
			if !isV[nodes[j]] {
				continue
			}
			if nodes[j] == nodes[s] {
				isV[nodes[s+(j-s)/2]] = true
			}
			s = j
		}
	}
	return isV
}

// numberVertices gives the vertices ids in node-id order.
func (b *builder) numberVertices(isV []bool) (vid []uint32, vertices []orb.Point) {
	vid = make([]uint32, len(isV))
	for i, v := range isV {
		if !v {
			vid[i] = noVertex
			continue
		}
		vid[i] = uint32(len(vertices))
		vertices = append(vertices, b.coords[i])
	}
	return vid, vertices
}

// emitEdges cuts the parts at vertices into edges, in way order, and
// returns for each way the range of its edges.
func (b *builder) emitEdges(net *Network, parts []part, isV []bool, vid []uint32) [][2]uint32 {
	wayEdges := make([][2]uint32, len(b.ways))
	for pi := 0; pi < len(parts); {
		wi := parts[pi].way
		w := &b.ways[wi]
		first := uint32(len(net.Edges))
		wayLen := 0.0
		for ; pi < len(parts) && parts[pi].way == wi; pi++ {
			nodes := b.refIdx[parts[pi].start:parts[pi].end]
			s := 0
			for j := 1; j < len(nodes); j++ {
				if !isV[nodes[j]] {
					continue
				}
				e := b.edge(net, w, nodes[s:j+1], vid)
				wayLen += e.LengthM
				net.Edges = append(net.Edges, e)
				s = j
			}
		}
		last := uint32(len(net.Edges))
		wayEdges[wi] = [2]uint32{first, last}
		if d := w.w.DurationS; d > 0 {
			for e := first; e < last; e++ {
				share := 1 / float64(last-first)
				if wayLen > 0 {
					share = net.Edges[e].LengthM / wayLen
				}
				net.Edges[e].DurationS = d * share
			}
		}
	}
	return wayEdges
}

// edge builds one edge over nodes (vertex to vertex) of way w and appends
// its shape.
func (b *builder) edge(net *Network, w *wayRec, nodes []uint32, vid []uint32) Edge {
	start := uint32(len(net.Shape))
	length := 0.0
	for k, n := range nodes {
		p := b.coords[n]
		if k > 0 {
			length += geo.HaversineM(net.Shape[len(net.Shape)-1], p)
		}
		net.Shape = append(net.Shape, p)
		net.ShapeNodes = append(net.ShapeNodes, b.ids[n])
	}
	a := &w.w
	exit := w.exit
	if exit == 0 && strings.HasSuffix(a.Class, "_link") && a.Forward && !a.Backward {
		// A link leaving a motorway junction node takes its exit number.
		if ref, ok := b.exits[b.ids[nodes[0]]]; ok {
			exit = b.intern(ref)
		}
	}
	return Edge{
		From:        vid[nodes[0]],
		To:          vid[nodes[len(nodes)-1]],
		Forward:     a.Forward,
		Backward:    a.Backward,
		LengthM:     length,
		SpeedFwdKmh: a.SpeedFwdKmh,
		SpeedBwdKmh: a.SpeedBwdKmh,
		Name:        w.name,
		Ref:         w.ref,
		Destination: w.dest,
		Exit:        exit,
		Class:       a.Class,
		RoadType:    a.RoadType,
		Roundabout:  a.Roundabout,
		Ferry:       a.Route,
		Toll:        a.Toll,
		Unpaved:     a.Unpaved,
		Bridge:      a.Bridge,
		Tunnel:      a.Tunnel,
		Layer:       a.Layer,
		Truck:       w.truck,
		ShapeStart:  start,
		ShapeEnd:    uint32(len(net.Shape)),
		WayID:       w.id,
	}
}
