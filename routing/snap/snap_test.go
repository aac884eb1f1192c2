package snap

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/internal/binfmt"
)

// Metres per degree near the test area.
var (
	baseLat = 39.7
	kx, ky  = geo.NewLocalProjection(baseLat).XY(orb.Point{1, 1})
)

// at returns the point x metres east and y metres north of (-75.5, 39.7).
func at(x, y float64) orb.Point {
	return orb.Point{-75.5 + x/kx, baseLat + y/ky}
}

// buildLines indexes the polylines, edge i = lines[i].
func buildLines(t testing.TB, lines ...[]orb.Point) *Index {
	t.Helper()
	var shape []orb.Point
	var starts, ends []uint32
	for _, l := range lines {
		starts = append(starts, uint32(len(shape)))
		shape = append(shape, l...)
		ends = append(ends, uint32(len(shape)))
	}
	ix, err := Build(shape, starts, ends)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestNearest(t *testing.T) {
	// Edge 0: west-east road at y=0 from x=0 to x=1000, with a middle point.
	// Edge 1: parallel road at y=100 from x=0 to x=1000.
	// Edge 2: a 5 km diagonal with two points only, crossing many cells.
	// Edge 3: a zero-length edge (two equal points) at (3000, 3000).
	// Edge 4: zero-length first segment, then north 200 m, at x=-2000.
	// Edges 5 and 6 meet at vertex (2000, 0): the first point of 5, the
	// last of 6.
	lines := [][]orb.Point{
		{at(0, 0), at(500, 0), at(1000, 0)},
		{at(0, 100), at(1000, 100)},
		{at(-1000, -4000), at(2535.5, -464.5)},
		{at(3000, 3000), at(3000, 3000)},
		{at(-2000, 0), at(-2000, 0), at(-2000, 200)},
		{at(2000, 0), at(2000, 300)},
		{at(2300, 0), at(2000, 0)},
	}
	ix := buildLines(t, lines...)
	only := func(e uint32) func(uint32) bool { return func(x uint32) bool { return x == e } }
	tests := []struct {
		name     string
		p        orb.Point
		radius   float64
		accept   func(uint32) bool
		ok       bool
		edge     uint32
		segment  int
		fraction float64
		distM    float64
		point    orb.Point // checked when non-zero
	}{
		{name: "on a vertex goes to the lower segment", p: at(500, 0), radius: 50, ok: true, edge: 0, segment: 0, fraction: 0.5, distM: 0, point: at(500, 0)},
		{name: "on a segment", p: at(250, 0), radius: 50, ok: true, edge: 0, segment: 0, fraction: 0.25, distM: 0},
		{name: "first point", p: at(0, 0), radius: 50, ok: true, edge: 0, segment: 0, fraction: 0, distM: 0},
		{name: "last point", p: at(1000, 0), radius: 50, ok: true, edge: 0, segment: 1, fraction: 1, distM: 0},
		{name: "between parallels nearer the south road", p: at(250, 30), radius: 1000, ok: true, edge: 0, segment: 0, fraction: 0.25, distM: 30},
		{name: "between parallels nearer the north road", p: at(750, 60), radius: 1000, ok: true, edge: 1, segment: 0, fraction: 0.75, distM: 40},
		{name: "beyond the end projects to the end", p: at(1100, 100), radius: 1000, ok: true, edge: 1, segment: 0, fraction: 1, distM: 100},
		{name: "beyond the radius", p: at(500, 400), radius: 250, ok: false},
		{name: "just within the radius", p: at(500, 400), radius: 301, ok: true, edge: 1, fraction: 0.5, distM: 300},
		{name: "accept filter skips the nearer road", p: at(250, 30), radius: 1000, accept: only(1), ok: true, edge: 1, fraction: 0.25, distM: 70},
		{name: "accept filter rejects all", p: at(250, 30), radius: 1000, accept: func(uint32) bool { return false }, ok: false},
		{name: "long diagonal, middle", p: at(767.75+21.2, -2232.25-21.2), radius: 100, ok: true, edge: 2, fraction: 0.5, distM: 30},
		{name: "zero-length edge", p: at(3000, 3010), radius: 100, ok: true, edge: 3, fraction: 0, distM: 10, point: at(3000, 3000)},
		{name: "zero-length first segment", p: at(-2010, 0), radius: 100, ok: true, edge: 4, segment: 0, fraction: 0, distM: 10, point: at(-2000, 0)},
		{name: "after the zero-length segment", p: at(-2010, 100), radius: 100, ok: true, edge: 4, segment: 1, fraction: 0.5, distM: 10},
		{name: "shared vertex goes to the lower edge", p: at(2000, 0), radius: 10, ok: true, edge: 5, fraction: 0, distM: 0},
		{name: "near shared vertex, higher edge nearer", p: at(2010, -1), radius: 100, ok: true, edge: 6, fraction: 290.0 / 300, distM: 1},
		{name: "outside the bbox within radius", p: at(-2500, 200), radius: 1000, ok: true, edge: 4, segment: 1, fraction: 1, distM: 500},
		{name: "outside the bbox beyond radius", p: at(-2500, 200), radius: 400, ok: false},
		{name: "far away", p: orb.Point{10, 50}, radius: 1000, ok: false},
		{name: "invalid point", p: orb.Point{math.NaN(), 0}, radius: 1000, ok: false},
		{name: "zero radius on the road", p: at(500, 0), radius: 0, ok: true, edge: 0, segment: 0, fraction: 0.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, ok := ix.Nearest(tc.p, tc.radius, tc.accept)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v (hit %+v)", ok, tc.ok, h)
			}
			if !ok {
				return
			}
			if h.Edge != tc.edge || h.Segment != tc.segment {
				t.Errorf("edge %d segment %d, want %d %d", h.Edge, h.Segment, tc.edge, tc.segment)
			}
			if !near(h.Fraction, tc.fraction, 1e-3) {
				t.Errorf("fraction %.6f, want %.6f", h.Fraction, tc.fraction)
			}
			if !near(h.DistanceM, tc.distM, 0.05+tc.distM*1e-3) {
				t.Errorf("distance %.3f m, want %.3f", h.DistanceM, tc.distM)
			}
			if tc.point != (orb.Point{}) && geo.HaversineM(h.Point, tc.point) > 1e-6 {
				t.Errorf("point %v, want %v", h.Point, tc.point)
			}
			if d := geo.HaversineM(h.Point, tc.p); !near(d, h.DistanceM, 1e-9) {
				t.Errorf("DistanceM %.6f but point is %.6f away", h.DistanceM, d)
			}
		})
	}
}

func TestWithin(t *testing.T) {
	ix := buildLines(t,
		[]orb.Point{at(0, 0), at(500, 0), at(1000, 0)},
		[]orb.Point{at(0, 100), at(1000, 100)},
		[]orb.Point{at(0, 250), at(1000, 250)},
		[]orb.Point{at(0, -50), at(1000, -50)},
	)
	p := at(500, 10)
	tests := []struct {
		name    string
		radius  float64
		accept  func(uint32) bool
		max     int
		edges   []uint32
		distsM  []float64
		segment []int
	}{
		{"all within 300", 300, nil, 0, []uint32{0, 3, 1, 2}, []float64{10, 60, 90, 240}, []int{0, 0, 0, 0}},
		{"two nearest", 300, nil, 2, []uint32{0, 3}, []float64{10, 60}, []int{0, 0}},
		{"radius 100", 100, nil, 0, []uint32{0, 3, 1}, []float64{10, 60, 90}, []int{0, 0, 0}},
		{"accept odd edges", 300, func(e uint32) bool { return e%2 == 1 }, 0, []uint32{3, 1}, []float64{60, 90}, []int{0, 0}},
		{"nothing", 5, nil, 0, nil, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits := ix.within(p, tc.radius, tc.accept, tc.max)
			if len(hits) != len(tc.edges) {
				t.Fatalf("%d hits %+v, want edges %v", len(hits), hits, tc.edges)
			}
			for k, h := range hits {
				if h.Edge != tc.edges[k] || !near(h.DistanceM, tc.distsM[k], 0.05) || h.Segment != tc.segment[k] {
					t.Errorf("hit %d: edge %d at %.2f m, want %d at %.2f", k, h.Edge, h.DistanceM, tc.edges[k], tc.distsM[k])
				}
				if !near(h.Fraction, 0.5, 1e-3) {
					t.Errorf("hit %d: fraction %.4f", k, h.Fraction)
				}
			}
		})
	}
	// Edge 0 has two segments meeting at p's foot: one hit, the lower segment.
	hits := ix.within(at(500, 10), 20, nil, 0)
	if len(hits) != 1 || hits[0].Segment != 0 {
		t.Errorf("hits at a vertex: %+v", hits)
	}
}

func TestBuildErrors(t *testing.T) {
	shape := []orb.Point{at(0, 0), at(10, 0), at(20, 0), at(30, 0)}
	tests := []struct {
		name         string
		shape        []orb.Point
		starts, ends []uint32
		msg          string
	}{
		{"length mismatch", shape, []uint32{0}, nil, "1 edge starts but 0 ends"},
		{"beyond shape", shape, []uint32{0}, []uint32{5}, "outside the 4 shape points"},
		{"reversed", shape, []uint32{3}, []uint32{1}, "outside"},
		{"overlap", shape, []uint32{0, 1}, []uint32{2, 3}, "overlaps"},
		{"bad coordinate", []orb.Point{{0, 0}, {200, 0}}, []uint32{0}, []uint32{2}, "not a valid lon/lat"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Build(tc.shape, tc.starts, tc.ends)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want %q", err, tc.msg)
			}
		})
	}
}

func TestEmpty(t *testing.T) {
	tests := []struct {
		name         string
		shape        []orb.Point
		starts, ends []uint32
	}{
		{"no edges", nil, nil, nil},
		{"single-point edges only", []orb.Point{at(0, 0), at(5, 5)}, []uint32{0, 1}, []uint32{1, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ix, err := Build(tc.shape, tc.starts, tc.ends)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := ix.Nearest(at(0, 0), 1000, nil); ok {
				t.Error("hit in an empty index")
			}
			if hits := ix.within(at(0, 0), 1000, nil, 0); len(hits) != 0 {
				t.Error("hits in an empty index")
			}
			ix2 := roundTrip(t, ix)
			if _, ok := ix2.Nearest(at(0, 0), 1000, nil); ok {
				t.Error("hit in a loaded empty index")
			}
		})
	}
}

var testMagic = [8]byte{'S', 'N', 'A', 'P', 'T', 'E', 'S', 'T'}

func roundTrip(t testing.TB, ix *Index) *Index {
	t.Helper()
	w := binfmt.NewWriter()
	ix.AppendTo(w, "snap.")
	w.AddUint32s("other", []uint32{1, 2, 3})
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf, testMagic, 1); err != nil {
		t.Fatal(err)
	}
	f, err := binfmt.Parse(buf.Bytes(), testMagic, 1)
	if err != nil {
		t.Fatal(err)
	}
	ix2, err := Load(f, "snap.")
	if err != nil {
		t.Fatal(err)
	}
	return ix2
}

func TestRoundTrip(t *testing.T) {
	ix := buildLines(t,
		[]orb.Point{at(0, 0), at(500, 0), at(1000, 0)},
		[]orb.Point{at(0, 100), at(1000, 100), at(1500, 700)},
		[]orb.Point{at(-1000, -4000), at(2535.5, -464.5)},
	)
	ix2 := roundTrip(t, ix)
	if ix2.sizeBytes() != ix.sizeBytes() || ix2.numEdges() != 3 || ix2.edgeLengthM(1) != ix.edgeLengthM(1) {
		t.Fatalf("loaded index differs: %d bytes %d edges", ix2.sizeBytes(), ix2.numEdges())
	}
	for x := -1500.0; x <= 3000; x += 97 {
		for y := -4500.0; y <= 1000; y += 89 {
			p := at(x, y)
			h1, ok1 := ix.Nearest(p, 400, nil)
			h2, ok2 := ix2.Nearest(p, 400, nil)
			if ok1 != ok2 || h1 != h2 {
				t.Fatalf("at %v: built %+v %v, loaded %+v %v", p, h1, ok1, h2, ok2)
			}
		}
	}
}

func TestLoadErrors(t *testing.T) {
	ix := buildLines(t,
		[]orb.Point{at(0, 0), at(500, 0), at(1000, 0)},
		[]orb.Point{at(0, 100), at(1000, 100)},
	)
	tests := []struct {
		name   string
		mutate func(ix *Index)
		prefix string
		msg    string
	}{
		{"missing", func(*Index) {}, "other.", `no such section "other.meta"`},
		{"segment beyond shape", func(ix *Index) { ix.segs = append([]uint32{}, ix.segs...); ix.segs[0] = 99 }, "snap.", "not a segment"},
		{"short cum", func(ix *Index) { ix.cum = ix.cum[:1] }, "snap.", "lengths"},
		{"edge range", func(ix *Index) { ix.ends = []uint32{3, 9} }, "snap.", "outside"},
		{"cell offsets", func(ix *Index) { ix.cellStart = ix.cellStart[:len(ix.cellStart)-1] }, "snap.", "cell offsets"},
		{"grid", func(ix *Index) { ix.g.NY++ }, "snap.", "row offsets"},
		{"negative cell", func(ix *Index) { ix.g.CellLon = -1 }, "snap.", "bad grid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bad := *ix
			tc.mutate(&bad)
			w := binfmt.NewWriter()
			bad.AppendTo(w, "snap.")
			var buf bytes.Buffer
			if _, err := w.WriteTo(&buf, testMagic, 1); err != nil {
				t.Fatal(err)
			}
			f, err := binfmt.Parse(buf.Bytes(), testMagic, 1)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Load(f, tc.prefix)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want %q", err, tc.msg)
			}
			if tc.name == "missing" && !errors.Is(err, binfmt.ErrNoSection) {
				t.Errorf("err = %v, want ErrNoSection", err)
			}
		})
	}
}
