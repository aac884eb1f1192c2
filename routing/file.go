package routing

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

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
// metrics. Version 6: one file per part (the graph, the snapping index,
// the CCH topology with its derived arrays, each hierarchy with its
// inverse order), read by memory-mapping; every strongly connected
// component kept, small ones flagged on their edges. Version 7: via-way
// turn restrictions as copies of edge-based nodes, the last meta.copies
// nodes (each on its original's directed edge). Version 8: what each
// edge's tags say to trucks (edge.truck: hgv access per direction and
// hazmat bans; truck.edges and truck.limits: the height, width, length,
// weight and axle-load limits of the edges that have any). Version 9: the
// OSM node id of every shape point (shape.osmnode), which segment speed
// data names road segments by; the edgeLeftHand flag of edge.flags (the
// road's country keeps left). Version 10: the edgeBridge and edgeTunnel
// flags and each edge's layer=* (edge.layer), which vector tiles carry.
// Version 11: the street names in other languages (names.langs,
// names.local.*: OSM's name:xx of the names of the name table).
// Version 12: conditional turn restrictions (turn.cond: the turns they
// close and when, turncond.go); the hierarchies leave out the turns
// closed without a time.
const formatVersion uint32 = 12

// fileMagic starts every routing graph file.
var fileMagic = [8]byte{'G', 'E', 'O', 'S', 'V', 'C', 'R', 'G'}

// The files of a routing graph in a directory: FileName holds the graph
// itself (roads, names, the edge-based graph), the others its snapping
// index, its CCH topology and its two hierarchies.
const (
	// FileName is the routing graph's main file.
	FileName     = "routing.graph"
	snapFile     = "routing.snap"
	cchFile      = "routing.cch"
	fastestFile  = "routing.fastest"
	shortestFile = "routing.shortest"
)

// hierarchyFile is the file of each metric's hierarchy.
var hierarchyFile = [2]string{chFastest: fastestFile, chShortest: shortestFile}

// Files returns the file names of a routing graph in its directory, the
// main file first (a bundle's manifest lists them).
func Files() []string { return []string{FileName, snapFile, cchFile, fastestFile, shortestFile} }

// FormatVersion returns the graph file format version this build writes
// and reads.
func FormatVersion() uint32 { return formatVersion }

// partSink collects a part's sections.
type partSink = *binfmt.Writer

func newPartSink() partSink { return binfmt.NewWriter() }

// Save writes the graph into dir, one file per part (Files), each
// atomically.
func (g *Graph) Save(dir string) error {
	p := &partWriter{dir: dir}
	for _, part := range []struct {
		name string
		add  func(w partSink)
	}{
		{FileName, g.writeBase},
		{snapFile, g.writeSnap},
		{cchFile, g.writeCCH},
		{fastestFile, func(w partSink) { g.writeHierarchy(w, chFastest) }},
		{shortestFile, func(w partSink) { g.writeHierarchy(w, chShortest) }},
	} {
		if _, err := p.write(part.name, part.add, nil); err != nil {
			return err
		}
	}
	return nil
}

// partWriter writes the parts of a graph into a directory; without one
// it writes nothing.
type partWriter struct {
	dir string
}

// write writes one part, whose sections add gives, into the directory's
// file name, then calls reread with the file opened again (memory-mapped)
// and returns it: a build points its arrays at the file's and lets the
// heap copies go.
func (p *partWriter) write(name string, add func(w partSink), reread func(f *binfmt.File) error) (*binfmt.File, error) {
	if p.dir == "" {
		return nil, nil
	}
	w := newPartSink()
	add(w)
	path := filepath.Join(p.dir, name)
	if err := w.WriteFile(path, fileMagic, formatVersion); err != nil {
		return nil, fmt.Errorf("routing: write %s: %w", name, err)
	}
	if reread == nil {
		return nil, nil
	}
	f, err := binfmt.Open(path, fileMagic, formatVersion)
	if err != nil {
		return nil, fmt.Errorf("routing: reread %s: %w", name, err)
	}
	if err := reread(f); err != nil {
		return nil, fmt.Errorf("routing: reread %s: %w", name, err)
	}
	return f, nil
}

// writeBase adds the graph's own sections: meta, roads, names, the
// edge-based graph.
func (g *Graph) writeBase(w partSink) {
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
	g.writeLocalNames(w)
	w.AddUint8s("edge.class", g.edgeClass)
	w.AddStrings("classes", g.classes)
	w.AddUint8s("edge.roadtype", g.edgeRoadType)
	w.AddUint8s("edge.flags", g.edgeFlags)
	w.AddUint8s("edge.layer", g.edgeLayer)
	w.AddInt32s("edge.node", g.edgeNode)
	w.AddUint32s("node.edge", g.base.nodeEdge)
	w.AddUint32s("node.time", g.base.nodeTime)
	w.AddUint32s("node.dist", g.base.nodeDist)
	w.AddUint32s("turn.first", g.base.turnFirst)
	w.AddUint32s("turn.head", g.base.turnHead)
	w.AddUint32s("turn.ms", g.base.turnMS)
	w.AddUint8s("turn.kind", g.base.turnKind)
	w.AddInt64s("shape.osmnode", g.shapeNode)
	tc := g.tc
	if tc == nil {
		tc = &turnConds{}
	}
	w.AddJSON("turn.cond", tc)
	g.writeTruck(w)
}

// writeSnap adds the snapping index.
func (g *Graph) writeSnap(w partSink) { g.snap.AppendTo(w, "snap.") }

// writeCCH adds the CCH topology with its derived arrays.
func (g *Graph) writeCCH(w partSink) { g.cch.Write(w, "cch.") }

// writeHierarchy adds metric m's hierarchy.
func (g *Graph) writeHierarchy(w partSink, m chMetric) {
	h := g.h[m]
	w.AddUint32s("ch.order", h.Order)
	w.AddUint32s("ch.orig", h.Orig())
	w.AddUint32s("ch.upfirst", h.UpFirst)
	w.AddUint32s("ch.uphead", h.UpHead)
	w.AddInt64s("ch.upweight", h.UpWeight)
	w.AddInt32s("ch.upmid", h.UpMid)
	w.AddUint32s("ch.downfirst", h.DownFirst)
	w.AddUint32s("ch.downtail", h.DownTail)
	w.AddInt64s("ch.downweight", h.DownWeight)
	w.AddInt32s("ch.downmid", h.DownMid)
	w.AddInt64s("ch.loop", h.Loop)
	w.AddInt32s("ch.loopmid", h.LoopMid)
}

// Load opens the routing graph written into dir by Build or Save. Its
// files are memory-mapped: the graph's arrays alias them, nothing is
// decoded or rebuilt, and processes on one machine share the pages. A
// missing file, one of another format version, a truncated or a corrupt
// one gives an error saying so. Load checks the sizes queries rely on;
// the content is guarded by the files' checksums, which it verifies.
func Load(dir string) (*Graph, error) {
	g, err := LoadDeferred(dir)
	if err != nil {
		return nil, err
	}
	if err := g.Verify(); err != nil {
		return nil, err
	}
	return g, nil
}

// LoadDeferred is Load without verifying the files' checksums, which
// takes reading every byte: Verify does it later (a server starts
// answering meanwhile and stops if a file is corrupt). A truncated file,
// one of another version or of another graph still fails here.
func LoadDeferred(dir string) (*Graph, error) {
	g := &Graph{}
	open := func(name string) (*binfmt.File, error) {
		f, err := binfmt.OpenDeferred(filepath.Join(dir, name), fileMagic, formatVersion)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("routing: no graph in %s (%s missing): build one with `geosvc build`: %w", dir, name, err)
			}
			return nil, fmt.Errorf("routing: load %s: %w", name, err)
		}
		g.files = append(g.files, f)
		return f, nil
	}
	f, err := open(FileName)
	if err != nil {
		return nil, err
	}
	if err := g.readBase(f); err != nil {
		return nil, fmt.Errorf("routing: load %s: %w", FileName, err)
	}
	if f, err = open(snapFile); err != nil {
		return nil, err
	}
	if g.snap, err = snap.Load(f, "snap."); err != nil {
		return nil, fmt.Errorf("routing: load %s: %w", snapFile, err)
	}
	g.shape = g.snap.Shape()
	if f, err = open(cchFile); err != nil {
		return nil, err
	}
	if g.cch, err = cch.ReadTopology(f, "cch."); err != nil {
		return nil, fmt.Errorf("routing: load %s: %w", cchFile, err)
	}
	for m := chFastest; m <= chShortest; m++ {
		if f, err = open(hierarchyFile[m]); err != nil {
			return nil, err
		}
		if g.h[m], err = readHierarchy(f); err != nil {
			return nil, fmt.Errorf("routing: load %s: %w", hierarchyFile[m], err)
		}
	}
	if err := g.checkSizes(); err != nil {
		return nil, fmt.Errorf("routing: load %s: %w", dir, err)
	}
	g.initPools()
	return g, nil
}

// Verify verifies the checksums of the graph's files (once; later calls
// return the first answer): a corrupt file is an error naming it.
func (g *Graph) Verify() error {
	for _, f := range g.files {
		if err := f.Verify(); err != nil {
			return fmt.Errorf("routing: %w", err)
		}
	}
	return nil
}

// Release lets the pages of the graph's files leave the process's
// resident set (after a newer bundle took over); a query that still runs
// reads them again from the files.
func (g *Graph) Release() {
	for _, f := range g.files {
		f.Release()
	}
}

// readBase reads the graph's own sections.
func (g *Graph) readBase(f *binfmt.File) error {
	if err := f.JSON("meta", &g.meta); err != nil {
		return err
	}
	r := sectionReader{f: f}
	g.edgeFrom = r.u32("edge.from")
	g.edgeTo = r.u32("edge.to")
	g.shapeFirst = r.u32("edge.shapefirst")
	g.edgeLen = r.f64("edge.length")
	g.edgeName = r.u32("edge.name")
	g.edgeRef = r.u32("edge.ref")
	g.edgeDest = r.u32("edge.dest")
	g.edgeExit = r.u32("edge.exit")
	g.names = r.strs("names")
	g.readLocalNames(&r)
	g.edgeClass = r.u8("edge.class")
	g.classes = r.strs("classes")
	g.edgeRoadType = r.u8("edge.roadtype")
	g.edgeFlags = r.u8("edge.flags")
	g.edgeLayer = r.u8("edge.layer")
	g.edgeNode = r.i32("edge.node")
	g.base.nodeEdge = r.u32("node.edge")
	g.base.nodeTime = r.u32("node.time")
	g.base.nodeDist = r.u32("node.dist")
	g.base.turnFirst = r.u32("turn.first")
	g.base.turnHead = r.u32("turn.head")
	g.base.turnMS = r.u32("turn.ms")
	g.base.turnKind = r.u8("turn.kind")
	g.shapeNode = r.i64("shape.osmnode")
	g.readTruck(&r)
	if r.err != nil {
		return r.err
	}
	var tc turnConds
	if err := f.JSON("turn.cond", &tc); err != nil {
		return err
	}
	g.tc = nil
	if len(tc.Arcs) > 0 {
		if err := tc.init(len(g.base.turnHead)); err != nil {
			return fmt.Errorf("%w: %v", binfmt.ErrCorrupt, err)
		}
		g.tc = &tc
	}
	return nil
}

// readHierarchy reads a hierarchy written by writeHierarchy.
func readHierarchy(f *binfmt.File) (*ch.Hierarchy, error) {
	r := sectionReader{f: f}
	h := &ch.Hierarchy{
		UpFirst:    r.u32("ch.upfirst"),
		UpHead:     r.u32("ch.uphead"),
		UpWeight:   r.i64("ch.upweight"),
		UpMid:      r.i32("ch.upmid"),
		DownFirst:  r.u32("ch.downfirst"),
		DownTail:   r.u32("ch.downtail"),
		DownWeight: r.i64("ch.downweight"),
		DownMid:    r.i32("ch.downmid"),
		Loop:       r.i64("ch.loop"),
		LoopMid:    r.i32("ch.loopmid"),
	}
	order, orig := r.u32("ch.order"), r.u32("ch.orig")
	if r.err != nil {
		return nil, r.err
	}
	if err := h.SetOrderInverse(order, orig); err != nil {
		return nil, fmt.Errorf("%w: %v", binfmt.ErrCorrupt, err)
	}
	return h, nil
}

// checkSizes checks that the arrays of the graph's parts agree in size,
// so that a file of another graph fails here and not in a query. It
// reads no array (the files stay unread until queries need them).
func (g *Graph) checkSizes() error {
	nE := len(g.edgeFrom)
	n := len(g.base.nodeEdge)
	switch {
	case len(g.edgeTo) != nE, len(g.edgeLen) != nE, len(g.edgeName) != nE, len(g.edgeClass) != nE,
		len(g.edgeRef) != nE, len(g.edgeDest) != nE, len(g.edgeExit) != nE,
		len(g.edgeRoadType) != nE, len(g.edgeFlags) != nE, len(g.edgeLayer) != nE, len(g.shapeFirst) != nE+1, len(g.edgeNode) != 2*nE:
		return fmt.Errorf("%w: edge arrays disagree in length", binfmt.ErrCorrupt)
	case len(g.base.nodeTime) != n, len(g.base.nodeDist) != n, len(g.base.turnFirst) != n+1,
		len(g.base.turnMS) != len(g.base.turnHead), len(g.base.turnKind) != len(g.base.turnHead):
		return fmt.Errorf("%w: node arrays disagree in length", binfmt.ErrCorrupt)
	case int(g.shapeFirst[nE]) != len(g.shape):
		return fmt.Errorf("%w: the snapping index's shape is not the graph's", binfmt.ErrCorrupt)
	case len(g.shapeNode) != 0 && len(g.shapeNode) != len(g.shape):
		return fmt.Errorf("%w: %d shape node ids for %d shape points", binfmt.ErrCorrupt, len(g.shapeNode), len(g.shape))
	case g.meta.Copies < 0 || g.meta.Copies > n:
		return fmt.Errorf("%w: meta says %d node copies of %d nodes", binfmt.ErrCorrupt, g.meta.Copies, n)
	case g.meta.Nodes != n || g.meta.Edges != nE:
		return fmt.Errorf("%w: meta says %d nodes, %d edges; the arrays hold %d, %d", binfmt.ErrCorrupt, g.meta.Nodes, g.meta.Edges, n, nE)
	}
	if err := g.checkTruck(); err != nil {
		return err
	}
	if err := g.checkLocalNames(); err != nil {
		return err
	}
	if g.cch.Nodes() != n || g.cch.InputArcs() != len(g.base.turnHead) {
		return fmt.Errorf("%w: CCH topology of %d nodes, %d arcs for %d nodes, %d turns", binfmt.ErrCorrupt, g.cch.Nodes(), g.cch.InputArcs(), n, len(g.base.turnHead))
	}
	for m := range g.h {
		if err := g.h[m].CheckSizes(); err != nil || g.h[m].N != n {
			return fmt.Errorf("%w: %s hierarchy: %v", binfmt.ErrCorrupt, chMetric(m), err)
		}
	}
	return nil
}

// validate checks every index the queries follow (a build's self-check,
// and the tests'): it reads the whole graph.
func (g *Graph) validate() error {
	if err := g.checkSizes(); err != nil {
		return err
	}
	nE := len(g.edgeFrom)
	n := len(g.base.nodeEdge)
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
	if err := g.validateTruck(); err != nil {
		return err
	}
	if err := g.validateLocalNames(); err != nil {
		return err
	}
	for m := range g.h {
		if err := g.h[m].Validate(); err != nil {
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

// hierarchyFrom turns a hierarchy derived by the CCH into package ch's.
func hierarchyFrom(x *cch.Hierarchy) (*ch.Hierarchy, error) {
	h := &ch.Hierarchy{
		UpFirst: x.UpFirst, UpHead: x.UpHead, UpWeight: x.UpWeight, UpMid: x.UpMid,
		DownFirst: x.DownFirst, DownTail: x.DownTail, DownWeight: x.DownWeight, DownMid: x.DownMid,
		Loop: x.Loop, LoopMid: x.LoopMid,
	}
	if err := h.SetOrder(x.Order); err != nil {
		return nil, err
	}
	return h, nil
}
