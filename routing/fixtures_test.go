package routing

import (
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/osmroad"
)

// fixtureNodes returns the coordinates of the nodes of a hand-written OSM
// XML fixture by id.
func fixtureNodes(t *testing.T, path string) map[int64]orb.Point {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Nodes []struct {
			ID  int64   `xml:"id,attr"`
			Lat float64 `xml:"lat,attr"`
			Lon float64 `xml:"lon,attr"`
		} `xml:"node"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	pts := map[int64]orb.Point{}
	for _, n := range doc.Nodes {
		pts[n.ID] = orb.Point{n.Lon, n.Lat}
	}
	return pts
}

// TestFixtureRoutes routes over the hand-written fixtures in testdata and
// asserts the seconds and metres worked out by hand in each fixture's
// comment from the profile's numbers (configs/car.yaml): 25 km/h on
// residential roads, maxspeed x 0.8, 5 km/h ferries or their duration tag,
// OSRM's turn-angle sigmoid, 2 s per traffic signal.
func TestFixtureRoutes(t *testing.T) {
	cases := []struct {
		fixture  string
		from, to int64 // OSM node ids
		wantS    int   // NoRoute: no route
		wantM    int
	}{
		{"oneway", 1, 3, 32, 222},           // 222.390 m, 32.024 s along the one-way street
		{"oneway", 3, 1, 64, 445},           // 444.780 m, 64.048 s: the detour
		{"reverse_oneway", 3, 1, 32, 222},   // oneway=-1 is drivable against node order
		{"reverse_oneway", 1, 3, 64, 445},   // and not with it
		{"roundabout", 5, 7, 55, 380},       // 379.644 m, 54.948 s
		{"roundabout", 5, 6, 111, 694},      // 694.151 m, 111.027 s: three quarters round
		{"no_left_turn", 2, 6, 71, 491},     // 490.839 m, 70.827 s: round the banned left turn
		{"no_left_turn", 6, 2, 50, 334},     // 333.585 m, 50.148 s: the right turn is allowed
		{"only_straight_on", 2, 5, 71, 491}, // 490.839 m, 71.230 s
		{"only_straight_on", 2, 3, 32, 222}, // 222.390 m, 32.031 s
		{"access_private", 1, 3, 64, 445},   // not through the private drive
		{"access_private", 1, 6, 80, 556},   // 555.975 m, 80.060 s: motorcar=yes opens the lane
		{"ferry", 7, 8, 636, 1334},          // duration=00:10 ferry: 636.235 s
		{"ferry", 9, 10, 843, 1334},         // 5 km/h ferry: 843.418 s
		{"maxspeed_mph", 1, 11, 104, 1112},  // 30 mph x 0.8: 103.640 s
		{"maxspeed_mph", 1, 16, 181, 1668},  // then 20mph: 181.370 s
		{"traffic_signal", 1, 3, 34, 222},   // 32.024 s + 2 s signal
		{"traffic_signal", 3, 1, 34, 222},
		{"barrier", 1, 3, 64, 445},        // the bollard blocks the short way
		{"island", 1, 3, 32, 222},         // 32.031 s: straight on at a three-way vertex
		{"island", 1, 6, int(NoRoute), 0}, // the island is not reachable
		{"island", 5, 6, 16, 111},         // but routable on its own: 111.195 m, 16.0121 s
		{"island", 6, 5, 16, 111},
	}
	prof := carProfile(t)
	graphs := map[string]*Graph{}
	for _, tc := range cases {
		path := filepath.Join("testdata", tc.fixture+".osm")
		g := graphs[tc.fixture]
		if g == nil {
			net, err := osmroad.Read(path, prof)
			if err != nil {
				t.Fatalf("%s: %v", tc.fixture, err)
			}
			if g, _, err = Build(net, prof); err != nil {
				t.Fatalf("%s: %v", tc.fixture, err)
			}
			graphs[tc.fixture] = g
		}
		nodes := fixtureNodes(t, path)
		from := g.Snap(Fastest, nodes[tc.from], 0)
		to := g.Snap(Fastest, nodes[tc.to], 0)
		for _, m := range []Metric{Fastest, Shortest} {
			r, err := g.Route(bg, m, from, to)
			cell := matrixOf(t, g, m, []Snap{from}, []Snap{to})
			if tc.wantS == int(NoRoute) {
				if !errors.Is(err, ErrNoRoute) && !errors.Is(err, ErrNotSnapped) {
					t.Errorf("%s %d->%d: want no route, got %v", tc.fixture, tc.from, tc.to, err)
				}
				if d, _ := cell.At(0, 0); d != NoRoute {
					t.Errorf("%s %d->%d: table cell %d, want NoRoute", tc.fixture, tc.from, tc.to, d)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s %d->%d %s: %v", tc.fixture, tc.from, tc.to, m, err)
			}
			// On these fixtures the fastest route is also the shortest.
			if r.DurationS != tc.wantS || r.DistanceM != tc.wantM {
				t.Errorf("%s %d->%d %s: %d s %d m, want %d s %d m", tc.fixture, tc.from, tc.to, m, r.DurationS, r.DistanceM, tc.wantS, tc.wantM)
			}
			if d, dist := cell.At(0, 0); int(d) != r.DurationS || int(dist) != r.DistanceM {
				t.Errorf("%s %d->%d %s: table %d s %d m, route %d s %d m", tc.fixture, tc.from, tc.to, m, d, dist, r.DurationS, r.DistanceM)
			}
		}
	}
}
