package spatial

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/paulmach/orb"
)

// withoutBands returns a copy of ix whose rings are all scanned by chunks:
// the plain test the band index must agree with.
func withoutBands(ix *Index) *Index {
	plain := *ix
	plain.ringBand = make([]uint32, len(ix.ringStart))
	plain.bandStart = []uint32{0}
	plain.bandEdge = nil
	return &plain
}

// gridRing returns a closed star-shaped ring of n vertices around c whose
// coordinates are multiples of step (as in a quantized source: many
// vertices share a y, many edges are horizontal or vertical, some are
// repeated), in the given orientation. Its radius wanders between 0.3r
// and r like a coast's, or jumps at every vertex when spiky.
func gridRing(rng *rand.Rand, c orb.Point, r, step float64, n int, ccw, spiky bool) orb.Ring {
	ring := make(orb.Ring, 0, n+1)
	rad := 0.65 * r
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		if spiky {
			rad = r * (0.3 + 0.7*rng.Float64())
		} else {
			rad = min(r, max(0.3*r, rad+r*0.02*(rng.Float64()-0.5)))
		}
		x := math.Round((c[0]+rad*math.Cos(a))/step) * step
		y := math.Round((c[1]+rad*math.Sin(a))/step) * step
		if rng.IntN(5) == 0 && i > 0 {
			y = ring[i-1][1] // a horizontal edge
		}
		ring = append(ring, orb.Point{x, y})
	}
	ring = append(ring, ring[0])
	if !ccw {
		ring.Reverse()
	}
	return ring
}

// bandItems returns items of long quantized rings, some with long holes,
// some touching each other.
func bandItems(rng *rand.Rand) []orb.MultiPolygon {
	var items []orb.MultiPolygon
	for i := range 12 {
		c := orb.Point{float64(i%4) * 3, float64(i/4) * 3}
		p := orb.Polygon{gridRing(rng, c, 2, 0.01, 200+rng.IntN(3000), true, i%4 == 3)}
		if i%3 == 0 {
			p = append(p, gridRing(rng, c, 0.5, 0.01, 150+rng.IntN(400), false, false))
		}
		items = append(items, orb.MultiPolygon{p})
	}
	return items
}

// TestBandsMatchPlain: on long quantized rings, the band index answers
// exactly as the chunk scan for random points, every vertex, points on
// edges, points level with vertices (rays through vertices and along
// horizontal edges) and points on band boundaries.
func TestBandsMatchPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	items := bandItems(rng)
	b := NewBuilder()
	for _, mp := range items {
		b.Add(mp)
	}
	ix := b.Build()
	plain := withoutBands(ix)
	if n := countBanded(ix); n < 8 || n == len(ix.ringStart)-1 {
		t.Fatalf("%d of %d rings got bands: want the smooth long ones, not the spiky ones", n, len(ix.ringStart)-1)
	}
	var pts []orb.Point
	for range 20000 {
		pts = append(pts, orb.Point{rng.Float64()*14 - 2, rng.Float64()*11 - 2})
	}
	for _, mp := range items {
		for _, r := range mp[0] {
			for i, v := range r[:len(r)-1] {
				w := r[i+1]
				pts = append(pts,
					v, // a vertex
					orb.Point{(v[0] + w[0]) / 2, (v[1] + w[1]) / 2},  // on an edge
					orb.Point{v[0] + rng.Float64()*0.5 - 0.25, v[1]}, // level with a vertex
					orb.Point{math.Nextafter(v[0], math.Inf(1)), v[1]},
					orb.Point{v[0], math.Nextafter(v[1], math.Inf(-1))},
				)
			}
		}
	}
	for r := range len(ix.ringStart) - 1 {
		b0, b1 := ix.ringBand[r], ix.ringBand[r+1]
		for k := range b1 - b0 {
			// The lower boundary of band k, and the floats around it.
			y := ix.bandParam[2*r] + float64(k)/ix.bandParam[2*r+1]
			for _, yy := range []float64{y, math.Nextafter(y, math.Inf(1)), math.Nextafter(y, math.Inf(-1))} {
				pts = append(pts, orb.Point{rng.Float64()*14 - 2, yy})
			}
		}
	}
	for _, p := range pts {
		got := ix.AppendContaining(nil, p)
		want := plain.AppendContaining(nil, p)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%v: bands %v, plain %v", p, got, want)
		}
	}
	t.Logf("%d points, %d rings with bands, %d bands, %d entries", len(pts), countBanded(ix), len(ix.bandStart)-1, len(ix.bandEdge))
}

func countBanded(ix *Index) int {
	n := 0
	for r := range len(ix.ringStart) - 1 {
		if ix.ringBand[r+1] > ix.ringBand[r] {
			n++
		}
	}
	return n
}

// TestBandOf: the band of y never decreases with y, stays in range, and
// sends NaN and infinities to the end bands.
func TestBandOf(t *testing.T) {
	tests := []struct {
		y    float64
		want int
	}{
		{math.NaN(), 0}, {math.Inf(-1), 0}, {-5, 0}, {0, 0}, {0.99, 0}, {1, 1}, {9.5, 9}, {10, 9}, {math.Inf(1), 9},
	}
	for _, tt := range tests {
		if got := bandOf(tt.y, 0, 1, 10); got != tt.want {
			t.Errorf("bandOf(%v) = %d, want %d", tt.y, got, tt.want)
		}
	}
	rng := rand.New(rand.NewPCG(13, 14))
	y0, inv := -84.35232046401032, 1/0.0144
	prev, py := 0, math.Inf(-1)
	ys := make([]float64, 100000)
	for i := range ys {
		ys[i] = -90 + rng.Float64()*180
	}
	slices.Sort(ys)
	for _, y := range ys {
		k := bandOf(y, y0, inv, 5000)
		if k < prev || k < 0 || k >= 5000 {
			t.Fatalf("bandOf(%v) = %d after bandOf(%v) = %d", y, k, py, prev)
		}
		prev, py = k, y
	}
}

// TestReadBuildsBands: an index file without band sections (written
// before they existed) loads with bands built, answering the same.
func TestReadBuildsBands(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	b := NewBuilder()
	for _, mp := range bandItems(rng) {
		b.Add(mp)
	}
	ix := b.Build()
	old := withoutBands(ix)
	old.ringBand, old.bandParam, old.bandStart, old.bandEdge = nil, nil, nil, nil
	if err := old.check(); err != nil {
		t.Fatal(err)
	}
	old.buildBands()
	if !slices.Equal(old.bandEdge, ix.bandEdge) || !slices.Equal(old.ringBand, ix.ringBand) {
		t.Error("bands built on load differ from bands built by Build")
	}
	bad := *ix
	bad.bandEdge = slices.Clone(ix.bandEdge)
	bad.bandEdge[0] = 1 << 30
	if err := bad.checkBands(); err == nil {
		t.Error("checkBands accepted an edge out of its ring")
	}
}

// BenchmarkSearchLongRings: point queries on items of long rings (2,000 to
// 20,000 edges), with the band index and with the plain chunk scan.
func BenchmarkSearchLongRings(b *testing.B) {
	rng := rand.New(rand.NewPCG(17, 18))
	bl := NewBuilder()
	for i := range 9 {
		c := orb.Point{float64(i%3) * 4, float64(i/3) * 4}
		bl.Add(orb.MultiPolygon{{gridRing(rng, c, 2.5, 0.001, 2000+rng.IntN(18000), true, false)}})
	}
	ix := bl.Build()
	pts := make([]orb.Point, 4096)
	for i := range pts {
		pts[i] = orb.Point{rng.Float64()*12 - 2, rng.Float64()*12 - 2}
	}
	for _, bc := range []struct {
		name string
		ix   *Index
	}{{"bands", ix}, {"plain", withoutBands(ix)}} {
		b.Run(bc.name, func(b *testing.B) {
			i, n := 0, 0
			for b.Loop() {
				bc.ix.Search(pts[i&4095], func(int, int) bool { n++; return true })
				i++
			}
		})
	}
}
