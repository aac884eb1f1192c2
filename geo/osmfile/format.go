// Package osmfile owns reading OpenStreetMap files: it tells the format of
// a file (.osm.pbf, .osm/.xml, .osm.bz2, .osm.gz) from its content or name,
// and scans it, one pass per call, with filters that select what a pass
// keeps. PBF files pass through a gate that turns the blocks which crash
// the paulmach/osm v0.8.0 decoder (plain, non-dense nodes) into
// ErrPlainNodes; compressed XML is decompressed on a second core.
//
// A PBF file holds its nodes, then its ways, then its relations, and so
// does every XML file written by osmium or osmosis: importers that need
// the nodes of selected ways scan twice (ways and relations first, then
// the nodes), which Scan makes cheap by skipping whole blocks.
package osmfile

import (
	"bytes"
	"errors"
	"strings"
)

// Format is an OSM file format.
type Format uint8

// Formats the package reads.
const (
	// FormatUnknown is no format the package reads.
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

// IsXML reports whether the format is OSM XML, plain or compressed.
func (f Format) IsXML() bool {
	return f == FormatXML || f == FormatXMLBzip2 || f == FormatXMLGzip
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

// ErrPlainNodes is returned when a PBF file stores plain (non-dense) nodes,
// which the paulmach/osm v0.8.0 decoder cannot read (it panics on them in
// a goroutine of its own; the gate stops the scan before that).
var ErrPlainNodes = errors.New("the PBF file stores plain (non-dense) nodes, which the PBF reader does not support; convert it with `osmium cat in.osm.pbf -o out.osm.pbf`")
