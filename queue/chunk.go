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
	b := make([]byte, 0, 7*len(v)+2*len(v)/cols+1)
	for lo := 0; lo < len(v); lo += cols {
		if lo > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for j, x := range v[lo:min(lo+cols, len(v))] {
			if j > 0 {
				b = append(b, ',')
			}
			if x < 0 {
				b = append(b, "null"...)
			} else {
				b = appendDecimal(b, uint32(x))
			}
		}
		b = append(b, ']')
	}
	return b
}

// digitPairs holds "00" to "99", two bytes each.
const digitPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// appendDecimal appends x in decimal, as strconv.AppendUint does, two
// digits at a time and without its intermediate buffer: EncodeRows
// formats two million cells per 1000 x 1000 job, most of them under
// 1,000,000 (seconds and metres), which take the short paths.
func appendDecimal(b []byte, x uint32) []byte {
	switch {
	case x < 10:
		return append(b, byte('0'+x))
	case x < 100:
		return append(b, digitPairs[2*x], digitPairs[2*x+1])
	case x < 10000:
		hi, lo := x/100, x%100*2
		if hi < 10 {
			return append(b, byte('0'+hi), digitPairs[lo], digitPairs[lo+1])
		}
		return append(b, digitPairs[2*hi], digitPairs[2*hi+1], digitPairs[lo], digitPairs[lo+1])
	case x < 1000000:
		hi, mid, lo := x/10000, x/100%100*2, x%100*2
		if hi < 10 {
			return append(b, byte('0'+hi), digitPairs[mid], digitPairs[mid+1], digitPairs[lo], digitPairs[lo+1])
		}
		return append(b, digitPairs[2*hi], digitPairs[2*hi+1], digitPairs[mid], digitPairs[mid+1], digitPairs[lo], digitPairs[lo+1])
	}
	return strconv.AppendUint(b, uint64(x), 10)
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
