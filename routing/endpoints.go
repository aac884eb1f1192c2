package routing

import (
	"math"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/ch"
	"github.com/geosvc/geosvc/routing/snap"
)

// Snap places p on the nearest road within radiusM metres (the default
// radius when radiusM <= 0) that m does not avoid: not of an avoided kind
// and not closed by an avoided area (a point inside an area snaps to the
// nearest open road, outside it or in a hole, within the radius) and, for
// a truck, not closed to its vehicle. The result's OK is false when there
// is none.
func (g *Graph) Snap(m Metric, p orb.Point, radiusM float64) Snap {
	return g.snapAccepting(p, radiusM, g.snapFilter(m))
}

// snapFilter returns which edges m lets a point snap to, nil when m
// avoids nothing (every edge).
func (g *Graph) snapFilter(m Metric) func(uint32) bool {
	if m.Avoid == 0 && m.Areas.IsZero() && m.Profile == ProfileCar {
		return nil
	}
	return g.avoidFilter(m)
}

// SnapAll snaps every point; see Snap.
func (g *Graph) SnapAll(m Metric, pts []orb.Point, radiusM float64) []Snap {
	accept := g.snapFilter(m)
	out := make([]Snap, len(pts))
	for i, p := range pts {
		out[i] = g.snapAccepting(p, radiusM, accept)
	}
	return out
}

// snapAccepting places p on the nearest road within radiusM metres that
// accept allows (nil: every road).
func (g *Graph) snapAccepting(p orb.Point, radiusM float64, accept func(uint32) bool) Snap {
	if accept == nil {
		s, _ := g.snapSegments(p, radiusM, false, nil)
		return s
	}
	s, _ := g.snapSegments(p, radiusM, false, func(e uint32, _ int) bool { return accept(e) })
	return s
}

// snapSegments places p on the nearest road segment within radiusM metres
// that accept allows (nil: every one), of the main component first unless
// anyComponent. It returns the snap and the segment of its edge.
func (g *Graph) snapSegments(p orb.Point, radiusM float64, anyComponent bool, accept func(e uint32, seg int) bool) (Snap, int) {
	if radiusM <= 0 {
		radiusM = DefaultSnapRadiusM
	}
	s := Snap{Input: p}
	if !validPoint(p) {
		return s, 0
	}
	// A road of the main component (the largest, which the other points
	// of a request reach and are reached from) first: a point next to a
	// parking lot whose exit is one-way the wrong way is not captured by
	// it (OSRM's rule of preferring big components); else any road, an
	// island's own. anyComponent (OSRM's snapping=any) skips the first.
	var hit snap.Hit
	ok := false
	if !anyComponent {
		hit, ok = g.snap.NearestSegment(p, radiusM, func(e uint32, seg int) bool {
			return g.edgeFlags[e]&edgeOffMain == 0 && (accept == nil || accept(e, seg))
		})
	}
	if !ok && (anyComponent || g.meta.OffMainNodes > 0) {
		hit, ok = g.snap.NearestSegment(p, radiusM, accept)
	}
	if !ok {
		return s, 0
	}
	s.Point, s.DistanceM, s.Edge, s.Fraction, s.OK = hit.Point, hit.DistanceM, hit.Edge, hit.Fraction, true
	return s, hit.Segment
}

func validPoint(p orb.Point) bool {
	return !math.IsNaN(p[0]) && !math.IsNaN(p[1]) && p[0] >= -180 && p[0] <= 180 && p[1] >= -90 && p[1] <= 90
}

// phantom is one drivable direction of the snapped edge: its node, and the
// cost from the node's start to the snapped point.
type phantom struct {
	node    uint32
	frac    float64 // position along the direction of travel
	partial int64   // weight from the start of the node to the point
}

// phantoms returns the (up to two) directions of s's edge in the graph.
func (g *Graph) phantoms(m chMetric, s Snap, buf []phantom) []phantom {
	buf = buf[:0]
	if !s.OK {
		return buf
	}
	for dir := uint32(0); dir < 2; dir++ {
		n := g.edgeNode[directedID(s.Edge, dir)]
		if n < 0 || s.Barred&(1<<dir) != 0 {
			continue
		}
		f := s.Fraction
		if dir == 1 {
			f = 1 - f
		}
		buf = append(buf, phantom{node: uint32(n), frac: f, partial: g.partialWeight(m, uint32(n), f)})
	}
	return buf
}

// partialWeight is the weight of the first fraction f of node n, each of
// time and distance rounded on its own.
func (g *Graph) partialWeight(m chMetric, n uint32, f float64) int64 {
	ms := int64(math.Round(float64(g.base.nodeTime[n]) * f))
	dm := int64(math.Round(float64(g.base.nodeDist[n]) * f))
	return weight(m, ms, dm)
}

// sourceEndpoints: a source's label is the cost from the point to the end
// of its node.
func (g *Graph) sourceEndpoints(m chMetric, s Snap, buf []ch.Endpoint) []ch.Endpoint {
	var ph [2]phantom
	buf = buf[:0]
	for _, p := range g.phantoms(m, s, ph[:0]) {
		buf = append(buf, ch.Endpoint{Node: p.node, Init: g.nodeWeight(m, p.node) - p.partial})
	}
	return buf
}

// targetEndpoints: a target's label is minus the cost from the point to
// the end of its node, on the node's copies too.
func (g *Graph) targetEndpoints(m chMetric, s Snap, buf []ch.Endpoint) []ch.Endpoint {
	var ph [2]phantom
	buf = buf[:0]
	for _, p := range g.withCopies(g.phantoms(m, s, ph[:0])) {
		buf = append(buf, ch.Endpoint{Node: p.node, Init: p.partial - g.nodeWeight(m, p.node)})
	}
	return buf
}

// seconds and metres round a weight's parts to whole units.
func toUnits(m chMetric, w int64) (seconds, metres int32) {
	ms, dm := unweight(m, w)
	return int32((ms + 500) / 1000), int32((dm + 5) / 10)
}

// Bounds returns the extent of the roads in the graph.
func (g *Graph) Bounds() orb.Bound {
	b := g.meta.Bounds
	return orb.Bound{Min: orb.Point{b[0], b[1]}, Max: orb.Point{b[2], b[3]}}
}
