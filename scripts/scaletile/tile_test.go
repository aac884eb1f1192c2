package main

import (
	"math"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/internal/testenv"
)

// fixture is a small extract: a two-way residential grid of 3 x 3
// junctions (so every border has junctions), a oneway road and a
// relation over two ways.
func fixture() *extract {
	e := &extract{}
	id := osm.NodeID(1)
	grid := map[[2]int]osm.NodeID{}
	for y := 0; y < 3; y++ {
		for x := 0; x < 3; x++ {
			e.add(&osm.Node{ID: id, Lon: 10 + 0.01*float64(x), Lat: 50 + 0.01*float64(y), Tags: osm.Tags{{Key: "note", Value: "a b,c=d@e%f"}}})
			grid[[2]int{x, y}] = id
			id++
		}
	}
	wid := osm.WayID(1)
	road := func(hw string, ns ...osm.NodeID) {
		w := &osm.Way{ID: wid, Tags: osm.Tags{{Key: "highway", Value: hw}, {Key: "name", Value: "Rue é"}}}
		for _, n := range ns {
			w.Nodes = append(w.Nodes, osm.WayNode{ID: n})
		}
		e.add(w)
		wid++
	}
	for y := 0; y < 3; y++ {
		road("residential", grid[[2]int{0, y}], grid[[2]int{1, y}], grid[[2]int{2, y}])
	}
	for x := 0; x < 3; x++ {
		road("residential", grid[[2]int{x, 0}], grid[[2]int{x, 1}], grid[[2]int{x, 2}])
	}
	e.add(&osm.Relation{ID: 7, Tags: osm.Tags{{Key: "type", Value: "route"}},
		Members: osm.Members{{Type: osm.TypeWay, Ref: 1, Role: "forward"}, {Type: osm.TypeNode, Ref: 5}}})
	return e
}

func TestJoinEnds(t *testing.T) {
	e := fixture()
	js := e.junctions()
	// Every grid node is on two roads: corners are two road ends (2),
	// edge midpoints an end and a middle (3), the centre two middles (4).
	if len(js) != 5 {
		t.Fatalf("%d junctions, want 5 (4 edge midpoints and the centre)", len(js))
	}
	for _, tc := range []struct {
		name   string
		dx, dy int
		want   osm.NodeID
	}{
		{"east", 1, 0, 6}, {"west", -1, 0, 4}, {"north", 0, 1, 8}, {"south", 0, -1, 2},
	} {
		ends := e.joinEnds(js, 1, tc.dx, tc.dy)
		if len(ends) != 1 || ends[0].id != tc.want {
			t.Errorf("%s end %+v, want node %d", tc.name, ends, tc.want)
		}
	}
}

func TestEscaped(t *testing.T) {
	for in, want := range map[string]string{
		"Main Street": "Main%20%Street",
		"a,b=c@d%e":   "a%2c%b%3d%c%40%d%25%e",
		"Rue é":       "Rue%20%é",
		"tab\there":   "tab%9%here",
	} {
		if got := string(appendEscaped(nil, in)); got != want {
			t.Errorf("%q -> %q, want %q", in, got, want)
		}
	}
}

// TestTilingThroughOsmium: a 3 x 3 tiling written through osmium reads
// back with every copy's nodes shifted by whole extract sizes, unique ids,
// the relation's members renumbered with their copy, and the joins
// between neighbouring copies.
func TestTilingThroughOsmium(t *testing.T) {
	if _, err := exec.LookPath("osmium"); err != nil {
		testenv.Skip(t, "osmium is not installed (Debian: osmium-tool): %v", err)
	}
	e := fixture()
	const k = 3
	tl := newTiling(e, k, 1)
	path := filepath.Join(t.TempDir(), "tiled.osm.pbf")
	st, err := writeTiling(tl, path)
	if err != nil {
		t.Fatal(err)
	}
	// 2 * k * (k-1) borders, one join each.
	if st.Nodes != 9*k*k || st.Ways != 6*k*k || st.Relations != k*k || st.Joins != 2*k*(k-1) {
		t.Fatalf("stats %+v", st)
	}
	back, err := readExtract(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.nodes) != st.Nodes || len(back.ways) != st.Ways+st.Joins || len(back.relations) != st.Relations {
		t.Fatalf("read back %d nodes, %d ways, %d relations", len(back.nodes), len(back.ways), len(back.relations))
	}
	pos := map[osm.NodeID][2]float64{}
	for _, n := range back.nodes {
		pos[n.ID] = [2]float64{n.Lon, n.Lat}
		if n.Tags.Find("note") != "a b,c=d@e%f" {
			t.Fatalf("node %d note %q", n.ID, n.Tags.Find("note"))
		}
	}
	if len(pos) != st.Nodes {
		t.Fatalf("%d distinct node ids, want %d", len(pos), st.Nodes)
	}
	// Node 9 (the grid's north-east corner) of copy (2, 1) is 2 steps
	// (1.01 widths) east and 1 step north of the original.
	c := tl.copyIndex(2, 1)
	got := pos[osm.NodeID(tl.nodeID(c, 9))]
	if math.Abs(got[0]-(10.02+2*0.0202)) > 1e-7 || math.Abs(got[1]-(50.02+0.0202)) > 1e-7 {
		t.Errorf("copy (2,1) node 9 at %v", got)
	}
	joins := 0
	for _, w := range back.ways {
		if w.Tags.Find("highway") == "trunk" {
			joins++
			// From the east (north) edge junction of a copy to the west
			// (south) one of the next: across the gap between them.
			a, b := pos[w.Nodes[0].ID], pos[w.Nodes[1].ID]
			if east, north := b[0]-a[0], b[1]-a[1]; len(w.Nodes) != 2 ||
				!(math.Abs(east-0.0002) < 1e-7 && math.Abs(north) < 1e-7 || math.Abs(north-0.0002) < 1e-7 && math.Abs(east) < 1e-7) {
				t.Errorf("join %d spans %v -> %v", w.ID, a, b)
			}
			continue
		}
		if w.Tags.Find("name") != "Rue é" {
			t.Errorf("way %d name %q", w.ID, w.Tags.Find("name"))
		}
	}
	if joins != st.Joins {
		t.Errorf("%d joins read back, want %d", joins, st.Joins)
	}
	r := back.relations[len(back.relations)-1]
	last := tl.copyIndex(k-1, k-1)
	if int64(r.ID) != tl.relID(last, 7) || r.Members[0].Ref != tl.wayID(last, 1) || r.Members[1].Ref != tl.nodeID(last, 5) || r.Members[0].Role != "forward" {
		t.Errorf("last relation %d members %+v", r.ID, r.Members)
	}
}
