// Package worldfile owns the format of geo/world's embedded file,
// world.bin: a binfmt container holding the sources' TopoJSON topologies
// as they are (shared arcs on each source's quantization grid, stored once
// as zigzag varint deltas) and the features as references to those arcs,
// with their final ids and names. It also turns a feature's references
// back into lon/lat polygons ready for planar tests.
//
// Sections: "meta" (JSON: the sources, for attribution); per topology t
// (0, 1, ...) "t<t>.transform" (float64 scale x, scale y, translate x,
// translate y), "t<t>.arc_len" (uint32 points per arc) and "t<t>.arcs"
// (uint8: per arc, the first grid position then the deltas of the next
// ones, each coordinate a zigzag varint); per feature "f.kind", "f.topo"
// (uint8), "f.id", "f.iso2", "f.name" (strings) and "f.poly" (uint32:
// feature -> first polygon, one more entry than features); "p.ring"
// (uint32: polygon -> first ring), "r.ref" (uint32: ring -> first
// reference) and "refs" (int32 arc references, ^i for arc i reversed).
package worldfile

// Magic identifies the file; Version is its format version.
var Magic = [8]byte{'G', 'E', 'O', 'W', 'O', 'R', 'L', 'D'}

// Version is the format version; bump it on any change of the layout.
const Version = 1

// Feature kinds as stored.
const (
	KindCountry uint8 = iota + 1
	KindState
	KindCounty
)

// Source describes one input topology, for attribution and provenance.
type Source struct {
	// Name is the source's short name: "naturalearth" or "census".
	Name string `json:"name"`
	// Data says what the data is, e.g. "Natural Earth 4.1.0 Admin 0 -
	// Countries, 1:10m".
	Data string `json:"data"`
	// DataLicense is the data's licence ("public domain").
	DataLicense string `json:"data_license"`
	// Package and Version name the npm package the file came from.
	Package string `json:"package"`
	Version string `json:"version"`
	// PackageLicense is the package's licence ("ISC").
	PackageLicense string `json:"package_license"`
	// File is the file of the package read, SHA256 its hex digest.
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// Topology is one source's arcs on its quantization grid.
type Topology struct {
	Source Source
	// Scale and Translate map grid positions to lon/lat:
	// lon = x*Scale[0]+Translate[0], lat = y*Scale[1]+Translate[1].
	Scale, Translate [2]float64
	// ArcStart[i] is arc i's first point in XY; one more entry than arcs.
	ArcStart []uint32
	// XY holds the grid positions, x then y, of every arc's points.
	XY []int32
}

// Arcs returns the number of arcs.
func (t *Topology) Arcs() int { return len(t.ArcStart) - 1 }

// Feature is one feature as stored.
type Feature struct {
	// Kind is KindCountry, KindState or KindCounty.
	Kind uint8
	// Topology is the index of the topology the references name.
	Topology uint8
	// ID, ISO2 and Name are the final ones (see geo/world's Feature).
	ID   string
	ISO2 string
	Name string
	// Polygons holds per polygon, per ring (exterior first), the arc
	// references whose arcs joined make the ring.
	Polygons [][][]int32
}

// Data is the whole file.
type Data struct {
	Topologies []Topology
	Features   []Feature
}
