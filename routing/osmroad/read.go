package osmroad

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/paulmach/osm"
	"github.com/paulmach/osm/osmpbf"
	"github.com/paulmach/osm/osmxml"

	"github.com/geosvc/geosvc/routing/profile"
)

// Format is an OSM file format.
type Format uint8

// Formats Read understands.
const (
	// FormatUnknown is no format Read understands.
	FormatUnknown Format = iota
	// FormatPBF is the OSM protobuf format (.osm.pbf).
	FormatPBF
	// FormatXML is plain OSM XML (.osm, .xml).
	FormatXML
	// FormatXMLBzip2 is bzip2-compressed OSM XML (.osm.bz2).
	FormatXMLBzip2
	// FormatXMLGzip is gzip-compressed OSM XML (.osm.gz).
	FormatXMLGzip
)

// String names the format.
func (f Format) String() string {
	switch f {
	case FormatPBF:
		return "pbf"
	case FormatXML:
		return "osm-xml"
	case FormatXMLBzip2:
		return "osm-xml+bzip2"
	case FormatXMLGzip:
		return "osm-xml+gzip"
	}
	return "unknown"
}

// DetectFormat tells the format of an OSM file from its first bytes (head,
// at least 16 of them when the file has them) and, when the bytes say
// nothing, from its name.
func DetectFormat(name string, head []byte) Format {
	trimmed := bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	switch {
	case bytes.HasPrefix(head, []byte("BZh")):
		return FormatXMLBzip2
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return FormatXMLGzip
	case bytes.HasPrefix(trimmed, []byte("<")):
		return FormatXML
	case len(head) >= 16 && head[0] == 0 && head[1] == 0 && bytes.Contains(head[4:], []byte("OSMHeader")):
		return FormatPBF
	}
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, ".pbf"):
		return FormatPBF
	case strings.HasSuffix(n, ".bz2"):
		return FormatXMLBzip2
	case strings.HasSuffix(n, ".gz"):
		return FormatXMLGzip
	case strings.HasSuffix(n, ".osm"), strings.HasSuffix(n, ".xml"):
		return FormatXML
	}
	return FormatUnknown
}

// Read imports the car road network of the OSM file at path (.osm.pbf,
// .osm/.xml, .osm.bz2 or .osm.gz, told apart by content, else by name)
// with profile prof. A PBF file is read twice (ways and relations, then
// the nodes the car ways need); XML once. Network.Source is the file's
// base name.
func Read(path string, prof *profile.Profile) (*Network, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("osmroad: %w", err)
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("osmroad: %s: %w", path, err)
	}
	var net *Network
	switch format := DetectFormat(path, head[:n]); format {
	case FormatPBF:
		net, err = ReadPBF(f, prof)
	case FormatXML, FormatXMLBzip2, FormatXMLGzip:
		net, err = ReadXML(f, format, prof)
	default:
		return nil, fmt.Errorf("osmroad: %s: not an OSM file (want .osm.pbf, .osm, .osm.bz2 or .osm.gz)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	net.Source = filepath.Base(path)
	return net, nil
}

// ReadPBF imports the car road network of an OSM PBF stream. It reads r
// twice, seeking back to its start in between.
func ReadPBF(r io.ReadSeeker, prof *profile.Profile) (net *Network, err error) {
	defer recoverTo(&err)
	b := newBuilder(prof)
	start, err := r.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, fmt.Errorf("osmroad: %w", err)
	}
	// Pass 1: ways and relations. The gate checks every block before the
	// decoder sees it, so a PBF with plain nodes is an error, not a panic.
	hdr, err := scanPBF(&pbfGate{r: bufio.NewReaderSize(r, 1<<16)}, func(s *osmpbf.Scanner) {
		s.SkipNodes = true
		s.FilterWay = b.filterWay
		s.FilterRelation = b.filterRelation
	}, b.object)
	if err != nil {
		return nil, fmt.Errorf("osmroad: pbf pass 1: %w", err)
	}
	b.endWaysPass()
	if _, err := r.Seek(start, io.SeekStart); err != nil {
		return nil, fmt.Errorf("osmroad: %w", err)
	}
	// Pass 2: the nodes of car ways, handled inside the decoders' filter
	// (in parallel, without allocating nodes).
	_, err = scanPBF(bufio.NewReaderSize(r, 1<<16), func(s *osmpbf.Scanner) {
		s.SkipWays = true
		s.SkipRelations = true
		s.FilterNode = func(n *osm.Node) bool {
			b.node(n)
			return false
		}
	}, nil)
	if err != nil {
		return nil, fmt.Errorf("osmroad: pbf pass 2: %w", err)
	}
	if hdr != nil && !hdr.ReplicationTimestamp.IsZero() {
		b.timestamp = hdr.ReplicationTimestamp.UTC()
	}
	return b.build(), nil
}

// ReadXML imports the car road network of an OSM XML stream, plain or
// compressed as format says, in one pass (nodes are kept until the ways
// say which ones are needed).
func ReadXML(r io.Reader, format Format, prof *profile.Profile) (net *Network, err error) {
	defer recoverTo(&err)
	switch format {
	case FormatXML:
	case FormatXMLBzip2:
		// Decompress on another core while the XML is parsed.
		ar := newAsyncReader(bzip2.NewReader(bufio.NewReaderSize(r, 1<<16)))
		defer ar.Close()
		r = ar
	case FormatXMLGzip:
		gz, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("osmroad: %w", err)
		}
		defer gz.Close()
		r = gz
	default:
		return nil, fmt.Errorf("osmroad: ReadXML cannot read format %v", format)
	}
	b := newBuilder(prof)
	var nodes xmlNodes
	s := osmxml.New(context.Background(), bufio.NewReaderSize(r, 1<<16))
	defer s.Close()
	for s.Scan() {
		switch o := s.Object().(type) {
		case *osm.Node:
			nodes.add(b, o)
		case *osm.Way:
			if b.filterWay(o) {
				b.way(o)
			}
		case *osm.Relation:
			if b.filterRelation(o) {
				b.relation(o)
			}
		}
	}
	if err := s.Err(); err != nil {
		return nil, fmt.Errorf("osmroad: osm xml: %w", err)
	}
	b.endWaysPass()
	nodes.replay(b)
	return b.build(), nil
}

// scanPBF runs one pass of the PBF scanner over r. setup sets the skip
// flags and filters; each object that passes them goes to handle.
func scanPBF(r io.Reader, setup func(*osmpbf.Scanner), handle func(osm.Object)) (*osmpbf.Header, error) {
	s := osmpbf.New(context.Background(), r, runtime.GOMAXPROCS(0))
	defer s.Close()
	setup(s)
	hdr, err := s.Header()
	if err != nil {
		return nil, err
	}
	for s.Scan() {
		if handle != nil {
			handle(s.Object())
		}
	}
	return hdr, s.Err()
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
				if err != io.EOF && err != io.ErrUnexpectedEOF {
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

// xmlNodes keeps the nodes of an XML file until the ways are known.
type xmlNodes struct {
	ids    []int64
	lon    []float64
	lat    []float64
	tagged map[int]osm.Tags // index -> tags, only for nodes with tags
}

func (x *xmlNodes) add(b *builder, n *osm.Node) {
	b.nodesRead.Add(1)
	b.seen(n.Timestamp)
	if len(n.Tags) > 0 {
		if x.tagged == nil {
			x.tagged = map[int]osm.Tags{}
		}
		x.tagged[len(x.ids)] = n.Tags
	}
	x.ids = append(x.ids, int64(n.ID))
	x.lon = append(x.lon, n.Lon)
	x.lat = append(x.lat, n.Lat)
}

// replay feeds the kept nodes to the builder as a PBF node pass would.
func (x *xmlNodes) replay(b *builder) {
	var n osm.Node
	for i, id := range x.ids {
		n = osm.Node{ID: osm.NodeID(id), Lon: x.lon[i], Lat: x.lat[i], Tags: x.tagged[i]}
		b.placeNode(&n)
	}
}

// recoverTo turns a panic in the import into an error, so that a broken
// input never crashes the process from our goroutine. (The PBF decoder's
// own goroutines are protected by pbfGate instead.)
func recoverTo(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("osmroad: import failed: %v", r)
	}
}

// newestTime keeps the newest element timestamp, safely across goroutines.
type newestTime struct{ unixNano atomic.Int64 }

func (t *newestTime) see(ts time.Time) {
	if ts.IsZero() {
		return
	}
	v := ts.UnixNano()
	for {
		cur := t.unixNano.Load()
		if v <= cur || t.unixNano.CompareAndSwap(cur, v) {
			return
		}
	}
}

func (t *newestTime) time() time.Time {
	if v := t.unixNano.Load(); v != 0 {
		return time.Unix(0, v).UTC()
	}
	return time.Time{}
}

var errPlainNodes = errors.New("the PBF file stores plain (non-dense) nodes, which the PBF reader does not support; convert it with `osmium cat in.osm.pbf -o out.osm.pbf`")
