package routing

// isRoundaboutNode reports whether edge-based node n drives a
// roundabout's edge.
func (g *Graph) isRoundaboutNode(n uint32) bool {
	return g.edgeFlags[g.base.nodeEdge[n]/2]&edgeRoundabout != 0
}

// roundaboutExits counts the roads a car may turn into at the end of
// node n (a roundabout's edge) other than the roundabout's own edges:
// the exits there.
func (g *Graph) roundaboutExits(n uint32) int {
	e := g.base.nodeEdge[n] / 2
	seen := map[uint32]bool{}
	for i := g.base.turnFirst[n]; i < g.base.turnFirst[n+1]; i++ {
		h := g.base.turnHead[i]
		he := g.base.nodeEdge[h] / 2
		if he == e || g.isRoundaboutNode(h) || seen[he] {
			continue
		}
		seen[he] = true
	}
	return len(seen)
}

// Ring describes the roundabout a route segment drives on.
type Ring struct {
	// LengthM is the length once round, in metres.
	LengthM float64
	// Names are the ring's distinct names ("" for an unnamed edge);
	// ExitNames those of the roads leaving it.
	Names, ExitNames []string
}

// maxRingEdges bounds the walk round a roundabout.
const maxRingEdges = 256

// RoundaboutOf follows the roundabout of s (a segment of a Route of this
// graph with Roundabout set) once round and describes it; ok is false
// when s is on none or the ring does not close (a roundabout tagged in
// part, say).
func (g *Graph) RoundaboutOf(s Segment) (Ring, bool) {
	if !s.Roundabout || int(s.node) >= len(g.base.nodeEdge) {
		return Ring{}, false
	}
	var r Ring
	names := map[string]bool{}
	exits := map[string]bool{}
	start := g.base.nodeEdge[s.node] / 2
	n := s.node
	for k := 0; k < maxRingEdges; k++ {
		e := g.base.nodeEdge[n] / 2
		r.LengthM += g.edgeLen[e]
		if name := g.names[g.edgeName[e]]; !names[name] {
			names[name] = true
			r.Names = append(r.Names, name)
		}
		next, found := uint32(0), false
		for i := g.base.turnFirst[n]; i < g.base.turnFirst[n+1]; i++ {
			h := g.base.turnHead[i]
			he := g.base.nodeEdge[h] / 2
			switch {
			case he == e:
			case g.isRoundaboutNode(h):
				if !found {
					next, found = h, true
				}
			default:
				if name := g.names[g.edgeName[he]]; !exits[name] {
					exits[name] = true
					r.ExitNames = append(r.ExitNames, name)
				}
			}
		}
		if !found {
			return Ring{}, false
		}
		if g.base.nodeEdge[next]/2 == start {
			return r, true
		}
		n = next
	}
	return Ring{}, false
}
