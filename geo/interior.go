package geo

import (
	"math"
	"sort"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
)

// InteriorPoint returns a point inside the polygon p (not on an edge, not in
// a hole): the middle of the widest stretch inside p along one of several
// horizontal lines through its bounding box. It returns p's first vertex
// for a degenerate polygon (no area).
func InteriorPoint(p orb.Polygon) orb.Point {
	if len(p) == 0 || len(p[0]) == 0 {
		return orb.Point{}
	}
	b := p[0].Bound()
	h := b.Max[1] - b.Min[1]
	best, bestW := p[0][0], -1.0
	for _, f := range []float64{0.5, 0.37, 0.63, 0.25, 0.75, 0.13, 0.87, 0.05, 0.95, 0.44, 0.56} {
		y := b.Min[1] + f*h
		xs := crossings(p, y)
		for i := 0; i+1 < len(xs); i += 2 {
			if w := xs[i+1] - xs[i]; w > bestW {
				c := orb.Point{(xs[i] + xs[i+1]) / 2, y}
				if planar.PolygonContains(p, c) {
					best, bestW = c, w
				}
			}
		}
		if bestW > 0.25*(b.Max[0]-b.Min[0]) {
			break
		}
	}
	return best
}

// InteriorPointMulti returns an InteriorPoint of the largest polygon of mp.
func InteriorPointMulti(mp orb.MultiPolygon) orb.Point {
	best, bestA := -1, -1.0
	for i, p := range mp {
		if a := math.Abs(planar.Area(p)); a > bestA {
			best, bestA = i, a
		}
	}
	if best < 0 {
		return orb.Point{}
	}
	return InteriorPoint(mp[best])
}

// crossings returns the sorted x of every crossing of the horizontal line
// at y with the edges of p (half-open in y, so a vertex on the line counts
// once).
func crossings(p orb.Polygon, y float64) []float64 {
	var xs []float64
	for _, r := range p {
		for i := 0; i+1 < len(r); i++ {
			a, c := r[i], r[i+1]
			if (a[1] > y) != (c[1] > y) {
				xs = append(xs, a[0]+(y-a[1])*(c[0]-a[0])/(c[1]-a[1]))
			}
		}
	}
	sort.Float64s(xs)
	return xs
}
