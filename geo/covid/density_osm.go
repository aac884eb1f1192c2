package covid

import (
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/geo/osmfile"
)

// businessMatcher decides from its tags whether an OSM object is a
// business (configs/health.yaml business_tags).
type businessMatcher struct {
	keys    []string
	values  map[string][]string
	exclude []string
}

func newBusinessMatcher(cfg *config) *businessMatcher {
	return &businessMatcher{keys: sortedKeys(cfg.BusinessTags), values: cfg.BusinessTags, exclude: cfg.BusinessExcludeValues}
}

// match reports whether tags make a business: one of the configured keys
// with a listed value, or any value but the excluded ones for "*".
func (b *businessMatcher) match(tags osm.Tags) bool {
	if len(tags) == 0 {
		return false
	}
	for _, k := range b.keys {
		v := tags.Find(k)
		if v == "" || slices.Contains(b.exclude, v) {
			continue
		}
		vals := b.values[k]
		if slices.Contains(vals, "*") || slices.Contains(vals, v) {
			return true
		}
	}
	return false
}

// buildGrid reads the businesses of an OSM extract (two passes: the
// business ways and the nodes they need, then the nodes) and returns the
// density grid. A node counts at its position, a way at its centroid
// (area centroid of a closed way, length-weighted centroid of an open
// one); relations are not read. The grid's bounds are the extract header's
// bounds, else the bounding box of all its nodes. The ways' node lists are
// kept flat and the positions they need in a sorted id array
// (osmfile.NodeCoords), not in maps keyed by node id.
func buildGrid(path string, cfg *config) (*grid, error) {
	if cfg == nil {
		var err error
		if cfg, err = parseConfig(nil); err != nil {
			return nil, err
		}
	}
	f, err := osmfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("health: %w", err)
	}
	bm := newBusinessMatcher(cfg)
	wayStart := []int{0} // way k's nodes are wayNodes[wayStart[k]:wayStart[k+1]]
	var wayNodes []int64
	_, err = f.Scan(osmfile.Filter{SkipNodes: true, SkipRelations: true, Way: func(w *osm.Way) bool { return bm.match(w.Tags) }}, func(o osm.Object) error {
		w, ok := o.(*osm.Way)
		if !ok {
			return nil
		}
		for _, n := range w.Nodes {
			wayNodes = append(wayNodes, int64(n.ID))
		}
		wayStart = append(wayStart, len(wayNodes))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("health: density: %w", err)
	}
	coords := osmfile.NewNodeCoords(slices.Clone(wayNodes))
	var lon, lat []int32
	add := func(p orb.Point) {
		lon = append(lon, int32(math.Round(p[0]*posScale)))
		lat = append(lat, int32(math.Round(p[1]*posScale)))
	}
	// The node filter runs on the decoder goroutines; it also grows the
	// bounding box of all nodes, used when the header has no bounds.
	var box atomicBox
	box.init()
	h, err := f.Scan(osmfile.Filter{SkipWays: true, SkipRelations: true, Node: func(n *osm.Node) bool {
		box.extend(n.Lon, n.Lat)
		coords.Record(n)
		return bm.match(n.Tags)
	}}, func(o osm.Object) error {
		if n, ok := o.(*osm.Node); ok {
			add(orb.Point{n.Lon, n.Lat})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("health: density: %w", err)
	}
	for k := 0; k+1 < len(wayStart); k++ {
		if p, ok := wayCentroid(wayNodes[wayStart[k]:wayStart[k+1]], coords); ok {
			add(p)
		}
	}
	bounds := box.bound()
	if h.Bounds != nil {
		bounds = orb.Bound{Min: orb.Point{h.Bounds.MinLon, h.Bounds.MinLat}, Max: orb.Point{h.Bounds.MaxLon, h.Bounds.MaxLat}}
	}
	if bounds.Min[0] > bounds.Max[0] {
		bounds = orb.Bound{}
	}
	return newGrid(lon, lat, bounds), nil
}

// atomicBox is a bounding box that goroutines extend concurrently without
// a lock: each side is the bits of a float64, moved by compare-and-swap,
// and a point inside the box (nearly every point, soon) only reads.
type atomicBox struct{ side [4]atomic.Uint64 } // min lon, min lat, max lon, max lat

func (b *atomicBox) init() {
	for k, v := range []float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)} {
		b.side[k].Store(math.Float64bits(v))
	}
}

// extend grows the box to hold (x, y).
func (b *atomicBox) extend(x, y float64) {
	move(&b.side[0], x, func(v, cur float64) bool { return v < cur })
	move(&b.side[1], y, func(v, cur float64) bool { return v < cur })
	move(&b.side[2], x, func(v, cur float64) bool { return v > cur })
	move(&b.side[3], y, func(v, cur float64) bool { return v > cur })
}

// move sets side to v while beyond(v, side) holds.
func move(side *atomic.Uint64, v float64, beyond func(v, cur float64) bool) {
	for {
		old := side.Load()
		if !beyond(v, math.Float64frombits(old)) || side.CompareAndSwap(old, math.Float64bits(v)) {
			return
		}
	}
}

// bound returns the box (Min above Max when nothing was added).
func (b *atomicBox) bound() orb.Bound {
	f := func(k int) float64 { return math.Float64frombits(b.side[k].Load()) }
	return orb.Bound{Min: orb.Point{f(0), f(1)}, Max: orb.Point{f(2), f(3)}}
}

// wayCentroid returns the centroid of a way's nodes present in coords:
// the area centroid of a closed way with an area, else the length-weighted
// centroid of the line, else the single node. ok is false when no node is
// present.
func wayCentroid(ids []int64, coords *osmfile.NodeCoords) (orb.Point, bool) {
	var ls orb.LineString
	for _, id := range ids {
		if p, ok := coords.Point(id); ok {
			ls = append(ls, p)
		}
	}
	switch {
	case len(ls) == 0:
		return orb.Point{}, false
	case len(ls) == 1:
		return ls[0], true
	}
	if len(ls) >= 4 && ls[0] == ls[len(ls)-1] {
		if c, area := planar.CentroidArea(orb.Polygon{orb.Ring(ls)}); area != 0 {
			return c, true
		}
	}
	c, _ := planar.CentroidArea(ls)
	return c, true
}
