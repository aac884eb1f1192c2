package zip4

import (
	"strconv"
	"testing"

	"github.com/paulmach/orb"
)

// A synthetic crossing in metres around (0, 0) at the equator-ish
// latitude 39: Main St runs west to east (left = north is 11111, right =
// south is 22222) and Oak Ave runs south to north through it (left = west
// 33333, right = east 44444).
func crossing() []Road {
	const lat0 = 39.0
	m := func(x, y float64) orb.Point { // metres to lon/lat near (0, 39)
		return orb.Point{x / (111195.08 * 0.7771459614569709), lat0 + y/111195.08}
	}
	return []Road{
		{ID: 1, Name: "Main St", ZipLeft: "11111", ZipRight: "22222",
			Nodes: []int64{1, 2, 3}, Points: []orb.Point{m(-200, 0), m(0, 0), m(200, 0)}},
		{ID: 2, Name: "Oak Ave", ZipLeft: "33333", ZipRight: "44444",
			Nodes: []int64{4, 2, 5}, Points: []orb.Point{m(0, -200), m(0, 0), m(0, 200)}},
	}
}

func TestDeriveCrossing(t *testing.T) {
	features, rep := Derive(crossing(), Options{Workers: 1})
	if rep.Faces != 4 || rep.Sides != 8 || rep.Features != 8 || rep.ZIP5s != 4 {
		t.Fatalf("report %s", rep)
	}
	l := NewLayer(features, Meta{Source: SourceDerived, Derived: true})
	m := func(x, y float64) orb.Point {
		return orb.Point{x / (111195.08 * 0.7771459614569709), 39 + y/111195.08}
	}
	for _, tc := range []struct {
		name string
		p    orb.Point
		want string // zip9, "" for none
	}{
		// Main St west face (w1.0) and east face (w1.1); faces are
		// numbered along the street, so west gets 1/2, east 3/4 in each ZIP5.
		{"north of Main west", m(-100, 10), "111110001"},
		{"north of Main east", m(100, 10), "111110003"},
		{"south of Main west", m(-100, -10), "222220002"},
		{"south of Main east", m(100, -10), "222220004"},
		{"west of Oak south", m(-10, -100), "333330001"},
		{"west of Oak north", m(-10, 100), "333330003"},
		{"east of Oak north", m(10, 100), "444440004"},
		// The NE block corner splits on the diagonal.
		{"NE corner nearer Main", m(40, 20), "111110003"},
		{"NE corner nearer Oak", m(20, 40), "444440004"},
		// Beyond the depth: nothing.
		{"far north", m(-100, 95), ""},
	} {
		ids := l.At(nil, tc.p)
		got := ""
		if len(ids) > 1 {
			t.Errorf("%s: %d features", tc.name, len(ids))
		}
		if len(ids) > 0 {
			got = l.Zip9(ids[0])
		}
		if got != tc.want {
			t.Errorf("%s: zip9 %q, want %q", tc.name, got, tc.want)
		}
	}
	for i := 0; i < l.Len(); i++ {
		f := l.Feature(i)
		if len(l.At(nil, f.Rep)) != 1 {
			t.Errorf("%s: representative point %v not inside", f.UID, f.Rep)
		}
		add, _ := strconv.Atoi(f.Zip9[5:])
		if (f.Side == SideLeft) != (add%2 == 1) {
			t.Errorf("%s: side %s with add-on %04d", f.UID, f.Side, add)
		}
	}
}

func TestDeriveDeterministic(t *testing.T) {
	a, _ := Derive(crossing(), Options{Workers: 1})
	b, _ := Derive(crossing(), Options{Workers: 3})
	if len(a) != len(b) {
		t.Fatalf("%d vs %d features", len(a), len(b))
	}
	for i := range a {
		if a[i].UID != b[i].UID || a[i].Zip9 != b[i].Zip9 || !orb.Equal(a[i].Geometry, b[i].Geometry) {
			t.Errorf("feature %d differs: %s %s vs %s %s", i, a[i].UID, a[i].Zip9, b[i].UID, b[i].Zip9)
		}
	}
}

// TestDeriveBend: Main St turns left by 90 degrees where its first way
// (west to east along y=0) meets its second (south to north along x=0),
// and nothing else. The faces meet along the bisector of the bend on both
// sides: the outside (south-east) of the bend is covered, split on the
// diagonal.
func TestDeriveBend(t *testing.T) {
	m := func(x, y float64) orb.Point {
		return orb.Point{x / (111195.08 * 0.7771459614569709), 39 + y/111195.08}
	}
	roads := []Road{
		{ID: 1, Name: "Main St", ZipLeft: "11111", ZipRight: "22222",
			Nodes: []int64{1, 2}, Points: []orb.Point{m(-200, 0), m(0, 0)}},
		{ID: 2, Name: "Main St", ZipLeft: "11111", ZipRight: "22222",
			Nodes: []int64{2, 3}, Points: []orb.Point{m(0, 0), m(0, 200)}},
	}
	features, rep := Derive(roads, Options{Workers: 1})
	if rep.Features != 4 {
		t.Fatalf("report %s", rep)
	}
	l := NewLayer(features, Meta{})
	for _, tc := range []struct {
		name string
		p    orb.Point
		want string
	}{
		{"outside the bend, nearer the first way's side", m(20, -30), "222220002"},
		{"outside the bend, nearer the second way's side", m(30, -20), "222220004"},
		{"inside the bend, nearer the first way", m(-20, 10), "111110001"},
		{"inside the bend, nearer the second way", m(-10, 20), "111110003"},
		{"inside the bend, near the corner", m(-3, 2), "111110001"},
		{"beyond the dead end", m(-210, 10), ""},
	} {
		ids := l.At(nil, tc.p)
		got := ""
		if len(ids) > 1 {
			t.Errorf("%s: %d features", tc.name, len(ids))
		}
		if len(ids) > 0 {
			got = l.Zip9(ids[0])
		}
		if got != tc.want {
			t.Errorf("%s: zip9 %q, want %q", tc.name, got, tc.want)
		}
	}
}
