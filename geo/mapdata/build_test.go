package mapdata

import (
	"testing"

	"github.com/paulmach/orb"
)

// TestBuildFixture builds testdata/tags.osm (hand-made: one square per tag
// rule, lines, a lake with an island, boundaries of two levels sharing a
// way, places) and checks the class of each and what is left out.
func TestBuildFixture(t *testing.T) {
	l, rep, err := Build(BuildOptions{OSMPath: "testdata/tags.osm", Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Size <= 0 {
		t.Errorf("size %d", rep.Size)
	}
	// The square of way k spans x 10.00+0.02k .. +0.01 at y 50.00 .. 50.01.
	sq := func(k int) orb.Point { return orb.Point{10.005 + 0.02*float64(k), 50.005} }
	tests := []struct {
		name string
		p    orb.Point
		want []Class // besides Land
	}{
		{"building=yes", sq(0), []Class{Buildings}},
		{"building in leisure=park: the building", sq(1), []Class{Buildings}},
		{"natural=wood", sq(2), []Class{Woodland}},
		{"natural=wetland", sq(3), []Class{Moor}},
		{"landuse=railway", sq(4), []Class{RailroadArea}},
		{"amenity=parking: not drawn", sq(5), nil},
		{"leisure=park with area=no: not drawn", sq(6), nil},
		{"place=suburb area: a label, not an area", sq(7), nil},
		{"boundary=protected_area protect_class=2", sq(8), []Class{Park}},
		{"lake (multipolygon)", orb.Point{10.02, 50.22}, []Class{Water}},
		{"island (the lake's inner way)", orb.Point{10.05, 50.25}, nil},
	}
	for _, tc := range tests {
		for _, mpp := range []float64{1, 5} {
			got := classesAt(l, tc.p, mpp)
			if !got[Land] || len(got) != 1+len(tc.want) {
				t.Errorf("%s %v at %g m/px: classes %v, want Land and %v", tc.name, tc.p, mpp, got, tc.want)
				continue
			}
			for _, c := range tc.want {
				if !got[c] {
					t.Errorf("%s %v at %g m/px: classes %v, want %v", tc.name, tc.p, mpp, got, tc.want)
				}
			}
		}
	}
	s := l.Stats()
	if s.Lines[Railway] != 1 || s.Lines[Border] != 1 || s.Lines[Province] != 1 {
		t.Errorf("lines %v: want the rail (not the abandoned one), way 22 a Border, way 23 a Province", s.Lines)
	}
	for _, tc := range []struct {
		b     orb.Bound
		class Class
	}{
		{orb.Bound{Min: orb.Point{10.02, 50.09}, Max: orb.Point{10.03, 50.11}}, Border},
		{orb.Bound{Min: orb.Point{10.15, 50.09}, Max: orb.Point{10.16, 50.11}}, Province},
	} {
		ls := l.Lines(tc.b, 1)
		if len(ls) != 1 || ls[0].Class != tc.class {
			t.Errorf("lines in %v: %v, want one %s", tc.b, ls, tc.class)
		}
	}
	ps := l.Places(l.Bound())
	want := []Place{
		{Name: "Capitalia", Kind: City, Population: 1234567, Capital: true, Point: orb.Point{10.05, 50.40}},
		{Name: "Southside", Kind: Suburb, Point: orb.Point{10.145, 50.005}},
		{Name: "Xhamlet", Kind: Hamlet, Point: orb.Point{10.07, 50.40}},
	}
	if len(ps) != len(want) {
		t.Fatalf("places %+v, want %+v", ps, want)
	}
	// Label order: City, then Hamlet, then Suburb (the kinds' order).
	order := []int{0, 2, 1}
	for i, k := range order {
		w, g := want[k], ps[i]
		if g.Name != w.Name || g.Kind != w.Kind || g.Population != w.Population || g.Capital != w.Capital ||
			abs(g.Point[0]-w.Point[0]) > 0.003 || abs(g.Point[1]-w.Point[1]) > 0.003 {
			t.Errorf("place %d: %+v, want %+v", i, g, w)
		}
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func TestParsePopulation(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{{"72664", 72664}, {"1,234", 1234}, {"1 234", 1234}, {"~500", 500}, {" 42 ", 42}, {"1234.5", 1234}, {"abc", 0}, {"", 0}, {"-5", 0}, {"12;13", 12}}
	for _, tc := range tests {
		if got := parsePopulation(tc.in); got != tc.want {
			t.Errorf("parsePopulation(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
