package osmroad

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/osm"
	"github.com/paulmach/osm/osmxml"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/routing/profile"
)

const fixtureDir = "../testdata"

func carProfile(t testing.TB) *profile.Profile {
	t.Helper()
	p, err := profile.Load("../../configs/car.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// fixture reads a hand-written fixture and returns its network plus a map
// from coordinates to OSM node ids, to name vertices in expectations.
func fixture(t *testing.T, name string) (*Network, map[orb.Point]int64) {
	t.Helper()
	path := filepath.Join(fixtureDir, name)
	net, err := Read(path, carProfile(t))
	if err != nil {
		t.Fatalf("Read(%s): %v", name, err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids := map[orb.Point]int64{}
	s := osmxml.New(context.Background(), f)
	for s.Scan() {
		if n, ok := s.Object().(*osm.Node); ok {
			ids[n.Point()] = int64(n.ID)
		}
	}
	checkNetwork(t, net)
	return net, ids
}

// describe renders the network's edges, vertices and restrictions as
// sorted lines naming vertices by OSM node id.
func describe(net *Network, ids map[orb.Point]int64) (edges, vertices, restrictions []string) {
	vname := func(v uint32) string { return fmt.Sprint(ids[net.Vertices[v]]) }
	ename := func(e uint32) string {
		return fmt.Sprintf("%s-%s/%d", vname(net.Edges[e].From), vname(net.Edges[e].To), net.Edges[e].WayID)
	}
	for _, e := range net.Edges {
		dir := map[[2]bool]string{{true, true}: "both", {true, false}: "fwd", {false, true}: "bwd", {false, false}: "none"}[[2]bool{e.Forward, e.Backward}]
		flags := ""
		if e.Roundabout {
			flags += " roundabout"
		}
		if e.Ferry {
			flags += " ferry"
		}
		edges = append(edges, fmt.Sprintf("%s-%s way %d %s %.3fm %.4f/%.4fkmh dur %.0f %s %v %q pts %d%s",
			vname(e.From), vname(e.To), e.WayID, dir, e.LengthM, e.SpeedFwdKmh, e.SpeedBwdKmh, e.DurationS,
			e.Class, e.RoadType, net.Names[e.Name], e.ShapeEnd-e.ShapeStart, flags))
	}
	for v := range net.Vertices {
		s := vname(uint32(v))
		if net.Signal[v] {
			s += " signal"
		}
		if net.Barrier[v] {
			s += " barrier"
		}
		vertices = append(vertices, s)
	}
	for _, r := range net.Restrictions {
		restrictions = append(restrictions, fmt.Sprintf("%s via %s to %s %s only=%v", ename(r.FromEdge), vname(r.Via), ename(r.ToEdge), r.Kind, r.Only))
	}
	slices.Sort(edges)
	slices.Sort(vertices)
	slices.Sort(restrictions)
	return edges, vertices, restrictions
}

func TestFixtures(t *testing.T) {
	tests := []struct {
		file         string
		edges        []string
		vertices     []string
		restrictions []string
		// extra checks durations (seconds) of edges by way id.
		durations map[int64]float64
	}{
		{
			file: "oneway.osm",
			edges: []string{
				`1-3 way 101 fwd 222.390m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Oneway Street" pts 3`,
				`1-3 way 102 both 444.780m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Detour Road" pts 4`,
			},
			vertices:  []string{"1", "3"},
			durations: map[int64]float64{101: 32.024183, 102: 64.048366},
		},
		{
			file: "reverse_oneway.osm",
			edges: []string{
				`1-3 way 201 bwd 222.390m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Reverse Street" pts 3`,
				`1-3 way 202 both 444.780m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Detour Road" pts 4`,
			},
			vertices: []string{"1", "3"},
		},
		{
			file: "roundabout.osm",
			edges: []string{
				`1-2 way 301 fwd 157.254m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Ring" pts 2 roundabout`,
				`1-8 way 304 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "North Arm" pts 2`,
				`2-3 way 301 fwd 157.254m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Ring" pts 2 roundabout`,
				`2-6 way 305 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "West Arm" pts 2`,
				`3-4 way 301 fwd 157.254m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Ring" pts 2 roundabout`,
				`4-1 way 301 fwd 157.254m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Ring" pts 2 roundabout`,
				`4-7 way 303 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "East Arm" pts 2`,
				`5-3 way 302 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "South Arm" pts 2`,
			},
			vertices: []string{"1", "2", "3", "4", "5", "6", "7", "8"},
		},
		{
			file: "no_left_turn.osm",
			edges: []string{
				`1-3 way 402 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "North Street" pts 2`,
				`1-4 way 403 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "East Street" pts 2`,
				`1-5 way 404 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "West Street" pts 2`,
				`2-1 way 401 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "South Street" pts 2`,
				`3-5 way 405 both 157.254m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Diagonal" pts 2`,
				`5-6 way 404 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "West Street" pts 2`,
			},
			vertices:     []string{"1", "2", "3", "4", "5", "6"},
			restrictions: []string{"2-1/401 via 1 to 1-5/404 no_left_turn only=false"},
		},
		{
			file: "only_straight_on.osm",
			edges: []string{
				`1-3 way 502 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "North Street" pts 2`,
				`1-4 way 503 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "East Street" pts 2`,
				`2-1 way 501 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "South Street" pts 2`,
				`3-4 way 504 both 157.254m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Diagonal" pts 2`,
				`4-5 way 503 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "East Street" pts 2`,
			},
			vertices:     []string{"1", "2", "3", "4", "5"},
			restrictions: []string{"2-1/501 via 1 to 1-3/502 only_straight_on only=true"},
		},
		{
			file: "access_private.osm",
			edges: []string{
				`1-3 way 602 both 444.780m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Public Road" pts 4`,
				`3-6 way 603 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Permit Lane" pts 2`,
			},
			vertices: []string{"1", "3", "6"},
		},
		{
			file: "ferry.osm",
			edges: []string{
				`1-3 way 701 both 2223.902m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "West Shore" pts 3`,
				`1-4 way 703 both 1111.951m 5.0000/5.0000kmh dur 600 ferry FerryCar "Ferry One" pts 2 ferry`,
				`3-6 way 704 both 1111.951m 5.0000/5.0000kmh dur 0 ferry FerryCar "Ferry Two" pts 2 ferry`,
				`3-9 way 701 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "West Shore" pts 2`,
				`4-6 way 702 both 2223.902m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "East Shore" pts 3`,
				`6-10 way 702 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "East Shore" pts 2`,
				`7-1 way 701 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "West Shore" pts 2`,
				`8-4 way 702 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "East Shore" pts 2`,
			},
			vertices:  []string{"1", "10", "3", "4", "6", "7", "8", "9"},
			durations: map[int64]float64{703: 600, 704: 800.604529},
		},
		{
			file: "maxspeed_mph.osm",
			edges: []string{
				`1-11 way 801 both 1111.951m 38.6243/38.6243kmh dur 0 residential OtherRoadCity "Imperial Road" pts 11`,
				`11-16 way 802 both 555.975m 25.7495/25.7495kmh dur 0 residential OtherRoadCity "Imperial Lane" pts 6`,
			},
			vertices:  []string{"1", "11", "16"},
			durations: map[int64]float64{801: 103.640129, 802: 77.730097},
		},
		{
			file: "traffic_signal.osm",
			edges: []string{
				`1-2 way 901 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Signal Street" pts 2`,
				`2-3 way 901 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Signal Street" pts 2`,
			},
			vertices: []string{"1", "2 signal", "3"},
		},
		{
			file: "island.osm",
			edges: []string{
				`1-2 way 1001 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Main Street" pts 2`,
				`2-3 way 1001 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Main Street" pts 2`,
				`2-4 way 1002 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Side Street" pts 2`,
				`5-6 way 1003 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Island Road" pts 2`,
			},
			vertices: []string{"1", "2", "3", "4", "5", "6"},
		},
		{
			file: "barrier.osm",
			edges: []string{
				`1-2 way 1101 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Bollard Lane" pts 2`,
				`1-3 way 1102 both 444.780m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Gate Road" pts 4`,
				`2-3 way 1101 both 111.195m 25.0000/25.0000kmh dur 0 residential OtherRoadCity "Bollard Lane" pts 2`,
			},
			vertices: []string{"1", "2 barrier", "3"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			net, ids := fixture(t, tc.file)
			edges, vertices, restrictions := describe(net, ids)
			diff := func(what string, got, want []string) {
				if !slices.Equal(got, want) {
					t.Errorf("%s:\ngot\n  %s\nwant\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
				}
			}
			diff("edges", edges, tc.edges)
			diff("vertices", vertices, tc.vertices)
			diff("restrictions", restrictions, tc.restrictions)
			for way, want := range tc.durations {
				for _, e := range net.Edges {
					if e.WayID != way {
						continue
					}
					got := e.DurationS
					if got == 0 {
						got = e.LengthM / (e.SpeedFwdKmh / 3.6)
					}
					if math.Abs(got-want) > 1e-5 {
						t.Errorf("way %d: %.6f s, want %.6f s", way, got, want)
					}
				}
			}
			if net.Source != tc.file || net.DrivingSide != "right" {
				t.Errorf("source %q side %q", net.Source, net.DrivingSide)
			}
			r := net.Report
			if r.Edges != len(net.Edges) || r.Vertices != len(net.Vertices) || r.RestrictionsApplied != len(tc.restrictions) {
				t.Errorf("report counts: %+v", r)
			}
		})
	}
}

func TestFixtureReport(t *testing.T) {
	net, _ := fixture(t, "oneway.osm")
	r := net.Report
	if r.NodesRead != 5 || r.WaysRead != 2 || r.RelationsRead != 0 || r.CarWays != 2 || r.ShapePoints != 7 {
		t.Errorf("report %+v", r)
	}
	if want := "2024-05-02T12:00:00Z"; net.Timestamp.Format("2006-01-02T15:04:05Z") != want {
		t.Errorf("timestamp %v, want the newest element's, %s", net.Timestamp, want)
	}
	s := r.String()
	for _, want := range []string{"read      5 nodes, 2 ways, 0 relations", "network   2 vertices, 2 edges, 7 shape points", "turn restrictions  0 read"} {
		if !strings.Contains(s, want) {
			t.Errorf("report text lacks %q:\n%s", want, s)
		}
	}
	net, _ = fixture(t, "no_left_turn.osm")
	if r := net.Report; r.RestrictionsRead != 1 || r.RestrictionsApplied != 1 {
		t.Errorf("no_left_turn report %+v", r)
	}
}

// checkNetwork asserts the invariants every imported network keeps.
func checkNetwork(t testing.TB, net *Network) {
	t.Helper()
	nv := uint32(len(net.Vertices))
	if len(net.Signal) != len(net.Vertices) || len(net.Barrier) != len(net.Vertices) {
		t.Fatalf("flag slices: %d signal, %d barrier for %d vertices", len(net.Signal), len(net.Barrier), nv)
	}
	if len(net.Names) == 0 || net.Names[0] != "" {
		t.Fatalf("Names[0] must be the empty name")
	}
	degree := make([]int, nv)
	for i, e := range net.Edges {
		if e.From >= nv || e.To >= nv || e.From == e.To {
			t.Fatalf("edge %d: vertices %d -> %d of %d", i, e.From, e.To, nv)
		}
		if e.ShapeEnd > uint32(len(net.Shape)) || e.ShapeEnd-e.ShapeStart < 2 || e.ShapeStart > e.ShapeEnd {
			t.Fatalf("edge %d: shape [%d, %d) of %d", i, e.ShapeStart, e.ShapeEnd, len(net.Shape))
		}
		s := net.Shape[e.ShapeStart:e.ShapeEnd]
		if s[0] != net.Vertices[e.From] || s[len(s)-1] != net.Vertices[e.To] {
			t.Fatalf("edge %d: shape ends %v %v, vertices %v %v", i, s[0], s[len(s)-1], net.Vertices[e.From], net.Vertices[e.To])
		}
		l := 0.0
		for k := 1; k < len(s); k++ {
			l += geo.HaversineM(s[k-1], s[k])
		}
		if !(e.LengthM > 0) || math.Abs(l-e.LengthM) > 1e-6 {
			t.Fatalf("edge %d: LengthM %v, shape length %v", i, e.LengthM, l)
		}
		if int(e.Name) >= len(net.Names) {
			t.Fatalf("edge %d: name %d of %d", i, e.Name, len(net.Names))
		}
		if !e.Forward && !e.Backward {
			t.Fatalf("edge %d: no direction", i)
		}
		if e.Forward && !(e.SpeedFwdKmh > 0) || e.Backward && !(e.SpeedBwdKmh > 0) || e.DurationS < 0 {
			t.Fatalf("edge %d: speeds %v/%v duration %v", i, e.SpeedFwdKmh, e.SpeedBwdKmh, e.DurationS)
		}
		degree[e.From]++
		degree[e.To]++
	}
	for v, d := range degree {
		if d == 0 {
			t.Fatalf("vertex %d has no edge", v)
		}
	}
	for i, r := range net.Restrictions {
		if int(r.FromEdge) >= len(net.Edges) || int(r.ToEdge) >= len(net.Edges) || r.Via >= nv {
			t.Fatalf("restriction %d out of range: %+v", i, r)
		}
		f, to := net.Edges[r.FromEdge], net.Edges[r.ToEdge]
		if f.From != r.Via && f.To != r.Via || to.From != r.Via && to.To != r.Via {
			t.Fatalf("restriction %d: edges not incident to the via vertex: %+v", i, r)
		}
		if !strings.HasPrefix(r.Kind, "no_") && !strings.HasPrefix(r.Kind, "only_") || r.Only != strings.HasPrefix(r.Kind, "only_") {
			t.Fatalf("restriction %d: kind %q only %v", i, r.Kind, r.Only)
		}
	}
	ends := func(d DirEdge) (tail, head uint32) {
		e := net.Edges[d.Edge]
		if d.Reverse {
			return e.To, e.From
		}
		return e.From, e.To
	}
	for i, r := range net.WayRestrictions {
		if len(r.Path) < 2 || len(r.To) == 0 || r.Only != strings.HasPrefix(r.Kind, "only_") {
			t.Fatalf("way restriction %d: %+v", i, r)
		}
		for k, d := range r.Path {
			e := net.Edges[d.Edge]
			if d.Reverse && !e.Backward || !d.Reverse && !e.Forward {
				t.Fatalf("way restriction %d: path edge %d not drivable that way", i, k)
			}
			if k > 0 {
				if _, h := ends(r.Path[k-1]); func() uint32 { t, _ := ends(d); return t }() != h {
					t.Fatalf("way restriction %d: path broken at %d", i, k)
				}
			}
		}
		_, h := ends(r.Path[len(r.Path)-1])
		for _, d := range r.To {
			if tail, _ := ends(d); tail != h {
				t.Fatalf("way restriction %d: to edge %d does not leave the path's end", i, d.Edge)
			}
		}
	}
	rep := net.Report
	if rep.Vertices != len(net.Vertices) || rep.Edges != len(net.Edges) || rep.ShapePoints != len(net.Shape) {
		t.Fatalf("report sizes %+v", rep)
	}
	skipped := 0
	for _, n := range rep.RestrictionsSkippedBy {
		skipped += n
	}
	if skipped != rep.RestrictionsSkipped {
		t.Fatalf("restrictions: %d skipped but %d by reason", rep.RestrictionsSkipped, skipped)
	}
	if sum := rep.RestrictionsApplied + rep.RestrictionsNotCar + rep.RestrictionsConditional + rep.RestrictionsSkipped; sum != rep.RestrictionsRead {
		t.Fatalf("restrictions: %d read but %d accounted for", rep.RestrictionsRead, sum)
	}
}
