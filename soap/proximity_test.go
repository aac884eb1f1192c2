package soap

import (
	"encoding/xml"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
)

// tinyGraph is the road graph of the gazetteer's fixture (North Main
// Street along lat 39.0000, Carrer de la Unió along lat 39.0100).
func tinyGraph(t *testing.T) *routing.Graph {
	t.Helper()
	prof, err := profile.Load(filepath.Join("..", "configs", "car.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	net, err := osmroad.Read(filepath.Join("..", "geo", "geocode", "testdata", "tiny.osm"), prof)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := routing.Build(net, prof)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func proximitySimpleBody(key string, fields map[string]string) string {
	base := map[string]string{"X": "-75.4995", "Y": "39.0005", "Encoding": "EPGS4326", "MaxNofResults": "10",
		"MaxDistanceMeters": "1000", "NodeType": "Cities", "SearchType": "Radius", "UseDbSet": "false"}
	for k, v := range fields {
		base[k] = v
	}
	var b strings.Builder
	b.WriteString(`<ProximitySimple xmlns="http://geosvc.org/LocationService/">`)
	for _, k := range []string{"X", "Y", "Encoding", "MaxNofResults", "MaxDistanceMeters", "NodeType", "SearchType", "UseDbSet"} {
		b.WriteString("<" + k + ">" + base[k] + "</" + k + ">")
	}
	b.WriteString("<SubscriptionKey>" + key + "</SubscriptionKey></ProximitySimple>")
	return b.String()
}

func TestProximitySimple(t *testing.T) {
	f := newFixture(t, false)
	g := tinyGraph(t)
	f.setGraph(g)
	p := orb.Point{-75.4995, 39.0005}
	// Testville's node (-75.499, 39.001) snaps to Main Street at
	// -75.499; the point to -75.4995: 0.0005 degrees of longitude apart.
	alongMain := 0.0005 * geo.EarthRadiusM * math.Pi / 180 * math.Cos(39*math.Pi/180)
	for _, tc := range []struct {
		name   string
		fields map[string]string
		names  []string
		radius []float64 // metres
		timed  bool
	}{
		{"cities in a radius", nil, []string{"Testville, DE, USA"}, []float64{geo.HaversineM(p, orb.Point{-75.499, 39.001})}, false},
		{"cities by road", map[string]string{"SearchType": "RoadDistance"}, []string{"Testville, DE, USA"}, []float64{alongMain}, true},
		{"cities within a minute's drive", map[string]string{"SearchType": "RoadTimeMinutes", "MaxDistanceMeters": "1"}, []string{"Testville, DE, USA"}, []float64{alongMain}, true},
		{"cities by road, too far", map[string]string{"SearchType": "RoadDistance", "MaxDistanceMeters": "40"}, nil, nil, false},
		{"streets", map[string]string{"NodeType": "Streets", "MaxDistanceMeters": "2000"}, []string{"N Main St, Testville, DE 19901, USA", "Carrer de la Unió, Testville, DE, USA"}, nil, false},
		{"one street", map[string]string{"NodeType": "Streets", "MaxDistanceMeters": "2000", "MaxNofResults": "1"}, []string{"N Main St, Testville, DE 19901, USA"}, nil, false},
		{"large cities", map[string]string{"NodeType": "LargeCities", "MaxDistanceMeters": "50000"}, nil, nil, false},
		{"postal codes", map[string]string{"NodeType": "PostalCodes"}, []string{"Testville, DE 19901, USA"}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.post("text/xml", envelope11(proximitySimpleBody(f.key, tc.fields)))
			var env struct {
				Locs []locationInput `xml:"Body>ProximitySimpleResponse>ProximitySimpleResult>LocationInput"`
			}
			if err := xml.Unmarshal(rec.Body.Bytes(), &env); err != nil || rec.Code != 200 {
				t.Fatalf("HTTP %d %v: %s", rec.Code, err, rec.Body)
			}
			if len(env.Locs) != len(tc.names) {
				t.Fatalf("%d locations, want %d: %s", len(env.Locs), len(tc.names), rec.Body)
			}
			for i, l := range env.Locs {
				if l.Name != tc.names[i] || l.Encoding != encodingWGS84 || l.X == "" || l.FID == "" {
					t.Errorf("location %d: %+v, want %q", i, l, tc.names[i])
				}
				if tc.radius != nil {
					if r, _ := strconv.ParseFloat(l.Radius, 64); math.Abs(r-tc.radius[i]) > 1 {
						t.Errorf("location %d Radius %s m, want %.1f", i, l.Radius, tc.radius[i])
					}
				}
				if tc.timed != (l.Time != "") {
					t.Errorf("location %d Time %q (timed %v)", i, l.Time, tc.timed)
				}
			}
		})
	}
	for _, tc := range []struct {
		name   string
		fields map[string]string
		reason string
	}{
		{"location set with another node type", map[string]string{"UseDbSet": "true"}, "give NodeType DBLocations"},
		{"location set of a key without one", map[string]string{"UseDbSet": "true", "NodeType": "DBLocations"}, "addresses no location set"},
		{"Node by road far from roads", map[string]string{"NodeType": "ReachableNode", "SearchType": "RoadDistance", "X": "-75.3"}, "no road within 1000 m"},
		{"unknown node type", map[string]string{"NodeType": "Castles"}, "not a ProximityNodeTypes"},
		{"no results asked", map[string]string{"MaxNofResults": "0"}, "MaxNofResults 0"},
		{"too far", map[string]string{"MaxDistanceMeters": "500000"}, "maximum distance 500000"},
		{"too long", map[string]string{"SearchType": "RoadTimeMinutes", "MaxDistanceMeters": "1000"}, "minutes"},
		{"unknown search", map[string]string{"SearchType": "AsTheCrowFlies"}, "not a ProximitySearchTypes"},
		{"bad point", map[string]string{"X": "x"}, "X and Y"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.post("text/xml", envelope11(proximitySimpleBody(f.key, tc.fields)))
			if code, reason := faultOf(t, rec.Body.String()); code != "soap:Client" || !strings.Contains(reason, tc.reason) {
				t.Errorf("fault %q %q, want soap:Client containing %q", code, reason, tc.reason)
			}
		})
	}
}
