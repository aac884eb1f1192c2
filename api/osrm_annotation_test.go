package api

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/routing/routingtest"
)

// TestOSRMAnnotationNodes: annotations=nodes lists the OSM node id of
// each point of a leg, hand-checked on roundabout.osm (South Arm
// S2(5)-S(3), the ring S(3)->E(4)->N(1)->W(2), West Arm W(2)-W2(6)): a
// start or end between two nodes gives the node beyond it, as OSRM's;
// annotations=true gives every kind with the data sources' names.
func TestOSRMAnnotationNodes(t *testing.T) {
	s := newOSRMServer(t, routingtest.Graph(t, "roundabout.osm"), OSRMLimits{})
	for _, tc := range []struct {
		name, query string
		want        [][]int64
	}{
		{"S2 to W2", "10.002,0.0002;10.0002,0.002?annotations=nodes", [][]int64{{5, 3, 4, 1, 2, 6}}},
		{"S2 to E2, all", "10.002,0.0002;10.0038,0.002?annotations=true", [][]int64{{5, 3, 4, 7}}},
		// Turning round at the via point on the East Arm: behind the
		// second leg's start is E2.
		// By default a car goes on straight at a via point (OSRM's
		// continue_straight): on to E2's dead end, round, back past E.
		{"via E, straight on", "10.002,0.0002;10.0035,0.002;10.002,0.0038?annotations=nodes", [][]int64{{5, 3, 4, 7}, {4, 7, 4, 1, 8}}},
		{"via E, U-turn", "10.002,0.0002;10.0035,0.002;10.002,0.0038?annotations=nodes,distance&continue_straight=false", [][]int64{{5, 3, 4, 7}, {7, 4, 1, 8}}},
	} {
		code, body := s.get(t, "/osrm/route/v1/driving/"+tc.query)
		var a struct {
			Code   string
			Routes []struct{ Legs []osrmLeg }
		}
		if err := json.Unmarshal([]byte(body), &a); err != nil || code != 200 || len(a.Routes) != 1 || len(a.Routes[0].Legs) != len(tc.want) {
			t.Fatalf("%s: %d %s", tc.name, code, body)
		}
		for i, leg := range a.Routes[0].Legs {
			an := leg.Annotation
			if an == nil || !slices.Equal(an.Nodes, tc.want[i]) {
				t.Errorf("%s: leg %d: annotation %+v, want nodes %v", tc.name, i, an, tc.want[i])
				continue
			}
			if an.Distance != nil && len(an.Distance) != len(an.Nodes)-1 {
				t.Errorf("%s: leg %d: %d distances for %d nodes", tc.name, i, len(an.Distance), len(an.Nodes))
			}
		}
		if strings.HasSuffix(tc.query, "true") {
			an := a.Routes[0].Legs[0].Annotation
			if len(an.Duration) != 3 || len(an.Speed) != 3 || len(an.Weight) != 3 || len(an.Datasources) != 3 || an.Metadata == nil || !slices.Equal(an.Metadata.DatasourceNames, []string{"profile"}) {
				t.Errorf("%s: annotation %+v", tc.name, an)
			}
		}
	}
}

// TestOSRMNearestNodes: a nearest waypoint names the OSM nodes of the
// road's stretch it lies on, in the way's order (roundabout.osm: the
// South Arm, way 302, S2(5) to S(3); the ring's side S(3) to E(4)).
func TestOSRMNearestNodes(t *testing.T) {
	s := newOSRMServer(t, routingtest.Graph(t, "roundabout.osm"), OSRMLimits{})
	for _, tc := range []struct {
		at   string
		want []int64
	}{
		{"10.0021,0.0005", []int64{5, 3}},
		{"10.0026,0.0014", []int64{3, 4}},
	} {
		code, body := s.get(t, "/osrm/nearest/v1/driving/"+tc.at)
		var a osrmNearestAnswer
		if err := json.Unmarshal([]byte(body), &a); err != nil || code != 200 || len(a.Waypoints) != 1 || !slices.Equal(a.Waypoints[0].Nodes, tc.want) {
			t.Errorf("%s: %d %s, want nodes %v", tc.at, code, body, tc.want)
		}
	}
}
