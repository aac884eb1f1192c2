package binfmt

import (
	"path/filepath"
	"testing"
)

// BenchmarkOpen40MB measures Open (one read, checksum, table) of a file
// with about 40 MB of sections.
func BenchmarkOpen40MB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.bin")
	w := NewWriter()
	u := make([]uint32, 4<<20) // 16 MB
	for i := range u {
		u[i] = uint32(i * 2654435761)
	}
	f := make([]float64, 3<<20) // 24 MB
	for i := range f {
		f[i] = float64(i) * 1e-3
	}
	w.AddUint32s("u", u)
	w.AddFloat64s("f", f)
	w.AddStrings("names", []string{"a", "b", "c"})
	if err := w.WriteFile(path, testMagic, testVersion); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var size int
	for b.Loop() {
		file, err := Open(path, testMagic, testVersion)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := file.Float64s("f"); err != nil {
			b.Fatal(err)
		}
		size = file.Size()
	}
	b.SetBytes(int64(size))
}
