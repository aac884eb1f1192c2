package routing

import (
	"fmt"
	"os"

	"github.com/geosvc/geosvc/internal/binfmt"
	"github.com/geosvc/geosvc/routing/cch"
	"github.com/geosvc/geosvc/routing/ch"
	"github.com/geosvc/geosvc/routing/snap"
)

// formatVersion is the routing graph file format version. Bump it whenever
// the layout or the meaning of a section changes. Version 3: a road
// without a name is named by its route numbers as signs write them
// ("I-95 / US-202"), not by its raw ref tag. Version 4: each edge's route
// numbers, destination and exit number (edge.ref, edge.dest, edge.exit)
// for route descriptions. Version 5: edge flags (toll, unpaved, ferry),
// turn kinds (across traffic, U-turn) and the CCH topology of custom
// metrics.
const formatVersion uint32 = 5

// fileMagic starts every routing graph file.
var fileMagic = [8]byte{'G', 'E', 'O', 'S', 'V', 'C', 'R', 'G'}

// FormatVersion returns the graph file format version this build writes
// and reads.
func FormatVersion() uint32 { return formatVersion }

// Save writes the graph to path atomically.
func (g *Graph) Save(path string) error {
	w := binfmt.NewWriter()
	w.AddJSON("meta", g.meta)
	w.AddUint32s("edge.from", g.edgeFrom)
	w.AddUint32s("edge.to", g.edgeTo)
	w.AddUint32s("edge.shapefirst", g.shapeFirst)
	w.AddFloat64s("edge.length", g.edgeLen)
	w.AddUint32s("edge.name", g.edgeName)
	w.AddUint32s("edge.ref", g.edgeRef)
	w.AddUint32s("edge.dest", g.edgeDest)
	w.AddUint32s("edge.exit", g.edgeExit)
	w.AddStrings("names", g.names)
	w.AddUint8s("edge.class", g.edgeClass)
	w.AddStrings("classes", g.classes)
	w.AddUint8s("edge.roadtype", g.edgeRoadType)
	w.AddUint8s("edge.flags", g.edgeFlags)
	w.AddInt32s("edge.node", g.edgeNode)
	w.AddUint32s("node.edge", g.base.nodeEdge)
	w.AddUint32s("node.time", g.base.nodeTime)
	w.AddUint32s("node.dist", g.base.nodeDist)
	w.AddUint32s("turn.first", g.base.turnFirst)
	w.AddUint32s("turn.head", g.base.turnHead)
	w.AddUint32s("turn.ms", g.base.turnMS)
	w.AddUint8s("turn.kind", g.base.turnKind)
	g.cch.Write(w, "cch.")
	for m := chFastest; m <= chShortest; m++ {
		p := "ch." + m.String() + "."
		h := g.h[m]
		w.AddUint32s(p+"order", h.Order)
		w.AddUint32s(p+"upfirst", h.UpFirst)
		w.AddUint32s(p+"uphead", h.UpHead)
		w.AddInt64s(p+"upweight", h.UpWeight)
		w.AddInt32s(p+"upmid", h.UpMid)
		w.AddUint32s(p+"downfirst", h.DownFirst)
		w.AddUint32s(p+"downtail", h.DownTail)
		w.AddInt64s(p+"downweight", h.DownWeight)
		w.AddInt32s(p+"downmid", h.DownMid)
		w.AddInt64s(p+"loop", h.Loop)
		w.AddInt32s(p+"loopmid", h.LoopMid)
	}
	g.snap.AppendTo(w, "snap.")
	return w.WriteFile(path, fileMagic, formatVersion)
}

// Load reads a graph file written by Save. A file of another format
// version, a truncated or a corrupt file gives an error saying so.
func Load(path string) (*Graph, error) {
	f, err := binfmt.Open(path, fileMagic, formatVersion)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("routing: no graph at %s: build one with `geosvc build`: %w", path, err)
		}
		return nil, fmt.Errorf("routing: load %s: %w", path, err)
	}
	g := &Graph{}
	r := sectionReader{f: f}
	if err := f.JSON("meta", &g.meta); err != nil {
		return nil, fmt.Errorf("routing: load %s: %w", path, err)
	}
	g.edgeFrom = r.u32("edge.from")
	g.edgeTo = r.u32("edge.to")
	g.shapeFirst = r.u32("edge.shapefirst")
	g.edgeLen = r.f64("edge.length")
	g.edgeName = r.u32("edge.name")
	g.edgeRef = r.u32("edge.ref")
	g.edgeDest = r.u32("edge.dest")
	g.edgeExit = r.u32("edge.exit")
	g.names = r.strs("names")
	g.edgeClass = r.u8("edge.class")
	g.classes = r.strs("classes")
	g.edgeRoadType = r.u8("edge.roadtype")
	g.edgeFlags = r.u8("edge.flags")
	g.edgeNode = r.i32("edge.node")
	g.base.nodeEdge = r.u32("node.edge")
	g.base.nodeTime = r.u32("node.time")
	g.base.nodeDist = r.u32("node.dist")
	g.base.turnFirst = r.u32("turn.first")
	g.base.turnHead = r.u32("turn.head")
	g.base.turnMS = r.u32("turn.ms")
	g.base.turnKind = r.u8("turn.kind")
	for m := chFastest; m <= chShortest; m++ {
		p := "ch." + m.String() + "."
		h := &ch.Hierarchy{
			UpFirst:    r.u32(p + "upfirst"),
			UpHead:     r.u32(p + "uphead"),
			UpWeight:   r.i64(p + "upweight"),
			UpMid:      r.i32(p + "upmid"),
			DownFirst:  r.u32(p + "downfirst"),
			DownTail:   r.u32(p + "downtail"),
			DownWeight: r.i64(p + "downweight"),
			DownMid:    r.i32(p + "downmid"),
			Loop:       r.i64(p + "loop"),
			LoopMid:    r.i32(p + "loopmid"),
		}
		if err := h.SetOrder(r.u32(p + "order")); err != nil && r.err == nil {
			r.err = fmt.Errorf("%w: %s hierarchy: %v", binfmt.ErrCorrupt, m, err)
		}
		g.h[m] = h
	}
	if r.err != nil {
		return nil, fmt.Errorf("routing: load %s: %w", path, r.err)
	}
	if g.cch, err = cch.ReadTopology(f, "cch."); err != nil {
		return nil, fmt.Errorf("routing: load %s: %w", path, err)
	}
	if g.snap, err = snap.Load(f, "snap."); err != nil {
		return nil, fmt.Errorf("routing: load %s: %w", path, err)
	}
	g.shape = g.snap.Shape()
	if err := g.validate(); err != nil {
		return nil, fmt.Errorf("routing: load %s: %w", path, err)
	}
	g.initPools()
	return g, nil
}

// validate checks the array sizes and index ranges that queries rely on,
// so that a bad file fails here and not in a query.
func (g *Graph) validate() error {
	nE := len(g.edgeFrom)
	n := len(g.base.nodeEdge)
	switch {
	case len(g.edgeTo) != nE, len(g.edgeLen) != nE, len(g.edgeName) != nE, len(g.edgeClass) != nE,
		len(g.edgeRef) != nE, len(g.edgeDest) != nE, len(g.edgeExit) != nE,
		len(g.edgeRoadType) != nE, len(g.edgeFlags) != nE, len(g.shapeFirst) != nE+1, len(g.edgeNode) != 2*nE:
		return fmt.Errorf("%w: edge arrays disagree in length", binfmt.ErrCorrupt)
	case len(g.base.nodeTime) != n, len(g.base.nodeDist) != n, len(g.base.turnFirst) != n+1,
		len(g.base.turnMS) != len(g.base.turnHead), len(g.base.turnKind) != len(g.base.turnHead):
		return fmt.Errorf("%w: node arrays disagree in length", binfmt.ErrCorrupt)
	case int(g.shapeFirst[nE]) != len(g.shape):
		return fmt.Errorf("%w: shape size", binfmt.ErrCorrupt)
	}
	for _, id := range g.base.nodeEdge {
		if int(id) >= 2*nE {
			return fmt.Errorf("%w: node edge out of range", binfmt.ErrCorrupt)
		}
	}
	for _, v := range g.edgeNode {
		if v >= int32(n) {
			return fmt.Errorf("%w: edge node out of range", binfmt.ErrCorrupt)
		}
	}
	for _, h := range g.base.turnHead {
		if int(h) >= n {
			return fmt.Errorf("%w: turn head out of range", binfmt.ErrCorrupt)
		}
	}
	for _, c := range g.edgeClass {
		if int(c) >= len(g.classes) {
			return fmt.Errorf("%w: class out of range", binfmt.ErrCorrupt)
		}
	}
	for _, a := range [][]uint32{g.edgeName, g.edgeRef, g.edgeDest, g.edgeExit} {
		for _, nm := range a {
			if int(nm) >= len(g.names) {
				return fmt.Errorf("%w: name out of range", binfmt.ErrCorrupt)
			}
		}
	}
	if g.cch.Nodes() != n || g.cch.InputArcs() != len(g.base.turnHead) {
		return fmt.Errorf("%w: CCH topology of %d nodes, %d arcs for %d nodes, %d turns", binfmt.ErrCorrupt, g.cch.Nodes(), g.cch.InputArcs(), n, len(g.base.turnHead))
	}
	for m := range g.h {
		if err := g.h[m].Validate(); err != nil || g.h[m].N != n {
			return fmt.Errorf("%w: %s hierarchy: %v", binfmt.ErrCorrupt, chMetric(m), err)
		}
	}
	return nil
}

// sectionReader collects the first error of a series of section reads.
type sectionReader struct {
	f   *binfmt.File
	err error
}

func sectionGet[T any](r *sectionReader, name string, get func(string) ([]T, error)) []T {
	if r.err != nil {
		return nil
	}
	v, err := get(name)
	if err != nil {
		r.err = err
	}
	return v
}

func (r *sectionReader) u32(n string) []uint32  { return sectionGet(r, n, r.f.Uint32s) }
func (r *sectionReader) i32(n string) []int32   { return sectionGet(r, n, r.f.Int32s) }
func (r *sectionReader) i64(n string) []int64   { return sectionGet(r, n, r.f.Int64s) }
func (r *sectionReader) u8(n string) []uint8    { return sectionGet(r, n, r.f.Uint8s) }
func (r *sectionReader) f64(n string) []float64 { return sectionGet(r, n, r.f.Float64s) }
func (r *sectionReader) strs(n string) []string { return sectionGet(r, n, r.f.Strings) }
