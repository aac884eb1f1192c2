package topojson

import "testing"

// FuzzDecode: Decode never panics, and neither does reading every
// geometry of a topology it accepted.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(small))
	f.Add([]byte(`{"type":"Topology","objects":{"a":{"type":"Polygon","arcs":[[0]]}},"arcs":[[[0,0],[1,0],[1,1],[0,0]]]}`))
	f.Add([]byte(`{"type":"Topology","transform":{"scale":[1,1],"translate":[0,0]},"objects":{"a":{"type":"MultiPolygon","arcs":[[[-1]]]}},"arcs":[[[0,0],[1,0],[0,1],[-1,-1]]]}`))
	f.Add([]byte(`{"type":"Topology","objects":{"a":{"type":"GeometryCollection","geometries":[{"type":"MultiLineString","arcs":[[0,-1]]},{"type":"MultiPoint","coordinates":[[1,2]]}]}},"arcs":[[[0,0],[1,0]]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		topo, err := Decode(data)
		if err != nil {
			return
		}
		var walk func(g *Geometry)
		walk = func(g *Geometry) {
			if polys, err := topo.Polygons(g); err == nil {
				for _, rings := range polys {
					for _, r := range rings {
						for _, p := range r {
							topo.Coordinates(p)
						}
					}
				}
			}
			for _, l := range g.Lines {
				topo.Line(l)
			}
			for _, c := range g.Geometries {
				walk(c)
			}
		}
		for _, g := range topo.Objects {
			walk(g)
		}
	})
}
