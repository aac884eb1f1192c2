package soap

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/internal/testenv"
	"github.com/geosvc/geosvc/routing"
)

// zeepScript calls the service through python3-zeep, a real SOAP client
// that reads the WSDL: GazetteerSimple over SOAP 1.1 and 1.2, Gazetteer,
// and a call with a wrong key; it prints what it got as JSON.
const zeepScript = `
import json, sys, zeep
wsdl, key = sys.argv[1], sys.argv[2]
c = zeep.Client(wsdl)
out = {}
r = c.service.GazetteerSimple(Street="North Main Street", Premise="10", PostCode="19711", SubscriptionKey=key)
out["simple11"] = {"status": r.Status, "postcode": r.PostCode.Status, "current": r.PostCode.Current, "names": r.PostCode.Name, "x": r.X, "y": r.Y, "fid": r.fid}
s12 = c.bind("LocationService", "LocationServiceSoap12")
r = s12.GazetteerSimple(City="Testville", SubscriptionKey=key)
out["simple12"] = {"status": r.Status, "type": r.Type, "city": r.City.Status}
LI = c.get_type("ns0:LocationInput")
LF = c.get_type("ns0:LocationInputField")
req = {"LocationInput": [LI(Street=LF(Name="North Main Street"), Premise=LF(Name="12"), Encoding="EPGS4326", fid="q1")]}
r = c.service.Gazetteer(GazetteerRequest=req, SubscriptionKey=key)
out["array"] = [{"status": l.Status, "premise": l.Premise.Status, "fid": l.fid} for l in r]
r = c.service.RoutePlannerSimple(DepartureX="9.999", DepartureY="0.001", ArrivalX="10.001", ArrivalY="0.000",
    Encoding="EPGS4326", Language="French", WantMetric=True, WantRouteDetails=True, WantDataSet=False,
    WantDescription=False, WantSpeedInfo=True, WantLocations=False, WantRouteData=True, SubscriptionKey=key)
out["route"] = {"duration": r.Duration, "distance": r.Distance, "dirs": [d.Dir for d in r.Description.RouteDescriptionItem],
    "speeds": len(r.SpeedInfo.SpeedItem), "routedata": r.RouteData.decode()}
m = c.service.MapSimple(X="10.001", Y="0.001", Encoding="EPGS4326", ZoomFactor=2, AreaX=400, AreaY=0, PanX=0, PanY=0,
    Action="None", ImageType="Png", LevelOfDetail=0, Width=120, Height=80, Metrics="Meters", UseDbSet=False,
    WantImageData=True, WantLegend=True, SubscriptionKey=key)
out["map"] = {"areax": m.AreaX, "png": m.ImageData[:8].hex(), "roads": [i.Name for i in m.RoadLegend.RoadLegendItem]}
SI = c.get_type("ns0:SpeedItem")
stops = {"LocationInput": [LI(X="9.999", Y="0.001", Encoding="EPGS4326"), LI(X="10.001", Y="0.000", Encoding="EPGS4326")]}
def planner(speed, metric):
    return c.service.RoutePlanner(Locations=stops, Language="English", WantMetric=metric, WantRouteDetails=False,
        PlanningType="Fastest", Speed={"SpeedItem": [SI(Name="OtherRoadCity", Speed=speed)]}, WantDataSet=False,
        WantDescription=False, WantSpeedInfo=False, WantLocations=False, WantRouteData=False, SubscriptionKey=key,
        Mergedistance=0, UseDbSet=False)
r, r2 = planner("50", True), planner("25", False)
out["speed"] = {"kmh": r.Duration, "mph": r2.Duration, "distance": r.Distance}
try:
    planner("fast", True)
    out["speedfault"] = None
except zeep.exceptions.Fault as f:
    out["speedfault"] = f.message
try:
    c.service.GazetteerSimple(City="Testville", SubscriptionKey="wrong")
    out["fault"] = None
except zeep.exceptions.Fault as f:
    out["fault"] = f.message
print(json.dumps(out))
`

// runZeep runs a python3-zeep script against the service on graph g,
// with the WSDL's URL and a key as its arguments, and returns what it
// printed. It skips when python3-zeep is missing, except under CI=true,
// where .ci/run installs it.
func runZeep(t *testing.T, g *routing.Graph, script string) []byte {
	t.Helper()
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import zeep").Run(); err != nil {
		testenv.Skip(t, "python3-zeep is not installed (.ci/run installs it): %v", err)
	}
	f := newFixture(t, false)
	f.setGraph(g)
	srv := httptest.NewServer(f.svc)
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "client.py")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, path, srv.URL+"/soap?wsdl", f.key).CombinedOutput()
	if err != nil {
		t.Fatalf("zeep client: %v\n%s", err, out)
	}
	return out
}

// TestZeepClient runs python3-zeep (Debian package python3-zeep) against
// the service; it skips when the package is missing, except under CI=true,
// where .ci/run installs it.
func TestZeepClient(t *testing.T) {
	out := runZeep(t, crossingGraph(t), zeepScript)
	var got struct {
		Simple11 struct {
			Status, Postcode, Current, X, Y, FID string
			Names                                []string
		}
		Simple12 struct{ Status, Type, City string }
		Array    []struct{ Status, Premise, FID string }
		Route    struct {
			Duration, Distance, Speeds int
			Dirs                       []string
			RouteData                  string
		}
		Map struct {
			AreaX int
			PNG   string
			Roads []string
		}
		Fault      *string
		Speed      struct{ Kmh, Mph, Distance int }
		SpeedFault *string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	s := got.Simple11
	if s.Status != statusConflict || s.Postcode != statusConflict || s.Current != "19711" || len(s.Names) != 1 || s.Names[0] != "19901" ||
		s.X != "-75.4998000" || s.Y != "39.0002000" || s.FID != "n10" {
		t.Errorf("GazetteerSimple over SOAP 1.1: %+v", s)
	}
	if got.Simple12.Status != statusCompleted || got.Simple12.Type != "locality" || got.Simple12.City != statusOK {
		t.Errorf("GazetteerSimple over SOAP 1.2: %+v", got.Simple12)
	}
	if len(got.Array) != 1 || got.Array[0].Premise != statusOK || got.Array[0].Status != statusCompleted {
		t.Errorf("Gazetteer: %+v", got.Array)
	}
	if rt := got.Route; rt.Duration != 50 || rt.Distance != 334 || len(rt.Dirs) != 3 || rt.Dirs[1] != "Tournez à droite" ||
		rt.Speeds != 1 || len(decodePolylineRef(rt.RouteData)) < 3 || decodePolylineRef(rt.RouteData)[0] != [2]float64{9.999, 0.001} {
		t.Errorf("RoutePlannerSimple: %+v", rt)
	}
	if got.Map.AreaX != 400 || got.Map.PNG != "89504e470d0a1a0a" || len(got.Map.Roads) == 0 {
		t.Errorf("MapSimple: %+v", got.Map)
	}
	// RoutePlanner with Speed: W2 -> S on OtherRoadCity at 50 km/h is
	// 26.13 s, at 25 mph 31.96 s (TestRoutePlanner's hand computation).
	if sp := got.Speed; sp.Kmh != 26 || sp.Mph != 32 || sp.Distance != 334 {
		t.Errorf("RoutePlanner with Speed: %+v", sp)
	}
	if got.SpeedFault == nil || !strings.Contains(*got.SpeedFault, `SpeedItem 1 (OtherRoadCity): Speed "fast" is not a number`) {
		t.Errorf("RoutePlanner with a Speed of fast: fault %v", got.SpeedFault)
	}
	if got.Fault == nil || *got.Fault != "Forbidden" {
		t.Errorf("wrong key: fault %v, want Forbidden", got.Fault)
	}
}

// zeepAlternatives calls RoutePlanner through python3-zeep with the
// alternative planning types, from S to T of the alternatives fixture and
// along one street (no alternative), and prints what it got as JSON.
const zeepAlternatives = `
import json, sys, zeep
wsdl, key = sys.argv[1], sys.argv[2]
c = zeep.Client(wsdl)
LI = c.get_type("ns0:LocationInput")
def plan(planning, stops):
    locs = {"LocationInput": [LI(X=x, Y=y, Encoding="EPGS4326") for x, y in stops]}
    return c.service.RoutePlanner(Locations=locs, Language="English", WantMetric=True, WantRouteDetails=True,
        PlanningType=planning, WantDataSet=False, WantDescription=False, WantSpeedInfo=False,
        WantLocations=False, WantRouteData=False, SubscriptionKey=key, Mergedistance=0, UseDbSet=False)
out = {}
st = [("10.000", "0.000"), ("10.010", "0.000")]
for p in ["Fastest", "Fastest2", "Shortest3"]:
    r = plan(p, st)
    out[p] = {"distance": r.Distance, "streets": sorted(set(i.Street for i in r.Description.RouteDescriptionItem))}
try:
    plan("Fastest2", [("10.0035", "0.000"), ("10.0045", "0.000")])
    out["fault"] = None
except zeep.exceptions.Fault as f:
    out["fault"] = f.message
print(json.dumps(out))
`

// TestZeepAlternatives: Fastest2 and Shortest3 through python3-zeep give
// the fixture's North Road (1204 m) and South Road (1291 m) routes, and a
// leg without an alternative the Sender fault.
func TestZeepAlternatives(t *testing.T) {
	out := runZeep(t, alternativesGraph(t), zeepAlternatives)
	type route struct {
		Distance int
		Streets  []string
	}
	var got struct {
		Fastest, Fastest2, Shortest3 route
		Fault                        *string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, tc := range []struct {
		name string
		got  route
		dist int
		road string
	}{
		{"Fastest", got.Fastest, 1112, "Main Street"},
		{"Fastest2", got.Fastest2, 1204, "North Road"},
		{"Shortest3", got.Shortest3, 1291, "South Road"},
	} {
		if tc.got.Distance != tc.dist || !slices.Contains(tc.got.Streets, tc.road) {
			t.Errorf("%s: %+v, want %d m on %s", tc.name, tc.got, tc.dist, tc.road)
		}
	}
	if got.Fault == nil || !strings.HasPrefix(*got.Fault, "no alternative route from the location 1 to the location 2") {
		t.Errorf("a leg without an alternative: fault %v", got.Fault)
	}
}
