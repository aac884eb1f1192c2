package worldfile

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// sample is two topologies: the first (grid step 0.5, origin 10, 20) with
// two unit squares sharing arc 0 (x = 2 from y = 0 to 2 on the grid), the
// second (step 1, origin -180, 0) with one clockwise square touching the
// antimeridian at a vertex written -180 between eastern ones.
func sample() *Data {
	return &Data{
		Topologies: []Topology{
			{
				Source:    Source{Name: "a", Package: "pa", Version: "1.0.0", File: "a.json"},
				Scale:     [2]float64{0.5, 0.5},
				Translate: [2]float64{10, 20},
				ArcStart:  []uint32{0, 2, 6, 10},
				XY: []int32{
					2, 0, 2, 2, // arc 0
					2, 2, 0, 2, 0, 0, 2, 0, // arc 1
					2, 0, 4, 0, 4, 2, 2, 2, // arc 2
				},
			},
			{
				Source:    Source{Name: "b", Package: "pb", Version: "2.0.0", File: "b.json"},
				Scale:     [2]float64{1, 1},
				Translate: [2]float64{-180, 0},
				ArcStart:  []uint32{0, 5},
				XY:        []int32{358, 0, 358, 1, 0, 1, 359, 0, 358, 0},
			},
		},
		Features: []Feature{
			{Kind: KindCountry, Topology: 0, ID: "001", ISO2: "AA", Name: "Left", Polygons: [][][]int32{{{0, 1}}}},
			{Kind: KindState, Topology: 0, ID: "02", ISO2: "US", Name: "Right", Polygons: [][][]int32{{{2, -1}}}},
			{Kind: KindCounty, Topology: 1, ID: "02001", ISO2: "US", Name: "Edge", Polygons: [][][]int32{{{0}}}},
			{Kind: KindCounty, Topology: 1, ID: "02002", ISO2: "US", Name: "Empty"},
		},
	}
}

func TestRoundTrip(t *testing.T) {
	d := sample()
	b, err := Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Encode(sample())
	if err != nil || !bytes.Equal(b, again) {
		t.Fatal("Encode is not deterministic")
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Topologies, d.Topologies) {
		t.Errorf("topologies\n%+v\nwant\n%+v", got.Topologies, d.Topologies)
	}
	d.Features[3].Polygons = [][][]int32{}
	if !reflect.DeepEqual(got.Features, d.Features) {
		t.Errorf("features\n%+v\nwant\n%+v", got.Features, d.Features)
	}
}

func TestGeometry(t *testing.T) {
	d := sample()
	// Computed by hand: x/2+10, y/2+20; exterior rings counter-clockwise.
	tests := []struct {
		f    int
		want orb.MultiPolygon
	}{
		{0, orb.MultiPolygon{{{{11, 20}, {11, 21}, {10, 21}, {10, 20}, {11, 20}}}}},
		{1, orb.MultiPolygon{{{{11, 20}, {12, 20}, {12, 21}, {11, 21}, {11, 20}}}}},
		// x-180: the -180 vertex goes east, the clockwise ring is reversed.
		{2, orb.MultiPolygon{{{{178, 0}, {179, 0}, {180, 1}, {178, 1}, {178, 0}}}}},
		{3, orb.MultiPolygon{}},
	}
	for _, tt := range tests {
		got, err := d.Geometry(&d.Features[tt.f])
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("feature %d: %v, want %v", tt.f, got, tt.want)
		}
	}
	if _, err := d.Ring(0, []int32{0, 0}); err == nil || !strings.Contains(err.Error(), "starts at") {
		t.Errorf("arcs that do not join: error %v", err)
	}
	if _, err := d.Ring(0, []int32{3}); err == nil {
		t.Error("a reference out of range was accepted")
	}
}

func TestEncodeErrors(t *testing.T) {
	d := sample()
	d.Features[0].Polygons = [][][]int32{{{3}}}
	if _, err := Encode(d); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("reference out of range: %v", err)
	}
	d = sample()
	d.Topologies[0].ArcStart = []uint32{0, 1, 10}
	if _, err := Encode(d); err == nil || !strings.Contains(err.Error(), "1 points") {
		t.Errorf("arc of one point: %v", err)
	}
}

// TestDecodeRejects: files whose checksum is right but whose content is
// inconsistent are errors, not panics.
func TestDecodeRejects(t *testing.T) {
	good, err := Encode(sample())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(good[:len(good)-1]); !errors.Is(err, binfmt.ErrTruncated) && !errors.Is(err, binfmt.ErrCorrupt) {
		t.Errorf("truncated: %v", err)
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 1
	if _, err := Decode(flipped); !errors.Is(err, binfmt.ErrChecksum) {
		t.Errorf("flipped bit: %v", err)
	}
	// Rewrite single sections with bad values (valid checksum).
	tests := []struct {
		name    string
		section string
		value   any
		want    string
	}{
		{"arc of one point", "t0.arc_len", []uint32{1, 4, 4}, "fewer than 2"},
		{"more points than bytes", "t0.arc_len", []uint32{2, 4, 1 << 20}, "points in"},
		{"reference out of range", "refs", []int32{0, 1, 2, -1, 5}, "out of range"},
		{"offsets out of order", "f.poly", []uint32{0, 2, 1, 3, 3}, "offsets"},
		{"topology out of range", "f.topo", []uint8{0, 0, 7, 1}, "topology 7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(rewrite(t, good, tt.section, tt.value))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// rewrite returns file b with section name replaced by value.
func rewrite(t *testing.T, b []byte, name string, value any) []byte {
	t.Helper()
	f, err := binfmt.Parse(b, Magic, Version)
	if err != nil {
		t.Fatal(err)
	}
	w := binfmt.NewWriter()
	for _, s := range f.Sections() {
		v := value
		if s.Name != name {
			v = nil
		}
		switch s.Kind {
		case binfmt.KindUint8:
			x, _ := f.Uint8s(s.Name)
			if v != nil {
				x = v.([]uint8)
			}
			w.AddUint8s(s.Name, x)
		case binfmt.KindUint32:
			x, _ := f.Uint32s(s.Name)
			if v != nil {
				x = v.([]uint32)
			}
			w.AddUint32s(s.Name, x)
		case binfmt.KindInt32:
			x, _ := f.Int32s(s.Name)
			if v != nil {
				x = v.([]int32)
			}
			w.AddInt32s(s.Name, x)
		case binfmt.KindFloat64:
			x, _ := f.Float64s(s.Name)
			w.AddFloat64s(s.Name, x)
		case binfmt.KindStrings:
			x, _ := f.Strings(s.Name)
			w.AddStrings(s.Name, x)
		case binfmt.KindJSON:
			var m meta
			f.JSON(s.Name, &m)
			w.AddJSON(s.Name, m)
		}
	}
	var out bytes.Buffer
	if _, err := w.WriteTo(&out, Magic, Version); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
