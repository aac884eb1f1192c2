package worldfile

import (
	"fmt"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/world/internal/lonlat"
)

// Ring joins the arcs refs name in topology topo into a lon/lat ring (the
// first point of every arc after the first dropped, as it repeats the
// previous arc's last) and repairs it for planar tests (lonlat.Ring). Its
// orientation is the source's.
func (d *Data) Ring(topo int, refs []int32) (orb.Ring, error) {
	if topo < 0 || topo >= len(d.Topologies) {
		return nil, fmt.Errorf("worldfile: topology %d", topo)
	}
	t := &d.Topologies[topo]
	n := 0
	for _, r := range refs {
		a := arcIndex(r)
		if a >= t.Arcs() {
			return nil, fmt.Errorf("worldfile: arc reference %d out of range", r)
		}
		n += int(t.ArcStart[a+1] - t.ArcStart[a])
	}
	pts := make([]orb.Point, 0, n)
	grid := func(p uint32) [2]int32 { return [2]int32{t.XY[2*p], t.XY[2*p+1]} }
	var last [2]int32
	for k, r := range refs {
		a := arcIndex(r)
		s, e := t.ArcStart[a], t.ArcStart[a+1]
		first, step := s, int64(1)
		if r < 0 {
			first, step = e-1, -1
		}
		for j := int64(0); j < int64(e-s); j++ {
			g := grid(uint32(int64(first) + step*j))
			if j == 0 && k > 0 {
				if g != last {
					return nil, fmt.Errorf("worldfile: arc reference %d starts at %v, the previous arc ends at %v", r, g, last)
				}
				continue
			}
			pts = append(pts, orb.Point{float64(g[0])*t.Scale[0] + t.Translate[0], float64(g[1])*t.Scale[1] + t.Translate[1]})
			last = g
		}
	}
	return lonlat.Ring(pts)
}

// Geometry returns feature f's polygons in lon/lat, each ring repaired for
// planar tests and closed, exterior rings counter-clockwise and holes
// clockwise (RFC 7946).
func (d *Data) Geometry(f *Feature) (orb.MultiPolygon, error) {
	mp := make(orb.MultiPolygon, 0, len(f.Polygons))
	for _, poly := range f.Polygons {
		p := make(orb.Polygon, 0, len(poly))
		for k, refs := range poly {
			r, err := d.Ring(int(f.Topology), refs)
			if err != nil {
				return nil, fmt.Errorf("feature %s: %w", f.ID, err)
			}
			lonlat.Orient(r, k == 0)
			p = append(p, r)
		}
		mp = append(mp, p)
	}
	return mp, nil
}
