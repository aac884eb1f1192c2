package geocode

import (
	"math"

	"github.com/paulmach/orb"
)

// grid is a uniform lon/lat grid of item ids, for nearest searches.
type grid struct {
	cell  float64 // degrees
	cells map[[2]int32][]uint32
}

func newGrid(cell float64) *grid { return &grid{cell: cell, cells: map[[2]int32][]uint32{}} }

func (g *grid) key(p orb.Point) [2]int32 {
	return [2]int32{int32(math.Floor(p[0] / g.cell)), int32(math.Floor(p[1] / g.cell))}
}

// add puts id in the cell of p.
func (g *grid) add(p orb.Point, id uint32) {
	k := g.key(p)
	g.cells[k] = append(g.cells[k], id)
}

// addBound puts id in every cell b touches.
func (g *grid) addBound(b orb.Bound, id uint32) {
	lo, hi := g.key(b.Min), g.key(b.Max)
	for x := lo[0]; x <= hi[0]; x++ {
		for y := lo[1]; y <= hi[1]; y++ {
			k := [2]int32{x, y}
			if l := g.cells[k]; len(l) == 0 || l[len(l)-1] != id {
				g.cells[k] = append(l, id)
			}
		}
	}
}

// near calls fn for every id in the cells within radius metres of p (an
// id added with addBound may come more than once).
func (g *grid) near(p orb.Point, radius float64, fn func(id uint32)) {
	dy := radius / metresPerDegLat
	dx := dy / math.Max(0.01, math.Cos(p[1]*math.Pi/180))
	lo := g.key(orb.Point{p[0] - dx, p[1] - dy})
	hi := g.key(orb.Point{p[0] + dx, p[1] + dy})
	for x := lo[0]; x <= hi[0]; x++ {
		for y := lo[1]; y <= hi[1]; y++ {
			for _, id := range g.cells[[2]int32{x, y}] {
				fn(id)
			}
		}
	}
}
