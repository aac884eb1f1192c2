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
// within the same limit: both ways by road, found with two one-to-all
// searches on the graph's hierarchy (routing.Graph.OneToAll, PHAST:
// forward from p and in reverse to p);
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
		there, back, err := reachBoth(ctx, g, m, from, reachable && len(js) > 0)
		if err != nil {
			return nil, err
		}
		for _, j := range js {
			c, ok := there.Vertex(j.Vertex, lim)
			if !ok {
				continue
			}
			if reachable {
				if _, ok := back.Vertex(j.Vertex, lim); !ok {
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

// reachBoth runs the one-to-all search from the point and, when back,
// the reverse one to it.
func reachBoth(ctx context.Context, g *routing.Graph, m routing.Metric, from routing.Snap, back bool) (there, to *routing.Reached, err error) {
	if there, err = g.OneToAll(ctx, m, from, false); err != nil || !back {
		return there, nil, err
	}
	to, err = g.OneToAll(ctx, m, from, true)
	return there, to, err
}
