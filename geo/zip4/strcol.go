package zip4

import (
	"fmt"
	"unsafe"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// strCol is a column of strings, one per feature, stored as two flat
// arrays: the bytes of every string back to back and the offset of each
// string in them (n+1 offsets). Loaded from a file, both alias the
// mapping and reading a string allocates nothing.
type strCol struct {
	off  []uint32
	blob []byte
}

// at returns string i; it aliases the column's bytes.
func (c *strCol) at(i int) string {
	lo, hi := c.off[i], c.off[i+1]
	if hi == lo {
		return ""
	}
	return unsafe.String(&c.blob[lo], hi-lo)
}

// add appends s.
func (c *strCol) add(s string) {
	if c.off == nil {
		c.off = []uint32{0}
	}
	c.blob = append(c.blob, s...)
	if uint64(len(c.blob)) > 1<<32-1 {
		panic("zip4: a string column of more than 4 GB")
	}
	c.off = append(c.off, uint32(len(c.blob)))
}

// write adds the column to w as sections name.off and name.str.
func (c *strCol) write(w *binfmt.Writer, name string) {
	off := c.off
	if off == nil {
		off = []uint32{0}
	}
	w.AddUint32s(name+".off", off)
	w.AddUint8s(name+".str", c.blob)
}

// read reads the column name of f, checking that it holds n strings.
func (c *strCol) read(f *binfmt.File, name string, n int) error {
	var err error
	if c.off, err = f.Uint32s(name + ".off"); err != nil {
		return err
	}
	if c.blob, err = f.Uint8s(name + ".str"); err != nil {
		return err
	}
	if len(c.off) != n+1 {
		return fmt.Errorf("zip4: column %s has %d offsets for %d features", name, len(c.off), n)
	}
	if err := checkOffsets(c.off, len(c.blob)); err != nil {
		return fmt.Errorf("zip4: column %s: %w", name, err)
	}
	return nil
}
