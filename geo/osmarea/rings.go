package osmarea

import (
	"math"
	"sort"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
)

// Way is a way as polygon assembly sees it: its node ids and their
// coordinates (Points[i] is the position of Nodes[i]).
type Way struct {
	ID     int64
	Nodes  []int64
	Points []orb.Point
}

// Member is a way member of a relation with its role.
type Member struct {
	Way  *Way
	Role string
}

// Assembly is the result of assembling the rings of one relation.
type Assembly struct {
	// Polygons are the assembled polygons: outer rings counter-clockwise,
	// holes clockwise (RFC 7946), each hole inside the outer ring of its
	// polygon. Nil when no ring closed.
	Polygons orb.MultiPolygon
	// OpenRings counts the chains of member ways that could not be
	// closed; a relation with open rings is not complete.
	OpenRings int
	// RoleMismatches counts rings whose members' roles ("outer" or
	// "inner") disagree with what the geometry says they are; the
	// geometry wins.
	RoleMismatches int
}

// ring is a closed chain of member ways.
type ring struct {
	nodes []int64
	pts   orb.Ring
	role  string // the role of its members when they agree, else ""
	area  float64
	bound orb.Bound
}

// AssembleRings joins the member ways end to end (in any order and
// direction) into closed rings and nests them by containment: a ring inside
// an even number of others is an outer ring, one inside an odd number a
// hole of the ring directly around it. Roles are not trusted (role-less
// members are common): they are only compared with the result.
func AssembleRings(members []Member) Assembly {
	var a Assembly
	rings, open := joinWays(members)
	a.OpenRings = open
	if len(rings) == 0 {
		return a
	}
	sort.SliceStable(rings, func(i, j int) bool { return rings[i].area > rings[j].area })
	depth := make([]int, len(rings))
	parent := make([]int, len(rings))
	polyOf := make([]int, len(rings))
	for i := range rings {
		parent[i] = -1
		for j := i - 1; j >= 0; j-- {
			if parent[j] == -2 || !rings[j].bound.Contains(rings[i].bound.Min) || !rings[j].bound.Contains(rings[i].bound.Max) {
				continue
			}
			if in, decided := ringInside(&rings[i], &rings[j]); decided && in {
				parent[i] = j
				break
			} else if !decided {
				parent[i] = -2 // a duplicate of ring j: dropped
				break
			}
		}
		if parent[i] == -2 {
			continue
		}
		if parent[i] >= 0 {
			depth[i] = depth[parent[i]] + 1
		}
		want := "outer"
		if depth[i]%2 == 1 {
			want = "inner"
		}
		if rings[i].role != "" && rings[i].role != want {
			a.RoleMismatches++
		}
		if depth[i]%2 == 0 {
			polyOf[i] = len(a.Polygons)
			a.Polygons = append(a.Polygons, orb.Polygon{orient(rings[i].pts, true)})
		} else {
			p := polyOf[parent[i]]
			a.Polygons[p] = append(a.Polygons[p], orient(rings[i].pts, false))
		}
	}
	return a
}

// ringInside reports whether ring r lies inside ring outer, testing a
// vertex of r that is not a vertex of outer. decided is false when every
// vertex of r is one of outer (the same ring twice).
func ringInside(r, outer *ring) (inside, decided bool) {
	shared := make(map[int64]struct{}, len(outer.nodes))
	for _, n := range outer.nodes {
		shared[n] = struct{}{}
	}
	for k, n := range r.nodes {
		if _, ok := shared[n]; ok {
			continue
		}
		return planar.RingContains(outer.pts, r.pts[k]), true
	}
	// All vertices shared: test the middle of an edge.
	for k := 0; k+1 < len(r.pts); k++ {
		m := orb.Point{(r.pts[k][0] + r.pts[k+1][0]) / 2, (r.pts[k][1] + r.pts[k+1][1]) / 2}
		if !onRing(outer.pts, m) {
			return planar.RingContains(outer.pts, m), true
		}
	}
	return false, false
}

// onRing reports whether p lies on an edge of r.
func onRing(r orb.Ring, p orb.Point) bool {
	for k := 0; k+1 < len(r); k++ {
		a, b := r[k], r[k+1]
		cross := (b[0]-a[0])*(p[1]-a[1]) - (b[1]-a[1])*(p[0]-a[0])
		if math.Abs(cross) < 1e-15 && p[0] >= math.Min(a[0], b[0]) && p[0] <= math.Max(a[0], b[0]) &&
			p[1] >= math.Min(a[1], b[1]) && p[1] <= math.Max(a[1], b[1]) {
			return true
		}
	}
	return false
}

// orient returns r wound counter-clockwise when ccw, clockwise otherwise.
func orient(r orb.Ring, ccw bool) orb.Ring {
	if (planar.Area(r) > 0) != ccw {
		out := make(orb.Ring, len(r))
		for i, p := range r {
			out[len(r)-1-i] = p
		}
		return out
	}
	return r
}

// segment is a member way being joined.
type segment struct {
	nodes []int64
	pts   []orb.Point
	role  string
	used  bool
}

// joinWays joins member ways into closed rings; open counts the chains
// that could not be closed.
func joinWays(members []Member) (rings []ring, open int) {
	var segs []*segment
	ends := map[int64][]*segment{}
	for _, m := range members {
		w := m.Way
		if w == nil || len(w.Nodes) < 2 || len(w.Points) != len(w.Nodes) {
			continue
		}
		s := &segment{nodes: w.Nodes, pts: w.Points, role: m.Role}
		segs = append(segs, s)
		if w.Nodes[0] != w.Nodes[len(w.Nodes)-1] {
			ends[w.Nodes[0]] = append(ends[w.Nodes[0]], s)
			ends[w.Nodes[len(w.Nodes)-1]] = append(ends[w.Nodes[len(w.Nodes)-1]], s)
		}
	}
	next := func(node int64) *segment {
		for _, s := range ends[node] {
			if !s.used {
				return s
			}
		}
		return nil
	}
	for _, s := range segs {
		if s.used {
			continue
		}
		s.used = true
		nodes := append([]int64(nil), s.nodes...)
		pts := append([]orb.Point(nil), s.pts...)
		role := s.role
		for nodes[0] != nodes[len(nodes)-1] {
			t := next(nodes[len(nodes)-1])
			if t == nil {
				break
			}
			t.used = true
			if t.role != role {
				role = ""
			}
			if t.nodes[0] == nodes[len(nodes)-1] {
				nodes = append(nodes, t.nodes[1:]...)
				pts = append(pts, t.pts[1:]...)
			} else {
				for k := len(t.nodes) - 2; k >= 0; k-- {
					nodes = append(nodes, t.nodes[k])
					pts = append(pts, t.pts[k])
				}
			}
		}
		if nodes[0] != nodes[len(nodes)-1] {
			// Dead end: the chain may still grow at its start. Whatever
			// it gathers is one open chain, so its segments are only
			// marked used (and not counted again), never assembled.
			start := nodes[0]
			for t := next(start); t != nil; t = next(start) {
				t.used = true
				if t.nodes[len(t.nodes)-1] == start {
					start = t.nodes[0]
				} else {
					start = t.nodes[len(t.nodes)-1]
				}
			}
			open++
			continue
		}
		if len(nodes) < 4 {
			continue // degenerate
		}
		r := ring{nodes: nodes, pts: orb.Ring(pts), role: normRole(role)}
		r.area = math.Abs(planar.Area(r.pts))
		if r.area == 0 {
			continue
		}
		r.bound = r.pts.Bound()
		rings = append(rings, r)
	}
	return rings, open
}

// normRole maps a member role to "outer", "inner" or "" (unknown).
func normRole(role string) string {
	switch role {
	case "outer", "exclave":
		return "outer"
	case "inner", "enclave":
		return "inner"
	}
	return ""
}
