package osmroad

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/geosvc/geosvc/geo/osmfile"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

// extract returns the path of a named real extract, skipping the test
// when it is not on this machine.
func extract(t testing.TB, name string) string {
	t.Helper()
	return extracts.Require(t, name)
}

func TestRealExtracts(t *testing.T) {
	if testing.Short() {
		t.Skip("real extracts are slow; -short skips them")
	}
	prof := carProfile(t)
	tests := []struct {
		name               string
		minCarWays         int
		maxCarWays         int
		minApplied         int
		timestamp          string // header replication timestamp, "" to skip
		minSignals, minFer int
	}{
		{"delaware", 42000, 50000, 300, "2016-08-10T19:28:03Z", 1000, 1},
		{"andorra", 1500, 3000, 40, "", 1, 0},
		{"porto_portugal", 1000, 1000000, 1, "", 1, 0},
		{"monaco", 100, 1000000, 1, "", 1, 0},
		{"baltimore", 100, 1000000, 0, "", 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := extract(t, tc.name)
			net, err := Read(path, prof)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			t.Logf("%s (data of %s):\n%s", net.Source, net.Timestamp.Format(time.RFC3339), net.Report)
			checkNetwork(t, net)
			r := net.Report
			if r.CarWays < tc.minCarWays || r.CarWays > tc.maxCarWays {
				t.Errorf("%d car ways, want %d..%d", r.CarWays, tc.minCarWays, tc.maxCarWays)
			}
			if r.RestrictionsApplied < tc.minApplied || r.TrafficSignals < tc.minSignals || r.Ferries < tc.minFer {
				t.Errorf("%d restrictions applied (want >= %d), %d signals (>= %d), %d ferries (>= %d)",
					r.RestrictionsApplied, tc.minApplied, r.TrafficSignals, tc.minSignals, r.Ferries, tc.minFer)
			}
			if r.Vertices < r.CarWays/2 || r.Edges < r.CarWays || r.NodesRead < r.ShapePoints/2 {
				t.Errorf("implausible sizes: %+v", r)
			}
			if net.Timestamp.IsZero() || tc.timestamp != "" && net.Timestamp.Format(time.RFC3339) != tc.timestamp {
				t.Errorf("timestamp %v, want %s", net.Timestamp, tc.timestamp)
			}
			if net.Source != filepath.Base(path) {
				t.Errorf("source %q", net.Source)
			}
		})
	}
}

func BenchmarkReadDelaware(b *testing.B) {
	path := extract(b, "delaware")
	prof := carProfile(b)
	var net *Network
	for b.Loop() {
		var err error
		if net, err = Read(path, prof); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(net.Report.PeakRSSBytes)/(1<<20), "peakRSS-MiB")
}

// pbfBlock frames one PBF file block.
func pbfBlock(typ string, payload []byte, compress bool) []byte {
	var blob []byte
	if compress {
		var z bytes.Buffer
		w := zlib.NewWriter(&z)
		w.Write(payload)
		w.Close()
		blob = protowire.AppendTag(blob, 2, protowire.VarintType)
		blob = protowire.AppendVarint(blob, uint64(len(payload)))
		blob = protowire.AppendTag(blob, 3, protowire.BytesType)
		blob = protowire.AppendBytes(blob, z.Bytes())
	} else {
		blob = protowire.AppendTag(blob, 1, protowire.BytesType)
		blob = protowire.AppendBytes(blob, payload)
	}
	var hdr []byte
	hdr = protowire.AppendTag(hdr, 1, protowire.BytesType)
	hdr = protowire.AppendString(hdr, typ)
	hdr = protowire.AppendTag(hdr, 3, protowire.VarintType)
	hdr = protowire.AppendVarint(hdr, uint64(len(blob)))
	out := binary.BigEndian.AppendUint32(nil, uint32(len(hdr)))
	return append(append(out, hdr...), blob...)
}

// plainNodePBF is a PBF whose data block has a group of plain nodes, the
// layout that makes the osmpbf decoder panic.
func plainNodePBF(compress bool) []byte {
	var header []byte // HeaderBlock: required_features = "OsmSchema-V0.6"
	header = protowire.AppendTag(header, 4, protowire.BytesType)
	header = protowire.AppendString(header, "OsmSchema-V0.6")
	var node []byte // Node: id 1, lat 0, lon 0
	node = protowire.AppendTag(node, 1, protowire.VarintType)
	node = protowire.AppendVarint(node, protowire.EncodeZigZag(1))
	node = protowire.AppendTag(node, 8, protowire.VarintType)
	node = protowire.AppendVarint(node, 0)
	node = protowire.AppendTag(node, 9, protowire.VarintType)
	node = protowire.AppendVarint(node, 0)
	var group []byte
	group = protowire.AppendTag(group, 1, protowire.BytesType)
	group = protowire.AppendBytes(group, node)
	var block []byte
	block = protowire.AppendTag(block, 1, protowire.BytesType) // empty string table
	block = protowire.AppendBytes(block, []byte{})
	block = protowire.AppendTag(block, 2, protowire.BytesType)
	block = protowire.AppendBytes(block, group)
	return append(pbfBlock("OSMHeader", header, compress), pbfBlock("OSMData", block, compress)...)
}

func TestPlainNodesPBF(t *testing.T) {
	prof := carProfile(t)
	for _, compress := range []bool{false, true} {
		_, err := readPBF(bytes.NewReader(plainNodePBF(compress)), prof)
		if err == nil || !strings.Contains(err.Error(), "plain (non-dense) nodes") {
			t.Errorf("compress %v: err = %v, want the plain-nodes error", compress, err)
		}
	}
	// Through Read, detected by content.
	path := filepath.Join(t.TempDir(), "plain.osm.pbf")
	if err := os.WriteFile(path, plainNodePBF(true), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path, prof); err == nil || !strings.Contains(err.Error(), "plain.osm.pbf") {
		t.Errorf("Read: err = %v, want an error naming the file", err)
	}
}

func TestBrokenInputs(t *testing.T) {
	prof := carProfile(t)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := map[string]string{
		"missing file": filepath.Join(dir, "nope.osm.pbf"),
		"not osm":      write("notes.txt", []byte("hello")),
		"bad xml":      write("bad.osm", []byte("<osm><node id='1' lat='x'")),
		"bad bz2":      write("bad.osm.bz2", []byte("BZh9 not really bzip2 data")),
		"bad gzip":     write("bad.osm.gz", []byte{0x1f, 0x8b, 1, 2, 3}),
		"bad pbf":      write("bad.osm.pbf", []byte{0, 0, 0, 5, 1, 2, 3, 4, 5}),
		"huge header":  write("huge.osm.pbf", []byte{0, 1, 0, 0, 1, 2, 3}),
	}
	if path, err := extracts.Path("delaware"); err == nil {
		if b, err := os.ReadFile(path); err == nil {
			cases["truncated pbf"] = write("cut.osm.pbf", b[:len(b)/3])
		}
	}
	for name, path := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := Read(path, prof); err == nil {
				t.Errorf("Read(%s): no error", path)
			}
		})
	}
}

func TestReadXMLStream(t *testing.T) {
	prof := carProfile(t)
	b, err := os.ReadFile(filepath.Join(fixtureDir, "traffic_signal.osm"))
	if err != nil {
		t.Fatal(err)
	}
	net, err := readXML(bytes.NewReader(b), osmfile.FormatXML, prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(net.Edges) != 2 || net.Source != "" || net.Report.TrafficSignals != 1 {
		t.Errorf("edges %d source %q report %+v", len(net.Edges), net.Source, net.Report)
	}
	if _, err := readXML(bytes.NewReader(b), osmfile.FormatPBF, prof); err == nil {
		t.Error("readXML with osmfile.FormatPBF: no error")
	}
}
