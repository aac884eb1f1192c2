// Package topojson decodes TopoJSON topologies
// (https://github.com/topojson/topojson-specification): the shared arcs,
// delta-decoded when the topology is quantized, and the objects'
// geometries as references to those arcs. It knows the format only; what
// the geometries mean is the caller's business.
//
// Decode validates everything a later call relies on (arc indexes in
// range, positions of two or more finite numbers, integer positions in a
// quantized topology), so that no method panics on a topology Decode
// accepted, whatever bytes it was given.
package topojson

// Position is an arc position: for a quantized topology (Transform not
// nil), the absolute position on the integer grid after delta decoding;
// otherwise the coordinates as written.
type Position [2]float64

// Transform maps grid positions of a quantized topology to coordinates:
// x*Scale[0]+Translate[0], y*Scale[1]+Translate[1].
type Transform struct {
	Scale     [2]float64
	Translate [2]float64
}

// Apply returns the coordinates of grid position p.
func (t *Transform) Apply(p Position) Position {
	return Position{p[0]*t.Scale[0] + t.Translate[0], p[1]*t.Scale[1] + t.Translate[1]}
}

// Topology is a decoded TopoJSON topology.
type Topology struct {
	// BBox is the topology's bbox member, nil when absent.
	BBox []float64
	// Transform is nil for a topology that is not quantized.
	Transform *Transform
	// Arcs are the shared arcs, each of two or more positions.
	Arcs [][]Position
	// Objects are the named top-level geometries.
	Objects map[string]*Geometry
}

// Geometry types.
const (
	TypePoint              = "Point"
	TypeMultiPoint         = "MultiPoint"
	TypeLineString         = "LineString"
	TypeMultiLineString    = "MultiLineString"
	TypePolygon            = "Polygon"
	TypeMultiPolygon       = "MultiPolygon"
	TypeGeometryCollection = "GeometryCollection"
)

// Geometry is a TopoJSON geometry object. Arc references follow the
// specification: i is arc i, a negative reference ^i (that is -i-1) is arc
// i reversed.
type Geometry struct {
	// Type is one of the Type constants, or "" for a null geometry.
	Type string
	// ID is the id member: a string as written, a number in its JSON
	// spelling ("840"), "" when absent.
	ID string
	// Properties is the properties member, nil when absent.
	Properties map[string]any
	// Polygons holds the arc references of a Polygon (one polygon) or a
	// MultiPolygon: per polygon, per ring (the first the exterior), the
	// references whose arcs joined make the ring.
	Polygons [][][]int
	// Lines holds the arc references of a LineString (one line) or a
	// MultiLineString.
	Lines [][]int
	// Points holds the position of a Point (one) or the positions of a
	// MultiPoint, on the grid when the topology is quantized (points are
	// not delta-encoded).
	Points []Position
	// Geometries are the members of a GeometryCollection.
	Geometries []*Geometry
}

// StringProperty returns the property key when it is a string, else "".
func (g *Geometry) StringProperty(key string) string {
	s, _ := g.Properties[key].(string)
	return s
}
