package queue

import (
	"encoding/binary"
	"math"

	"github.com/paulmach/orb"
)

// ChunkCount returns how many chunks of chunkRows origin rows cover rows
// rows.
func ChunkCount(rows, chunkRows int) int {
	if rows <= 0 || chunkRows <= 0 {
		return 0
	}
	return (rows + chunkRows - 1) / chunkRows
}

// ChunkRange returns the origin rows [lo, hi) of chunk i when rows rows are
// cut into chunks of chunkRows.
func ChunkRange(rows, chunkRows, i int) (lo, hi int) {
	lo = i * chunkRows
	hi = min(lo+chunkRows, rows)
	return min(lo, rows), hi
}

// rowsDone returns the rows covered by done distinct chunks, lastDone
// telling whether the (possibly short) last chunk is among them.
func rowsDone(rows, chunkRows, chunks, done int, lastDone bool) int {
	n := done * chunkRows
	if lastDone {
		n -= chunks*chunkRows - rows
	}
	return max(0, min(n, rows))
}

// EncodeInt32s returns v as little-endian int32s, the layout of a stored
// matrix chunk.
func EncodeInt32s(v []int32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return b
}

// DecodeInt32s is the inverse of EncodeInt32s.
func DecodeInt32s(b []byte) []int32 {
	v := make([]int32, len(b)/4)
	for i := range v {
		v[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// Snapping distances with a meaning of their own, stored instead of a
// distance in metres.
const (
	// NotSnapped is stored for an input that could not be snapped to a
	// road.
	NotSnapped float32 = -1
	// NotSnappedSwapped is stored for an input that could not be snapped
	// while its coordinates read the other way round (lat,lon for
	// lon,lat) could: most likely a swapped pair.
	NotSnappedSwapped float32 = -2
)

// EncodeFloat32s returns v as little-endian float32s, the layout of stored
// snapping distances.
func EncodeFloat32s(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// DecodeFloat32s is the inverse of EncodeFloat32s.
func DecodeFloat32s(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// encodePoints stores points as little-endian float64 lon, lat pairs.
func encodePoints(pts []orb.Point) []byte {
	b := make([]byte, 16*len(pts))
	for i, p := range pts {
		binary.LittleEndian.PutUint64(b[16*i:], math.Float64bits(p[0]))
		binary.LittleEndian.PutUint64(b[16*i+8:], math.Float64bits(p[1]))
	}
	return b
}

// decodePoints is the inverse of encodePoints.
func decodePoints(b []byte) []orb.Point {
	pts := make([]orb.Point, len(b)/16)
	for i := range pts {
		pts[i] = orb.Point{
			math.Float64frombits(binary.LittleEndian.Uint64(b[16*i:])),
			math.Float64frombits(binary.LittleEndian.Uint64(b[16*i+8:])),
		}
	}
	return pts
}
