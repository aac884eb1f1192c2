package spatial

import (
	"slices"
	"testing"

	"github.com/paulmach/orb"
)

func square(x0, y0, x1, y1 float64) orb.Ring {
	return orb.Ring{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}}
}

// TestPointsOnBorders: a point on a border shared by two areas is in both,
// a point on a hole's ring is in the polygon, and a point on the
// antimeridian is found whether it is written 180 or -180.
func TestPointsOnBorders(t *testing.T) {
	b := NewBuilder()
	west := b.Add(orb.MultiPolygon{{square(0, 0, 1, 1)}})
	east := b.Add(orb.MultiPolygon{{square(1, 0, 2, 1)}})
	holed := b.Add(orb.MultiPolygon{{square(10, 10, 14, 14), square(11, 11, 13, 13)}})
	dateline := b.Add(orb.MultiPolygon{{square(179, 60, 180, 66)}})
	ix := b.Build()
	cases := []struct {
		name string
		p    orb.Point
		want []int
	}{
		{"inside west", orb.Point{0.5, 0.5}, []int{west}},
		{"on the shared edge", orb.Point{1, 0.5}, []int{west, east}},
		{"on the shared edge's top corner", orb.Point{1, 1}, []int{west, east}},
		{"on the top edge", orb.Point{0.5, 1}, []int{west}},
		{"on the east edge", orb.Point{2, 0.3}, []int{east}},
		{"on the bottom-left vertex", orb.Point{0, 0}, []int{west}},
		{"just outside", orb.Point{2.000001, 0.5}, nil},
		{"in the hole", orb.Point{12, 12}, nil},
		{"on the hole's ring", orb.Point{11, 12}, []int{holed}},
		{"on the hole's corner", orb.Point{13, 13}, []int{holed}},
		{"between hole and outer ring", orb.Point{10.5, 12}, []int{holed}},
		{"on the antimeridian as 180", orb.Point{180, 63}, []int{dateline}},
		{"on the antimeridian as -180", orb.Point{-180, 63}, []int{dateline}},
		{"near the antimeridian, other side", orb.Point{-179.5, 63}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ix.AppendContaining(nil, tc.p)
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("containing %v = %v, want %v", tc.p, got, tc.want)
			}
		})
	}
}
