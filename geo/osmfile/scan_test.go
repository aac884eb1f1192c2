package osmfile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/geo/osmfile/extracts"
	"github.com/geosvc/geosvc/internal/testenv"
)

const fixture = `<?xml version="1.0"?>
<osm version="0.6">
  <node id="1" lat="0" lon="0"/>
  <node id="2" lat="0" lon="1"><tag k="place" v="town"/></node>
  <way id="10"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/></way>
  <way id="11"><nd ref="2"/><nd ref="1"/></way>
  <relation id="100"><member type="way" ref="10" role="outer"/><tag k="type" v="multipolygon"/></relation>
</osm>
`

func TestScanFilters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.osm")
	if err := os.WriteFile(path, []byte(fixture), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Format() != FormatXML || f.Name() != "f.osm" {
		t.Errorf("format %v name %s", f.Format(), f.Name())
	}
	tests := []struct {
		name   string
		filter Filter
		want   string
	}{
		{"all", Filter{}, "node/1 node/2 way/10 way/11 relation/100"},
		{"ways and relations", Filter{SkipNodes: true}, "way/10 way/11 relation/100"},
		{"tagged nodes", Filter{SkipWays: true, SkipRelations: true, Node: func(n *osm.Node) bool { return len(n.Tags) > 0 }}, "node/2"},
		{"highways", Filter{SkipNodes: true, SkipRelations: true, Way: func(w *osm.Way) bool { return w.Tags.Find("highway") != "" }}, "way/10"},
	}
	for _, tc := range tests {
		var got []string
		if _, err := f.Scan(tc.filter, func(o osm.Object) error {
			got = append(got, string(o.ObjectID().Type())+"/"+strconv.FormatInt(o.ObjectID().Ref(), 10))
			return nil
		}); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, got, tc.want)
		}
	}
}

func TestOpenRejects(t *testing.T) {
	dir := t.TempDir()
	notOSM := filepath.Join(dir, "notes.txt")
	os.WriteFile(notOSM, []byte("hello"), 0o644)
	for _, p := range []string{notOSM, filepath.Join(dir, "missing.osm.pbf")} {
		if _, err := Open(p); err == nil {
			t.Errorf("Open(%s): no error", p)
		}
	}
}

func TestDetectFormat(t *testing.T) {
	pbfHead := append([]byte{0, 0, 0, 13, 10, 9}, []byte("OSMHeader\x18\x01")...)
	tests := []struct {
		name string
		head []byte
		want Format
	}{
		{"x.osm.pbf", pbfHead, FormatPBF},
		{"noext", pbfHead, FormatPBF},
		{"x.osm.pbf", []byte("<?xml version"), FormatXML},
		{"x.dat", []byte("BZh91AY&SY"), FormatXMLBzip2},
		{"x.dat", []byte{0x1f, 0x8b, 8, 0}, FormatXMLGzip},
		{"x.osm.gz", nil, FormatXMLGzip},
		{"x.txt", []byte("hello"), FormatUnknown},
	}
	for _, tc := range tests {
		if got := DetectFormat(tc.name, tc.head); got != tc.want {
			t.Errorf("DetectFormat(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestGateOncePerFile: the gate checks a PBF file on the first pass that
// reads it whole, then no more, from any File of that path.
func TestGateOncePerFile(t *testing.T) {
	path, err := extracts.Path("delaware")
	if err != nil {
		testenv.Skip(t, "%v", err)
	}
	relations := func() int {
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		if _, err := f.Scan(Filter{SkipNodes: true, SkipWays: true}, func(osm.Object) error { n++; return nil }); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := gatedPasses.Load()
	first := relations()
	second := relations()
	if got := gatedPasses.Load() - before; got > 1 || first != second || first == 0 {
		t.Errorf("%d gated passes for two scans (want at most 1), %d and %d relations", got, first, second)
	}
}
