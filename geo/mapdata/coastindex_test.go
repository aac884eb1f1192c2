package mapdata

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
)

// TestRingIndexAnswersAsPlanar: ringIndex.contains is planar.RingContains
// on a wiggly ring with vertical and horizontal edges, at random points,
// at its vertices and on its edges, and on an open ring.
func TestRingIndexAnswersAsPlanar(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var r orb.Ring
	for k := 0; k < 400; k++ {
		a := 2 * math.Pi * float64(k) / 400
		rad := 1 + 0.3*math.Sin(7*a) + 0.1*rng.Float64()
		p := orb.Point{math.Round(rad*math.Cos(a)*100) / 100, math.Round(rad*math.Sin(a)*100) / 100}
		if k%50 == 10 && len(r) > 0 { // a vertical and a horizontal edge
			r = append(r, orb.Point{r[len(r)-1][0], p[1]})
		}
		r = append(r, p)
	}
	closed := append(append(orb.Ring(nil), r...), r[0])
	for _, ring := range []orb.Ring{closed, r} {
		x := newRingIndex(ring)
		var pts []orb.Point
		for k := 0; k < 20000; k++ {
			pts = append(pts, orb.Point{math.Round((rng.Float64()*3-1.5)*100) / 100, math.Round((rng.Float64()*3-1.5)*100) / 100})
		}
		for i := 0; i+1 < len(ring); i++ {
			a, b := ring[i], ring[i+1]
			pts = append(pts, a, orb.Point{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2})
		}
		for _, p := range pts {
			if got, want := x.contains(p), planar.RingContains(ring, p); got != want {
				t.Fatalf("%d-point ring, %v: %v, planar.RingContains %v", len(ring), p, got, want)
			}
		}
	}
}

// closeGapsEveryPair is the gap closing closeGaps replaced: every pair
// tried each round, the nearest non-crossing one closed.
func closeGapsEveryPair(open []*chain, mt metric, interior func(orb.Point) bool, crosses func(a, b orb.Point) bool, joined func(a, b *chain)) ([]*chain, []orb.Ring, int) {
	var rings []orb.Ring
	n := 0
	for {
		best, bi, bj := math.Inf(1), -1, -1
		for i, a := range open {
			e := a.pts[len(a.pts)-1]
			if !interior(e) {
				continue
			}
			for j, b := range open {
				s := b.pts[0]
				if !interior(s) || (i == j && len(a.pts) < 3) {
					continue
				}
				d := math.Hypot((e[0]-s[0])*mt.kx, (e[1]-s[1])*mt.ky)
				if d < best && d <= MaxCoastGapM && !crosses(e, s) {
					best, bi, bj = d, i, j
				}
			}
		}
		if bi < 0 {
			return open, rings, n
		}
		n++
		a, b := open[bi], open[bj]
		if bi == bj {
			rings = append(rings, orb.Ring(append(append([]orb.Point(nil), a.pts...), a.pts[0])))
			open = append(open[:bi], open[bi+1:]...)
			continue
		}
		joined(a, b)
		a.pts = append(a.pts, b.pts...)
		open = append(open[:bj], open[bj+1:]...)
	}
}

// TestCloseGapsAsEveryPair: closeGaps closes the gaps every-pair search
// closes, in the same order, on random chains among random walls, with
// the closing lines becoming walls as they are made.
func TestCloseGapsAsEveryPair(t *testing.T) {
	box := orb.Bound{Min: orb.Point{0, 0}, Max: orb.Point{1, 1}}
	mt := metricAt(0.5)
	for seed := uint64(0); seed < 30; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		pt := func() orb.Point { return orb.Point{rng.Float64()*1.1 - 0.05, rng.Float64()*1.1 - 0.05} }
		var chains [2][]*chain
		n := 20 + rng.IntN(60)
		for k := 0; k < n; k++ {
			a := pt()
			b := orb.Point{a[0] + (rng.Float64()-0.5)*0.1, a[1] + (rng.Float64()-0.5)*0.1}
			pts := []orb.Point{a, b}
			if rng.IntN(3) == 0 {
				pts = append(pts, orb.Point{b[0] + 0.01, b[1]})
			}
			for v := range chains {
				chains[v] = append(chains[v], &chain{pts: append([]orb.Point(nil), pts...), nodes: make([]int64, len(pts))})
			}
		}
		var got, want [3]any
		for v, fn := range []func([]*chain, metric, func(orb.Point) bool, func(a, b orb.Point) bool, func(a, b *chain)) ([]*chain, []orb.Ring, int){closeGaps, closeGapsEveryPair} {
			walls := newSegmentGrid(0.02)
			for _, c := range chains[v] {
				walls.addLine(c.pts)
			}
			crosses := func(a, b orb.Point) bool {
				return walls.any(a, b, func(p, q orb.Point) bool { return p != a && q != a && p != b && q != b && segmentsCross(a, b, p, q) })
			}
			interior := func(p orb.Point) bool { return box.Contains(p) && !onEdge(p, box) }
			left, rings, closed := fn(chains[v], mt, interior, crosses, func(a, b *chain) { walls.add(a.pts[len(a.pts)-1], b.pts[0]) })
			var pts [][]orb.Point
			for _, c := range left {
				pts = append(pts, c.pts)
			}
			r := [3]any{pts, rings, closed}
			if v == 0 {
				got = r
			} else {
				want = r
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: closeGaps %v\nevery pair %v", seed, got, want)
		}
		if got[2].(int) == 0 {
			t.Logf("seed %d: no gap closed", seed)
		}
	}
}
