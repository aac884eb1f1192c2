package queue

import (
	"slices"
	"testing"

	"github.com/paulmach/orb"
)

func TestChunkCountAndRange(t *testing.T) {
	tests := []struct {
		rows, chunkRows, want int
		last                  [2]int
	}{
		{1000, 50, 20, [2]int{950, 1000}},
		{1001, 50, 21, [2]int{1000, 1001}},
		{1, 50, 1, [2]int{0, 1}},
		{49, 50, 1, [2]int{0, 49}},
		{300, 1, 300, [2]int{299, 300}},
		{0, 50, 0, [2]int{0, 0}},
	}
	for _, tt := range tests {
		n := ChunkCount(tt.rows, tt.chunkRows)
		if n != tt.want {
			t.Errorf("ChunkCount(%d, %d) = %d, want %d", tt.rows, tt.chunkRows, n, tt.want)
		}
		if n == 0 {
			continue
		}
		lo, hi := ChunkRange(tt.rows, tt.chunkRows, n-1)
		if [2]int{lo, hi} != tt.last {
			t.Errorf("ChunkRange(%d, %d, last) = %d, %d, want %v", tt.rows, tt.chunkRows, lo, hi, tt.last)
		}
		covered := 0
		for i := range n {
			lo, hi := ChunkRange(tt.rows, tt.chunkRows, i)
			if lo != covered {
				t.Errorf("rows %d chunk %d starts at %d, want %d", tt.rows, i, lo, covered)
			}
			covered = hi
		}
		if covered != tt.rows {
			t.Errorf("rows %d: chunks cover %d", tt.rows, covered)
		}
	}
}

func TestRowsDone(t *testing.T) {
	tests := []struct {
		rows, chunkRows, done int
		lastDone              bool
		want                  int
	}{
		{1000, 50, 0, false, 0},
		{1000, 50, 3, false, 150},
		{1000, 50, 20, true, 1000},
		{1001, 50, 1, true, 1},
		{1001, 50, 2, true, 51},
		{1001, 50, 20, false, 1000},
		{1001, 50, 21, true, 1001},
		{7, 50, 1, true, 7},
	}
	for _, tt := range tests {
		chunks := ChunkCount(tt.rows, tt.chunkRows)
		if got := rowsDone(tt.rows, tt.chunkRows, chunks, tt.done, tt.lastDone); got != tt.want {
			t.Errorf("rowsDone(%d, %d, %d, %d, %v) = %d, want %d",
				tt.rows, tt.chunkRows, chunks, tt.done, tt.lastDone, got, tt.want)
		}
	}
}

func TestBlobRoundTrip(t *testing.T) {
	ints := []int32{0, 1, -1, 2147483647, -2147483648, 86400}
	b := EncodeInt32s(ints)
	if len(b) != 4*len(ints) || b[4] != 1 || b[8] != 0xff {
		t.Fatalf("EncodeInt32s = %v: want 4 little-endian bytes per value", b)
	}
	if got := DecodeInt32s(b); !slices.Equal(got, ints) {
		t.Errorf("DecodeInt32s = %v, want %v", got, ints)
	}
	floats := []float32{0, 1.5, NotSnapped, 999.25}
	if got := DecodeFloat32s(EncodeFloat32s(floats)); !slices.Equal(got, floats) {
		t.Errorf("float32 round trip = %v, want %v", got, floats)
	}
	pts := []orb.Point{{-75.5, 39.1}, {1.52, 42.51}, {-180, -90}}
	if got := decodePoints(encodePoints(pts)); !slices.Equal(got, pts) {
		t.Errorf("point round trip = %v, want %v", got, pts)
	}
}
