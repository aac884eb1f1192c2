package routing

import (
	"math/rand/v2"
	"testing"
)

// tourBrute returns the least cost of every order of 0..n-1 that
// respects ends, trying them all.
func tourBrute(n int, c func(a, b int) int64, ends int) int64 {
	order := identity(n)
	best := int64(-1)
	var perm func(k int)
	perm = func(k int) {
		if k == n {
			if ends&TourFirst != 0 && order[0] != 0 || ends&TourLast != 0 && order[n-1] != n-1 {
				return
			}
			v := tourCost(order, c)
			if ends&TourRound != 0 {
				if order[0] != 0 {
					return
				}
				v += c(order[n-1], 0)
			}
			if best < 0 || v < best {
				best = v
			}
			return
		}
		for i := k; i < n; i++ {
			order[k], order[i] = order[i], order[k]
			perm(k + 1)
			order[k], order[i] = order[i], order[k]
		}
	}
	perm(0)
	return best
}

// TestBestTourEnds: every combination of ends gives a tour as cheap as
// the best of all orders (brute force), visiting every stop once.
func TestBestTourEnds(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, ends := range []int{TourFirst | TourLast, TourFirst, TourLast, TourRound, TourRound | TourLast} {
		for trial := range 30 {
			n := 2 + trial%7 // 2..8 stops
			m := make([]int64, n*n)
			for i := range m {
				m[i] = int64(1 + r.IntN(100))
			}
			c := func(a, b int) int64 { return m[a*n+b] }
			o := bestTour(n, c, ends)
			seen := map[int]bool{}
			for _, v := range o {
				seen[v] = true
			}
			if len(o) != n || len(seen) != n {
				t.Fatalf("ends %b: order %v is no tour of %d stops", ends, o, n)
			}
			got := tourCost(o, c)
			if ends&TourRound != 0 {
				if o[0] != 0 {
					t.Fatalf("ends %b: round tour %v does not start at 0", ends, o)
				}
				got += c(o[n-1], 0)
			}
			if want := tourBrute(n, c, ends); got != want {
				t.Errorf("ends %b, %d stops: order %v costs %d, best %d", ends, n, o, got, want)
			}
		}
	}
}
