package routing

import (
	"math/rand/v2"
	"testing"
)

// bruteForce returns the least cost of an open path 0 -> ... -> n-1
// through every stop, trying every order of the inner stops.
func bruteForce(n int, c func(a, b int) int64) int64 {
	inner := make([]int, 0, n-2)
	for i := 1; i < n-1; i++ {
		inner = append(inner, i)
	}
	best := int64(-1)
	var perm func(k int)
	perm = func(k int) {
		if k == len(inner) {
			order := append(append([]int{0}, inner...), n-1)
			if v := tourCost(order, c); best < 0 || v < best {
				best = v
			}
			return
		}
		for i := k; i < len(inner); i++ {
			inner[k], inner[i] = inner[i], inner[k]
			perm(k + 1)
			inner[k], inner[i] = inner[i], inner[k]
		}
	}
	perm(0)
	return best
}

func tourCost(order []int, c func(a, b int) int64) int64 {
	var s int64
	for k := 1; k < len(order); k++ {
		s += c(order[k-1], order[k])
	}
	return s
}

// validTour checks order visits 0..n-1 once each, from 0 to n-1.
func validTour(t *testing.T, order []int, n int) {
	t.Helper()
	seen := map[int]bool{}
	for _, v := range order {
		seen[v] = true
	}
	if len(order) != n || len(seen) != n || order[0] != 0 || order[n-1] != n-1 {
		t.Fatalf("order %v is no tour of %d stops from 0 to %d", order, n, n-1)
	}
}

func TestBestOrderExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 40 {
		n := 2 + trial%8 // 2..9 stops
		m := make([][]int64, n)
		for i := range m {
			m[i] = make([]int64, n)
			for j := range m[i] {
				m[i][j] = int64(r.IntN(1000)) // asymmetric
			}
		}
		c := func(a, b int) int64 { return m[a][b] }
		order := bestOrder(n, c)
		validTour(t, order, n)
		if n > 3 {
			if got, want := tourCost(order, c), bruteForce(n, c); got != want {
				t.Errorf("trial %d, %d stops: tour %v costs %d, the best costs %d", trial, n, order, got, want)
			}
		}
	}
}

func TestBestOrderHeuristic(t *testing.T) {
	// 30 stops on a line, given shuffled: the best open path from the
	// first to the last visits them in position order.
	r := rand.New(rand.NewPCG(3, 4))
	n := 30
	pos := make([]int64, n)
	pos[0], pos[n-1] = 0, 1000
	inner := r.Perm(n - 2)
	for i, p := range inner {
		pos[i+1] = int64(10 + 30*p)
	}
	c := func(a, b int) int64 {
		d := pos[a] - pos[b]
		if d < 0 {
			d = -d
		}
		return d
	}
	order := bestOrder(n, c)
	validTour(t, order, n)
	if got := tourCost(order, c); got != 1000 {
		t.Errorf("tour costs %d, want 1000 (straight along the line): %v", got, order)
	}
}

func TestBestOrderUnreachable(t *testing.T) {
	// Stop 2 cannot be reached from stop 1; the tour goes 0, 2, 1, 3.
	m := [][]int64{{0, 1, 5, 9}, {1, 0, -1, 1}, {5, 1, 0, 9}, {9, 1, 9, 0}}
	order := bestOrder(4, func(a, b int) int64 { return m[a][b] })
	if want := []int{0, 2, 1, 3}; order[1] != want[1] || order[2] != want[2] {
		t.Errorf("order %v, want %v", order, want)
	}
}
