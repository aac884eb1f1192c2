package binfmt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

var testMagic = [8]byte{'G', 'E', 'O', 'T', 'E', 'S', 'T', 0}

const testVersion = 7

type meta struct {
	Name  string
	Count int
	Box   [4]float64
}

// sample fills a Writer with one section of every kind, some empty.
func sample() *Writer {
	w := NewWriter()
	w.AddUint8s("u8", []uint8{1, 2, 3})
	w.AddUint8s("u8.empty", nil)
	w.AddUint32s("u32", []uint32{0, 1, math.MaxUint32})
	w.AddUint32s("u32.empty", []uint32{})
	w.AddInt32s("i32", []int32{-5, 0, math.MaxInt32, math.MinInt32})
	w.AddUint64s("u64", []uint64{math.MaxUint64, 42})
	w.AddInt64s("i64", []int64{math.MinInt64, -1})
	w.AddFloat32s("f32", []float32{1.5, float32(math.Inf(-1))})
	w.AddFloat64s("f64", []float64{math.Pi, math.Copysign(0, -1), 1e300})
	w.AddFloat64s("f64.empty", nil)
	w.AddStrings("str", []string{"", "Main Street", "", "Rue de la Paix", "日本"})
	w.AddStrings("str.empty", nil)
	w.AddJSON("meta", meta{Name: "delaware", Count: 3, Box: [4]float64{-75.8, 38.4, -75.0, 39.9}})
	return w
}

func encode(t testing.TB, w *Writer) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := w.WriteTo(&buf, testMagic, testVersion)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("WriteTo returned %d, wrote %d", n, buf.Len())
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.bin")
	if err := sample().WriteFile(path, testMagic, testVersion); err != nil {
		t.Fatal(err)
	}
	fromFile, err := Open(path, testMagic, testVersion)
	if err != nil {
		t.Fatal(err)
	}
	fromBytes, err := Parse(encode(t, sample()), testMagic, testVersion)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*File{fromFile, fromBytes} {
		if f.Version() != testVersion {
			t.Errorf("Version = %d", f.Version())
		}
		if len(f.Sections()) != 13 {
			t.Errorf("%d sections", len(f.Sections()))
		}
		tests := []struct {
			name string
			get  func() (any, error)
			want any
		}{
			{"u8", func() (any, error) { return f.Uint8s("u8") }, []uint8{1, 2, 3}},
			{"u8.empty", func() (any, error) { return f.Uint8s("u8.empty") }, []uint8{}},
			{"u32", func() (any, error) { return f.Uint32s("u32") }, []uint32{0, 1, math.MaxUint32}},
			{"u32.empty", func() (any, error) { return f.Uint32s("u32.empty") }, []uint32{}},
			{"i32", func() (any, error) { return f.Int32s("i32") }, []int32{-5, 0, math.MaxInt32, math.MinInt32}},
			{"u64", func() (any, error) { return f.Uint64s("u64") }, []uint64{math.MaxUint64, 42}},
			{"i64", func() (any, error) { return f.Int64s("i64") }, []int64{math.MinInt64, -1}},
			{"f32", func() (any, error) { return f.Float32s("f32") }, []float32{1.5, float32(math.Inf(-1))}},
			{"f64", func() (any, error) { return f.Float64s("f64") }, []float64{math.Pi, math.Copysign(0, -1), 1e300}},
			{"f64.empty", func() (any, error) { return f.Float64s("f64.empty") }, []float64{}},
			{"str", func() (any, error) { return f.Strings("str") }, []string{"", "Main Street", "", "Rue de la Paix", "日本"}},
			{"str.empty", func() (any, error) { return f.Strings("str.empty") }, []string{}},
			{"meta", func() (any, error) {
				var m meta
				err := f.JSON("meta", &m)
				return m, err
			}, meta{Name: "delaware", Count: 3, Box: [4]float64{-75.8, 38.4, -75.0, 39.9}}},
		}
		for _, tc := range tests {
			got, err := tc.get()
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
				continue
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s = %v, want %v", tc.name, got, tc.want)
			}
		}
		// DeepEqual compares floats with ==, for which -0 equals +0: the
		// sign of the negative zero is checked on its own.
		if v, err := f.Float64s("f64"); err != nil || len(v) != 3 || !math.Signbit(v[1]) {
			t.Errorf("f64 = %v, %v: want the negative zero at index 1 to keep its sign", v, err)
		}
	}
	// The temporary file is gone.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want 1", len(entries))
	}
}

func TestAliasing(t *testing.T) {
	data := encode(t, sample())
	buf := alignedBuffer(len(data))
	copy(buf, data)
	f, err := Parse(buf, testMagic, testVersion)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := f.Uint32s("u32")
	s := f.sections["u32"]
	if unsafe.Pointer(&u[0]) != unsafe.Pointer(&buf[s.Offset]) {
		t.Error("Uint32s copied the data")
	}
}

func TestErrors(t *testing.T) {
	good := encode(t, sample())
	flip := func(i int) []byte {
		b := bytes.Clone(good)
		b[i] ^= 0x10
		return b
	}
	otherMagic := [8]byte{'N', 'O', 'P', 'E'}
	tests := []struct {
		name    string
		data    []byte
		magic   [8]byte
		version uint32
		want    error
		msg     string
	}{
		{"empty", nil, testMagic, testVersion, ErrTruncated, "truncated"},
		{"wrong magic", good, otherMagic, testVersion, ErrBadMagic, "not a geosvc NOPE file"},
		{"wrong version", good, testMagic, 8, ErrVersion, "bundle format version 7, this build reads 8: rebuild with `geosvc build`"},
		{"flipped payload byte", flip(len(good) / 2), testMagic, testVersion, ErrChecksum, "checksum mismatch: file corrupt"},
		{"flipped checksum byte", flip(len(good) - 1), testMagic, testVersion, ErrChecksum, "checksum mismatch"},
		{"flipped table byte", flip(headerSize + 3), testMagic, testVersion, ErrChecksum, "checksum mismatch"},
		{"trailing garbage", append(bytes.Clone(good), 0), testMagic, testVersion, ErrCorrupt, "trailing"},
		{"header only", good[:headerSize], testMagic, testVersion, ErrTruncated, "truncated: file has 32 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.data, tc.magic, tc.version)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("err = %q, want it to contain %q", err, tc.msg)
			}
		})
	}
}

func TestTruncatedEverywhere(t *testing.T) {
	good := encode(t, sample())
	for n := 0; n < len(good); n++ {
		_, err := Parse(good[:n], testMagic, testVersion)
		if !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrChecksum) {
			t.Fatalf("truncated to %d of %d bytes: err = %v", n, len(good), err)
		}
	}
}

func TestFlippedByteEverywhere(t *testing.T) {
	good := encode(t, sample())
	for i := 0; i < len(good); i++ {
		b := bytes.Clone(good)
		b[i] ^= 0x01
		_, err := Parse(b, testMagic, testVersion)
		var want error
		switch {
		case i < 8:
			want = ErrBadMagic
		case i < 12:
			want = ErrVersion
		case i >= 16 && i < 24:
			// The file size field: the data is then too short or too long.
			if !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrCorrupt) {
				t.Errorf("byte %d: err = %v", i, err)
			}
			continue
		default:
			want = ErrChecksum
		}
		if !errors.Is(err, want) {
			t.Errorf("byte %d: err = %v, want %v", i, err, want)
		}
	}
}

func TestOpenTruncatedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.bin")
	good := encode(t, sample())
	if err := os.WriteFile(path, good[:len(good)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path, testMagic, testVersion)
	if !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v", err)
	}
}

// TestOpenDeferred: a file opened without its checksum reads like an
// opened one; Verify then finds a corrupt byte (and says so every call);
// a truncated or foreign file still fails at open; Open's files verify
// at once.
func TestOpenDeferred(t *testing.T) {
	dir := t.TempDir()
	good := encode(t, sample())
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	f, err := OpenDeferred(write("good.bin", good), testMagic, testVersion)
	if err != nil || f.Verify() != nil || !f.Mapped() {
		t.Fatalf("good file: %v, verify %v, mapped %v", err, f.Verify(), f.Mapped())
	}
	if u, err := f.Uint32s("u32"); err != nil || len(u) == 0 {
		t.Fatalf("read u32: %v %v", u, err)
	}
	bad := append([]byte(nil), good...)
	bad[len(bad)-20] ^= 0x10 // in the last section's payload
	f, err = OpenDeferred(write("bad.bin", bad), testMagic, testVersion)
	if err != nil {
		t.Fatalf("a corrupt payload fails OpenDeferred already: %v", err)
	}
	for i := 0; i < 2; i++ {
		if err := f.Verify(); !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "bad.bin") {
			t.Fatalf("verify %d: %v", i, err)
		}
	}
	if _, err := OpenDeferred(write("short.bin", good[:len(good)-10]), testMagic, testVersion); !errors.Is(err, ErrTruncated) {
		t.Fatalf("truncated: %v", err)
	}
	if _, err := OpenDeferred(write("other.bin", []byte("not a geosvc file, something else entirely..")), testMagic, testVersion); !errors.Is(err, ErrBadMagic) {
		t.Fatalf("foreign: %v", err)
	}
	if f, err := Open(write("good2.bin", good), testMagic, testVersion); err != nil || f.Verify() != nil {
		t.Fatalf("Open: %v, verify %v", err, f.Verify())
	}
}

func TestGetterErrors(t *testing.T) {
	f, err := Parse(encode(t, sample()), testMagic, testVersion)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Uint32s("nope"); !errors.Is(err, ErrNoSection) || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("missing section: %v", err)
	}
	if _, err := f.Float64s("u32"); !errors.Is(err, ErrKind) || !strings.Contains(err.Error(), "uint32") {
		t.Errorf("wrong kind: %v", err)
	}
	if err := f.JSON("str", new(meta)); !errors.Is(err, ErrKind) {
		t.Errorf("JSON of strings: %v", err)
	}
	if !f.Has("meta") || f.Has("nope") {
		t.Error("Has")
	}
}

func TestWriterErrors(t *testing.T) {
	tests := []struct {
		name string
		fill func(w *Writer)
		msg  string
	}{
		{"duplicate", func(w *Writer) { w.AddUint32s("a", nil); w.AddInt32s("a", nil) }, `duplicate section "a"`},
		{"empty name", func(w *Writer) { w.AddUint32s("", nil) }, "empty section name"},
		{"long name", func(w *Writer) { w.AddUint32s(strings.Repeat("x", MaxNameLen+1), nil) }, "longer than"},
		{"bad json", func(w *Writer) { w.AddJSON("j", func() {}) }, `section "j"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := NewWriter()
			tc.fill(w)
			_, err := w.WriteTo(&bytes.Buffer{}, testMagic, testVersion)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want %q", err, tc.msg)
			}
		})
	}
}

func TestUnalignedParse(t *testing.T) {
	good := encode(t, sample())
	buf := make([]byte, len(good)+1)
	copy(buf[1:], good)
	f, err := Parse(buf[1:], testMagic, testVersion)
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.Float64s("f64")
	if err != nil || v[0] != math.Pi {
		t.Fatalf("%v %v", v, err)
	}
}

func FuzzParse(f *testing.F) {
	good := encode(f, sample())
	f.Add(good)
	f.Add(good[:40])
	f.Add([]byte{})
	f.Add(testMagic[:])
	f.Fuzz(func(t *testing.T, data []byte) {
		// Accept any magic and version so that the fuzzer reaches the
		// table and checksum code.
		var magic [8]byte
		copy(magic[:], data)
		var version uint32
		if len(data) >= 12 {
			version = uint32(data[8]) | uint32(data[9])<<8 | uint32(data[10])<<16 | uint32(data[11])<<24
		}
		file, err := Parse(data, magic, version)
		if err != nil {
			return
		}
		for _, s := range file.Sections() {
			switch s.Kind {
			case KindUint8:
				file.Uint8s(s.Name)
			case KindUint32:
				file.Uint32s(s.Name)
			case KindInt32:
				file.Int32s(s.Name)
			case KindUint64:
				file.Uint64s(s.Name)
			case KindInt64:
				file.Int64s(s.Name)
			case KindFloat32:
				file.Float32s(s.Name)
			case KindFloat64:
				file.Float64s(s.Name)
			case KindStrings:
				file.Strings(s.Name)
			case KindJSON:
				var v any
				file.JSON(s.Name, &v)
			}
		}
	})
}

// FuzzParseValidChecksum mutates the content of a valid file and then
// fixes its checksum, so that the section-table checks are exercised.
func FuzzParseValidChecksum(f *testing.F) {
	good := encode(f, sample())
	f.Add(good[headerSize:len(good)-checksumSize], uint32(13), uint32(0))
	f.Fuzz(func(t *testing.T, rest []byte, count, tableSize uint32) {
		data := make([]byte, headerSize, headerSize+len(rest)+checksumSize)
		copy(data, good[:headerSize])
		putU32(data[12:], count)
		putU32(data[24:], tableSize)
		data = append(data, rest...)
		putU64(data[16:], uint64(len(data)+checksumSize))
		data = append(data, 0, 0, 0, 0)
		putU32(data[len(data)-4:], crcOf(data[:len(data)-4]))
		file, err := Parse(data, testMagic, testVersion)
		if err != nil {
			return
		}
		for _, s := range file.Sections() {
			file.Strings(s.Name)
			file.Uint64s(s.Name)
			file.Float32s(s.Name)
		}
	})
}

func putU32(b []byte, v uint32) { binary.LittleEndian.PutUint32(b, v) }
func putU64(b []byte, v uint64) { binary.LittleEndian.PutUint64(b, v) }
func crcOf(b []byte) uint32     { return crc32.Checksum(b, castagnoli) }
