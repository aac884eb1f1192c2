package spatial

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// star returns a star-shaped ring of n points around c (radius varying
// from r/2 to r), counter-clockwise and closed.
func star(rng *rand.Rand, c orb.Point, r float64, n int) orb.Ring {
	ring := make(orb.Ring, 0, n+1)
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		rad := r * (0.5 + 0.5*rng.Float64())
		ring = append(ring, orb.Point{c[0] + rad*math.Cos(a), c[1] + rad*math.Sin(a)})
	}
	return append(ring, ring[0])
}

// randomItems returns multipolygons of star polygons, some with a hole,
// some with several parts, overlapping each other.
func randomItems(rng *rand.Rand, n int) []orb.MultiPolygon {
	var items []orb.MultiPolygon
	for range n {
		var mp orb.MultiPolygon
		for range 1 + rng.IntN(3) {
			c := orb.Point{rng.Float64() * 10, rng.Float64() * 10}
			r := 0.2 + rng.Float64()
			p := orb.Polygon{star(rng, c, r, 3+rng.IntN(200))}
			if rng.IntN(2) == 0 {
				h := star(rng, c, r/4, 8)
				h.Reverse()
				p = append(p, h)
			}
			mp = append(mp, p)
		}
		items = append(items, mp)
	}
	return items
}

func TestSearchMatchesPlanar(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 5, 17, 300} {
		items := randomItems(rng, n)
		b := NewBuilder()
		for _, mp := range items {
			b.Add(mp)
		}
		ix := b.Build()
		// Round trip through a binfmt file: answers must not change.
		w := binfmt.NewWriter()
		ix.Write(w, "t.")
		path := filepath.Join(t.TempDir(), "ix.bin")
		magic := [8]byte{'T', 'E', 'S', 'T'}
		if err := w.WriteFile(path, magic, 1); err != nil {
			t.Fatal(err)
		}
		f, err := binfmt.Open(path, magic, 1)
		if err != nil {
			t.Fatal(err)
		}
		loaded, err := Read(f, "t.")
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range []*Index{ix, loaded} {
			if x.Len() != n {
				t.Fatalf("Len %d, want %d", x.Len(), n)
			}
			for range 400 {
				p := orb.Point{rng.Float64()*12 - 1, rng.Float64()*12 - 1}
				var want []int
				for i, mp := range items {
					if planar.MultiPolygonContains(mp, p) {
						want = append(want, i)
					}
				}
				got := x.AppendContaining(nil, p)
				sort.Ints(got)
				if len(got) != len(want) {
					t.Fatalf("n=%d %v: got %v, want %v", n, p, got, want)
				}
				for i := range got {
					if got[i] != want[i] || !x.Contains(got[i], p) {
						t.Fatalf("n=%d %v: got %v, want %v", n, p, got, want)
					}
				}
			}
			for i, mp := range items {
				g := x.Geometry(i)
				if len(g) != len(mp) || len(g[0][0]) != len(mp[0][0]) || g[0][0][1] != mp[0][0][1] || x.Bound(i) != mp.Bound() {
					t.Fatalf("item %d geometry or bound differs", i)
				}
			}
		}
	}
}

func TestReadRejectsInconsistentIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	b := NewBuilder()
	for _, mp := range randomItems(rng, 40) {
		b.Add(mp)
	}
	ix := b.Build()
	ix.nodeIdx = append([]uint32(nil), ix.nodeIdx...)
	ix.nodeIdx[len(ix.nodeIdx)-1] = 1 << 30
	if err := ix.check(); err == nil {
		t.Error("check accepted a child pointer out of range")
	}
}

func BenchmarkSearch(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	bl := NewBuilder()
	for _, mp := range randomItems(rng, 200) {
		bl.Add(mp)
	}
	ix := bl.Build()
	pts := make([]orb.Point, 4096)
	for i := range pts {
		pts[i] = orb.Point{rng.Float64() * 10, rng.Float64() * 10}
	}
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		ix.Search(pts[i&4095], func(int, int) bool { n++; return true })
	}
}
