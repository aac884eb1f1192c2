package snap

import (
	"testing"

	"github.com/paulmach/orb"
)

// TestSegments: on Delaware, every segment with a point in a box (ends,
// and 64 points along it) is given by Segments, and every segment given
// lies within a cell of the box.
func TestSegments(t *testing.T) {
	_, ix := delawareIx(t)
	boxes := []orb.Bound{
		{Min: orb.Point{-75.66, 39.547}, Max: orb.Point{-75.653, 39.554}}, // the Roth Bridge
		{Min: orb.Point{-75.56, 39.73}, Max: orb.Point{-75.53, 39.75}},    // Wilmington
		{Min: orb.Point{-75.5246, 39.1582}, Max: orb.Point{-75.5245, 39.1583}},
		{Min: orb.Point{-80, 30}, Max: orb.Point{-79, 31}}, // outside the data
		{Min: orb.Point{-76.5, 37}, Max: orb.Point{-74, 40.5}},
	}
	for _, b := range boxes {
		got := map[uint32]bool{} // by the shape index of the segment's first point
		ix.Segments(b, func(e uint32, p, q orb.Point) {
			i := ix.starts[e]
			for ix.shape[i] != p || ix.shape[i+1] != q {
				i++
			}
			got[i] = true
		})
		// A cell is about 125 m: 0.002 degrees of slack either way.
		slack := orb.Bound{Min: orb.Point{b.Min[0] - 0.002, b.Min[1] - 0.002}, Max: orb.Point{b.Max[0] + 0.002, b.Max[1] + 0.002}}
		want := 0
		for i, e := range ix.segEdg {
			if e == noEdge {
				continue
			}
			p, q := ix.shape[i], ix.shape[i+1]
			in := false
			for k := 0; k <= 64 && !in; k++ {
				f := float64(k) / 64
				in = b.Contains(orb.Point{p[0] + f*(q[0]-p[0]), p[1] + f*(q[1]-p[1])})
			}
			if in {
				want++
				if !got[uint32(i)] {
					t.Fatalf("%v: segment %d of edge %d (%v-%v) is in the box, not given", b, i, e, p, q)
				}
			}
			if got[uint32(i)] && !(orb.MultiPoint{p, q}).Bound().Intersects(slack) {
				t.Fatalf("%v: segment %d (%v-%v) given, far from the box", b, i, p, q)
			}
		}
		t.Logf("%v: %d segments in the box, %d given", b, want, len(got))
	}
}
