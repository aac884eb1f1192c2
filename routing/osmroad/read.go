package osmroad

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/paulmach/osm"
	"github.com/paulmach/osm/osmpbf"
	"github.com/paulmach/osm/osmxml"

	"github.com/geosvc/geosvc/geo/osmfile"
	"github.com/geosvc/geosvc/routing/profile"
)

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
	switch format := osmfile.DetectFormat(path, head[:n]); format {
	case osmfile.FormatPBF:
		net, err = readPBF(f, prof)
	case osmfile.FormatXML, osmfile.FormatXMLBzip2, osmfile.FormatXMLGzip:
		net, err = readXML(f, format, prof)
	default:
		return nil, fmt.Errorf("osmroad: %s: not an OSM file (want .osm.pbf, .osm, .osm.bz2 or .osm.gz)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	net.Source = filepath.Base(path)
	return net, nil
}

// readPBF imports the car road network of an OSM PBF stream. It reads r
// twice, seeking back to its start in between.
func readPBF(r io.ReadSeeker, prof *profile.Profile) (net *Network, err error) {
	defer recoverTo(&err)
	b := newBuilder(prof)
	start, err := r.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, fmt.Errorf("osmroad: %w", err)
	}
	// Pass 1: ways and relations. The gate checks every block before the
	// decoder sees it, so a PBF with plain nodes is an error, not a panic.
	hdr, err := scanPBF(osmfile.GatePBF(bufio.NewReaderSize(r, 1<<16)), func(s *osmpbf.Scanner) {
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

// readXML imports the car road network of an OSM XML stream, plain or
// compressed as format says, in one pass (nodes are kept until the ways
// say which ones are needed).
func readXML(r io.Reader, format osmfile.Format, prof *profile.Profile) (net *Network, err error) {
	defer recoverTo(&err)
	if !format.IsXML() {
		return nil, fmt.Errorf("osmroad: readXML cannot read format %v", format)
	}
	// Compressed XML is decompressed on another core while it is parsed.
	r, release, err := osmfile.XMLReader(r, format)
	if err != nil {
		return nil, fmt.Errorf("osmroad: %w", err)
	}
	defer release()
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
				b.object(o)
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
// own goroutines are protected by osmfile.GatePBF instead.)
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
