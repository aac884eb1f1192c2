package osmfile

import (
	"bufio"
	"compress/bzip2"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/paulmach/osm"
	"github.com/paulmach/osm/osmpbf"
	"github.com/paulmach/osm/osmxml"
)

// Filter selects what one pass of Scan reads.
type Filter struct {
	// SkipNodes, SkipWays and SkipRelations leave out a whole element
	// type; in a PBF file the blocks of that type are not even decoded.
	SkipNodes, SkipWays, SkipRelations bool
	// Node, Way and Relation, when set, keep only the objects they return
	// true for. In a PBF pass they run on the decoder goroutines,
	// concurrently: they must be safe for concurrent use (reading maps
	// built before the pass is).
	Node     func(*osm.Node) bool
	Way      func(*osm.Way) bool
	Relation func(*osm.Relation) bool
}

// Header is what a file says about itself.
type Header struct {
	// Timestamp is the replication timestamp of a PBF header, zero when
	// the file has none (XML files).
	Timestamp time.Time
	// Bounds is the bounding box the PBF header declares, nil when none.
	Bounds *osm.Bounds
}

// File is an OSM file opened for scanning. Each Scan reads it from the
// start.
type File struct {
	path   string
	format Format
}

// fileID identifies a file's content well enough to remember that it was
// checked: its absolute path, size and modification time.
type fileID struct {
	path  string
	size  int64
	mtime int64
}

// verified holds the fileIDs of the PBF files a complete gated pass found
// free of plain nodes, in this process: later passes over them, from any
// File, skip the gate (which decompresses every block a second time, on
// the goroutine that feeds the decoders).
var verified sync.Map

// gatedPasses counts the passes that went through the gate (tests).
var gatedPasses atomic.Int64

// idOf returns the fileID of the open file r found at path.
func idOf(path string, r *os.File) (fileID, bool) {
	st, err := r.Stat()
	if err != nil {
		return fileID{}, false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return fileID{}, false
	}
	return fileID{path: abs, size: st.Size(), mtime: st.ModTime().UnixNano()}, true
}

// Open checks that the file at path exists and is an OSM file of a format
// the package reads (by content, else by name).
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("osmfile: %w", err)
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	format := DetectFormat(path, head[:n])
	if format == FormatUnknown {
		return nil, fmt.Errorf("osmfile: %s: not an OSM file (want .osm.pbf, .osm, .osm.bz2 or .osm.gz)", path)
	}
	return &File{path: path, format: format}, nil
}

// Path returns the file's path as given to Open.
func (f *File) Path() string { return f.path }

// Name returns the file's base name.
func (f *File) Name() string { return filepath.Base(f.path) }

// Format returns the file's format.
func (f *File) Format() Format { return f.format }

// Scan reads the file once, in file order, and calls fn on one goroutine
// for every object the filter keeps. fn must not keep the object's Tags or
// member slices beyond the call unless it owns them (objects are not
// reused, so keeping them is safe, only costly). An error from fn stops
// the pass and is returned; so is a decoding error, or ErrPlainNodes.
//
// A PBF file passes the gate (GatePBF) until one pass has read it whole
// without error in this process: the gate sees every block whatever the
// filter skips, so the file, unchanged since (same path, size and
// modification time), is not checked again.
func (f *File) Scan(filter Filter, fn func(osm.Object) error) (Header, error) {
	r, err := os.Open(f.path)
	if err != nil {
		return Header{}, fmt.Errorf("osmfile: %w", err)
	}
	defer r.Close()
	id, known := idOf(f.path, r)
	gate := true
	if known {
		_, done := verified.Load(id)
		gate = !done
	}
	if gate && f.format == FormatPBF {
		gatedPasses.Add(1)
	}
	h, err := scan(r, f.format, filter, fn, gate)
	if err != nil {
		return h, fmt.Errorf("osmfile: %s: %w", f.Name(), err)
	}
	if f.format == FormatPBF && gate && known {
		verified.Store(id, true)
	}
	return h, nil
}

// ScanReader is Scan on a stream of the given format (always gated).
func ScanReader(r io.Reader, format Format, filter Filter, fn func(osm.Object) error) (Header, error) {
	h, err := scan(r, format, filter, fn, true)
	if err != nil {
		return h, fmt.Errorf("osmfile: %w", err)
	}
	return h, nil
}

func scan(r io.Reader, format Format, filter Filter, fn func(osm.Object) error, gate bool) (h Header, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("import failed: %v", p)
		}
	}()
	switch {
	case format == FormatPBF:
		return scanPBF(r, filter, fn, gate)
	case format.IsXML():
		xr, closeFn, err := XMLReader(r, format)
		if err != nil {
			return h, err
		}
		defer closeFn()
		return h, scanXML(xr, filter, fn)
	}
	return h, fmt.Errorf("cannot read format %v", format)
}

func scanPBF(r io.Reader, filter Filter, fn func(osm.Object) error, gate bool) (Header, error) {
	var h Header
	src := io.Reader(bufio.NewReaderSize(r, 1<<16))
	if gate {
		src = GatePBF(src)
	}
	s := osmpbf.New(context.Background(), src, runtime.GOMAXPROCS(0))
	defer s.Close()
	s.SkipNodes, s.SkipWays, s.SkipRelations = filter.SkipNodes, filter.SkipWays, filter.SkipRelations
	s.FilterNode, s.FilterWay, s.FilterRelation = filter.Node, filter.Way, filter.Relation
	hdr, err := s.Header()
	if err != nil {
		return h, err
	}
	if hdr != nil {
		h.Timestamp = hdr.ReplicationTimestamp.UTC()
		if hdr.ReplicationTimestamp.IsZero() {
			h.Timestamp = time.Time{}
		}
		h.Bounds = hdr.Bounds
	}
	for s.Scan() {
		if err := fn(s.Object()); err != nil {
			return h, err
		}
	}
	return h, s.Err()
}

func scanXML(r io.Reader, filter Filter, fn func(osm.Object) error) error {
	s := osmxml.New(context.Background(), bufio.NewReaderSize(r, 1<<16))
	defer s.Close()
	for s.Scan() {
		var keep bool
		switch o := s.Object().(type) {
		case *osm.Node:
			keep = !filter.SkipNodes && (filter.Node == nil || filter.Node(o))
		case *osm.Way:
			keep = !filter.SkipWays && (filter.Way == nil || filter.Way(o))
		case *osm.Relation:
			keep = !filter.SkipRelations && (filter.Relation == nil || filter.Relation(o))
		}
		if keep {
			if err := fn(s.Object()); err != nil {
				return err
			}
		}
	}
	return s.Err()
}

// XMLReader returns the OSM XML inside r, decompressed as format says
// (bzip2 on a second goroutine, so that decompression and parsing use two
// cores), and a function that releases it.
func XMLReader(r io.Reader, format Format) (io.Reader, func(), error) {
	switch format {
	case FormatXML:
		return r, func() {}, nil
	case FormatXMLBzip2:
		ar := newAsyncReader(bzip2.NewReader(bufio.NewReaderSize(r, 1<<16)))
		return ar, ar.Close, nil
	case FormatXMLGzip:
		gz, err := gzip.NewReader(r)
		if err != nil {
			return nil, nil, err
		}
		return gz, func() { gz.Close() }, nil
	}
	return nil, nil, fmt.Errorf("format %v is not OSM XML", format)
}

// asyncReader reads its source ahead in a goroutine of its own, in
// chunks, so that decompression and parsing use two cores.
type asyncReader struct {
	chunks chan []byte
	free   chan []byte
	done   chan struct{}
	buf    []byte // the chunk being read, whole
	cur    []byte // its unread rest
	err    error
	srcErr error // set by the goroutine before it closes chunks
}

const asyncChunk = 256 << 10

func newAsyncReader(src io.Reader) *asyncReader {
	a := &asyncReader{chunks: make(chan []byte, 4), free: make(chan []byte, 5), done: make(chan struct{})}
	for range 5 {
		a.free <- make([]byte, asyncChunk)
	}
	go func() {
		defer close(a.chunks)
		defer func() {
			if r := recover(); r != nil {
				a.srcErr = fmt.Errorf("decompression failed: %v", r)
			}
		}()
		for {
			var buf []byte
			select {
			case buf = <-a.free:
			case <-a.done:
				return
			}
			n, err := io.ReadFull(src, buf[:cap(buf)])
			if n > 0 {
				select {
				case a.chunks <- buf[:n]:
				case <-a.done:
					return
				}
			}
			if err != nil {
				if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
					a.srcErr = err
				}
				return
			}
		}
	}()
	return a
}

// Read implements io.Reader.
func (a *asyncReader) Read(p []byte) (int, error) {
	for len(a.cur) == 0 {
		if a.err != nil {
			return 0, a.err
		}
		if a.buf != nil {
			a.free <- a.buf[:cap(a.buf)]
			a.buf = nil
		}
		c, ok := <-a.chunks
		if !ok {
			a.err = a.srcErr
			if a.err == nil {
				a.err = io.EOF
			}
			return 0, a.err
		}
		a.buf, a.cur = c, c
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}

// Close stops the read-ahead goroutine.
func (a *asyncReader) Close() { close(a.done) }
