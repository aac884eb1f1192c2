package mapdata

import (
	"math"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/world"
)

// Where an extract cuts a coast, its coastline ways stop at the cut, and
// the sea assembled from them closes along the extract's box: across the
// land beyond the cut (the Delaware extract's Delaware Bay flooded the New
// Jersey shore, which the extract does not hold). worldCoast supplies the
// coast there from the world base layer: the stretches of its countries'
// outlines that have sea on their right (no country there), land on their
// left that the extract's own sea covers (the flood), inside the box, and
// farther than worldCoastClearM from every coastline node of the extract,
// which stays the authority wherever it has one. The stretches run as the
// outlines do, land on the left, as OSM coastlines do, so AssembleSea
// joins them to the extract's chains across the gaps.

// worldCoastClearM is how far from the extract's own coastline the
// world base layer's coast is used: well beyond its ~300 m precision.
const worldCoastClearM = 3000

// worldCoastProbeM is how far to the right of a world outline's segment
// the sea is looked for.
const worldCoastProbeM = 500

// worldCoast returns the world base layer's coast in box whose land side
// flooded reports as sea (the sea assembled from the extract alone), away
// from the extract's coastline ways own, as coastline ways with node ids
// below every OSM id (so that they join nothing but each other).
func worldCoast(own []CoastWay, box orb.Bound, flooded func(orb.Point) bool) ([]CoastWay, error) {
	fs, err := world.Features()
	if err != nil {
		return nil, err
	}
	ix, err := world.Lookup()
	if err != nil {
		return nil, err
	}
	mt := metricAt((box.Min[1] + box.Max[1]) / 2)
	// The extract's coastline nodes on a grid of worldCoastClearM cells.
	cell := func(p orb.Point) [2]int {
		return [2]int{int(math.Floor(p[0] * mt.kx / worldCoastClearM)), int(math.Floor(p[1] * mt.ky / worldCoastClearM))}
	}
	grid := map[[2]int][]orb.Point{}
	for _, w := range own {
		for _, p := range w.Points {
			c := cell(p)
			grid[c] = append(grid[c], p)
		}
	}
	clear := func(p orb.Point) bool {
		c := cell(p)
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				for _, q := range grid[[2]int{c[0] + dx, c[1] + dy}] {
					if math.Hypot((p[0]-q[0])*mt.kx, (p[1]-q[1])*mt.ky) < worldCoastClearM {
						return false
					}
				}
			}
		}
		return true
	}
	// A segment is a flooded coast when the point worldCoastProbeM to its
	// right (the water side of a counter-clockwise outline) is in no
	// country and the one as far to its left is in the extract's sea.
	coast := func(a, b orb.Point) bool {
		dx, dy := (b[0]-a[0])*mt.kx, (b[1]-a[1])*mt.ky
		n := math.Hypot(dx, dy)
		if n == 0 {
			return false
		}
		mid := orb.Point{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2}
		ox, oy := dy/n*worldCoastProbeM/mt.kx, -dx/n*worldCoastProbeM/mt.ky
		if _, land := ix.CountryAt(orb.Point{mid[0] + ox, mid[1] + oy}); land {
			return false
		}
		return flooded(orb.Point{mid[0] - ox, mid[1] - oy})
	}
	// Margins so that a stretch crossing the box edge reaches beyond it.
	margin := orb.Bound{
		Min: orb.Point{box.Min[0] - worldCoastClearM/mt.kx, box.Min[1] - worldCoastClearM/mt.ky},
		Max: orb.Point{box.Max[0] + worldCoastClearM/mt.kx, box.Max[1] + worldCoastClearM/mt.ky},
	}
	var out []CoastWay
	next := int64(-1) << 62
	var cur []orb.Point
	flush := func() {
		if len(cur) >= 2 {
			nodes := make([]int64, len(cur))
			for i := range nodes {
				nodes[i] = next
				next++
			}
			out = append(out, CoastWay{Nodes: nodes, Points: cur})
		}
		cur = nil
	}
	for _, f := range fs {
		if f.Kind != world.Country || !f.BBox.Intersects(margin) {
			continue
		}
		for _, poly := range f.Geometry {
			if len(poly) == 0 {
				continue
			}
			r := poly[0] // outer rings only: holes are other countries
			for i := 0; i+1 < len(r); i++ {
				a, b := r[i], r[i+1]
				keep := (margin.Contains(a) || margin.Contains(b)) && clear(a) && clear(b) && coast(a, b)
				if !keep {
					flush()
					continue
				}
				if len(cur) == 0 {
					cur = append(cur, a)
				}
				cur = append(cur, b)
			}
			flush()
		}
	}
	return out, nil
}
