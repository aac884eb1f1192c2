package soap

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"sort"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// reachProximityNodes is proximityNodes's road searches as they were
// before the one-to-all search: two bounded Dijkstra searches
// (routing.Graph.Reach). It is the oracle of the new code's answers.
func reachProximityNodes(ctx context.Context, g *routing.Graph, p orb.Point, reachable bool, searchType string, max int, radius float64, limit int) ([]string, error) {
	js := g.JunctionsWithin(p, radius)
	m, lim := routing.Shortest, float64(max)
	if searchType == "RoadTimeMinutes" {
		m, lim = routing.Fastest, float64(max)*60
	}
	from := g.Snap(m, p, routing.DefaultSnapRadiusM)
	there, err := g.Reach(ctx, m, from, lim, false)
	if err != nil {
		return nil, err
	}
	var back map[uint32]routing.Cost
	if reachable {
		if back, err = g.Reach(ctx, m, from, lim, true); err != nil {
			return nil, err
		}
	}
	type hit struct {
		v       uint32
		metres  float64
		seconds int
	}
	var found []hit
	for _, j := range js {
		c, ok := there[j.Vertex]
		if !ok {
			continue
		}
		if _, ok := back[j.Vertex]; reachable && !ok {
			continue
		}
		found = append(found, hit{j.Vertex, c.DistanceM, int(math.Round(c.DurationS))})
	}
	sort.SliceStable(found, func(a, b int) bool {
		if searchType == "RoadTimeMinutes" && found[a].seconds != found[b].seconds {
			return found[a].seconds < found[b].seconds
		}
		return found[a].metres < found[b].metres
	})
	var out []string
	for _, h := range found[:min(limit, len(found))] {
		out = append(out, fmt.Sprintf("vertex/%d|%.0f|%.1f", h.v, h.metres, float64(h.seconds)/60))
	}
	return out, nil
}

// proximityCases are the Delaware road searches of the tests and the
// benchmark: from Wilmington, Dover and a rural point, by time and by
// distance, small and large, with NodeType Node and ReachableNode.
var proximityCases = []struct {
	name       string
	p          orb.Point
	reachable  bool
	searchType string
	max        int
}{
	{"wilmington-time-10min", orb.Point{-75.5466, 39.7459}, false, "RoadTimeMinutes", 10},
	{"wilmington-reachable-time-30min", orb.Point{-75.5466, 39.7459}, true, "RoadTimeMinutes", 30},
	{"dover-reachable-time-60min", orb.Point{-75.5244, 39.1582}, true, "RoadTimeMinutes", 60},
	{"dover-distance-5km", orb.Point{-75.5244, 39.1582}, false, "RoadDistance", 5000},
	{"rural-reachable-distance-50km", orb.Point{-75.40, 38.80}, true, "RoadDistance", 50000},
}

// proximityRadius is proximity's straight-line bound for a case.
func proximityRadius(searchType string, max int) float64 {
	if searchType == "RoadTimeMinutes" {
		return float64(max) * 60 * proximityFastestMS
	}
	return float64(max)
}

// TestProximityNodesOneToAll: on Delaware, the road searches of
// ProximitySimple with NodeType Node and ReachableNode answer exactly what
// the bounded Dijkstra searches they replaced answered (the same
// junctions, in the same order, with the same distances and times).
func TestProximityNodesOneToAll(t *testing.T) {
	g := routingtest.Extract(t, "delaware")
	f := newFixture(t, false)
	f.setGraph(g)
	ctx := context.Background()
	for _, tc := range proximityCases {
		t.Run(tc.name, func(t *testing.T) {
			radius := proximityRadius(tc.searchType, tc.max)
			want, err := reachProximityNodes(ctx, g, tc.p, tc.reachable, tc.searchType, tc.max, radius, maxProximityResults)
			if err != nil {
				t.Fatal(err)
			}
			locs, err := f.svc.proximityNodes(ctx, tc.p, tc.reachable, tc.searchType, tc.max, radius, maxProximityResults)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range locs {
				got = append(got, l.FID+"|"+l.Radius+"|"+l.Time)
			}
			if len(want) < 10 {
				t.Fatalf("the oracle found %d junctions only", len(want))
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%d junctions, oracle %d; first difference:", len(got), len(want))
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Errorf("#%d: %s, oracle %s", i, got[i], want[i])
						break
					}
				}
			}
		})
	}
}

// BenchmarkProximityNodes: a Node or ReachableNode proximity request's
// junctions on Delaware as the service answers them ("service"; run on
// the commit before the one-to-all search for the figure before), and
// the oracle's bounded Dijkstra searches ("oracle").
func BenchmarkProximityNodes(b *testing.B) {
	g := routingtest.Extract(b, "delaware")
	f := newFixture(b, false)
	f.setGraph(g)
	ctx := context.Background()
	for _, tc := range proximityCases {
		radius := proximityRadius(tc.searchType, tc.max)
		b.Run(tc.name+"/oracle", func(b *testing.B) {
			for b.Loop() {
				if _, err := reachProximityNodes(ctx, g, tc.p, tc.reachable, tc.searchType, tc.max, radius, maxProximityResults); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/service", func(b *testing.B) {
			for b.Loop() {
				if _, err := f.svc.proximityNodes(ctx, tc.p, tc.reachable, tc.searchType, tc.max, radius, maxProximityResults); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
