package isochrone

import (
	"math"
	"sync"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
	"github.com/paulmach/orb/simplify"

	"github.com/geosvc/geosvc/routing"
)

// Grid parameters of the polygons: the grid of one contour spans its
// reached roads in about gridCells cells (never finer than minCellM);
// the polygon is the set of points within bufferCells cells of a reached
// road, traced by marching squares and simplified by half a cell.
const (
	gridCells   = 350
	minCellM    = 15.0
	bufferCells = 2.0
)

// projection is a local equirectangular projection in metres around a
// point: accurate to a fraction of a percent over a region's extent.
type projection struct {
	lon0, lat0, kx, ky float64
}

func newProjection(b orb.Bound) projection {
	c := b.Center()
	return projection{lon0: c[0], lat0: c[1], kx: 111320 * math.Cos(c[1]*math.Pi/180), ky: 110574}
}

func (p projection) to(q orb.Point) orb.Point {
	return orb.Point{(q[0] - p.lon0) * p.kx, (q[1] - p.lat0) * p.ky}
}

func (p projection) from(q orb.Point) orb.Point {
	return orb.Point{q[0]/p.kx + p.lon0, q[1]/p.ky + p.lat0}
}

// grid is the distance field of a contour's reached roads sampled every
// cell metres: field[j*nx+i] is buffer minus the distance from sample
// (x0+i*cell, y0+j*cell) to the nearest reached road (positive inside).
type grid struct {
	x0, y0, cell, buffer float64
	nx, ny               int
	field                []float64
	sx, sy               []float64  // each sample's nearest seed
	buf                  *[]float64 // the three arrays, pooled
}

// cellSize is the grid cell of lines spanning b (metres).
func cellSize(b orb.Bound) float64 {
	side := max(b.Max[0]-b.Min[0], b.Max[1]-b.Min[1])
	return max(side/gridCells, minCellM)
}

// polygon returns the area within bufferCells cells of the stretches'
// shapes (polygonOf).
func polygon(g *routing.Graph, st []routing.Stretch) (orb.Geometry, float64) {
	return polygonOf(func(fn func([]orb.Point)) {
		var buf []orb.Point
		for _, s := range st {
			pts := g.StretchShape(s, buf)
			if s.Lo > 0 || s.Hi < 1 {
				buf = pts // a cut: its array is reused
			}
			fn(pts)
		}
	})
}

// polygonOf returns the area within bufferCells cells of the lines
// (lon, lat) that each passes to its function, twice, as a Polygon or
// MultiPolygon (outer rings counter-clockwise, holes clockwise, RFC
// 7946), nil when there are none; cell is the grid cell used (metres).
func polygonOf(each func(fn func([]orb.Point))) (orb.Geometry, float64) {
	var b orb.Bound
	first := true
	each(func(pts []orb.Point) {
		for _, p := range pts {
			if first {
				b, first = orb.Bound{Min: p, Max: p}, false
				continue
			}
			if p[0] < b.Min[0] {
				b.Min[0] = p[0]
			} else if p[0] > b.Max[0] {
				b.Max[0] = p[0]
			}
			if p[1] < b.Min[1] {
				b.Min[1] = p[1]
			} else if p[1] > b.Max[1] {
				b.Max[1] = p[1]
			}
		}
	})
	if first {
		return nil, 0
	}
	pr := newProjection(b)
	mb := orb.Bound{Min: pr.to(b.Min), Max: pr.to(b.Max)}
	cell := cellSize(mb)
	gr := newGrid(mb, cell)
	each(func(pts []orb.Point) {
		if len(pts) > 0 {
			gr.seedLine(pts, pr)
		}
	})
	gr.finish()
	rings := gr.trace()
	gr.release()
	return assemble(rings, cell, pr), cell
}

// newGrid returns an empty field covering b with a margin beyond the
// buffer, so that the border samples are outside.
func newGrid(b orb.Bound, cell float64) *grid {
	buffer := bufferCells * cell
	margin := buffer + 2*cell
	g := &grid{x0: b.Min[0] - margin, y0: b.Min[1] - margin, cell: cell, buffer: buffer}
	g.nx = int(math.Ceil((b.Max[0]-b.Min[0]+2*margin)/cell)) + 1
	g.ny = int(math.Ceil((b.Max[1]-b.Min[1]+2*margin)/cell)) + 1
	n := g.nx * g.ny
	buf, _ := gridPool.Get().(*[]float64)
	if buf == nil || cap(*buf) < 3*n {
		b := make([]float64, 3*n)
		buf = &b
	}
	g.buf = buf
	all := (*buf)[:3*n]
	g.field, g.sx, g.sy = all[:n:n], all[n:2*n:2*n], all[2*n:]
	for i := range g.field {
		g.field[i] = math.Inf(1) // squared distances until finish
	}
	return g
}

// gridPool holds the arrays of grids released.
var gridPool sync.Pool // *[]float64

// release gives the grid's arrays back for the next grid.
func (g *grid) release() {
	gridPool.Put(g.buf)
	g.buf, g.field, g.sx, g.sy = nil, nil, nil, nil
}

// seedLine seeds the samples nearest to points along a line (lon, lat):
// its ends and points every half cell of its length between them, so
// that every point of the line is within a quarter cell of a seed;
// finish spreads the seeds.
func (g *grid) seedLine(pts []orb.Point, pr projection) {
	step := g.cell / 2
	prev := pr.to(pts[0])
	g.seed(prev[0], prev[1])
	next := step // the length along the line of the next seed
	walked := 0.0
	for i := 1; i < len(pts); i++ {
		p := pr.to(pts[i])
		dx, dy := p[0]-prev[0], p[1]-prev[1]
		l := math.Hypot(dx, dy)
		for ; next < walked+l; next += step {
			t := (next - walked) / l
			g.seed(prev[0]+dx*t, prev[1]+dy*t)
		}
		walked += l
		prev = p
	}
	g.seed(prev[0], prev[1])
}

// seed offers point (px, py) to its nearest sample.
func (g *grid) seed(px, py float64) {
	i := min(max(int(math.Round((px-g.x0)/g.cell)), 0), g.nx-1)
	j := min(max(int(math.Round((py-g.y0)/g.cell)), 0), g.ny-1)
	g.offer(j*g.nx+i, i, j, px, py)
}

// offer makes (px, py) sample k's (at i, j) nearest seed if it is
// nearer than the one it has.
func (g *grid) offer(k, i, j int, px, py float64) {
	ddx, ddy := g.x0+float64(i)*g.cell-px, g.y0+float64(j)*g.cell-py
	if d := ddx*ddx + ddy*ddy; d < g.field[k] {
		g.field[k], g.sx[k], g.sy[k] = d, px, py
	}
}

// from offers sample k (at i, j) the nearest seed of sample n.
func (g *grid) from(k, i, j, n int) {
	if !math.IsInf(g.field[n], 1) {
		g.offer(k, i, j, g.sx[n], g.sy[n])
	}
}

// finish spreads the seeds to every sample (the nearest-seed
// propagation of 8SSEDT, after Danielsson 1980: two raster passes, each
// with its row sweep back) and turns squared distances into the signed
// field, clamped at minus the buffer.
func (g *grid) finish() {
	nx, ny := g.nx, g.ny
	for j := 0; j < ny; j++ {
		for i := 0; i < nx; i++ {
			k := j*nx + i
			if i > 0 {
				g.from(k, i, j, k-1)
			}
			if j > 0 {
				g.from(k, i, j, k-nx)
				if i > 0 {
					g.from(k, i, j, k-nx-1)
				}
				if i+1 < nx {
					g.from(k, i, j, k-nx+1)
				}
			}
		}
		for i := nx - 2; i >= 0; i-- {
			g.from(j*nx+i, i, j, j*nx+i+1)
		}
	}
	for j := ny - 1; j >= 0; j-- {
		for i := nx - 1; i >= 0; i-- {
			k := j*nx + i
			if i+1 < nx {
				g.from(k, i, j, k+1)
			}
			if j+1 < ny {
				g.from(k, i, j, k+nx)
				if i+1 < nx {
					g.from(k, i, j, k+nx+1)
				}
				if i > 0 {
					g.from(k, i, j, k+nx-1)
				}
			}
		}
		for i := 1; i < nx; i++ {
			g.from(j*nx+i, i, j, j*nx+i-1)
		}
	}
	for i, d := range g.field {
		g.field[i] = max(g.buffer-math.Sqrt(d), -g.buffer)
	}
}

// Edge ids of the sample lattice: 2*(j*nx+i) for the edge from sample
// (i, j) to (i+1, j), 2*(j*nx+i)+1 for the one to (i, j+1).

// trace runs marching squares over the field and returns the closed
// rings of its zero line, in metres, each with the inside on its left
// (outer rings counter-clockwise, holes clockwise).
func (g *grid) trace() []orb.Ring {
	nx, ny := g.nx, g.ny
	next := make(map[int32]int32)
	var starts []int32
	for j := 0; j+1 < ny; j++ {
		for i := 0; i+1 < nx; i++ {
			v := [4]float64{g.at(i, j), g.at(i+1, j), g.at(i+1, j+1), g.at(i, j+1)}
			c := 0
			for k, f := range v {
				if f > 0 {
					c |= 1 << k
				}
			}
			if c == 0 || c == 15 {
				continue
			}
			// The cell's edges counter-clockwise: bottom, right, top,
			// left; edge k runs from corner k to corner k+1.
			edges := [4]int32{
				int32(2 * (j*nx + i)), int32(2*(j*nx+i+1) + 1),
				int32(2 * ((j+1)*nx + i)), int32(2*(j*nx+i) + 1),
			}
			var exits, entries []int
			for k := 0; k < 4; k++ {
				in, out := v[k] > 0, v[(k+1)%4] > 0
				switch {
				case in && !out:
					exits = append(exits, k)
				case !in && out:
					entries = append(entries, k)
				}
			}
			saddle := len(exits) == 2
			centreIn := (v[0]+v[1]+v[2]+v[3])/4 > 0
			for _, x := range exits {
				// The boundary leaves at an exit and comes back at the
				// next entry counter-clockwise; at a saddle whose centre
				// is outside, at the previous one.
				step := 1
				if saddle && !centreIn {
					step = 3
				}
				for k := (x + step) % 4; ; k = (k + step) % 4 {
					if contains(entries, k) {
						next[edges[x]] = edges[k]
						starts = append(starts, edges[x])
						break
					}
				}
			}
		}
	}
	var rings []orb.Ring
	for _, s := range starts {
		if _, ok := next[s]; !ok {
			continue // already walked
		}
		var r orb.Ring
		for e := s; ; {
			r = append(r, g.crossing(e))
			n, ok := next[e]
			if !ok {
				break
			}
			delete(next, e)
			e = n
			if e == s {
				break
			}
		}
		if len(r) >= 3 {
			rings = append(rings, append(r, r[0]))
		}
	}
	return rings
}

func contains(ks []int, k int) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

func (g *grid) at(i, j int) float64 { return g.field[j*g.nx+i] }

// crossing is the point on lattice edge e where the field is zero.
func (g *grid) crossing(e int32) orb.Point {
	s := int(e / 2)
	i, j := s%g.nx, s/g.nx
	i2, j2 := i+1, j
	if e%2 == 1 {
		i2, j2 = i, j+1
	}
	a, b := g.at(i, j), g.at(i2, j2)
	t := 0.5
	if a != b {
		t = a / (a - b)
	}
	x := g.x0 + (float64(i)+t*float64(i2-i))*g.cell
	y := g.y0 + (float64(j)+t*float64(j2-j))*g.cell
	return orb.Point{x, y}
}

// assemble simplifies the rings (half a cell), drops holes smaller than
// four cells, puts each hole in the smallest outer ring holding it and
// projects back to longitude and latitude.
func assemble(rings []orb.Ring, cell float64, pr projection) orb.Geometry {
	dp := simplify.DouglasPeucker(cell / 2)
	type outer struct {
		poly orb.Polygon
		area float64
		b    orb.Bound
	}
	var outers []*outer
	var holes []orb.Ring
	for _, r := range rings {
		a := planar.Area(r) // signed: positive counter-clockwise
		if a < 0 && -a < 4*cell*cell {
			continue
		}
		s := dp.Ring(append(orb.Ring(nil), r...))
		if len(s) < 4 {
			s = r
		}
		if a > 0 {
			outers = append(outers, &outer{poly: orb.Polygon{s}, area: a, b: s.Bound()})
		} else {
			holes = append(holes, s)
		}
	}
	for _, h := range holes {
		var best *outer
		p := h[0]
		for _, o := range outers {
			if (best == nil || o.area < best.area) && o.b.Contains(p) && planar.RingContains(o.poly[0], p) {
				best = o
			}
		}
		if best != nil {
			best.poly = append(best.poly, h)
		}
	}
	var mp orb.MultiPolygon
	for _, o := range outers {
		poly := make(orb.Polygon, len(o.poly))
		for k, r := range o.poly {
			out := make(orb.Ring, len(r))
			for i, p := range r {
				out[i] = pr.from(p)
			}
			poly[k] = out
		}
		mp = append(mp, poly)
	}
	switch len(mp) {
	case 0:
		return nil
	case 1:
		return mp[0]
	}
	return mp
}
