package routing

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/paulmach/osm"
	"github.com/paulmach/osm/osmpbf"

	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
)

// profileGraph is the graph of one profile with the OSM way of each of
// its edges (kept from the network before Build lets it go).
type profileGraph struct {
	g   *Graph
	way []int64
}

var (
	profileGraphsMu sync.Mutex
	profileGraphs   = map[string]*profileGraph{}
)

// testProfileGraph builds (once per test binary) the graph of a named
// extract with configs/NAME.yaml, its hierarchies derived from the CCH
// (seconds, where greedy contraction takes minutes on a foot graph).
func testProfileGraph(t testing.TB, extract, name string) *profileGraph {
	t.Helper()
	path := extractPath(t, extract)
	profileGraphsMu.Lock()
	defer profileGraphsMu.Unlock()
	key := extract + "/" + name
	if pg, ok := profileGraphs[key]; ok {
		return pg
	}
	prof, err := profile.Load(filepath.Join("..", "configs", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	net, err := osmroad.Read(path, prof)
	if err != nil {
		t.Fatalf("read %s for %s: %v", extract, name, err)
	}
	way := make([]int64, len(net.Edges))
	for i, e := range net.Edges {
		way[i] = e.WayID
	}
	g, rep, err := Build(net, prof, WithContraction(ContractionDerived))
	if err != nil {
		t.Fatalf("build %s %s: %v", extract, name, err)
	}
	t.Logf("%s %s: %d nodes, %d edges\n%s", extract, name, g.Meta().Nodes, g.Meta().Edges, rep)
	pg := &profileGraph{g: g, way: way}
	profileGraphs[key] = pg
	return pg
}

var (
	delawareTagsOnce sync.Once
	delawareTags     map[int64]map[string]string
	delawareTagsErr  error
)

// delawareWayTags returns the tags of Delaware's road and route ways,
// read once per test binary (readWayTags).
func delawareWayTags(t testing.TB) map[int64]map[string]string {
	t.Helper()
	path := extractPath(t, "delaware")
	delawareTagsOnce.Do(func() { delawareTags, delawareTagsErr = readWayTags(path) })
	if delawareTagsErr != nil {
		t.Fatal(delawareTagsErr)
	}
	return delawareTags
}

// readWayTags reads the tags of every road and route way of a PBF
// extract: highway, route, name, oneway, bicycle, foot.
func readWayTags(path string) (map[int64]map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s := osmpbf.New(context.Background(), f, runtime.GOMAXPROCS(0))
	defer s.Close()
	s.SkipNodes, s.SkipRelations = true, true
	out := map[int64]map[string]string{}
	for s.Scan() {
		w, ok := s.Object().(*osm.Way)
		if !ok || w.Tags.Find("highway") == "" && w.Tags.Find("route") == "" {
			continue
		}
		m := map[string]string{}
		for _, k := range []string{"highway", "route", "name", "oneway", "bicycle", "foot"} {
			if v := w.Tags.Find(k); v != "" {
				m[k] = v
			}
		}
		out[int64(w.ID)] = m
	}
	return out, s.Err()
}

// Delaware ways the tests name (OSM way ids of the shared extract).
const (
	// West Mount Vernon Street, Smyrna: residential, oneway=yes.
	wayWestMountVernon = 17208165
	// Mall Boulevard, Dover: residential, bicycle=no.
	wayMallBoulevard = 17208993
)

// TestProfileGraphWaysDelaware checks every edge of Delaware's bicycle and
// foot graphs against its way's tags: no motorway in either, no
// bicycle=no way in the bicycle graph, cycleways in both (the bicycle's
// for riding, the foot's only where foot=designated/yes).
func TestProfileGraphWaysDelaware(t *testing.T) {
	tags := delawareWayTags(t)
	car := testProfileGraph(t, "delaware", "car")
	carWays := map[int64]bool{}
	for _, w := range car.way {
		carWays[w] = true
	}
	for _, tc := range []struct {
		profile    string
		forbidden  func(map[string]string) bool
		mustLack   int64
		cycleCarNo bool // cycleways the car graph lacks are in it
	}{
		{"bicycle", func(m map[string]string) bool {
			return m["highway"] == "motorway" || m["highway"] == "motorway_link" || m["bicycle"] == "no"
		}, wayMallBoulevard, true},
		{"foot", func(m map[string]string) bool {
			return m["highway"] == "motorway" || m["highway"] == "motorway_link" || m["foot"] == "no"
		}, 0, false},
	} {
		t.Run(tc.profile, func(t *testing.T) {
			pg := testProfileGraph(t, "delaware", tc.profile)
			classes := map[string]int{}
			cycleways := 0
			for e, w := range pg.way {
				m := tags[w]
				if m == nil {
					t.Fatalf("edge %d: way %d not read", e, w)
				}
				if tc.forbidden(m) {
					t.Fatalf("edge %d of way %d (%v) is in the %s graph", e, w, m, tc.profile)
				}
				if w == tc.mustLack {
					t.Fatalf("way %d (%v) is in the %s graph", w, m, tc.profile)
				}
				classes[m["highway"]]++
				if m["highway"] == "cycleway" && !carWays[w] {
					cycleways++
				}
			}
			t.Logf("%s graph: %d edges by class %v", tc.profile, len(pg.way), classes)
			if tc.cycleCarNo && cycleways < 100 {
				t.Errorf("%d cycleway edges the car graph lacks, want at least 100", cycleways)
			}
		})
	}
	if !carWays[wayMallBoulevard] {
		t.Errorf("Mall Boulevard (way %d, bicycle=no) is not in the car graph", wayMallBoulevard)
	}
}

// longestEdgeOf returns the longest edge of way w in pg with at least 4
// shape points, or fails.
func longestEdgeOf(t *testing.T, pg *profileGraph, w int64) uint32 {
	t.Helper()
	best, found := uint32(0), false
	for e, x := range pg.way {
		if x == w && len(pg.g.edgeShape(uint32(e))) >= 4 && (!found || pg.g.edgeLen[e] > pg.g.edgeLen[best]) {
			best, found = uint32(e), true
		}
	}
	if !found {
		t.Fatalf("way %d has no edge of 4 shape points", w)
	}
	return best
}

// TestFootAgainstOnewayDelaware: on West Mount Vernon Street (one-way in
// its way's direction) a walker goes straight back along the street; a
// car and a bicycle must go round.
func TestFootAgainstOnewayDelaware(t *testing.T) {
	foot := testProfileGraph(t, "delaware", "foot")
	e := longestEdgeOf(t, foot, wayWestMountVernon)
	shape := foot.g.edgeShape(e)
	// Two interior shape points: from near the edge's end back to near
	// its start, against the one-way.
	from, to := shape[len(shape)-2], shape[1]
	direct := foot.g.Snap(Fastest, from, 5)
	r, err := foot.g.Route(bg, Shortest, direct, foot.g.Snap(Fastest, to, 5))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Segments {
		if foot.way[s.Edge] != wayWestMountVernon {
			t.Fatalf("foot route leaves West Mount Vernon Street onto way %d (%s)", foot.way[s.Edge], s.Name)
		}
	}
	t.Logf("foot: %d m, %d s against the one-way", r.DistanceM, r.DurationS)
	for _, name := range []string{"car", "bicycle"} {
		pg := testProfileGraph(t, "delaware", name)
		a, b := pg.g.Snap(Fastest, from, 5), pg.g.Snap(Fastest, to, 5)
		if !a.OK || !b.OK || pg.way[a.Edge] != wayWestMountVernon {
			t.Fatalf("%s: points not on West Mount Vernon Street", name)
		}
		rr, err := pg.g.Route(bg, Shortest, a, b)
		if err != nil {
			t.Fatal(err)
		}
		if rr.DistanceM <= r.DistanceM+50 {
			t.Errorf("%s route against the one-way: %d m, the walker's %d m: it should go round", name, rr.DistanceM, r.DistanceM)
		}
		t.Logf("%s: %d m round the block", name, rr.DistanceM)
	}
}

// TestBicycleCyclewayDelaware: a bicycle route between two neighbouring
// points of the Northern Delaware Greenway rides it; the car graph has no
// edge of it and no road within 5 m.
func TestBicycleCyclewayDelaware(t *testing.T) {
	bike := testProfileGraph(t, "delaware", "bicycle")
	car := testProfileGraph(t, "delaware", "car")
	best, found := uint32(0), false
	for e := range bike.way {
		if bike.g.classes[bike.g.edgeClass[e]] == "cycleway" && bike.g.names[bike.g.edgeName[e]] == "Northern Delaware Greenway" &&
			len(bike.g.edgeShape(uint32(e))) >= 4 && (!found || bike.g.edgeLen[e] > bike.g.edgeLen[best]) {
			best, found = uint32(e), true
		}
	}
	if !found {
		t.Fatal("no edge of the Northern Delaware Greenway in the bicycle graph")
	}
	for _, w := range car.way {
		if w == bike.way[best] {
			t.Fatalf("way %d of the Northern Delaware Greenway is in the car graph", w)
		}
	}
	shape := bike.g.edgeShape(best)
	mid := len(shape) / 2
	a, b := bike.g.Snap(Fastest, shape[mid-1], 5), bike.g.Snap(Fastest, shape[mid], 5)
	r, err := bike.g.Route(bg, Fastest, a, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Segments {
		if s.Class != "cycleway" || bike.way[s.Edge] != bike.way[best] {
			t.Errorf("segment on %s (%s, way %d), want the greenway", s.Class, s.Name, bike.way[s.Edge])
		}
	}
	t.Logf("bicycle: %d m, %d s on way %d of the Northern Delaware Greenway", r.DistanceM, r.DurationS, bike.way[best])
	if c := car.g.Snap(Fastest, shape[mid], 5); c.OK {
		t.Errorf("a car snaps within 5 m of the greenway, onto way %d", car.way[c.Edge])
	}
}

// TestProfileGraphsMatchDijkstra: on Delaware's bicycle and foot graphs
// the hierarchies' tables and point-to-point routes equal a plain
// Dijkstra on the same graph.
func TestProfileGraphsMatchDijkstra(t *testing.T) {
	for _, name := range []string{"bicycle", "foot"} {
		for _, m := range []Metric{Fastest, Shortest} {
			t.Run(name+"/"+m.String(), func(t *testing.T) {
				g := testProfileGraph(t, "delaware", name).g
				src := roadPoints(g, 25, 31, 10)
				dst := roadPoints(g, 30, 32, 10)
				want := g.dijkstraTable(m, src, dst)
				got := tableOf(g, src, targetsOf(t, g, m, dst))
				routes := 0
				for i := range src {
					for j := range dst {
						wd, wm := want.At(i, j)
						if gd, gm := got.At(i, j); gd != wd || gm != wm {
							t.Fatalf("cell %d,%d: table %ds %dm, dijkstra %ds %dm", i, j, gd, gm, wd, wm)
						}
						if wd != NoRoute {
							routes++
						}
					}
				}
				for i := 0; i < 5; i++ {
					r, err := g.Route(bg, m, src[i], dst[i])
					wd, wm := want.At(i, i)
					if wd == NoRoute {
						continue
					}
					if err != nil || int32(r.DurationS) != wd || int32(r.DistanceM) != wm {
						t.Fatalf("route %d: %+v %v, dijkstra %ds %dm", i, r, err, wd, wm)
					}
				}
				if routes < len(src)*len(dst)*9/10 {
					t.Errorf("only %d of %d cells have a route", routes, len(src)*len(dst))
				}
			})
		}
	}
}
