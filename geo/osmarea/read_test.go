package osmarea

import (
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/geo/osmfile"
)

// readFixture assembles every boundary/multipolygon relation of
// testdata/areas.osm (hand-written: see the relation names).
func readFixture(t *testing.T) *Result {
	t.Helper()
	f, err := osmfile.Open("testdata/areas.osm")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Read(f, Selector{Relation: func(r *osm.Relation) bool {
		return r.Tags.Find("type") == "boundary" || r.Tags.Find("type") == "multipolygon"
	}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func byID(res *Result, id int64) *Area {
	for i := range res.Areas {
		if res.Areas[i].ID == id {
			return &res.Areas[i]
		}
	}
	return nil
}

func TestAssembleFixtures(t *testing.T) {
	res := readFixture(t)
	tests := []struct {
		id       int64
		name     string
		polygons int
		holes    int     // holes of the first polygon
		area     float64 // total, in square degrees
		in, out  orb.Point
		mismatch int
	}{
		{100, "Square with hole", 1, 1, 0.01 - 0.0009, orb.Point{0.01, 0.01}, orb.Point{0.045, 0.045}, 0},
		{200, "Four ways", 1, 0, 0.01, orb.Point{0.25, 0.05}, orb.Point{0.35, 0.05}, 0},
		{300, "Exclave", 2, 0, 2 * 0.0025, orb.Point{0.525, 0.025}, orb.Point{0.475, 0.025}, 0},
		{500, "Roles wrong", 1, 1, 0.01 - 0.0009, orb.Point{0.81, 0.01}, orb.Point{0.845, 0.045}, 1},
	}
	for _, tc := range tests {
		a := byID(res, tc.id)
		if a == nil {
			t.Errorf("r%d %s: not assembled", tc.id, tc.name)
			continue
		}
		if len(a.Polygons) != tc.polygons || len(a.Polygons[0])-1 != tc.holes {
			t.Errorf("r%d: %d polygons, %d holes; want %d, %d", tc.id, len(a.Polygons), len(a.Polygons[0])-1, tc.polygons, tc.holes)
		}
		var area float64
		for _, p := range a.Polygons {
			if planar.Area(p[0]) <= 0 {
				t.Errorf("r%d: outer ring not counter-clockwise", tc.id)
			}
			for _, h := range p[1:] {
				if planar.Area(h) >= 0 {
					t.Errorf("r%d: hole not clockwise", tc.id)
				}
			}
			area += planar.Area(p)
		}
		if d := area - tc.area; d > 1e-12 || d < -1e-12 {
			t.Errorf("r%d: area %g, want %g", tc.id, area, tc.area)
		}
		if !planar.MultiPolygonContains(a.Polygons, tc.in) || planar.MultiPolygonContains(a.Polygons, tc.out) {
			t.Errorf("r%d: contains %v (want yes) / %v (want no) wrong", tc.id, tc.in, tc.out)
		}
		if a.RoleMismatches != tc.mismatch {
			t.Errorf("r%d: %d role mismatches, want %d", tc.id, a.RoleMismatches, tc.mismatch)
		}
	}
}

func TestBrokenAndClipped(t *testing.T) {
	res := readFixture(t)
	if len(res.Broken) != 2 || res.Broken[0].ID != 400 || res.Broken[1].ID != 600 {
		t.Fatalf("broken = %+v, want r400 (cut) and r600 (no ways)", res.Broken)
	}
	if b := res.Broken[0]; b.MissingWays != 1 || b.OpenRings != 1 || b.Reason() != "1 open rings, 1 member ways missing from the extract" {
		t.Errorf("r400: %+v %q", b, b.Reason())
	}
	if byID(res, 400) != nil {
		t.Error("a broken relation was assembled")
	}
	ids := ClipToSubareas(res)
	if len(ids) != 2 {
		t.Fatalf("clipped %v, want [400 600]", ids)
	}
	// r400 (country XA) is the union of its child XA-FW (r200).
	cut := byID(res, 400)
	if cut == nil || !cut.Clipped || !planar.MultiPolygonContains(cut.Polygons, orb.Point{0.25, 0.05}) {
		t.Errorf("r400 clipped = %+v", cut)
	}
	// r600 stands in with its complete subarea r300 (the exclave area) and
	// r400's clipped parts through it.
	p := byID(res, 600)
	if p == nil || !p.Clipped || len(p.Polygons) != 2 || !planar.MultiPolygonContains(p.Polygons, orb.Point{0.525, 0.025}) {
		t.Errorf("r600 clipped = %+v", p)
	}
	if !res.Broken[0].Clipped || !res.Broken[1].Clipped {
		t.Error("Broken entries not marked clipped")
	}
}

func TestAssembleRingsDirect(t *testing.T) {
	w := func(id int64, pts ...orb.Point) *Way {
		ns := make([]int64, len(pts))
		for i, p := range pts {
			ns[i] = int64(p[0]*1000 + p[1])
		}
		return &Way{ID: id, Nodes: ns, Points: pts}
	}
	// A triangle from three ways, one reversed, given in a scrambled order.
	a := AssembleRings([]Member{
		{Way: w(2, orb.Point{4, 0}, orb.Point{2, 3})},
		{Way: w(1, orb.Point{0, 0}, orb.Point{4, 0})},
		{Way: w(3, orb.Point{0, 0}, orb.Point{2, 3})},
	})
	if a.OpenRings != 0 || len(a.Polygons) != 1 || len(a.Polygons[0][0]) != 4 {
		t.Errorf("triangle: %+v", a)
	}
	// An open chain.
	a = AssembleRings([]Member{{Way: w(1, orb.Point{0, 0}, orb.Point{4, 0}, orb.Point{4, 4})}})
	if a.OpenRings != 1 || len(a.Polygons) != 0 {
		t.Errorf("open chain: %+v", a)
	}
	// One open chain of three ways, given from its middle: one open ring.
	a = AssembleRings([]Member{
		{Way: w(2, orb.Point{4, 0}, orb.Point{4, 4})},
		{Way: w(1, orb.Point{0, 0}, orb.Point{4, 0})},
		{Way: w(3, orb.Point{4, 4}, orb.Point{2, 6})},
	})
	if a.OpenRings != 1 {
		t.Errorf("open chain from its middle: %d open rings, want 1", a.OpenRings)
	}
}
