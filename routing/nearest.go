package routing

import "github.com/paulmach/orb"

// SnapNearest returns up to k snaps of p on distinct roads (compressed
// edges), nearest first, each placed as SnapWith places a point with the
// options o: the first is SnapWith's answer, the next the nearest road
// other than those already found, and so on (OSRM's nearest service with
// number=k). It returns fewer when fewer roads lie within the radius.
func (g *Graph) SnapNearest(m Metric, p orb.Point, defaultRadiusM float64, o SnapOptions, k int) []Snap {
	avoid := g.snapFilter(m)
	seen := map[uint32]bool{}
	accept := func(e uint32) bool { return !seen[e] && (avoid == nil || avoid(e)) }
	var out []Snap
	for len(out) < k {
		s := g.snapWith(p, defaultRadiusM, o, accept)
		if !s.OK {
			break
		}
		seen[s.Edge] = true
		out = append(out, s)
	}
	return out
}

// EdgeName returns the name of road edge e (a Snap's Edge), else its
// route numbers, "" when it has neither or e is no edge.
func (g *Graph) EdgeName(e uint32) string {
	if int(e) >= len(g.edgeName) {
		return ""
	}
	if n := g.names[g.edgeName[e]]; n != "" {
		return n
	}
	return g.signText(g.edgeRef, e)
}
