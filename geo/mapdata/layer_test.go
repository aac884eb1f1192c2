package mapdata

import (
	"encoding/binary"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
)

// circle returns a counter-clockwise ring of n points around c (radius in
// degrees).
func circle(c orb.Point, r float64, n int) orb.Ring {
	out := make(orb.Ring, 0, n+1)
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		out = append(out, orb.Point{c[0] + r*math.Cos(a), c[1] + r*math.Sin(a)})
	}
	return append(out, out[0])
}

// fixtureLayer is a small layer: a large lake with an island (cut into
// pieces), a park, buildings, a railway and two places.
func fixtureLayer() *Layer {
	lake := orb.Polygon{circle(orb.Point{0.5, 0.5}, 0.2, 2000), reverse(circle(orb.Point{0.5, 0.5}, 0.05, 100))}
	areas := []Area{
		{Class: Buildings, Polygon: orb.Polygon{circle(orb.Point{0.1, 0.1}, 0.0001, 8)}},
		{Class: Water, Polygon: lake},
		{Class: Park, Polygon: orb.Polygon{circle(orb.Point{0.8, 0.2}, 0.05, 40)}},
		{Class: Buildings, Polygon: orb.Polygon{circle(orb.Point{0.8, 0.21}, 0.0002, 6)}},
	}
	var rail orb.LineString
	for i := range 1500 {
		x := float64(i) / 1500
		rail = append(rail, orb.Point{x, 0.9 + 0.001*math.Sin(x*40)})
	}
	lines := []Line{{Class: Railway, Line: rail}, {Class: Province, Line: orb.LineString{{0, 0.95}, {1, 0.96}}}}
	places := []Place{
		{Name: "Lakeside", Kind: Town, Population: 1200, Point: orb.Point{0.3, 0.3}},
		{Name: "Capitol", Kind: City, Population: 50000, Capital: true, Point: orb.Point{0.7, 0.3}},
	}
	return NewBounded(orb.Bound{Min: orb.Point{0, 0}, Max: orb.Point{1, 1}}, areas, lines, places)
}

func TestBandFor(t *testing.T) {
	tests := []struct {
		mpp  float64
		band int
	}{{-1, 0}, {0, 0}, {math.NaN(), 0}, {1.9, 0}, {2, 1}, {7.4, 1}, {8, 2}, {31, 2}, {32, 3}, {200, 4}, {512, 5}, {1e9, 5}}
	for _, tc := range tests {
		if got := BandFor(tc.mpp); got != tc.band {
			t.Errorf("BandFor(%g) = %d, want %d", tc.mpp, got, tc.band)
		}
	}
}

// TestSplitKeepsArea: cutting a polygon with a hole into pieces keeps its
// area (the pieces' areas, computed independently by planar.Area, add up
// to the polygon's) and every piece is within the point budget.
func TestSplitKeepsArea(t *testing.T) {
	p := orb.Polygon{circle(orb.Point{0.5, 0.5}, 0.2, 3000), reverse(circle(orb.Point{0.5, 0.5}, 0.05, 700))}
	pieces := splitPolygon(p, p.Bound(), 0, nil)
	if len(pieces) < 6 {
		t.Fatalf("%d pieces, want >= 6", len(pieces))
	}
	var sum float64
	for _, q := range pieces {
		if polyPoints(q) > maxPiecePoints {
			t.Errorf("piece of %d points", polyPoints(q))
		}
		sum += planar.Area(q)
	}
	if want := planar.Area(p); math.Abs(sum-want) > 1e-9*want {
		t.Errorf("pieces' area %.12f, polygon's %.12f", sum, want)
	}
	// A point in the hole is in no piece; one in the ring in one.
	for _, tc := range []struct {
		p    orb.Point
		want int
	}{{orb.Point{0.5, 0.5}, 0}, {orb.Point{0.51, 0.62}, 1}, {orb.Point{0.33, 0.41}, 1}, {orb.Point{0.9, 0.9}, 0}} {
		n := 0
		for _, q := range pieces {
			if planar.PolygonContains(q, tc.p) {
				n++
			}
		}
		if n != tc.want {
			t.Errorf("%v in %d pieces, want %d", tc.p, n, tc.want)
		}
	}
}

// TestSimplify: Douglas-Peucker keeps the corners of a square whose
// sides carry points off the line by less than the tolerance, and keeps a
// point farther off.
func TestSimplify(t *testing.T) {
	mt := metricAt(0)
	const d = 1.0 / 111_319.49 // 1 m in degrees at the equator
	line := []orb.Point{{0, 0}, {100 * d, 0.4 * d}, {200 * d, 0}, {300 * d, 3 * d}, {400 * d, 0}}
	tests := []struct {
		tol  float64
		want int
	}{{0, 5}, {0.3, 5}, {0.5, 4}, {1.9, 4}, {2.1, 3}, {3.1, 2}}
	for _, tc := range tests {
		if got := mt.simplify(line, tc.tol); len(got) != tc.want {
			t.Errorf("tolerance %g m: %d points %v, want %d", tc.tol, len(got), got, tc.want)
		}
	}
	sq := orb.Ring{{0, 0}, {50 * d, 0.2 * d}, {100 * d, 0}, {100 * d, 100 * d}, {0, 100 * d}, {0, 0}}
	if got := mt.simplifyRing(sq, 1); len(got) != 5 {
		t.Errorf("square: %v", got)
	}
}

// TestQueryMatchesScan: the grid query answers exactly what a scan of
// every feature's box answers, for random bounds in every band.
func TestQueryMatchesScan(t *testing.T) {
	l := fixtureLayer()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		x, y := rng.Float64()*1.2-0.1, rng.Float64()*1.2-0.1
		w := math.Pow(10, -4+4*rng.Float64())
		b := orb.Bound{Min: orb.Point{x, y}, Max: orb.Point{x + w, y + w}}
		band := i % numBands
		mpp := Bands[band].MinMPP
		bd := &l.bands[band]
		var want []int
		for f := range len(bd.class) {
			bx := bd.box[4*f:]
			if bx[0] <= fix(b.Max[0]) && bx[2] >= fix(b.Min[0]) && bx[1] <= fix(b.Max[1]) && bx[3] >= fix(b.Min[1]) {
				want = append(want, f)
			}
		}
		var got []int
		bd.query(b, 0, len(bd.class), func(f int) { got = append(got, f) })
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("band %d bound %v: got %v, want %v", band, b, got, want)
		}
		if n := len(l.Areas(b, mpp)) + len(l.Lines(b, mpp)); n != len(want) {
			t.Fatalf("Areas+Lines: %d, want %d", n, len(want))
		}
	}
}

func TestLayerFixture(t *testing.T) {
	l := fixtureLayer()
	all := l.Bound()
	// Drawing order: Water before Park before Buildings.
	areas := l.Areas(all, 1)
	for i := 1; i < len(areas); i++ {
		if areas[i].Class < areas[i-1].Class {
			t.Fatalf("areas out of class order at %d: %v then %v", i, areas[i-1].Class, areas[i].Class)
		}
	}
	count := func(as []Area, c Class) int {
		n := 0
		for _, a := range as {
			if a.Class == c {
				n++
			}
		}
		return n
	}
	// The lake (2,100 points) comes in pieces at full detail; the
	// buildings (a 22 m circle and a 44 m one) vanish when smaller than
	// a pixel.
	if n := count(areas, Water); n < 4 {
		t.Errorf("%d lake pieces at band 0, want >= 4", n)
	}
	tests := []struct {
		mpp       float64
		buildings int
	}{{1, 2}, {5, 2}, {20, 2}, {40, 1}, {130, 0}}
	for _, tc := range tests {
		if got := count(l.Areas(all, tc.mpp), Buildings); got != tc.buildings {
			t.Errorf("%g m/px: %d buildings, want %d", tc.mpp, got, tc.buildings)
		}
	}
	// Coarser bands have fewer points.
	pts := func(mpp float64) int {
		n := 0
		for _, a := range l.Areas(all, mpp) {
			n += polyPoints(a.Polygon)
		}
		for _, ln := range l.Lines(all, mpp) {
			n += len(ln.Line)
		}
		return n
	}
	for b := 1; b < numBands; b++ {
		if pts(Bands[b].MinMPP) > pts(Bands[b-1].MinMPP) {
			t.Errorf("band %d has more points than band %d", b, b-1)
		}
	}
	// Places: larger kinds first.
	ps := l.Places(all)
	if len(ps) != 2 || ps[0].Name != "Capitol" || !ps[0].Capital || ps[1].Population != 1200 {
		t.Errorf("places %+v", ps)
	}
	if ps := l.Places(orb.Bound{Min: orb.Point{0.2, 0.2}, Max: orb.Point{0.4, 0.4}}); len(ps) != 1 || ps[0].Name != "Lakeside" {
		t.Errorf("places near Lakeside: %+v", ps)
	}
	// A point in the lake is water; one on the island is not.
	for _, tc := range []struct {
		p     orb.Point
		water bool
	}{{orb.Point{0.5, 0.65}, true}, {orb.Point{0.5, 0.5}, false}, {orb.Point{0.5, 0.75}, false}} {
		if got := classesAt(l, tc.p, 1)[Water]; got != tc.water {
			t.Errorf("%v: water %v, want %v", tc.p, got, tc.water)
		}
	}
	var zero Layer
	if zero.Areas(all, 1) != nil || zero.Lines(all, 1) != nil || zero.Places(all) != nil {
		t.Error("zero layer answers features")
	}
}

// layerAnswers collects a layer's answers over a few bounds and scales.
func layerAnswers(l *Layer) []any {
	var out []any
	all := l.Bound()
	c := all.Center()
	for _, b := range []orb.Bound{all, {Min: c, Max: c}, orb.Bound{Min: c, Max: c}.Pad(0.01)} {
		for _, bd := range Bands {
			out = append(out, l.Areas(b, bd.MinMPP), l.Lines(b, bd.MinMPP))
		}
		out = append(out, l.Places(b))
	}
	return out
}

func TestFileRoundTrip(t *testing.T) {
	l := fixtureLayer()
	data, err := l.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(layerAnswers(l), layerAnswers(back)) || back.Bound() != l.Bound() {
		t.Error("the parsed layer answers differently")
	}
	dir := t.TempDir()
	if err := l.Write(dir); err != nil {
		t.Fatal(err)
	}
	fromFile, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(layerAnswers(l), layerAnswers(fromFile)) {
		t.Error("the loaded layer answers differently")
	}
	// The zero layer and an empty one round-trip too.
	for _, e := range []*Layer{{}, New(nil, nil, nil)} {
		b, err := e.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(b); err != nil {
			t.Errorf("empty layer: %v", err)
		}
	}
	// A flipped byte is refused (checksum), as is a truncated file.
	bad := append([]byte(nil), data...)
	bad[len(bad)/2] ^= 0xff
	if _, err := Parse(bad); err == nil {
		t.Error("corrupt file parsed")
	}
	if _, err := Parse(data[:len(data)-9]); err == nil {
		t.Error("truncated file parsed")
	}
}

// TestDelawareRoundTrip: the real layer through its file answers the same.
func TestDelawareRoundTrip(t *testing.T) {
	l, _ := buildExtract(t, "delaware")
	data, err := l.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(layerAnswers(l), layerAnswers(back)) || !reflect.DeepEqual(l.Stats(), back.Stats()) {
		t.Error("the parsed Delaware layer answers differently")
	}
}

// FuzzParse: no input makes Parse or the queries on what it accepts
// panic. The checksum is recomputed so that the fuzzer reaches the
// layer's own checks.
func FuzzParse(f *testing.F) {
	small := New([]Area{{Class: Park, Polygon: orb.Polygon{circle(orb.Point{1, 1}, 0.01, 8)}}},
		[]Line{{Class: Railway, Line: orb.LineString{{1, 1}, {1.02, 1.01}}}},
		[]Place{{Name: "A", Kind: Village, Point: orb.Point{1, 1}}})
	data, err := small.Bytes()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data, uint(0), byte(0))
	f.Add(data, uint(100), byte(1))
	f.Fuzz(func(t *testing.T, data []byte, at uint, x byte) {
		d := append([]byte(nil), data...)
		if len(d) > 4 {
			d[int(at%uint(len(d)-4))] ^= x
			fixChecksum(d)
		}
		l, err := Parse(d)
		if err != nil {
			return
		}
		layerAnswers(l)
		l.Stats()
	})
}

// fixChecksum rewrites the trailing CRC-32 (Castagnoli) of a binfmt file.
func fixChecksum(d []byte) {
	n := len(d) - 4
	binary.LittleEndian.PutUint32(d[n:], crc32.Checksum(d[:n], crc32.MakeTable(crc32.Castagnoli)))
}
