package geocode

import (
	"math"
	"slices"

	"github.com/paulmach/orb"
)

// grid is a uniform lon/lat grid of item ids, for nearest searches,
// static once built: the keys of the non-empty cells, sorted (by column,
// then row), and each cell's ids back to back in ids (cell i holds
// ids[start[i]:start[i+1]], in the order they were given). Its slices
// are plain arrays, stored in geocode.bin as they are.
type grid struct {
	cell  float64 // degrees
	keys  []uint64
	start []uint32
	ids   []uint32
}

// cellOf returns the column and row of the cell of p.
func cellOf(cell float64, p orb.Point) [2]int32 {
	return [2]int32{int32(math.Floor(p[0] / cell)), int32(math.Floor(p[1] / cell))}
}

// cellKey orders cells by column, then row (signed: the sign bits are
// flipped so that negative coordinates sort first).
func cellKey(x, y int32) uint64 {
	return uint64(uint32(x)^1<<31)<<32 | uint64(uint32(y)^1<<31)
}

// buildGrid returns the grid of cell degrees over the items that items
// yields, each a bound and an id: an item is put in every cell its bound
// touches (a point's bound: one cell). Ids yielded in increasing order
// come back from near in that order within a cell. items is called three
// times and must yield the same each time.
func buildGrid(cell float64, items func(yield func(orb.Bound, uint32))) grid {
	g := grid{cell: cell}
	each := func(fn func(k uint64, id uint32)) {
		items(func(b orb.Bound, id uint32) {
			lo, hi := cellOf(cell, b.Min), cellOf(cell, b.Max)
			for x := lo[0]; x <= hi[0]; x++ {
				for y := lo[1]; y <= hi[1]; y++ {
					fn(cellKey(x, y), id)
				}
			}
		})
	}
	var keys []uint64
	each(func(k uint64, _ uint32) {
		if len(keys) == 0 || keys[len(keys)-1] != k {
			keys = append(keys, k)
		}
	})
	slices.Sort(keys)
	g.keys = slices.Clone(slices.Compact(keys))
	keys = nil
	g.start = make([]uint32, len(g.keys)+1)
	// The cell of the previous entry, cached: consecutive items mostly
	// share cells.
	last, lastIdx := uint64(0), -1
	find := func(k uint64) int {
		if lastIdx < 0 || k != last {
			lastIdx, _ = slices.BinarySearch(g.keys, k)
			last = k
		}
		return lastIdx
	}
	each(func(k uint64, _ uint32) { g.start[find(k)+1]++ })
	for i := 1; i < len(g.start); i++ {
		g.start[i] += g.start[i-1]
	}
	g.ids = make([]uint32, g.start[len(g.keys)])
	pos := slices.Clone(g.start[:len(g.keys)])
	each(func(k uint64, id uint32) {
		i := find(k)
		g.ids[pos[i]] = id
		pos[i]++
	})
	return g
}

// near calls fn for every id in the cells within radius metres of p (an
// id whose bound spans several cells may come more than once), cell by
// cell, by column then row.
func (g *grid) near(p orb.Point, radius float64, fn func(id uint32)) {
	if len(g.keys) == 0 {
		return
	}
	dy := radius / metresPerDegLat
	dx := dy / math.Max(0.01, math.Cos(p[1]*math.Pi/180))
	lo := cellOf(g.cell, orb.Point{p[0] - dx, p[1] - dy})
	hi := cellOf(g.cell, orb.Point{p[0] + dx, p[1] + dy})
	for x := lo[0]; x <= hi[0]; x++ {
		last := cellKey(x, hi[1])
		i, _ := slices.BinarySearch(g.keys, cellKey(x, lo[1]))
		for ; i < len(g.keys) && g.keys[i] <= last; i++ {
			for _, id := range g.ids[g.start[i]:g.start[i+1]] {
				fn(id)
			}
		}
		if x == math.MaxInt32 {
			break
		}
	}
}
