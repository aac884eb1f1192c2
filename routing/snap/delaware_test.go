package snap

import (
	"bytes"
	"cmp"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/geosvc/geosvc/geo/osmfile/extracts"
	"github.com/geosvc/geosvc/internal/testenv"

	"github.com/paulmach/orb"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/geosvc/geosvc/geo"
)

// carHighways are the highway values the real-data tests keep.
var carHighways = map[string]bool{
	"motorway": true, "trunk": true, "primary": true, "secondary": true, "tertiary": true,
	"motorway_link": true, "trunk_link": true, "primary_link": true, "secondary_link": true,
	"tertiary_link": true, "unclassified": true, "residential": true, "living_street": true,
	"service": true, "road": true,
}

// network is a set of polylines read from an OSM extract: one edge per
// highway way, not split at intersections (enough for snapping tests).
type network struct {
	shape        []orb.Point
	starts, ends []uint32
}

var (
	delawareOnce sync.Once
	delawareNet  *network
	delawareErr  error
)

// delaware returns the Delaware roads, skipping the test when the extract
// is not available.
func delaware(tb testing.TB) *network {
	tb.Helper()
	delawareOnce.Do(func() {
		path, err := extracts.Path("delaware")
		if err != nil {
			delawareErr = err
			return
		}
		delawareNet, delawareErr = readPBF(path)
	})
	if delawareErr != nil {
		testenv.Skip(tb, "Delaware extract not available: %v", delawareErr)
	}
	return delawareNet
}

// readPBF reads the car highways of an OSM PBF file: one edge per way,
// with the coordinates of its nodes.
//
// It decodes the PBF blocks itself (protowire + compress/zlib) instead of
// using osmpbf: osmpbf's own dependencies (protoscan, czlib) have no
// go.sum entries in this module yet, and this test must build without
// touching go.sum. The reader is deliberately minimal: dense and plain
// nodes, ways with their highway tag; relations are ignored.
func readPBF(path string) (*network, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var (
		nodeIDs []int64
		coords  []orb.Point
		ways    [][]int64
	)
	for len(data) > 0 {
		if len(data) < 4 {
			return nil, errors.New("pbf: truncated blob header length")
		}
		hl := int(binary.BigEndian.Uint32(data))
		data = data[4:]
		if hl > len(data) {
			return nil, errors.New("pbf: truncated blob header")
		}
		var typ string
		var size int
		if err := pbFields(data[:hl], func(num protowire.Number, v uint64, b []byte) {
			switch num {
			case 1:
				typ = string(b)
			case 3:
				size = int(v)
			}
		}); err != nil {
			return nil, err
		}
		data = data[hl:]
		if size > len(data) {
			return nil, errors.New("pbf: truncated blob")
		}
		blob := data[:size]
		data = data[size:]
		if typ != "OSMData" {
			continue
		}
		var raw, zdata []byte
		if err := pbFields(blob, func(num protowire.Number, v uint64, b []byte) {
			switch num {
			case 1:
				raw = b
			case 3:
				zdata = b
			}
		}); err != nil {
			return nil, err
		}
		if zdata != nil {
			zr, err := zlib.NewReader(bytes.NewReader(zdata))
			if err != nil {
				return nil, err
			}
			if raw, err = io.ReadAll(zr); err != nil {
				return nil, err
			}
		}
		if err := pbBlock(raw, func(id int64, p orb.Point) {
			nodeIDs = append(nodeIDs, id)
			coords = append(coords, p)
		}, func(tags map[string]string, refs []int64) {
			if carHighways[tags["highway"]] && len(refs) >= 2 {
				ways = append(ways, refs)
			}
		}); err != nil {
			return nil, err
		}
	}
	if !slices.IsSorted(nodeIDs) {
		perm := make([]int, len(nodeIDs))
		for i := range perm {
			perm[i] = i
		}
		slices.SortFunc(perm, func(a, b int) int { return cmp.Compare(nodeIDs[a], nodeIDs[b]) })
		ids, cs := make([]int64, len(perm)), make([]orb.Point, len(perm))
		for k, i := range perm {
			ids[k], cs[k] = nodeIDs[i], coords[i]
		}
		nodeIDs, coords = ids, cs
	}
	net := &network{}
	for _, w := range ways {
		start := uint32(len(net.shape))
		for _, id := range w {
			if i, found := slices.BinarySearch(nodeIDs, id); found {
				net.shape = append(net.shape, coords[i])
			}
		}
		if uint32(len(net.shape))-start < 2 {
			net.shape = net.shape[:start]
			continue
		}
		net.starts = append(net.starts, start)
		net.ends = append(net.ends, uint32(len(net.shape)))
	}
	return net, nil
}

// pbFields calls fn for every field of a protobuf message: v holds
// varints and fixed values, b length-delimited payloads.
func pbFields(msg []byte, fn func(num protowire.Number, v uint64, b []byte)) error {
	for len(msg) > 0 {
		num, typ, n := protowire.ConsumeTag(msg)
		if n < 0 {
			return protowire.ParseError(n)
		}
		msg = msg[n:]
		var v uint64
		var b []byte
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(msg)
		case protowire.BytesType:
			b, n = protowire.ConsumeBytes(msg)
		case protowire.Fixed32Type:
			var v32 uint32
			v32, n = protowire.ConsumeFixed32(msg)
			v = uint64(v32)
		case protowire.Fixed64Type:
			v, n = protowire.ConsumeFixed64(msg)
		default:
			return fmt.Errorf("pbf: unsupported wire type %d", typ)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		msg = msg[n:]
		fn(num, v, b)
	}
	return nil
}

// pbPacked decodes a packed varint field, zig-zag when signed.
func pbPacked(b []byte, signed bool) []int64 {
	var out []int64
	for len(b) > 0 {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			break
		}
		b = b[n:]
		if signed {
			out = append(out, protowire.DecodeZigZag(v))
		} else {
			out = append(out, int64(v))
		}
	}
	return out
}

// pbBlock decodes one PrimitiveBlock.
func pbBlock(raw []byte, node func(id int64, p orb.Point), way func(tags map[string]string, refs []int64)) error {
	var strs []string
	var groups [][]byte
	gran, latOff, lonOff := int64(100), int64(0), int64(0)
	err := pbFields(raw, func(num protowire.Number, v uint64, b []byte) {
		switch num {
		case 1:
			pbFields(b, func(num protowire.Number, _ uint64, s []byte) {
				if num == 1 {
					strs = append(strs, string(s))
				}
			})
		case 2:
			groups = append(groups, b)
		case 17:
			gran = int64(v)
		case 19:
			latOff = int64(v)
		case 20:
			lonOff = int64(v)
		}
	})
	if err != nil {
		return err
	}
	coord := func(lat, lon int64) orb.Point {
		return orb.Point{1e-9 * float64(lonOff+gran*lon), 1e-9 * float64(latOff+gran*lat)}
	}
	str := func(i int64) string {
		if i >= 0 && i < int64(len(strs)) {
			return strs[i]
		}
		return ""
	}
	for _, g := range groups {
		err := pbFields(g, func(num protowire.Number, _ uint64, b []byte) {
			switch num {
			case 1: // Node
				var id, lat, lon int64
				pbFields(b, func(num protowire.Number, v uint64, _ []byte) {
					switch num {
					case 1:
						id = protowire.DecodeZigZag(v)
					case 8:
						lat = protowire.DecodeZigZag(v)
					case 9:
						lon = protowire.DecodeZigZag(v)
					}
				})
				node(id, coord(lat, lon))
			case 2: // DenseNodes
				var ids, lats, lons []int64
				pbFields(b, func(num protowire.Number, _ uint64, p []byte) {
					switch num {
					case 1:
						ids = pbPacked(p, true)
					case 8:
						lats = pbPacked(p, true)
					case 9:
						lons = pbPacked(p, true)
					}
				})
				var id, lat, lon int64
				for k := 0; k < len(ids) && k < len(lats) && k < len(lons); k++ {
					id, lat, lon = id+ids[k], lat+lats[k], lon+lons[k]
					node(id, coord(lat, lon))
				}
			case 3: // Way
				var keys, vals, refs []int64
				pbFields(b, func(num protowire.Number, _ uint64, p []byte) {
					switch num {
					case 2:
						keys = pbPacked(p, false)
					case 3:
						vals = pbPacked(p, false)
					case 8:
						refs = pbPacked(p, true)
					}
				})
				tags := make(map[string]string, len(keys))
				for k := 0; k < len(keys) && k < len(vals); k++ {
					tags[str(keys[k])] = str(vals[k])
				}
				for k := 1; k < len(refs); k++ {
					refs[k] += refs[k-1]
				}
				way(tags, refs)
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

var (
	delawareIndexOnce sync.Once
	delawareIndex     *Index
)

func delawareIx(tb testing.TB) (*network, *Index) {
	tb.Helper()
	net := delaware(tb)
	delawareIndexOnce.Do(func() {
		ix, err := Build(net.shape, net.starts, net.ends)
		if err != nil {
			tb.Fatal(err)
		}
		delawareIndex = ix
	})
	return net, delawareIndex
}

// nearRoadPoints returns n seeded random points within maxOffM metres of
// a random point on a random segment of the index.
func nearRoadPoints(ix *Index, n int, maxOffM float64, seed uint64) []orb.Point {
	rng := rand.New(rand.NewPCG(seed, 1))
	var segs []uint32
	for i, e := range ix.segEdg {
		if e != noEdge {
			segs = append(segs, uint32(i))
		}
	}
	pts := make([]orb.Point, n)
	for k := range pts {
		i := segs[rng.IntN(len(segs))]
		a, b := ix.shape[i], ix.shape[i+1]
		t := rng.Float64()
		p := orb.Point{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1])}
		ang := rng.Float64() * 2 * math.Pi
		off := rng.Float64() * maxOffM
		pts[k] = orb.Point{p[0] + off*math.Cos(ang)/(111320*math.Cos(p[1]*math.Pi/180)), p[1] + off*math.Sin(ang)/111320}
	}
	return pts
}

// bruteForce is the oracle: every segment, compared with the same
// distance function and order as the index, pre-filtered by latitude band
// only (sorted segment list) to keep 5000 queries fast.
type bruteForce struct {
	ix      *Index
	segs    []uint32  // segment first-point indexes sorted by minLat
	minLat  []float64 // parallel to segs
	maxSpan float64   // largest latitude span of a segment
}

func newBruteForce(ix *Index) *bruteForce {
	bf := &bruteForce{ix: ix}
	for i, e := range ix.segEdg {
		if e != noEdge {
			bf.segs = append(bf.segs, uint32(i))
		}
	}
	lat := func(i uint32) float64 { return min(ix.shape[i][1], ix.shape[i+1][1]) }
	slices.SortFunc(bf.segs, func(a, b uint32) int {
		if la, lb := lat(a), lat(b); la != lb {
			if la < lb {
				return -1
			}
			return 1
		}
		return int(a) - int(b)
	})
	bf.minLat = make([]float64, len(bf.segs))
	for k, i := range bf.segs {
		bf.minLat[k] = lat(i)
		bf.maxSpan = max(bf.maxSpan, math.Abs(ix.shape[i][1]-ix.shape[i+1][1]))
	}
	return bf
}

// candidates returns the segments whose latitude range can come within
// radiusM of p (a superset of those that do).
func (bf *bruteForce) candidates(p orb.Point, radiusM float64) []uint32 {
	dLat := radiusM/111000 + 1e-6
	lo, _ := slices.BinarySearch(bf.minLat, p[1]-dLat-bf.maxSpan)
	hi, _ := slices.BinarySearch(bf.minLat, p[1]+dLat)
	return bf.segs[lo:hi]
}

// query sets up the distance function without the index's grid logic.
func (bf *bruteForce) query(p orb.Point, radiusM float64) *query {
	kx, ky := geo.NewLocalProjection(p[1]).XY(orb.Point{1, 1})
	return &query{ix: bf.ix, p: p, kx: kx, ky: ky, radius2: radiusM * radiusM}
}

func (bf *bruteForce) nearest(p orb.Point, radiusM float64, accept func(uint32) bool) (Hit, bool) {
	q := bf.query(p, radiusM)
	found, bd2, be, bi, bt := false, q.radius2, uint32(0), uint32(0), 0.0
	for _, i := range bf.candidates(p, radiusM) {
		d2, t := q.segDist2(i)
		e := bf.ix.segEdg[i]
		if d2 > q.radius2 || (found && !better(d2, e, i, bd2, be, bi)) || (accept != nil && !accept(e)) {
			continue
		}
		found, bd2, be, bi, bt = true, d2, e, i, t
	}
	if !found {
		return Hit{}, false
	}
	return bf.ix.hit(p, bi, bt), true
}

func (bf *bruteForce) within(p orb.Point, radiusM float64) map[uint32]Hit {
	out := make(map[uint32]Hit)
	q := bf.query(p, radiusM)
	best := make(map[uint32][3]float64) // d2, i, t
	for _, i := range bf.candidates(p, radiusM) {
		d2, t := q.segDist2(i)
		e := bf.ix.segEdg[i]
		if d2 > q.radius2 {
			continue
		}
		if b, ok := best[e]; !ok || better(d2, e, i, b[0], e, uint32(b[1])) {
			best[e] = [3]float64{d2, float64(i), t}
		}
	}
	for e, b := range best {
		out[e] = bf.ix.hit(p, uint32(b[1]), b[2])
	}
	return out
}

func TestDelawareAgainstBruteForce(t *testing.T) {
	net, ix := delawareIx(t)
	t.Logf("Delaware: %d edges, %d shape points, %d cells, %d cell entries, grid %dx%d, index %.1f MB",
		len(net.starts), len(net.shape), len(ix.cellX), len(ix.segs), ix.g.NX, ix.g.NY, float64(ix.sizeBytes())/1e6)
	bf := newBruteForce(ix)
	rng := rand.New(rand.NewPCG(7, 7))
	near := nearRoadPoints(ix, 4000, 400, 11)
	// Uniform points over the grid's box and a margin around it.
	g := ix.g
	for range 1500 {
		near = append(near, orb.Point{
			g.MinLon - 0.02 + rng.Float64()*(float64(g.NX)*g.CellLon+0.04),
			g.MinLat - 0.02 + rng.Float64()*(float64(g.NY)*g.CellLat+0.04),
		})
	}
	// Points exactly on shape vertices (ties between edges meeting there).
	for range 300 {
		near = append(near, ix.shape[rng.IntN(len(ix.shape))])
	}
	radii := []float64{0, 25, 150, 1000}
	evenEdges := func(e uint32) bool { return e%2 == 0 }
	hits := 0
	for k, p := range near {
		radius := radii[k%len(radii)]
		var accept func(uint32) bool
		if k%5 == 0 {
			accept = evenEdges
		}
		got, ok := ix.Nearest(p, radius, accept)
		want, wantOK := bf.nearest(p, radius, accept)
		if ok != wantOK || got != want {
			t.Fatalf("point %d %v radius %.0f: index %+v %v, brute force %+v %v", k, p, radius, got, ok, want, wantOK)
		}
		if ok {
			hits++
		}
	}
	t.Logf("%d of %d queries snapped", hits, len(near))
	if hits < len(near)/3 {
		t.Errorf("only %d of %d queries snapped", hits, len(near))
	}
	// within against brute force, all hits, then the nearest few.
	for k, p := range near[:600] {
		radius := []float64{100, 400}[k%2]
		want := bf.within(p, radius)
		got := ix.within(p, radius, nil, 0)
		if len(got) != len(want) {
			t.Fatalf("point %d: within %d hits, brute force %d", k, len(got), len(want))
		}
		for j, h := range got {
			if want[h.Edge] != h {
				t.Fatalf("point %d: within hit %+v, brute force %+v", k, h, want[h.Edge])
			}
			if j > 0 && h.DistanceM < got[j-1].DistanceM-1e-6 {
				t.Fatalf("point %d: hits not sorted", k)
			}
		}
		if top := ix.within(p, radius, nil, 3); len(got) > 0 && !slices.Equal(top, got[:min(3, len(got))]) {
			t.Fatalf("point %d: within max 3 = %+v, want %+v", k, top, got[:min(3, len(got))])
		}
	}
}

func TestDelawareRoundTrip(t *testing.T) {
	_, ix := delawareIx(t)
	ix2 := roundTrip(t, ix)
	for _, p := range nearRoadPoints(ix, 500, 300, 3) {
		h1, ok1 := ix.Nearest(p, 1000, nil)
		h2, ok2 := ix2.Nearest(p, 1000, nil)
		if ok1 != ok2 || h1 != h2 {
			t.Fatalf("at %v: built %+v, loaded %+v", p, h1, h2)
		}
	}
}
