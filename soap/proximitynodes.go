package soap

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing"
)

// roadNode reports whether a ProximityNodeTypes value is answered from
// the road graph's junctions.
func roadNode(nodeType string) bool { return nodeType == "Node" || nodeType == "ReachableNode" }

// proximityNodes answers NodeType Node and ReachableNode: the road graph's
// junctions (vertices where three or more roads meet, and dead ends)
// within radius metres in a straight line of p, kept by the search type:
// Radius keeps them all, RoadDistance those max metres or less by road
// from p, RoadTimeMinutes those max minutes or less by road from p.
// ReachableNode keeps only the junctions from which p can also be reached
// within the same limit: both ways by road, found with two searches
// (forward from p and in reverse to p): one-to-all searches on the
// graph's hierarchy (routing.Graph.OneToAll, PHAST) for limits of 15
// minutes or 15 km and more, bounded Dijkstra searches below (reachFrom);
// for SearchType Radius that limit is max metres by road. Radius is the
// straight-line distance for SearchType Radius, the road distance there
// otherwise; Time the drive there in minutes for the road searches.
func (s *Service) proximityNodes(ctx context.Context, p orb.Point, reachable bool, searchType string, max int, radius float64, limit int) ([]locationInput, error) {
	g, err := s.graph()
	if err != nil {
		return nil, err
	}
	js := g.JunctionsWithin(p, radius)
	type hit struct {
		j routing.Junction
		r nearbyResult
	}
	var found []hit
	if searchType == "Radius" && !reachable {
		for _, j := range js[:min(limit, len(js))] {
			found = append(found, hit{j, nearbyResult{at: j.Point, metres: j.DistanceM}})
		}
	} else {
		m, lim := routing.Shortest, float64(max)
		if searchType == "RoadTimeMinutes" {
			m, lim = routing.Fastest, float64(max)*60
		}
		from := g.Snap(m, p, routing.DefaultSnapRadiusM)
		if !from.OK {
			return nil, senderFault("the point has no road within %d m", routing.DefaultSnapRadiusM)
		}
		there, err := reachFrom(ctx, g, m, from, lim, false)
		if err != nil {
			return nil, err
		}
		var back vertexCost
		if reachable && len(js) > 0 {
			if back, err = reachFrom(ctx, g, m, from, lim, true); err != nil {
				return nil, err
			}
		}
		for _, j := range js {
			c, ok := there(j.Vertex)
			if !ok {
				continue
			}
			if reachable {
				if _, ok := back(j.Vertex); !ok {
					continue
				}
			}
			r := nearbyResult{at: j.Point, metres: j.DistanceM}
			if searchType != "Radius" {
				r.metres, r.seconds, r.byRoad = c.DistanceM, int(math.Round(c.DurationS)), true
			}
			found = append(found, hit{j, r})
		}
		// Sorted by index: a hit is a large struct, and a stable sort
		// moves its elements many times.
		idx := make([]int32, len(found))
		for i := range idx {
			idx[i] = int32(i)
		}
		slices.SortStableFunc(idx, func(a, b int32) int {
			ra, rb := &found[a].r, &found[b].r
			if searchType == "RoadTimeMinutes" && ra.seconds != rb.seconds {
				return cmp.Compare(ra.seconds, rb.seconds)
			}
			return cmp.Compare(ra.metres, rb.metres)
		})
		kept := make([]hit, 0, min(limit, len(found)))
		for _, i := range idx[:min(limit, len(idx))] {
			kept = append(kept, found[i])
		}
		found = kept
	}
	out := make([]locationInput, 0, len(found))
	for _, h := range found {
		h.r.li = junctionLocation(g, h.j)
		out = append(out, h.r.locationInput())
	}
	return out, nil
}

// junctionLocation writes a junction as a location: Name the roads that
// meet there ("West Street / Diagonal"), Type "junction" or "dead end",
// fid "vertex/N" (the graph's vertex number, valid for the loaded road
// data), X and Y the vertex.
func junctionLocation(g *routing.Graph, j routing.Junction) *locationInput {
	li := &locationInput{FID: "vertex/" + strconv.FormatUint(uint64(j.Vertex), 10)}
	li.Name = strings.Join(g.RoadNames(j.Vertex), " / ")
	li.Type = "junction"
	if j.Roads == 1 {
		li.Type = "dead end"
	}
	li.X, li.Y = coord(j.Point[0]), coord(j.Point[1])
	return li
}

// vertexCost returns the cost between the point searched from and a
// vertex, false when it is beyond the limit.
type vertexCost func(v uint32) (routing.Cost, bool)

// Below these limits (seconds, metres) a proximity search explores few
// enough roads that a bounded Dijkstra search (routing.Graph.Reach) costs
// less than a one-to-all sweep of the whole graph (routing.Graph.OneToAll);
// measured on Delaware (BENCHMARKS.md, "Isochrones"): the sweep's cost
// grows with the graph, the bounded search's with the area reached.
const (
	dijkstraMaxS = 15 * 60
	dijkstraMaxM = 15_000
)

// reachFrom searches the costs from the point (or to it, reverse) within
// lim (seconds for Fastest, metres for Shortest): a bounded Dijkstra
// search for a small limit, the one-to-all search otherwise; both answer
// the same costs.
func reachFrom(ctx context.Context, g *routing.Graph, m routing.Metric, from routing.Snap, lim float64, reverse bool) (vertexCost, error) {
	small := lim <= dijkstraMaxM
	if m == routing.Fastest {
		small = lim <= dijkstraMaxS
	}
	if small {
		got, err := g.Reach(ctx, m, from, lim, reverse)
		return func(v uint32) (routing.Cost, bool) { c, ok := got[v]; return c, ok }, err
	}
	r, err := g.OneToAll(ctx, m, from, reverse)
	if err != nil {
		return nil, err
	}
	return func(v uint32) (routing.Cost, bool) { return r.Vertex(v, lim) }, nil
}
