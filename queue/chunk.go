package queue

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

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

// EncodeRows returns the cells v of a row-major matrix of cols columns as
// the JSON text of its rows, the layout of a stored matrix chunk:
// "[1,2,null],[3,4,5]", each row a JSON array, rows separated by commas
// and no brackets around them, so that chunks join with a comma into the
// rows of the whole matrix. A negative cell (routing.NoRoute) is null.
// The text is made once, when the chunk is written; a fetch copies it.
func EncodeRows(v []int32, cols int) []byte {
	if cols <= 0 {
		return nil
	}
	b := make([]byte, 0, 7*len(v)+2*len(v)/cols)
	for i, x := range v {
		switch {
		case i%cols == 0 && i > 0:
			b = append(b, "],["...)
		case i == 0:
			b = append(b, '[')
		default:
			b = append(b, ',')
		}
		if x < 0 {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendUint(b, uint64(x), 10)
		}
	}
	if len(v) > 0 {
		b = append(b, ']')
	}
	return b
}

// NextRow splits the first row, "[...]" with its brackets, off a chunk's
// text (EncodeRows) and returns it and the rest, the comma between them
// dropped. It returns nil, nil when b holds no further row.
func NextRow(b []byte) (row, rest []byte) {
	if len(b) > 0 && b[0] == ',' {
		b = b[1:]
	}
	end := bytes.IndexByte(b, ']')
	if len(b) == 0 || b[0] != '[' || end < 0 {
		return nil, nil
	}
	return b[:end+1], b[end+1:]
}

// DecodeRows is the inverse of EncodeRows: the cells row-major, null as
// -1, and the number of rows.
func DecodeRows(b []byte) (cells []int32, rows int, err error) {
	for len(b) > 0 {
		row, rest := NextRow(b)
		if row == nil {
			return nil, 0, fmt.Errorf("queue: matrix rows: no row at %.20q", b)
		}
		if len(row) > 2 {
			for f := range bytes.SplitSeq(row[1:len(row)-1], []byte{','}) {
				if string(f) == "null" {
					cells = append(cells, -1)
					continue
				}
				v, err := strconv.ParseUint(string(f), 10, 31)
				if err != nil {
					return nil, 0, fmt.Errorf("queue: matrix cell %q: %w", f, err)
				}
				cells = append(cells, int32(v))
			}
		}
		rows++
		b = rest
	}
	return cells, rows, nil
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
