package routing

import (
	"context"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/routing/ch"
	"github.com/geosvc/geosvc/routing/profile"
)

// Route computes the best route for metric m from one snapped point to
// another, with its full path. It returns ErrNotSnapped for a Snap that is
// not OK, ErrNoRoute when the destination cannot be reached, and ctx's
// error if ctx ends while m is customized (plain Fastest and Shortest
// need no customization).
func (g *Graph) Route(ctx context.Context, m Metric, from, to Snap) (*Route, error) {
	if !from.OK || !to.OK {
		return nil, ErrNotSnapped
	}
	h, ok := m.hierarchy()
	if !ok {
		cm, err := g.customMetric(ctx, m)
		if err != nil {
			return nil, err
		}
		return cm.route(from, to)
	}
	return g.chRoute(h, from, to)
}

// chRoute is Route on hierarchy m.
func (g *Graph) chRoute(m chMetric, from, to Snap) (*Route, error) {
	var sb, tb [2]ch.Endpoint
	src := g.sourceEndpoints(m, from, sb[:0])
	dst := g.targetEndpoints(m, to, tb[:0])
	if len(src) == 0 || len(dst) == 0 {
		return nil, ErrNoRoute
	}
	q := g.query(m)
	best, meet := q.ShortestPath(src, dst)
	if best == ch.Inf {
		g.release(m, q)
		return nil, ErrNoRoute
	}
	path := q.Path(meet)
	g.release(m, q)
	d, dist := toUnits(m, best)
	return g.routeOf(path, from, to, int(d), int(dist), g.base.nodeTime), nil
}

// routeOf builds the route along path (nodes) from one snapped point to
// another; nodeMS gives each node's time.
func (g *Graph) routeOf(path []uint32, from, to Snap, durationS, distanceM int, nodeMS []uint32) *Route {
	r := &Route{DurationS: durationS, DistanceM: distanceM}
	var ph [2]phantom
	srcFrac := fracOf(g.phantoms(chFastest, from, ph[:0]), path[0])
	dstFrac := fracOf(g.withCopies(g.phantoms(chFastest, to, ph[:0])), path[len(path)-1])
	for i, n := range path {
		startF, endF := 0.0, 1.0
		if i == 0 {
			startF = srcFrac
		}
		if i == len(path)-1 {
			endF = dstFrac
		}
		var turnS float64
		if i > 0 {
			turnS = float64(g.turnMS(path[i-1], n)) / 1000
		}
		id := g.base.nodeEdge[n]
		e, dir := id/2, id%2
		share := endF - startF
		seg := Segment{
			Edge:      e,
			Name:      g.names[g.edgeName[e]],
			Ref:       g.signText(g.edgeRef, e),
			Dest:      g.signText(g.edgeDest, e),
			Exit:      g.signText(g.edgeExit, e),
			Class:     g.classes[g.edgeClass[e]],
			RoadType:  profile.RoadType(g.edgeRoadType[e]),
			DurationS: float64(nodeMS[n])*share/1000 + turnS,
			DistanceM: float64(g.base.nodeDist[n]) * share / 10,
			TurnCostS: turnS,
			LeftHand:  g.edgeFlags[e]&edgeLeftHand != 0,
			Toll:      g.edgeFlags[e]&edgeToll != 0,
			Geometry:  g.travelled(e, dir, startF, endF),
			node:      n,
			dir:       dir,
			from:      startF,
			to:        endF,
		}
		if g.edgeFlags[e]&edgeRoundabout != 0 {
			seg.Roundabout, seg.RoundaboutExits = true, g.roundaboutExits(n)
		}
		r.Segments = append(r.Segments, seg)
		for k, p := range seg.Geometry {
			if k == 0 && len(r.Geometry) > 0 && r.Geometry[len(r.Geometry)-1] == p {
				continue
			}
			r.Geometry = append(r.Geometry, p)
		}
	}
	return r
}

func fracOf(ps []phantom, node uint32) float64 {
	for _, p := range ps {
		if p.node == node {
			return p.frac
		}
	}
	return 0
}

// turnMS returns the cost of the cheapest turn a->b.
func (g *Graph) turnMS(a, b uint32) uint32 {
	best := uint32(1<<32 - 1)
	for i := g.base.turnFirst[a]; i < g.base.turnFirst[a+1]; i++ {
		if g.base.turnHead[i] == b && g.base.turnMS[i] < best {
			best = g.base.turnMS[i]
		}
	}
	if best == 1<<32-1 {
		return 0
	}
	return best
}

// travelled returns the part of edge e between fractions from and to of
// the direction of travel dir, in travel order.
func (g *Graph) travelled(e, dir uint32, from, to float64) orb.LineString {
	shape := g.edgeShape(e)
	if dir == 1 {
		from, to = 1-to, 1-from
	}
	var line orb.LineString
	if from <= 0 && to >= 1 {
		line = append(orb.LineString(nil), shape...)
	} else {
		line = cutLine(shape, g.edgeLen[e], from, to)
	}
	if dir == 1 {
		for i, j := 0, len(line)-1; i < j; i, j = i+1, j-1 {
			line[i], line[j] = line[j], line[i]
		}
	}
	return line
}

// cutLine returns the part of a polyline of total length total between the
// fractions from <= to of its length.
func cutLine(shape []orb.Point, total, from, to float64) orb.LineString {
	return cutLineInto(orb.LineString{}, shape, total, from, to)
}

// cutLineInto is cutLine appending to out (empty).
func cutLineInto(out orb.LineString, shape []orb.Point, total, from, to float64) orb.LineString {
	if from < 0 {
		from = 0
	}
	if to > 1 {
		to = 1
	}
	a, b := from*total, to*total
	var pos float64
	for i := 1; i < len(shape); i++ {
		segLen := geo.HaversineM(shape[i-1], shape[i])
		lo, hi := pos, pos+segLen
		if len(out) == 0 && a <= hi {
			out = append(out, interpolate(shape[i-1], shape[i], frac(a-lo, segLen)))
		}
		if len(out) > 0 {
			if b <= hi {
				out = append(out, interpolate(shape[i-1], shape[i], frac(b-lo, segLen)))
				return out
			}
			out = append(out, shape[i])
		}
		pos = hi
	}
	if len(out) == 0 {
		out = append(out, shape[len(shape)-1])
	}
	if len(out) == 1 {
		out = append(out, out[0])
	}
	return out
}

func frac(x, total float64) float64 {
	if total <= 0 {
		return 0
	}
	f := x / total
	if f < 0 {
		return 0
	}
	if f > 1 {
		return 1
	}
	return f
}

func interpolate(a, b orb.Point, f float64) orb.Point {
	return orb.Point{a[0] + (b[0]-a[0])*f, a[1] + (b[1]-a[1])*f}
}
