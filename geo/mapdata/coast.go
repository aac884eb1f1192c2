package mapdata

import (
	"math"
	"sort"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
)

// CoastWay is a natural=coastline way: land on its left, water on its
// right (OSM's convention).
type CoastWay struct {
	Nodes  []int64
	Points []orb.Point
}

// CoastReport says how the sea was assembled.
type CoastReport struct {
	// WorldWays counts the stretches of the world base layer's coast
	// added where the extract has no coastline (worldcoast.go); they are
	// among Ways.
	WorldWays int
	// Ways counts the coastline ways; Chains the chains they join into.
	Ways, Chains int
	// Islands counts the closed land rings inside the box.
	Islands int
	// GapsClosed counts the open ends joined to another chain's start
	// across a gap (at most MaxCoastGapM, crossing no coastline).
	GapsClosed int
	// EndsExtended counts the open ends inside the box extended straight
	// to its nearest side that the extension reaches without crossing the
	// coastline (extracts cut coastlines anywhere).
	EndsExtended int
	// SeaPolygons counts the water polygons made.
	SeaPolygons int
}

// MaxCoastGapM is the longest gap between the end of one coastline chain
// and the start of another (both inside the box) that assembly closes
// with a straight line, metres. Extracts cut a river's two banks a few
// kilometres apart (Delaware: the Delaware River at Marcus Hook, 4.4 km).
const MaxCoastGapM = 10_000

// coastSlackM is how close to a gap's ends the coastline may cross the
// gap's closing line, metres.
const coastSlackM = 100

// chain is a joined run of coastline ways.
type chain struct {
	nodes []int64
	pts   []orb.Point
}

func (c *chain) closed() bool { return len(c.nodes) > 3 && c.nodes[0] == c.nodes[len(c.nodes)-1] }

// AssembleSea assembles coastline ways into the polygons of the sea inside
// box, as OSMCoastline does for the planet: ways are joined end to end
// into chains (direction kept: land on the left); closed chains inside the
// box are islands (counter-clockwise) or enclosed seas (clockwise); open
// chains, and closed ones the box cuts, are clipped to the box, their ends
// inside the box first joined across short gaps or extended to the box's
// edge, and the water polygons are closed along the box's edge
// counter-clockwise (water on the left of the reversed coastline).
// Islands become holes of the water polygon around them. When no chain
// crosses the box but islands lie in it, the whole box is sea.
func AssembleSea(ways []CoastWay, box orb.Bound) ([]orb.Polygon, CoastReport) {
	rep := CoastReport{Ways: len(ways)}
	chains := joinCoast(ways)
	rep.Chains = len(chains)
	mt := metricAt((box.Min[1] + box.Max[1]) / 2)
	inBox := func(p orb.Point) bool { return box.Contains(p) }
	var islands, enclosed []orb.Ring
	var open []*chain
	for _, c := range chains {
		if c.closed() && chainInside(c.pts, box) {
			r := orb.Ring(c.pts)
			if planar.Area(r) > 0 {
				islands = append(islands, r)
			} else if planar.Area(r) < 0 {
				enclosed = append(enclosed, r)
			}
			continue
		}
		if c.closed() {
			// Start a closed chain the box cuts at a point outside it.
			for i, p := range c.pts {
				if !inBox(p) {
					pts := append(append([]orb.Point(nil), c.pts[i:]...), c.pts[1:i+1]...)
					nodes := append(append([]int64(nil), c.nodes[i:]...), c.nodes[1:i+1]...)
					c = &chain{nodes: nodes, pts: pts}
					break
				}
			}
		}
		open = append(open, c)
	}
	// The segments of every chain, for crossing tests: the chains as
	// joined, and what the steps below add to them (gap closings and end
	// extensions of a chain of the list, not of a rotated copy).
	grid := newSegmentGrid(coastGridCell(box))
	inChains := map[*chain]bool{}
	for _, c := range chains {
		inChains[c] = true
		grid.addLine(c.pts)
	}
	// The coastline's own wiggles within coastSlackM of the segment's
	// ends do not count (a chain often hooks back around its cut end).
	near := func(p, q orb.Point) bool {
		return math.Hypot((p[0]-q[0])*mt.kx, (p[1]-q[1])*mt.ky) < coastSlackM
	}
	crosses := func(a, b orb.Point) bool {
		return grid.any(a, b, func(p, q orb.Point) bool {
			if (near(p, a) && near(q, a)) || (near(p, b) && near(q, b)) {
				return false
			}
			return segmentsCross(a, b, p, q)
		})
	}
	interior := func(p orb.Point) bool { return inBox(p) && !onEdge(p, box) }
	// Close gaps: the nearest (end, start) pair inside the box first.
	var rings []orb.Ring
	open, rings, rep.GapsClosed = closeGaps(open, mt, interior, crosses, func(a, b *chain) {
		if inChains[a] {
			grid.add(a.pts[len(a.pts)-1], b.pts[0])
			if !inChains[b] {
				grid.addLine(b.pts)
			}
		}
	})
	for _, r := range rings {
		if planar.Area(r) > 0 {
			islands = append(islands, r)
		} else {
			enclosed = append(enclosed, r)
		}
	}
	// Extend the ends left inside the box to its edge.
	for _, c := range open {
		if p := c.pts[0]; interior(p) {
			if q, ok := edgeProjection(p, box, mt, crosses); ok {
				c.pts = append([]orb.Point{q}, c.pts...)
				rep.EndsExtended++
				if inChains[c] {
					grid.add(q, p)
				}
			}
		}
		if p := c.pts[len(c.pts)-1]; interior(p) {
			if q, ok := edgeProjection(p, box, mt, crosses); ok {
				c.pts = append(c.pts, q)
				rep.EndsExtended++
				if inChains[c] {
					grid.add(p, q)
				}
			}
		}
	}
	// Clip to the box into parts from edge to edge, reversed (water on
	// the left).
	var parts [][]orb.Point
	for _, c := range open {
		for _, p := range clipLine(c.pts, box) {
			if len(p) < 2 || !onEdge(p[0], box) || !onEdge(p[len(p)-1], box) {
				continue
			}
			rev := make([]orb.Point, len(p))
			for i, q := range p {
				rev[len(p)-1-i] = q
			}
			parts = append(parts, rev)
		}
	}
	var water []orb.Polygon
	switch {
	case len(parts) > 0:
		for _, r := range closeAlongEdge(parts, box) {
			if planar.Area(r) > 0 {
				water = append(water, orb.Polygon{r})
			}
		}
	case len(islands) > 0:
		water = append(water, orb.Polygon{boxRing(box)})
	}
	outer := make([]*ringIndex, len(water))
	for i := range water {
		outer[i] = newRingIndex(water[i][0])
	}
	for _, isl := range islands {
		rep.Islands++
		for i := range water {
			if outer[i].contains(isl[0]) {
				water[i] = append(water[i], reverse(isl))
				break
			}
		}
	}
	for _, r := range enclosed {
		water = append(water, orb.Polygon{reverse(r)})
	}
	rep.SeaPolygons = len(water)
	return water, rep
}

// joinCoast joins coastline ways end to start into chains.
func joinCoast(ways []CoastWay) []*chain {
	byStart := map[int64][]int{}
	byEnd := map[int64][]int{}
	for i, w := range ways {
		if len(w.Nodes) < 2 || len(w.Points) != len(w.Nodes) {
			continue
		}
		byStart[w.Nodes[0]] = append(byStart[w.Nodes[0]], i)
		byEnd[w.Nodes[len(w.Nodes)-1]] = append(byEnd[w.Nodes[len(w.Nodes)-1]], i)
	}
	used := make([]bool, len(ways))
	take := func(m map[int64][]int, n int64) int {
		for _, i := range m[n] {
			if !used[i] {
				used[i] = true
				return i
			}
		}
		return -1
	}
	var out []*chain
	for i, w := range ways {
		if used[i] || len(w.Nodes) < 2 || len(w.Points) != len(w.Nodes) {
			continue
		}
		used[i] = true
		c := &chain{nodes: append([]int64(nil), w.Nodes...), pts: append([]orb.Point(nil), w.Points...)}
		for !c.closed() {
			j := take(byStart, c.nodes[len(c.nodes)-1])
			if j < 0 {
				break
			}
			c.nodes = append(c.nodes, ways[j].Nodes[1:]...)
			c.pts = append(c.pts, ways[j].Points[1:]...)
		}
		for !c.closed() {
			j := take(byEnd, c.nodes[0])
			if j < 0 {
				break
			}
			n := ways[j].Nodes
			c.nodes = append(append([]int64(nil), n[:len(n)-1]...), c.nodes...)
			c.pts = append(append([]orb.Point(nil), ways[j].Points[:len(n)-1]...), c.pts...)
		}
		out = append(out, c)
	}
	return out
}

// chainInside reports whether every point lies inside box.
func chainInside(pts []orb.Point, box orb.Bound) bool {
	for _, p := range pts {
		if !box.Contains(p) {
			return false
		}
	}
	return true
}

// onEdge reports whether p lies on box's edge.
func onEdge(p orb.Point, box orb.Bound) bool {
	return box.Contains(p) && (p[0] == box.Min[0] || p[0] == box.Max[0] || p[1] == box.Min[1] || p[1] == box.Max[1])
}

// edgeProjection returns the foot of p on the nearest side of box whose
// straight extension from p crosses no coastline.
func edgeProjection(p orb.Point, box orb.Bound, mt metric, crosses func(a, b orb.Point) bool) (orb.Point, bool) {
	type cand struct {
		q orb.Point
		d float64
	}
	cs := []cand{
		{orb.Point{box.Min[0], p[1]}, (p[0] - box.Min[0]) * mt.kx},
		{orb.Point{box.Max[0], p[1]}, (box.Max[0] - p[0]) * mt.kx},
		{orb.Point{p[0], box.Min[1]}, (p[1] - box.Min[1]) * mt.ky},
		{orb.Point{p[0], box.Max[1]}, (box.Max[1] - p[1]) * mt.ky},
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	for _, c := range cs {
		if !crosses(p, c.q) {
			return c.q, true
		}
	}
	return cs[0].q, true
}

// segmentsCross reports whether segments a-b and c-d cross at a point
// interior to both.
func segmentsCross(a, b, c, d orb.Point) bool {
	o := func(p, q, r orb.Point) float64 { return (q[0]-p[0])*(r[1]-p[1]) - (q[1]-p[1])*(r[0]-p[0]) }
	d1, d2 := o(a, b, c), o(a, b, d)
	d3, d4 := o(c, d, a), o(c, d, b)
	return (d1 > 0 && d2 < 0 || d1 < 0 && d2 > 0) && (d3 > 0 && d4 < 0 || d3 < 0 && d4 > 0)
}

// clipLine cuts a polyline into its parts inside box (Liang-Barsky per
// segment), with the points where it crosses the edge.
func clipLine(pts []orb.Point, box orb.Bound) [][]orb.Point {
	var parts [][]orb.Point
	var cur []orb.Point
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		t0, t1, ok := clipSegment(a, b, box)
		if !ok {
			if cur != nil {
				parts = append(parts, cur)
				cur = nil
			}
			continue
		}
		pa := lerpOnBox(a, b, t0, box)
		pb := lerpOnBox(a, b, t1, box)
		if cur == nil {
			cur = []orb.Point{pa}
		} else if cur[len(cur)-1] != pa {
			cur = append(cur, pa)
		}
		cur = append(cur, pb)
		if t1 < 1 {
			parts = append(parts, cur)
			cur = nil
		}
	}
	if cur != nil {
		parts = append(parts, cur)
	}
	return parts
}

// clipSegment returns the parameters of segment a-b inside box.
func clipSegment(a, b orb.Point, box orb.Bound) (float64, float64, bool) {
	t0, t1 := 0.0, 1.0
	dx, dy := b[0]-a[0], b[1]-a[1]
	for _, e := range [4][2]float64{{-dx, a[0] - box.Min[0]}, {dx, box.Max[0] - a[0]}, {-dy, a[1] - box.Min[1]}, {dy, box.Max[1] - a[1]}} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return 0, 0, false
			}
			continue
		}
		r := q / p
		if p < 0 {
			t0 = max(t0, r)
		} else {
			t1 = min(t1, r)
		}
	}
	return t0, t1, t0 <= t1
}

// lerpOnBox returns a + t (b - a), snapped onto box's edge when t cuts
// the segment (0 < t < 1) and clamped into the box.
func lerpOnBox(a, b orb.Point, t float64, box orb.Bound) orb.Point {
	if t <= 0 {
		return a
	}
	if t >= 1 {
		return b
	}
	p := orb.Point{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1])}
	p[0] = min(max(p[0], box.Min[0]), box.Max[0])
	p[1] = min(max(p[1], box.Min[1]), box.Max[1])
	// Snap to the nearest edge.
	d := [4]float64{p[0] - box.Min[0], box.Max[0] - p[0], p[1] - box.Min[1], box.Max[1] - p[1]}
	k := 0
	for i := range d {
		if d[i] < d[k] {
			k = i
		}
	}
	switch k {
	case 0:
		p[0] = box.Min[0]
	case 1:
		p[0] = box.Max[0]
	case 2:
		p[1] = box.Min[1]
	default:
		p[1] = box.Max[1]
	}
	return p
}

// perimeter returns the position of an edge point along box's edge,
// counter-clockwise from the south-west corner, in [0, 4).
func perimeter(p orb.Point, box orb.Bound) float64 {
	w, h := box.Max[0]-box.Min[0], box.Max[1]-box.Min[1]
	frac := func(v, lo, span float64) float64 {
		if span <= 0 {
			return 0
		}
		return min(max((v-lo)/span, 0), 1)
	}
	switch {
	case p[1] == box.Min[1] && p[0] < box.Max[0]:
		return frac(p[0], box.Min[0], w)
	case p[0] == box.Max[0] && p[1] < box.Max[1]:
		return 1 + frac(p[1], box.Min[1], h)
	case p[1] == box.Max[1] && p[0] > box.Min[0]:
		return 2 + frac(box.Max[0]-p[0], 0, w)
	default:
		return math.Mod(3+frac(box.Max[1]-p[1], 0, h), 4)
	}
}

// closeAlongEdge joins parts (each from an edge point to an edge point,
// water on its left) into rings: from a part's end it walks the edge
// counter-clockwise to the next part's start, taking the corners it
// passes.
func closeAlongEdge(parts [][]orb.Point, box orb.Bound) []orb.Ring {
	corners := [4]orb.Point{{box.Max[0], box.Min[1]}, {box.Max[0], box.Max[1]}, {box.Min[0], box.Max[1]}, {box.Min[0], box.Min[1]}}
	startT := make([]float64, len(parts))
	for i, p := range parts {
		startT[i] = perimeter(p[0], box)
	}
	used := make([]bool, len(parts))
	var rings []orb.Ring
	for first := range parts {
		if used[first] {
			continue
		}
		var ring []orb.Point
		cur := first
		for steps := 0; steps <= len(parts); steps++ {
			used[cur] = true
			ring = append(ring, parts[cur]...)
			t := perimeter(parts[cur][len(parts[cur])-1], box)
			// the next start counter-clockwise from t
			next, best := -1, math.Inf(1)
			for j := range parts {
				if used[j] && j != first {
					continue
				}
				d := math.Mod(startT[j]-t+4, 4)
				if d < best {
					best, next = d, j
				}
			}
			if next < 0 {
				break
			}
			ring = append(ring, cornersBetween(t, best, corners)...)
			if next == first {
				break
			}
			cur = next
		}
		if len(ring) >= 3 {
			ring = append(ring, ring[0])
			rings = append(rings, orb.Ring(ring))
		}
	}
	return rings
}

// cornersBetween returns the box corners passed walking counter-clockwise
// from perimeter position t for a distance d (< 4), in order.
func cornersBetween(t, d float64, corners [4]orb.Point) []orb.Point {
	var out []orb.Point
	for k := math.Floor(t) + 1; k < t+d; k++ {
		out = append(out, corners[int(k-1)%4])
	}
	return out
}

// boxRing returns box as a counter-clockwise ring.
func boxRing(b orb.Bound) orb.Ring {
	return orb.Ring{b.Min, {b.Max[0], b.Min[1]}, b.Max, {b.Min[0], b.Max[1]}, b.Min}
}

// reverse returns r in the other direction.
func reverse(r orb.Ring) orb.Ring {
	out := make(orb.Ring, len(r))
	for i, p := range r {
		out[len(r)-1-i] = p
	}
	return out
}
