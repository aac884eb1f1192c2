package binfmt

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
)

// Writer collects sections and writes them as one file. The Add methods
// keep a reference to the slices they are given (nothing is copied): do
// not modify them until the file is written. A Writer is not safe for
// concurrent use.
type Writer struct {
	sections []wsection
	names    map[string]bool
	err      error
}

type wsection struct {
	name  string
	kind  Kind
	parts [][]byte // payload, written back to back
	size  uint64
}

// NewWriter returns an empty Writer.
func NewWriter() *Writer {
	return &Writer{names: make(map[string]bool)}
}

func (w *Writer) add(name string, kind Kind, parts ...[]byte) {
	if w.err != nil {
		return
	}
	switch {
	case name == "":
		w.err = errors.New("binfmt: empty section name")
		return
	case len(name) > MaxNameLen:
		w.err = fmt.Errorf("binfmt: section name %.40q... longer than %d bytes", name, MaxNameLen)
		return
	case w.names[name]:
		w.err = fmt.Errorf("binfmt: duplicate section %q", name)
		return
	}
	w.names[name] = true
	var size uint64
	for _, p := range parts {
		size += uint64(len(p))
	}
	w.sections = append(w.sections, wsection{name: name, kind: kind, parts: parts, size: size})
}

// AddUint8s adds a byte section.
func (w *Writer) AddUint8s(name string, v []uint8) { w.add(name, KindUint8, v) }

// AddUint32s adds a uint32 section.
func (w *Writer) AddUint32s(name string, v []uint32) { w.add(name, KindUint32, bytesOf(v)) }

// AddInt32s adds an int32 section.
func (w *Writer) AddInt32s(name string, v []int32) { w.add(name, KindInt32, bytesOf(v)) }

// AddUint64s adds a uint64 section.
func (w *Writer) AddUint64s(name string, v []uint64) { w.add(name, KindUint64, bytesOf(v)) }

// AddInt64s adds an int64 section.
func (w *Writer) AddInt64s(name string, v []int64) { w.add(name, KindInt64, bytesOf(v)) }

// AddFloat32s adds a float32 section.
func (w *Writer) AddFloat32s(name string, v []float32) { w.add(name, KindFloat32, bytesOf(v)) }

// AddFloat64s adds a float64 section.
func (w *Writer) AddFloat64s(name string, v []float64) { w.add(name, KindFloat64, bytesOf(v)) }

// AddStrings adds a string table: the count, len(v)+1 uint64 offsets into
// the blob, then the blob of all strings back to back.
func (w *Writer) AddStrings(name string, v []string) {
	offs := make([]uint64, len(v)+2)
	offs[0] = uint64(len(v))
	var n uint64
	for i, s := range v {
		offs[i+1] = n
		n += uint64(len(s))
	}
	offs[len(v)+1] = n
	blob := make([]byte, 0, n)
	for _, s := range v {
		blob = append(blob, s...)
	}
	w.add(name, KindStrings, bytesOf(offs), blob)
}

// AddJSON adds v encoded as JSON; meant for small metadata.
func (w *Writer) AddJSON(name string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		if w.err == nil {
			w.err = fmt.Errorf("binfmt: section %q: %w", name, err)
		}
		return
	}
	w.add(name, KindJSON, b)
}

// WriteTo writes the file to out with the given magic and format version
// and returns the number of bytes written.
func (w *Writer) WriteTo(out io.Writer, magic [8]byte, version uint32) (int64, error) {
	if !littleEndian {
		return 0, ErrBigEndian
	}
	if w.err != nil {
		return 0, w.err
	}
	// Layout.
	tableSize := uint64(0)
	for _, s := range w.sections {
		tableSize += pad8(entryFixed + uint64(len(s.name)))
	}
	off := headerSize + tableSize
	offsets := make([]uint64, len(w.sections))
	for i, s := range w.sections {
		offsets[i] = off
		off = pad8(off + s.size)
	}
	fileSize := off + checksumSize
	if tableSize > 1<<32-1 || len(w.sections) > maxSections {
		return 0, fmt.Errorf("binfmt: too many sections (%d)", len(w.sections))
	}

	crc := crc32.New(castagnoli)
	cw := &countWriter{w: io.MultiWriter(out, crc)}
	var zeros [align]byte

	hdr := make([]byte, headerSize, headerSize+tableSize)
	copy(hdr[0:8], magic[:])
	binary.LittleEndian.PutUint32(hdr[8:], version)
	binary.LittleEndian.PutUint32(hdr[12:], uint32(len(w.sections)))
	binary.LittleEndian.PutUint64(hdr[16:], fileSize)
	binary.LittleEndian.PutUint32(hdr[24:], uint32(tableSize))
	for i, s := range w.sections {
		var e [entryFixed]byte
		e[0] = byte(s.kind)
		binary.LittleEndian.PutUint16(e[2:], uint16(len(s.name)))
		binary.LittleEndian.PutUint64(e[8:], offsets[i])
		binary.LittleEndian.PutUint64(e[16:], s.size)
		hdr = append(hdr, e[:]...)
		hdr = append(hdr, s.name...)
		hdr = append(hdr, zeros[:pad8(uint64(len(hdr)))-uint64(len(hdr))]...)
	}
	if _, err := cw.Write(hdr); err != nil {
		return cw.n, err
	}
	for _, s := range w.sections {
		for _, p := range s.parts {
			if _, err := cw.Write(p); err != nil {
				return cw.n, err
			}
		}
		if pad := pad8(uint64(cw.n)) - uint64(cw.n); pad > 0 {
			if _, err := cw.Write(zeros[:pad]); err != nil {
				return cw.n, err
			}
		}
	}
	var sum [checksumSize]byte
	binary.LittleEndian.PutUint32(sum[:], crc.Sum32())
	n, err := out.Write(sum[:])
	cw.n += int64(n)
	if err == nil && uint64(cw.n) != fileSize {
		err = fmt.Errorf("binfmt: internal error: wrote %d bytes, laid out %d", cw.n, fileSize)
	}
	return cw.n, err
}

// WriteFile writes the file to path atomically: to a temporary file in the
// same directory, synced, then renamed over path.
func (w *Writer) WriteFile(path string, magic [8]byte, version uint32) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("binfmt: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<20)
	if _, err = w.WriteTo(bw, magic, version); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("binfmt: write %s: %w", path, err)
	}
	if err = tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("binfmt: %w", err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("binfmt: sync %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("binfmt: close %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("binfmt: %w", err)
	}
	// Make the rename durable; failure to sync a directory is not fatal on
	// file systems that do not support it.
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
