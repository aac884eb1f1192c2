package soap

import (
	"encoding/json"
	"strings"
	"testing"
)

// zeepMergeAndNodes calls RoutePlanner with MergeLocations and
// ProximitySimple with NodeType ReachableNode through python3-zeep on the
// crossing fixture, and prints what it got as JSON.
const zeepMergeAndNodes = `
import json, sys, zeep
wsdl, key = sys.argv[1], sys.argv[2]
c = zeep.Client(wsdl)
LI = c.get_type("ns0:LocationInput")
def li(fid, x, y, typ=None):
    return LI(fid=fid, Type=typ, X=x, Y=y, Encoding="EPGS4326")
r = c.service.RoutePlanner(Locations={"LocationInput": [li("s0", "9.999", "0.001"), li("s1", "10.001", "0.000")]},
    Language="English", WantMetric=True, WantRouteDetails=False, PlanningType="Fastest", WantDataSet=True,
    WantDescription=False, WantSpeedInfo=False, WantLocations=True, WantRouteData=False, SubscriptionKey=key,
    MergeLocations={"LocationInput": [li("m0", "10.002", "0.002", "customer"), li("m1", "10.002", "0.001", "customer")]},
    Mergedistance=150, UseDbSet=False)
out = {"route": {"duration": r.Duration, "fids": [l.fid for l in r.Locations.LocationInput],
    "types": [l.Type for l in r.Locations.LocationInput]}}
p = c.service.ProximitySimple(X="10.0005", Y="0.001", Encoding="EPGS4326", MaxNofResults=10, MaxDistanceMeters=300,
    NodeType="ReachableNode", SearchType="RoadDistance", UseDbSet=False, SubscriptionKey=key)
out["nodes"] = sorted("%s|%s|%s" % (l.Name, l.Radius, l.Time) for l in p)
print(json.dumps(out))
`

// TestZeepMergeAndNodes: through python3-zeep, the MergeLocations route of
// TestRoutePlannerMergeLocations (W2 -> E -> S, 85 s; NE left out) and
// the ReachableNode search of TestProximityNodes (X, W, W2, E; not S).
func TestZeepMergeAndNodes(t *testing.T) {
	out := runZeep(t, crossingGraph(t), zeepMergeAndNodes)
	var got struct {
		Route struct {
			Duration    int
			Fids, Types []string
		}
		Nodes []string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Route.Duration != 85 || strings.Join(got.Route.Fids, ",") != "s0,m1,s1" || len(got.Route.Types) != 3 || got.Route.Types[1] != "customer" {
		t.Errorf("RoutePlanner with MergeLocations: %+v, want 85 s through s0, m1 (customer), s1", got.Route)
	}
	want := []string{"East Street|167|0.4", "South Street / North Street / East Street / West Street|56|0.1", "West Street / Diagonal|56|0.1", "West Street|167|0.4"}
	if strings.Join(got.Nodes, "\n") != strings.Join(want, "\n") {
		t.Errorf("ReachableNode:\n%s\nwant\n%s", strings.Join(got.Nodes, "\n"), strings.Join(want, "\n"))
	}
}
