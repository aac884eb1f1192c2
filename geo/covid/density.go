package covid

import (
	"fmt"
	"math"
	"sort"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"
	"github.com/paulmach/orb/maptile"
	"github.com/paulmach/orb/planar"
)

// gridZoom is the zoom of the grid's quadkeys: a business is placed in
// its z20 web-mercator tile (about 38 m at the equator, 29 m in Delaware),
// so that the businesses of any tile of zoom 20 or less are a contiguous
// run of the sorted keys.
const gridZoom = 20

// posScale is the fixed-point scale of business positions (1e-7 degree,
// OSM's own precision).
const posScale = 1e7

// grid is the business density grid: the positions of the extract's
// businesses sorted by their z20 quadkey (Morton order), and the extract's
// bounds. Counting the businesses of a tile is two binary searches.
type grid struct {
	// lon and lat are the positions in 1e-7 degree, in key order.
	lon, lat []int32
	// keys are the z20 quadkeys of the positions, sorted.
	keys []uint64
	// bounds are the extract's bounds: densities are given only for
	// tiles and areas inside them.
	bounds orb.Bound
	// tileMedian is, per zoom, the median density of the tiles of that
	// zoom holding at least one business (the reference of the risk
	// score's density factor).
	tileMedian [gridZoom + 1]float64
}

// newGrid returns the grid of the given positions (1e-7 degree; sorted
// here) inside bounds.
func newGrid(lon, lat []int32, bounds orb.Bound) *grid {
	g := &grid{bounds: bounds}
	idx := make([]int, len(lon))
	keys := make([]uint64, len(lon))
	for i := range lon {
		idx[i] = i
		keys[i] = quadkeyOf(lon[i], lat[i])
	}
	sort.Slice(idx, func(a, b int) bool {
		i, j := idx[a], idx[b]
		if keys[i] != keys[j] {
			return keys[i] < keys[j]
		}
		if lon[i] != lon[j] {
			return lon[i] < lon[j]
		}
		return lat[i] < lat[j]
	})
	g.lon = make([]int32, len(idx))
	g.lat = make([]int32, len(idx))
	g.keys = make([]uint64, len(idx))
	for k, i := range idx {
		g.lon[k], g.lat[k], g.keys[k] = lon[i], lat[i], keys[i]
	}
	g.computeMedians()
	return g
}

// gridOf returns the grid stored in a layer file: positions and keys as
// newGrid sorted them, the medians it computed. The slices may alias the
// file; they are checked, not copied.
func gridOf(lon, lat []int32, keys []uint64, medians []float64, bounds orb.Bound) (*grid, error) {
	if len(lat) != len(lon) || len(keys) != len(lon) || len(medians) != gridZoom+1 {
		return nil, fmt.Errorf("density grid: %d positions, %d latitudes, %d keys, %d medians", len(lon), len(lat), len(keys), len(medians))
	}
	for i := 1; i < len(keys); i++ {
		if keys[i] < keys[i-1] {
			return nil, fmt.Errorf("density grid: keys out of order at %d", i)
		}
	}
	g := &grid{lon: lon, lat: lat, keys: keys, bounds: bounds}
	copy(g.tileMedian[:], medians)
	return g, nil
}

// quadkeyOf returns the z20 quadkey of a position in 1e-7 degree.
func quadkeyOf(lon, lat int32) uint64 {
	return maptile.At(orb.Point{float64(lon) / posScale, float64(lat) / posScale}, gridZoom).Quadkey()
}

// tileRange returns the index range [lo, hi) of the businesses in t
// (zoom at most gridZoom).
func (g *grid) tileRange(t maptile.Tile) (int, int) {
	shift := 2 * uint(gridZoom-t.Z)
	from := t.Quadkey() << shift
	to := (t.Quadkey() + 1) << shift
	lo := sort.Search(len(g.keys), func(i int) bool { return g.keys[i] >= from })
	hi := lo + sort.Search(len(g.keys)-lo, func(i int) bool { return g.keys[lo+i] >= to })
	return lo, hi
}

// densityAt returns the number of businesses per km² of ground in tile t:
// the count of businesses in the tile divided by tileAreaKm2(t). ok is
// false when the tile is not inside the extract's bounds, its zoom is
// above 20, or it holds no business (the density is then unknown or 0,
// and business_density is omitted, never made up).
func (g *grid) densityAt(t maptile.Tile) (float64, bool) {
	if g == nil || t.Z > gridZoom || !t.Valid() || !boundInside(t.Bound(), g.bounds) {
		return 0, false
	}
	lo, hi := g.tileRange(t)
	if hi == lo {
		return 0, false
	}
	return float64(hi-lo) / tileAreaKm2(t), true
}

// densityOfArea returns the number of businesses inside geometry per km²
// of its ground area (geo.Area, spherical). ok is false when the geometry
// does not lie inside the extract's bounds, has no area or holds no
// business.
func (g *grid) densityOfArea(geometry orb.MultiPolygon) (float64, bool) {
	if g == nil || len(geometry) == 0 {
		return 0, false
	}
	b := geometry.Bound()
	if !boundInside(b, g.bounds) {
		return 0, false
	}
	km2 := geo.Area(geometry) / 1e6
	if !(km2 > 0) {
		return 0, false
	}
	n := 0
	for _, t := range coverTiles(b) {
		lo, hi := g.tileRange(t)
		for i := lo; i < hi; i++ {
			p := orb.Point{float64(g.lon[i]) / posScale, float64(g.lat[i]) / posScale}
			if b.Contains(p) && planar.MultiPolygonContains(geometry, p) {
				n++
			}
		}
	}
	if n == 0 {
		return 0, false
	}
	return float64(n) / km2, true
}

// coverTiles returns tiles of one zoom that together cover b, disjoint,
// at most 64 of them.
func coverTiles(b orb.Bound) []maptile.Tile {
	for z := maptile.Zoom(gridZoom); ; z-- {
		t0 := maptile.At(orb.Point{b.Min[0], b.Max[1]}, z)
		t1 := maptile.At(orb.Point{b.Max[0], b.Min[1]}, z)
		if z == 0 || int64(t1.X-t0.X+1)*int64(t1.Y-t0.Y+1) <= 64 {
			var out []maptile.Tile
			for x := t0.X; x <= t1.X; x++ {
				for y := t0.Y; y <= t1.Y; y++ {
					out = append(out, maptile.New(x, y, z))
				}
			}
			return out
		}
	}
}

// boundInside reports whether b lies inside outer (edges included).
func boundInside(b, outer orb.Bound) bool {
	return b.Min[0] >= outer.Min[0] && b.Min[1] >= outer.Min[1] && b.Max[0] <= outer.Max[0] && b.Max[1] <= outer.Max[1]
}

// tileAreaKm2 returns the ground area of a web-mercator tile in km²: the
// area of the latitude-longitude rectangle it spans on a sphere of radius
// orb.EarthRadius (6378.137 km, the radius geo.Area uses too),
//
//	A = R² · Δλ · (sin φ_north − sin φ_south)
//
// with Δλ the tile's width in radians. A tile's area shrinks with the
// cosine of its latitude: a z16 tile is 0.373 km² at the equator and
// 0.224 km² at Dover, Delaware (39.16° N).
func tileAreaKm2(t maptile.Tile) float64 {
	b := t.Bound()
	r := orb.EarthRadius / 1000
	dLon := (b.Max[0] - b.Min[0]) * math.Pi / 180
	return r * r * dLon * (math.Sin(b.Max[1]*math.Pi/180) - math.Sin(b.Min[1]*math.Pi/180))
}

// computeMedians sets tileMedian for every zoom.
func (g *grid) computeMedians() {
	for z := 0; z <= gridZoom; z++ {
		shift := 2 * uint(gridZoom-z)
		var ds []float64
		for i := 0; i < len(g.keys); {
			k := g.keys[i] >> shift
			j := i
			for j < len(g.keys) && g.keys[j]>>shift == k {
				j++
			}
			t := maptile.FromQuadkey(k, maptile.Zoom(z))
			ds = append(ds, float64(j-i)/tileAreaKm2(t))
			i = j
		}
		if len(ds) > 0 {
			g.tileMedian[z] = median(ds)
		}
	}
}
