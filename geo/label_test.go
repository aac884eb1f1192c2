package geo

import (
	"math"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
)

// metresRing returns a closed ring of points given in metres east and
// north of (-75.55, 39.74) (Newark, DE).
func metresRing(xy ...float64) orb.Ring {
	lp := NewLocalProjection(39.74)
	x0, y0 := lp.XY(orb.Point{-75.55, 39.74})
	r := make(orb.Ring, 0, len(xy)/2+1)
	for i := 0; i+1 < len(xy); i += 2 {
		r = append(r, lp.Point(x0+xy[i], y0+xy[i+1]))
	}
	return append(r, r[0])
}

func TestLabelPoint(t *testing.T) {
	at := func(x, y float64) orb.Point { return metresRing(x, y)[0] }
	// Corner pole of a 30 m square with its centre 10 m square cut out,
	// and of an L of 10 m arms: x = sqrt2 (10 - x).
	corner := 10 * math.Sqrt2 / (1 + math.Sqrt2)
	for _, tc := range []struct {
		name  string
		poly  orb.Polygon
		d     float64     // distance to the outline, metres
		at    []orb.Point // acceptable poles (any of them)
		slack float64
	}{
		{"square 20 m", orb.Polygon{metresRing(0, 0, 20, 0, 20, 20, 0, 20)}, 10, []orb.Point{at(10, 10)}, 0.5},
		{"rectangle 40 x 10 m", orb.Polygon{metresRing(0, 0, 40, 0, 40, 10, 0, 10)}, 5, nil, 0.5},
		{"L of 10 m arms", orb.Polygon{metresRing(0, 0, 30, 0, 30, 10, 10, 10, 10, 30, 0, 30)}, corner, []orb.Point{at(corner, corner)}, 0.5},
		{"square with a hole", orb.Polygon{
			metresRing(0, 0, 30, 0, 30, 30, 0, 30),
			metresRing(10, 10, 20, 10, 20, 20, 10, 20),
		}, corner, []orb.Point{at(corner, corner), at(30-corner, corner), at(corner, 30-corner), at(30-corner, 30-corner)}, 0.5},
		{"clockwise square", orb.Polygon{metresRing(0, 0, 0, 20, 20, 20, 20, 0)}, 10, []orb.Point{at(10, 10)}, 0.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, d := LabelPoint(tc.poly, 0.1)
			if math.Abs(d-tc.d) > tc.slack {
				t.Errorf("distance %.2f m, want %.2f", d, tc.d)
			}
			if !planar.PolygonContains(tc.poly, p) {
				t.Errorf("%v is not inside", p)
			}
			if len(tc.at) > 0 {
				near := math.Inf(1)
				for _, q := range tc.at {
					near = math.Min(near, HaversineM(p, q))
				}
				if near > 2*tc.slack {
					t.Errorf("pole %v is %.2f m from the expected point", p, near)
				}
			}
		})
	}
	t.Run("no area", func(t *testing.T) {
		r := metresRing(0, 0, 10, 0, 20, 0)
		if p, d := LabelPoint(orb.Polygon{r}, 0.1); p != r[0] || d != 0 {
			t.Errorf("got %v %.2f, want the first vertex and 0", p, d)
		}
		if p, d := LabelPoint(nil, 0.1); p != (orb.Point{}) || d != 0 {
			t.Errorf("empty polygon: got %v %.2f", p, d)
		}
	})
}

// TestLabelPointBounded runs shapes that would make an unbounded search
// run for seconds or forever: a 20 km sliver 2 cm wide, a 5 km zigzag of
// 2,000 vertices 3 m wide, a diagonal ring without area and a NaN
// precision. Each must come back with a sensible answer.
func TestLabelPointBounded(t *testing.T) {
	zig := make([]float64, 0, 4004)
	for i := range 1001 {
		zig = append(zig, float64(5*i), float64(2*(i%2)))
	}
	for i := 1000; i >= 0; i-- {
		zig = append(zig, float64(5*i), float64(2*(i%2))+3)
	}
	for _, tc := range []struct {
		name      string
		poly      orb.Polygon
		precision float64
		maxD      float64
	}{
		{"sliver 20 km x 2 cm", orb.Polygon{metresRing(0, 0, 20000, 0, 20000, 0.02, 0, 0.02)}, 0.5, 0.02},
		{"zigzag 5 km, 2002 vertices", orb.Polygon{metresRing(zig...)}, 0.5, 2},
		{"diagonal without area", orb.Polygon{metresRing(0, 0, 10, 10, 20, 20)}, 0.5, 0},
		{"NaN precision", orb.Polygon{metresRing(0, 0, 20, 0, 20, 20, 0, 20)}, math.NaN(), 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, d := LabelPoint(tc.poly, tc.precision)
			if d < 0 || d > tc.maxD+0.5 || math.IsNaN(d) {
				t.Errorf("distance %.3f m, want 0..%.2f", d, tc.maxD)
			}
			if d > 0 && !planar.PolygonContains(tc.poly, p) {
				t.Errorf("%v is not inside", p)
			}
		})
	}
}

func BenchmarkLabelPoint(b *testing.B) {
	poly := orb.Polygon{metresRing(0, 0, 30, 0, 30, 10, 10, 10, 10, 30, 0, 30)}
	for b.Loop() {
		LabelPoint(poly, 0.5)
	}
}
