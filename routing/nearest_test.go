package routing

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/osmroad"
)

// TestSnapNearest: on island.osm (Main Street A-B-C due north, Side
// Street B-D due east from B, the Island Road far off), a point 0.0002
// degrees east of Main Street and 0.0005 north of A snaps first where
// Snap puts it, on Main Street A-B (22.2 m west), then on Side Street
// (55.6 m south of the point's foot on it), then on Main Street B-C (its
// end B, at hypot(0.0002, 0.0005) degrees): distinct edges, nearest
// first; the island is beyond the radius; EdgeName names each.
func TestSnapNearest(t *testing.T) {
	path := filepath.Join("testdata", "island.osm")
	prof := carProfile(t)
	net, err := osmroad.Read(path, prof)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := Build(net, prof)
	if err != nil {
		t.Fatal(err)
	}
	p := orb.Point{10.0002, 0.0005}
	got := g.SnapNearest(Fastest, p, 1000, SnapOptions{}, 5)
	first := g.Snap(Fastest, p, 1000)
	const m = 111195.0 // metres per degree here, as the fixture counts
	want := []struct {
		name  string
		distM float64
	}{
		{"Main Street", 0.0002 * m},                     // A-B, due west
		{"Side Street", 0.0005 * m},                     // B-D, due north
		{"Main Street", math.Hypot(0.0002, 0.0005) * m}, // B-C, its end B
	}
	if len(got) != len(want) {
		t.Fatalf("%d snaps %+v, want %d (the island is beyond 1000 m)", len(got), got, len(want))
	}
	if got[0] != first {
		t.Errorf("first %+v, Snap %+v", got[0], first)
	}
	seen := map[uint32]bool{}
	for i, s := range got {
		if seen[s.Edge] || !s.OK {
			t.Errorf("snap %d: edge %d again or not OK", i, s.Edge)
		}
		seen[s.Edge] = true
		if math.Abs(s.DistanceM-want[i].distM) > 0.5 || g.EdgeName(s.Edge) != want[i].name {
			t.Errorf("snap %d: %s at %.1f m, want %s at %.1f m", i, g.EdgeName(s.Edge), s.DistanceM, want[i].name, want[i].distM)
		}
	}
	if g.EdgeName(1<<30) != "" {
		t.Errorf("EdgeName of no edge is not empty")
	}
}
