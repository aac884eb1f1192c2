package queue

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
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

func TestEncodeRows(t *testing.T) {
	tests := []struct {
		cells []int32
		cols  int
		want  string
	}{
		{[]int32{0, 1, -1, 2147483647, -2147483648, 86400}, 3, "[0,1,null],[2147483647,null,86400]"},
		{[]int32{5}, 1, "[5]"},
		{[]int32{1, 2, 3}, 1, "[1],[2],[3]"},
		{[]int32{10, -1}, 2, "[10,null]"},
		{nil, 4, ""},
	}
	for _, tt := range tests {
		got := EncodeRows(tt.cells, tt.cols)
		if string(got) != tt.want {
			t.Errorf("EncodeRows(%v, %d) = %q, want %q", tt.cells, tt.cols, got, tt.want)
		}
		// The chunk joined into a matrix is valid JSON with those rows.
		var m [][]*int64
		if err := json.Unmarshal([]byte("["+tt.want+"]"), &m); err != nil || len(m)*tt.cols != len(tt.cells) {
			t.Errorf("[%s] does not decode to %d rows: %v", tt.want, len(tt.cells)/tt.cols, err)
		}
		cells, rows, err := DecodeRows(got)
		want := slices.Clone(tt.cells)
		for i, v := range want {
			want[i] = max(v, -1)
		}
		if err != nil || rows*tt.cols != len(tt.cells) || !slices.Equal(cells, want) {
			t.Errorf("DecodeRows(%q) = %v, %d rows, %v; want %v", got, cells, rows, err, want)
		}
		var split []string
		for row, rest := NextRow(got); row != nil; row, rest = NextRow(rest) {
			split = append(split, string(row))
		}
		if strings.Join(split, ",") != tt.want || len(split)*tt.cols != len(tt.cells) {
			t.Errorf("NextRow split %q into %q", got, split)
		}
	}
}

// TestAppendDecimal checks EncodeRows' digit writer against strconv at
// every width's edges, on every value below 1,100,000 (all of its short
// paths) and on a spread of larger ones, after a prefix it must keep.
func TestAppendDecimal(t *testing.T) {
	check := func(x uint32) {
		t.Helper()
		got := appendDecimal([]byte("x,"), x)
		if want := strconv.AppendUint([]byte("x,"), uint64(x), 10); string(got) != string(want) {
			t.Fatalf("appendDecimal(%d) = %q, want %q", x, got, want)
		}
	}
	for _, x := range []uint32{0, 9, 10, 99, 100, 999, 1000, 9999, 10000, 99999, 100000, 999999,
		1000000, 9999999, 10000000, 99999999, 100000000, 999999999, 1000000000, math.MaxInt32, math.MaxUint32} {
		check(x)
	}
	for x := range uint32(1_100_000) {
		check(x)
	}
	for x := uint64(1_100_000); x <= math.MaxUint32; x = x*13/10 + 7 {
		check(uint32(x))
	}
}

func FuzzDecodeRows(f *testing.F) {
	for _, s := range []string{"[0,1,null],[2,null,3]", "[5]", "", "[", "],[", "[1,,2]", "[null", "[-1]", "[99999999999]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		cells, rows, err := DecodeRows(b)
		if err != nil {
			return
		}
		if rows == 0 {
			if len(cells) != 0 {
				t.Fatalf("%q: %d cells in no row", b, len(cells))
			}
			return
		}
		// Re-encoded in rows of one length, the cells decode the same.
		if len(cells) > 0 && len(cells)%rows == 0 {
			again, n, err := DecodeRows(EncodeRows(cells, len(cells)/rows))
			if err != nil || n != rows || !slices.Equal(again, cells) {
				t.Errorf("%q: %v in %d rows re-encoded decodes to %v in %d rows (%v)", b, cells, rows, again, n, err)
			}
		}
		for _, c := range cells {
			if c < -1 {
				t.Errorf("%q: cell %d", b, c)
			}
		}
	})
}

func TestBlobRoundTrip(t *testing.T) {
	floats := []float32{0, 1.5, NotSnapped, 999.25}
	if got := DecodeFloat32s(EncodeFloat32s(floats)); !slices.Equal(got, floats) {
		t.Errorf("float32 round trip = %v, want %v", got, floats)
	}
	pts := []orb.Point{{-75.5, 39.1}, {1.52, 42.51}, {-180, -90}}
	if got := decodePoints(encodePoints(pts)); !slices.Equal(got, pts) {
		t.Errorf("point round trip = %v, want %v", got, pts)
	}
}

// BenchmarkEncodeRows encodes one default chunk of a 1000-column matrix
// (50 x 1000 cells, durations up to two hours): the worker's cost per
// chunk and matrix of storing rows as text.
func BenchmarkEncodeRows(b *testing.B) {
	cells := make([]int32, 50*1000)
	for i := range cells {
		cells[i] = int32((i * 7919) % 7200)
	}
	var n int
	for b.Loop() {
		n = len(EncodeRows(cells, 1000))
	}
	b.ReportMetric(float64(n)/float64(len(cells)), "bytes/cell")
}
