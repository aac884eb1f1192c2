package isochrone

import (
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
)

// linesOf passes each line to fn, as polygon's stretches do.
func linesOf(lines ...orb.LineString) func(fn func([]orb.Point)) {
	return func(fn func([]orb.Point)) {
		for _, l := range lines {
			fn(l)
		}
	}
}

// TestPolygonOfLines: hand-made lines near (0, 0) where a degree is
// about 111 km: a square block of roads 2.2 km a side, a cul-de-sac
// into it, and a short road 5 km away. The answer is a MultiPolygon of
// two polygons; the block's has one hole (the block's middle, away from
// the cul-de-sac's end), outer rings counter-clockwise and holes
// clockwise; every road point is inside, and points far from every road
// (the hole's middle, the gap between the two parts, outside the block)
// are outside.
func TestPolygonOfLines(t *testing.T) {
	square := orb.LineString{{0, 0}, {0.02, 0}, {0.02, 0.02}, {0, 0.02}, {0, 0}}
	culDeSac := orb.LineString{{0.01, 0}, {0.01, 0.004}}
	far := orb.LineString{{0.065, 0.01}, {0.066, 0.01}}
	g, cell := polygonOf(linesOf(square, culDeSac, far))
	mp, ok := g.(orb.MultiPolygon)
	if !ok || len(mp) != 2 {
		t.Fatalf("want a MultiPolygon of 2, got %T %v", g, g)
	}
	// Extent 0.066 degrees (7.3 km) over 350 cells: about 21 m.
	if cell < 15 || cell > 30 {
		t.Errorf("cell %v m, want about 21", cell)
	}
	block, other := mp[0], mp[1]
	if len(block) < len(other) {
		block, other = other, block
	}
	if len(block) != 2 || len(other) != 1 {
		t.Fatalf("rings: block %d, far road %d; want 2 and 1", len(block), len(other))
	}
	for _, p := range mp {
		if a := planar.Area(p[0]); a <= 0 {
			t.Errorf("outer ring area %v: want counter-clockwise", a)
		}
		for _, h := range p[1:] {
			if a := planar.Area(h); a >= 0 {
				t.Errorf("hole area %v: want clockwise", a)
			}
		}
	}
	for _, l := range []orb.LineString{square, culDeSac, far} {
		for i := 1; i < len(l); i++ {
			for f := 0.0; f <= 1; f += 0.05 {
				p := orb.Point{l[i-1][0] + (l[i][0]-l[i-1][0])*f, l[i-1][1] + (l[i][1]-l[i-1][1])*f}
				if !planar.MultiPolygonContains(mp, p) {
					t.Errorf("road point %v outside", p)
				}
			}
		}
	}
	for _, p := range []orb.Point{{0.01, 0.01}, {0.04, 0.01}, {-0.01, 0.01}, {0.01, 0.03}, {0.0105, 0.006}} {
		if planar.MultiPolygonContains(mp, p) {
			t.Errorf("point %v, far from every road, inside", p)
		}
	}
	// Within two cells of a road: inside.
	for _, p := range []orb.Point{{0.01, 0.0002}, {0.0003, 0.01}, {0.01, 0.0043}} {
		if !planar.MultiPolygonContains(mp, p) {
			t.Errorf("point %v, a cell from a road, outside", p)
		}
	}
	if g, _ := polygonOf(linesOf()); g != nil {
		t.Errorf("no lines: %v", g)
	}
}
