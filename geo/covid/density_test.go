package covid

import (
	"context"
	"math"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/maptile"
	"github.com/paulmach/osm"
	"github.com/paulmach/osm/osmpbf"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

var (
	delawareOnce  sync.Once
	delawareLayer *Layer
	delawareErr   error
)

// delaware builds the layer on the snapshot with the Delaware extract's
// density grid, once per test binary. Kent County is given a geometry (the
// downtown Dover tile, standing in for a boundary) to check that records
// take their density from BuildOptions.Areas.
func delaware(tb testing.TB) *Layer {
	tb.Helper()
	path := extracts.Require(tb, "delaware")
	delawareOnce.Do(func() {
		delawareLayer, _, delawareErr = Build(BuildOptions{OSMPath: path, Areas: map[string]orb.MultiPolygon{
			"USA|10|10001": {doverTile().Bound().ToPolygon()},
		}})
	})
	if delawareErr != nil {
		tb.Fatal(delawareErr)
	}
	return delawareLayer
}

// doverTile is the z16 tile of downtown Dover, Delaware.
func doverTile() maptile.Tile { return maptile.At(orb.Point{-75.5244, 39.1582}, 16) }

// independentBusinesses scans the extract with osmpbf directly and
// returns the positions of its businesses, matched by the tests' own loop
// over the configured tags, ways at their centroid computed here.
func independentBusinesses(t *testing.T, path string) []orb.Point {
	t.Helper()
	cfg, err := parseConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	isBusiness := func(tags osm.Tags) bool {
		for _, tag := range tags {
			vals, ok := cfg.BusinessTags[tag.Key]
			if !ok || slices.Contains(cfg.BusinessExcludeValues, tag.Value) {
				continue
			}
			if slices.Contains(vals, "*") || slices.Contains(vals, tag.Value) {
				return true
			}
		}
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := osmpbf.New(context.Background(), f, 2)
	defer s.Close()
	nodes := map[osm.NodeID]orb.Point{}
	var pts []orb.Point
	var ways [][]osm.NodeID
	for s.Scan() {
		switch o := s.Object().(type) {
		case *osm.Node:
			nodes[o.ID] = orb.Point{o.Lon, o.Lat}
			if isBusiness(o.Tags) {
				pts = append(pts, orb.Point{o.Lon, o.Lat})
			}
		case *osm.Way:
			if isBusiness(o.Tags) {
				var ids []osm.NodeID
				for _, n := range o.Nodes {
					ids = append(ids, n.ID)
				}
				ways = append(ways, ids)
			}
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	for _, ids := range ways {
		var ring []orb.Point
		for _, id := range ids {
			if p, ok := nodes[id]; ok {
				ring = append(ring, p)
			}
		}
		if len(ring) == 0 {
			continue
		}
		pts = append(pts, centroidByHand(ring))
	}
	return pts
}

// centroidByHand: the shoelace centroid of a closed ring with an area,
// else the length-weighted centroid of the line, else the point.
func centroidByHand(r []orb.Point) orb.Point {
	if len(r) >= 4 && r[0] == r[len(r)-1] {
		var a, cx, cy float64
		for i := 0; i+1 < len(r); i++ {
			// Relative to the first point, for precision.
			x0, y0 := r[i][0]-r[0][0], r[i][1]-r[0][1]
			x1, y1 := r[i+1][0]-r[0][0], r[i+1][1]-r[0][1]
			c := x0*y1 - x1*y0
			a += c
			cx += (x0 + x1) * c
			cy += (y0 + y1) * c
		}
		if a != 0 {
			return orb.Point{r[0][0] + cx/(3*a), r[0][1] + cy/(3*a)}
		}
	}
	var l, cx, cy float64
	for i := 0; i+1 < len(r); i++ {
		d := math.Hypot(r[i+1][0]-r[i][0], r[i+1][1]-r[i][1])
		l += d
		cx += (r[i][0] + r[i+1][0]) / 2 * d
		cy += (r[i][1] + r[i+1][1]) / 2 * d
	}
	if l == 0 {
		return r[0]
	}
	return orb.Point{cx / l, cy / l}
}

// tileAreaByHand is the ground area of tile (x, y, z) in km² from the
// inverse web-mercator projection, on a sphere of radius 6378.137 km.
func tileAreaByHand(x, y, z uint32) float64 {
	n := math.Exp2(float64(z))
	lat := func(y float64) float64 { return math.Atan(math.Sinh(math.Pi * (1 - 2*y/n))) }
	north, south := lat(float64(y)), lat(float64(y+1))
	dLon := 2 * math.Pi / n
	const r = 6378.137
	return r * r * dLon * (math.Sin(north) - math.Sin(south))
}

func TestTileAreaKm2(t *testing.T) {
	for _, tt := range []struct {
		tile maptile.Tile
		want float64 // km², approximately
	}{
		{maptile.New(32768, 32767, 16), 0.3737}, // at the equator
		{doverTile(), 0.2248},
		// The whole map: 4πR²·sin(85.0511°).
		{maptile.New(0, 0, 0), 4 * math.Pi * 6378.137 * 6378.137 * math.Sin(85.0511287798*math.Pi/180)},
	} {
		got := tileAreaKm2(tt.tile)
		if hand := tileAreaByHand(tt.tile.X, tt.tile.Y, uint32(tt.tile.Z)); math.Abs(got-hand) > 1e-9*hand {
			t.Errorf("%v: %v km², by hand %v", tt.tile, got, hand)
		}
		if math.Abs(got-tt.want) > 1e-3*tt.want {
			t.Errorf("%v: %v km², want about %v", tt.tile, got, tt.want)
		}
	}
}

func TestDensityDover(t *testing.T) {
	l := delaware(t)
	pts := independentBusinesses(t, extracts.Require(t, "delaware"))
	for z := maptile.Zoom(14); z <= 20; z++ {
		tile := maptile.At(orb.Point{-75.5244, 39.1582}, z)
		n := 0
		for _, p := range pts {
			q := geo.Round7Point(p)
			if maptile.At(q, z) == tile {
				n++
			}
		}
		got, ok := l.DensityAt(tile)
		if n == 0 {
			if ok {
				t.Errorf("z%d: density %v where the independent count is 0", z, got)
			}
			continue
		}
		want := float64(n) / tileAreaByHand(tile.X, tile.Y, uint32(z))
		if !ok || math.Abs(got-want) > 1e-9*want {
			t.Errorf("z%d %v: density %v %v, want %d businesses / %v km² = %v", z, tile, got, ok, n, tileAreaByHand(tile.X, tile.Y, uint32(z)), want)
		}
		if z == 16 {
			t.Logf("downtown Dover z16 %v: %d businesses, %.4f km², %.1f per km²", tile, n, tileAreaKm2(tile), got)
			if n == 0 || !ok || got <= 0 {
				t.Errorf("no business density in downtown Dover")
			}
		}
	}
	// The tile's own polygon as an area: the same count over the same
	// area (geo.Area of a latitude-longitude rectangle is exact).
	tile := doverTile()
	d1, _ := l.DensityAt(tile)
	d2, ok := l.DensityOfArea(orb.MultiPolygon{tile.Bound().ToPolygon()})
	if !ok || math.Abs(d1-d2) > 1e-6*d1 {
		t.Errorf("DensityOfArea(tile) = %v %v, DensityAt = %v", d2, ok, d1)
	}
}

func TestDensityOmitted(t *testing.T) {
	l := delaware(t)
	b, _ := l.DensityBounds()
	for _, tt := range []struct {
		name string
		tile maptile.Tile
	}{
		{"outside the extract (Manhattan)", maptile.At(orb.Point{-73.9971, 40.7507}, 16)},
		{"across the extract's edge", maptile.At(orb.Point{b.Max[0], 39.5}, 14)},
		{"inside, no business (Delaware Bay)", maptile.At(orb.Point{-75.2, 39.1}, 16)},
		{"above zoom 20", maptile.At(orb.Point{-75.5244, 39.1582}, 21)},
		{"an invalid index", maptile.New(1<<16, 0, 16)},
	} {
		if d, ok := l.DensityAt(tt.tile); ok {
			t.Errorf("%s: density %v", tt.name, d)
		}
	}
	nyc := orb.MultiPolygon{maptile.At(orb.Point{-73.9971, 40.7507}, 14).Bound().ToPolygon()}
	if d, ok := l.DensityOfArea(nyc); ok {
		t.Errorf("an area outside the extract: %v", d)
	}
	snap, _ := Snapshot()
	if _, ok := snap.DensityAt(doverTile()); ok {
		t.Error("the snapshot has a density grid")
	}
}

// TestRecordDensity: a record whose geometry lay inside the extract at
// build time carries business_density, and its risk score uses it against
// the median of its country and level; tiles score against the median of
// their zoom. The grid survives the bundle file.
func TestRecordDensity(t *testing.T) {
	l := delaware(t)
	kent, _ := l.Record("USA|10|10001", time.Time{})
	want, _ := l.DensityOfArea(orb.MultiPolygon{doverTile().Bound().ToPolygon()})
	if kent.BusinessDensity != formatNumber(want) || kent.Density != want {
		t.Errorf("Kent business_density %q (%v), want %v", kent.BusinessDensity, kent.Density, want)
	}
	// Kent is the only US county with a density: it is its own median,
	// so the density factor is 1.
	want = riskScore(*kent.Incidence, *kent.CovidTrend, true, 0, 0)
	if kent.CovidRiskScore != formatNumber(want) {
		t.Errorf("Kent score %s, want %v", kent.CovidRiskScore, want)
	}
	td := l.TileData(doverTile(), kent)
	dens, _ := l.DensityAt(doverTile())
	if td.BusinessDensity != formatNumber(dens) || td.CovidRiskScore == "" {
		t.Errorf("tile data %+v", td)
	}
	if td := l.TileData(maptile.At(orb.Point{-73.9971, 40.7507}, 16), kent); td.BusinessDensity != "" || td.CovidRiskScore == "" {
		t.Errorf("tile outside the extract: %+v, want a score without density", td)
	}
	dir := t.TempDir()
	if err := l.WriteFile(dir); err != nil {
		t.Fatal(err)
	}
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := back.DensityAt(doverTile()); !ok || d != dens {
		t.Errorf("loaded grid: %v %v, want %v", d, ok, dens)
	}
	if k, _ := back.Record("USA|10|10001", time.Time{}); k.BusinessDensity != kent.BusinessDensity || k.CovidRiskScore != kent.CovidRiskScore {
		t.Errorf("loaded Kent %+v", k)
	}
}
