package osmfile

import (
	"slices"
	"sync"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/osm"
)

func wayNodes(ids ...osm.NodeID) osm.WayNodes {
	out := make(osm.WayNodes, len(ids))
	for i, id := range ids {
		out[i] = osm.WayNode{ID: id}
	}
	return out
}

func TestWayNodes(t *testing.T) {
	var w WayNodes
	w.Add(30, wayNodes(5, 6))
	w.Add(10, wayNodes(1, 2, 3))
	w.Add(20, wayNodes(3, 4))
	w.Add(10, wayNodes(7, 8)) // a repeated id: the last one added is kept
	w.Sort()
	if w.Len() != 3 {
		t.Fatalf("%d ways, want 3", w.Len())
	}
	for id, want := range map[int64][]int64{10: {7, 8}, 20: {3, 4}, 30: {5, 6}} {
		if got, ok := w.Nodes(id); !ok || !slices.Equal(got, want) {
			t.Errorf("way %d: %v %v, want %v", id, got, ok, want)
		}
	}
	if _, ok := w.Nodes(40); ok {
		t.Error("way 40 found")
	}
	w.Keep(func(id int64) bool { return id != 20 })
	if _, ok := w.Nodes(20); ok || w.Len() != 2 {
		t.Errorf("Keep: way 20 still there (%d ways)", w.Len())
	}
	if got := w.NodeIDs(); !slices.Equal(got, []int64{7, 8, 5, 6}) {
		t.Errorf("NodeIDs %v", got)
	}
}

func TestNodeCoords(t *testing.T) {
	c := NewNodeCoords([]int64{9, 3, 3, 5, 9})
	if c.Len() != 3 {
		t.Fatalf("%d nodes, want 3", c.Len())
	}
	var wg sync.WaitGroup
	for _, id := range []int64{1, 3, 5, 7} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := c.Record(&osm.Node{ID: osm.NodeID(id), Lon: float64(id), Lat: -float64(id)})
			if in != (id == 3 || id == 5) {
				t.Errorf("Record(%d) = %v", id, in)
			}
		}()
	}
	wg.Wait()
	if p, ok := c.Point(5); !ok || p != (orb.Point{5, -5}) {
		t.Errorf("Point(5) = %v %v", p, ok)
	}
	if _, ok := c.Point(9); ok {
		t.Error("node 9 was not read but has a point")
	}
	var seen []int64
	c.Each(func(id int64, _ orb.Point) { seen = append(seen, id) })
	if !slices.Equal(seen, []int64{3, 5}) {
		t.Errorf("Each: %v", seen)
	}
}
