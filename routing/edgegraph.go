package routing

import (
	"math"
	"slices"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/osmroad"
)

// The edge-based graph: a node per drivable direction of a network edge,
// an arc per allowed turn. An arc a->b costs the turn at the shared vertex
// plus traversing b entirely, so a node's label in a search is the cost of
// reaching the END of that directed edge.

// turnCostFunc returns the time in seconds a turn costs: angleDeg is the
// signed deviation from straight ahead (positive = right turn, in
// (-180, 180]), uTurn marks a U-turn, signal a traffic signal at the
// vertex, roads the number of road edges meeting there, and leftHand
// whether traffic keeps to the left on the road the turn comes from.
type turnCostFunc func(angleDeg float64, uTurn, signal bool, roads int, leftHand bool) float64

// directedID is the id of edge e driven in direction dir before dense
// numbering.
func directedID(e uint32, dir uint32) uint32 { return e*2 + dir }

// edgeCosts returns the integer time (ms) and distance (dm) of driving
// edge e in direction dir.
func edgeCosts(e *osmroad.Edge, dir uint32) (ms, dm uint32) {
	dm = uint32(math.Round(e.LengthM * 10))
	switch {
	case e.DurationS > 0:
		ms = uint32(math.Round(e.DurationS * 1000))
	default:
		speed := e.SpeedFwdKmh
		if dir == 1 {
			speed = e.SpeedBwdKmh
		}
		if speed <= 0 {
			speed = 1
		}
		ms = uint32(math.Round(e.LengthM / (speed / 3.6) * 1000))
	}
	return ms, dm
}

// bearing returns the initial compass bearing from a to b in degrees.
func bearing(a, b orb.Point) float64 {
	lat1, lat2 := a[1]*math.Pi/180, b[1]*math.Pi/180
	dLon := (b[0] - a[0]) * math.Pi / 180
	y := math.Sin(dLon) * math.Cos(lat2)
	x := math.Cos(lat1)*math.Sin(lat2) - math.Sin(lat1)*math.Cos(lat2)*math.Cos(dLon)
	return math.Mod(math.Atan2(y, x)*180/math.Pi+360, 360)
}

// turnAngle is the signed deviation from straight ahead going from bearing
// in to bearing out: positive right, in (-180, 180].
func turnAngle(in, out float64) float64 {
	a := math.Mod(out-in+360, 360)
	if a > 180 {
		a -= 360
	}
	return a
}

// shapeOf returns the shape of edge e.
func shapeOf(net *osmroad.Network, e *osmroad.Edge) []orb.Point {
	return net.Shape[e.ShapeStart:e.ShapeEnd]
}

// arrivalBearing is the bearing of the last shape segment of e travelled
// in direction dir.
func arrivalBearing(net *osmroad.Network, e *osmroad.Edge, dir uint32) float64 {
	s := shapeOf(net, e)
	n := len(s)
	if dir == 0 {
		return bearing(s[n-2], s[n-1])
	}
	return bearing(s[1], s[0])
}

// departureBearing is the bearing of the first shape segment of e
// travelled in direction dir.
func departureBearing(net *osmroad.Network, e *osmroad.Edge, dir uint32) float64 {
	s := shapeOf(net, e)
	n := len(s)
	if dir == 0 {
		return bearing(s[0], s[1])
	}
	return bearing(s[n-1], s[n-2])
}

type turnKey struct{ from, to uint32 }

// restrictionIndex answers whether a turn from edge to edge at a vertex is
// allowed.
type restrictionIndex struct {
	forbidden map[uint32]map[turnKey]bool    // via -> (from, to)
	only      map[uint32]map[uint32][]uint32 // via -> from -> allowed tos
	// cond holds the conditional ones, which close turns at some times
	// only (turncond.go).
	cond condIndex
}

func newRestrictionIndex(rs []osmroad.Restriction) *restrictionIndex {
	ri := &restrictionIndex{
		forbidden: map[uint32]map[turnKey]bool{},
		only:      map[uint32]map[uint32][]uint32{},
	}
	for _, r := range rs {
		if r.Cond != nil {
			ri.cond.add(r)
			continue
		}
		if r.Only {
			m := ri.only[r.Via]
			if m == nil {
				m = map[uint32][]uint32{}
				ri.only[r.Via] = m
			}
			m[r.FromEdge] = append(m[r.FromEdge], r.ToEdge)
		} else {
			m := ri.forbidden[r.Via]
			if m == nil {
				m = map[turnKey]bool{}
				ri.forbidden[r.Via] = m
			}
			m[turnKey{r.FromEdge, r.ToEdge}] = true
		}
	}
	return ri
}

func (ri *restrictionIndex) allowed(via, from, to uint32) bool {
	if ri.forbidden[via][turnKey{from, to}] {
		return false
	}
	if m := ri.only[via]; m != nil {
		if tos, ok := m[from]; ok {
			for _, t := range tos {
				if t == to {
					return true
				}
			}
			return false
		}
	}
	return true
}

type incidence struct {
	edge uint32
	dir  uint32 // direction of travel that ARRIVES at the vertex (for in) or LEAVES it (for out)
}

// baseArcs is the full edge-based graph (before components are told
// apart) over directed ids 2e+dir: the turns out of directed id d are
// turns[first[d]:first[d]+count[d]]. Every turn out of d is made at d's
// head vertex, so they are written together, vertex by vertex: first is
// an offset, not a CSR prefix sum.
type baseArcs struct {
	first []uint32
	count []uint16
	turns []turnArc
}

// of returns the turns out of directed id d.
func (b *baseArcs) of(d uint32) []turnArc {
	return b.turns[b.first[d] : b.first[d]+uint32(b.count[d])]
}

// csrIncidences returns, per vertex, the edge directions that leave it
// (outs) or arrive at it (ins), in CSR form: v's are list[first[v]:first[v+1]].
func csrIncidences(net *osmroad.Network) (outFirst []uint32, outs []incidence, inFirst []uint32, ins []incidence) {
	nV := len(net.Vertices)
	outFirst, inFirst = make([]uint32, nV+1), make([]uint32, nV+1)
	for i := range net.Edges {
		e := &net.Edges[i]
		if e.Forward {
			outFirst[e.From+1]++
			inFirst[e.To+1]++
		}
		if e.Backward {
			outFirst[e.To+1]++
			inFirst[e.From+1]++
		}
	}
	for v := 0; v < nV; v++ {
		outFirst[v+1] += outFirst[v]
		inFirst[v+1] += inFirst[v]
	}
	outs, ins = make([]incidence, outFirst[nV]), make([]incidence, inFirst[nV])
	outFill, inFill := slices.Clone(outFirst[:nV]), slices.Clone(inFirst[:nV])
	put := func(list []incidence, fill []uint32, v uint32, x incidence) {
		list[fill[v]] = x
		fill[v]++
	}
	for i := range net.Edges {
		e := &net.Edges[i]
		id := uint32(i)
		if e.Forward {
			put(outs, outFill, e.From, incidence{id, 0})
			put(ins, inFill, e.To, incidence{id, 0})
		}
		if e.Backward {
			put(outs, outFill, e.To, incidence{id, 1})
			put(ins, inFill, e.From, incidence{id, 1})
		}
	}
	return outFirst, outs, inFirst, ins
}

// buildBaseGraph builds the full edge-based graph (before components are
// told apart) over directed ids 2e+dir; nodes of directions a car may not
// drive have no arcs and are flagged in usable.
// leftHand holds per road edge whether traffic keeps left on it (nil: on
// none).
//
// A turn a conditional restriction forbids stays, with the id in ct of
// when it is closed.
func buildBaseGraph(net *osmroad.Network, turnCost turnCostFunc, leftHand []bool, ct *condTable) (arcs *baseArcs, usable []bool, stats buildStats) {
	nE := len(net.Edges)
	nV := len(net.Vertices)
	usable = make([]bool, 2*nE)
	roads := make([]int32, nV)
	for i := range net.Edges {
		e := &net.Edges[i]
		roads[e.From]++
		roads[e.To]++
		usable[directedID(uint32(i), 0)] = e.Forward
		usable[directedID(uint32(i), 1)] = e.Backward
	}
	outFirst, outAll, inFirst, inAll := csrIncidences(net)
	ri := newRestrictionIndex(net.Restrictions)
	arcs = &baseArcs{first: make([]uint32, 2*nE), count: make([]uint16, 2*nE)}
	for v := 0; v < nV; v++ {
		signal := v < len(net.Signal) && net.Signal[v]
		barrier := v < len(net.Barrier) && net.Barrier[v]
		outs := outAll[outFirst[v]:outFirst[v+1]]
		for _, in := range inAll[inFirst[v]:inFirst[v+1]] {
			from := directedID(in.edge, in.dir)
			arcs.first[from] = uint32(len(arcs.turns))
			inB := arrivalBearing(net, &net.Edges[in.edge], in.dir)
			left := leftHand != nil && leftHand[in.edge]
			// A U-turn is allowed only where nothing else is: dead ends,
			// barriers, and vertices every other way out of is forbidden.
			var others int
			for _, out := range outs {
				if out.edge == in.edge && out.dir != in.dir {
					continue
				}
				if barrier || !ri.allowed(uint32(v), in.edge, out.edge) {
					continue
				}
				others++
			}
			for _, out := range outs {
				uTurn := out.edge == in.edge && out.dir != in.dir
				if uTurn {
					if others > 0 {
						continue
					}
				} else if barrier || !ri.allowed(uint32(v), in.edge, out.edge) {
					stats.turnsRestricted++
					continue
				}
				if uTurn && !ri.allowed(uint32(v), in.edge, out.edge) && !barrier {
					stats.turnsRestricted++
					continue
				}
				angle := 180.0
				if !uTurn {
					angle = turnAngle(inB, departureBearing(net, &net.Edges[out.edge], out.dir))
				}
				cost := turnCost(angle, uTurn, signal, int(roads[v]), left)
				arcs.turns = append(arcs.turns, turnArc{
					head: directedID(out.edge, out.dir),
					ms:   uint32(math.Round(cost * 1000)),
					kind: turnKindOf(angle, uTurn, int(roads[v]), left),
					cond: ct.merge(0, ri.cond.conds(uint32(v), in.edge, out.edge)...),
				})
				stats.turns++
				if uTurn {
					stats.uTurns++
				}
			}
			arcs.count[from] = uint16(uint32(len(arcs.turns)) - arcs.first[from])
		}
	}
	return arcs, usable, stats
}

type turnArc struct {
	head uint32
	ms   uint32
	kind uint8
	// cond is the turn's condition in the build's condTable (0: none).
	cond uint16
}

// Turn kinds, for the safest metric's turn penalties.
const (
	turnPlain  uint8 = iota
	turnAcross       // across oncoming traffic: left where traffic drives on the right
	turnU            // a U-turn
)

// acrossTrafficDeg is the smallest deviation from straight ahead, towards
// the oncoming side, that makes a turn at a junction one across traffic.
const acrossTrafficDeg = 45

// turnKindOf classifies a turn: a U-turn, a turn of at least 45 degrees
// towards the oncoming side at a junction of three or more roads (across
// traffic), or plain.
func turnKindOf(angleDeg float64, uTurn bool, roads int, leftHand bool) uint8 {
	switch {
	case uTurn:
		return turnU
	case roads < 3:
		return turnPlain
	case leftHand && angleDeg >= acrossTrafficDeg:
		return turnAcross
	case !leftHand && angleDeg <= -acrossTrafficDeg:
		return turnAcross
	}
	return turnPlain
}

// Edge flags (Graph.edgeFlags).
const (
	edgeToll uint8 = 1 << iota
	edgeUnpaved
	edgeFerry
	// edgeOffMain: no direction of the edge lies in the largest strongly
	// connected component (snapping prefers roads of that one).
	edgeOffMain
	// edgeLeftHand: traffic keeps to the left on the edge (its country's
	// driving side, drivingside.go).
	edgeLeftHand
	// edgeBridge and edgeTunnel: the way is a bridge, a tunnel (maps).
	edgeBridge
	edgeTunnel
	// edgeRoundabout: the edge is part of a roundabout (junction=
	// roundabout or circular); graphs built before it was kept have
	// none.
	edgeRoundabout
)

func edgeFlagsOf(e *osmroad.Edge) uint8 {
	var f uint8
	if e.Toll {
		f |= edgeToll
	}
	if e.Unpaved {
		f |= edgeUnpaved
	}
	if e.Ferry {
		f |= edgeFerry
	}
	if e.Bridge {
		f |= edgeBridge
	}
	if e.Tunnel {
		f |= edgeTunnel
	}
	if e.Roundabout {
		f |= edgeRoundabout
	}
	return f
}

type buildStats struct {
	turns, uTurns, turnsRestricted int
}
