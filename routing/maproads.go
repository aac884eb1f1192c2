package routing

import (
	"math"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/profile"
)

// mapCell is the side in degrees of the cells of the map road index.
const mapCell = 0.02

// mapIndex lists the road edges by the grid cells their shapes' bounds
// touch, for drawing maps without scanning every edge.
type mapIndex struct {
	x0, y0 float64
	nx, ny int
	first  []uint32 // cell c's edges are edges[first[c]:first[c+1]]
	edges  []uint32
}

func (g *Graph) buildMapIndex() *mapIndex {
	b := g.Bounds()
	ix := &mapIndex{x0: b.Min[0], y0: b.Min[1]}
	ix.nx = max(1, int(math.Ceil((b.Max[0]-b.Min[0])/mapCell))+1)
	ix.ny = max(1, int(math.Ceil((b.Max[1]-b.Min[1])/mapCell))+1)
	n := len(g.shapeFirst) - 1
	count := make([]uint32, ix.nx*ix.ny+1)
	cells := func(e int, fn func(c int)) {
		shape := g.edgeShape(uint32(e))
		if len(shape) < 2 {
			return
		}
		eb := orb.LineString(shape).Bound()
		cx0, cy0 := ix.cell(eb.Min)
		cx1, cy1 := ix.cell(eb.Max)
		for cy := cy0; cy <= cy1; cy++ {
			for cx := cx0; cx <= cx1; cx++ {
				fn(cy*ix.nx + cx)
			}
		}
	}
	for e := 0; e < n; e++ {
		cells(e, func(c int) { count[c+1]++ })
	}
	for c := 1; c < len(count); c++ {
		count[c] += count[c-1]
	}
	ix.first = append([]uint32(nil), count...)
	ix.edges = make([]uint32, count[len(count)-1])
	for e := 0; e < n; e++ {
		cells(e, func(c int) {
			ix.edges[count[c]] = uint32(e)
			count[c]++
		})
	}
	return ix
}

// cell returns the (clamped) cell of p.
func (ix *mapIndex) cell(p orb.Point) (int, int) {
	cx := int(math.Floor((p[0] - ix.x0) / mapCell))
	cy := int(math.Floor((p[1] - ix.y0) / mapCell))
	return min(max(cx, 0), ix.nx-1), min(max(cy, 0), ix.ny-1)
}

// MapRoad is a road edge as a map shows it.
type MapRoad struct {
	// Shape is the edge's geometry, lon/lat (read-only: it aliases the
	// graph).
	Shape []orb.Point
	// Type is the SOAP road type; Class the OSM highway value (or
	// "ferry").
	Type  profile.RoadType
	Class string
	// Name is the display name, Ref the route numbers ("" when
	// untagged).
	Name, Ref string
	// Oneway is 1 when cars may drive the edge along Shape only, -1 when
	// against it only, 0 both ways (or neither).
	Oneway int8
	// Bridge and Tunnel: the way is one; Layer its OSM layer=*.
	Bridge, Tunnel bool
	Layer          int8
}

// MapRoads calls fn once with the shape, road type and display name of
// every road edge whose shape's bounding box intersects b, for drawing
// maps; a grid index built on the first call keeps this proportional to
// the roads near b.
func (g *Graph) MapRoads(b orb.Bound, fn func(shape []orb.Point, rt profile.RoadType, name string)) {
	g.MapRoadDetails(b, func(r MapRoad) { fn(r.Shape, r.Type, r.Name) })
}

// MapRoadDetails is MapRoads with each edge's class, route numbers and
// one-way direction (vector tiles carry them).
func (g *Graph) MapRoadDetails(b orb.Bound, fn func(MapRoad)) {
	g.mapOnce.Do(func() { g.mapIx = g.buildMapIndex() })
	ix := g.mapIx
	gb := g.Bounds()
	if len(ix.edges) == 0 || !gb.Intersects(b) {
		return
	}
	cx0, cy0 := ix.cell(b.Min)
	cx1, cy1 := ix.cell(b.Max)
	seen := map[uint32]bool{}
	multi := cx1 > cx0 || cy1 > cy0
	for cy := cy0; cy <= cy1; cy++ {
		for cx := cx0; cx <= cx1; cx++ {
			c := cy*ix.nx + cx
			for _, e := range ix.edges[ix.first[c]:ix.first[c+1]] {
				if multi {
					if seen[e] {
						continue
					}
					seen[e] = true
				}
				shape := g.edgeShape(e)
				if !orb.LineString(shape).Bound().Intersects(b) {
					continue
				}
				r := MapRoad{Shape: shape, Type: profile.RoadType(g.edgeRoadType[e]), Name: g.names[g.edgeName[e]], Ref: g.signText(g.edgeRef, e)}
				if int(g.edgeClass[e]) < len(g.classes) {
					r.Class = g.classes[g.edgeClass[e]]
				}
				r.Bridge, r.Tunnel = g.edgeFlags[e]&edgeBridge != 0, g.edgeFlags[e]&edgeTunnel != 0
				if int(e) < len(g.edgeLayer) {
					r.Layer = int8(g.edgeLayer[e])
				}
				fwd, bwd := g.edgeNode[directedID(e, 0)] >= 0, g.edgeNode[directedID(e, 1)] >= 0
				switch {
				case fwd && !bwd:
					r.Oneway = 1
				case bwd && !fwd:
					r.Oneway = -1
				}
				fn(r)
			}
		}
	}
}
