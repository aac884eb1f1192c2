package covid

import (
	"fmt"
	"math"
	"slices"
	"sync"

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
// bounds, else the bounding box of all its nodes.
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
	var ways [][]osm.NodeID
	need := map[osm.NodeID]bool{}
	_, err = f.Scan(osmfile.Filter{SkipNodes: true, SkipRelations: true, Way: func(w *osm.Way) bool { return bm.match(w.Tags) }}, func(o osm.Object) error {
		w, ok := o.(*osm.Way)
		if !ok {
			return nil
		}
		ids := make([]osm.NodeID, len(w.Nodes))
		for i, n := range w.Nodes {
			ids[i] = n.ID
			need[n.ID] = true
		}
		ways = append(ways, ids)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("health: density: %w", err)
	}
	coords := make(map[osm.NodeID]orb.Point, len(need))
	var lon, lat []int32
	add := func(p orb.Point) {
		lon = append(lon, int32(math.Round(p[0]*posScale)))
		lat = append(lat, int32(math.Round(p[1]*posScale)))
	}
	// The node filter runs on the decoder goroutines; it also grows the
	// bounding box of all nodes, used when the header has no bounds.
	var mu sync.Mutex
	nodeBox := orb.Bound{Min: orb.Point{math.Inf(1), math.Inf(1)}, Max: orb.Point{math.Inf(-1), math.Inf(-1)}}
	h, err := f.Scan(osmfile.Filter{SkipWays: true, SkipRelations: true, Node: func(n *osm.Node) bool {
		mu.Lock()
		nodeBox = nodeBox.Extend(orb.Point{n.Lon, n.Lat})
		mu.Unlock()
		return need[n.ID] || bm.match(n.Tags)
	}}, func(o osm.Object) error {
		n, ok := o.(*osm.Node)
		if !ok {
			return nil
		}
		p := orb.Point{n.Lon, n.Lat}
		if need[n.ID] {
			coords[n.ID] = p
		}
		if bm.match(n.Tags) {
			add(p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("health: density: %w", err)
	}
	for _, ids := range ways {
		if p, ok := wayCentroid(ids, coords); ok {
			add(p)
		}
	}
	bounds := nodeBox
	if h.Bounds != nil {
		bounds = orb.Bound{Min: orb.Point{h.Bounds.MinLon, h.Bounds.MinLat}, Max: orb.Point{h.Bounds.MaxLon, h.Bounds.MaxLat}}
	}
	if bounds.Min[0] > bounds.Max[0] {
		bounds = orb.Bound{}
	}
	return newGrid(lon, lat, bounds), nil
}

// wayCentroid returns the centroid of a way's nodes present in coords:
// the area centroid of a closed way with an area, else the length-weighted
// centroid of the line, else the single node. ok is false when no node is
// present.
func wayCentroid(ids []osm.NodeID, coords map[osm.NodeID]orb.Point) (orb.Point, bool) {
	var ls orb.LineString
	for _, id := range ids {
		if p, ok := coords[id]; ok {
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
