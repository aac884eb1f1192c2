package binfmt

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"
	"unsafe"
)

// File is an opened, verified container. Its getters return slices that
// alias the file's buffer (for Open, the file mapped into memory); they
// stay valid as long as the process runs and must not be modified. A File
// is safe for concurrent use.
type File struct {
	data     []byte
	version  uint32
	sections map[string]Section
	order    []string
	// mapped says data is the file mapped read-only into memory (Open).
	mapped bool
	// verify computes the checksum of a file opened by OpenDeferred,
	// once; nil when it was verified at open.
	verifyOnce sync.Once
	verify     func() error
	verifyErr  error
}

// Section describes one section of a File.
type Section struct {
	Name string
	Kind Kind
	// Offset and Length are the payload's byte offset in the file and its
	// length in bytes.
	Offset, Length uint64
}

// Open maps the file at path into memory, read-only and shared (every
// process that opens one file shares its pages through the page cache;
// pages are read from disk when first touched), and verifies its magic,
// version, size, section table and checksum. The checksum is computed by
// reading the file, not through the mapping, so that verifying it does
// not make the whole file resident in the process. Where mapping is not
// available the file is read into memory instead.
func Open(path string, magic [8]byte, version uint32) (*File, error) {
	return open(path, magic, version, false)
}

// OpenDeferred is Open without the checksum, which Verify computes later:
// opening a file of any size then takes as long as reading its header
// and section table (a truncated file still fails here). A server opens
// its bundle so and verifies it in the background (docs/operations.md).
func OpenDeferred(path string, magic [8]byte, version uint32) (*File, error) {
	return open(path, magic, version, true)
}

// Verify computes the checksum of a file opened by OpenDeferred, once,
// and reports ErrChecksum when it does not match; for a file verified at
// open it returns nil.
func (f *File) Verify() error {
	if f.verify == nil {
		return nil
	}
	f.verifyOnce.Do(func() { f.verifyErr = f.verify() })
	return f.verifyErr
}

func open(path string, magic [8]byte, version uint32, deferred bool) (*File, error) {
	if !littleEndian {
		return nil, ErrBigEndian
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("binfmt: %w", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, fmt.Errorf("binfmt: %w", err)
	}
	size := st.Size()
	if size < 0 || uint64(size) > uint64(^uint(0)>>1) {
		return nil, fmt.Errorf("binfmt: %s: file too large", path)
	}
	if size < headerSize+checksumSize {
		// Too short for a header: read it to say why.
		buf := alignedBuffer(int(size))
		if _, err := io.ReadFull(fh, buf); err != nil {
			return nil, fmt.Errorf("binfmt: read %s: %w", path, err)
		}
		_, err := parse(buf, magic, version, memoryChecksum)
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	data, mapped, err := mapFile(fh, int(size))
	if err != nil {
		return nil, fmt.Errorf("binfmt: map %s: %w", path, err)
	}
	sum := memoryChecksum
	if mapped {
		sum = func(body []byte) (uint32, error) { return fileChecksum(fh, int64(len(body))) }
	}
	check := sum
	if deferred {
		// The stored checksum is taken as right for now; Verify reads
		// the file and compares.
		check = func(body []byte) (uint32, error) {
			return binary.LittleEndian.Uint32(data[len(body):]), nil
		}
	}
	f, err := parse(data, magic, version, check)
	if err != nil {
		if mapped {
			unmap(data)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.mapped = mapped
	if deferred {
		f.verify = func() error {
			rh, err := os.Open(path)
			if err != nil {
				return fmt.Errorf("binfmt: verify %s: %w", path, err)
			}
			defer rh.Close()
			n := len(data) - checksumSize
			var got uint32
			if mapped {
				got, err = fileChecksum(rh, int64(n))
			} else {
				got, err = memoryChecksum(data[:n])
			}
			if err != nil {
				return fmt.Errorf("binfmt: verify %s: %w", path, err)
			}
			if want := binary.LittleEndian.Uint32(data[n:]); got != want {
				return fmt.Errorf("%s: %w (crc32c %08x, stored %08x)", path, ErrChecksum, got, want)
			}
			return nil
		}
	}
	return f, nil
}

// memoryChecksum is the CRC-32C of a body in memory.
func memoryChecksum(body []byte) (uint32, error) { return crc32.Checksum(body, castagnoli), nil }

// checksumBufs are the read buffers of fileChecksum, reused: a bundle's
// files are verified one after the other, and a server's heap should not
// keep a buffer per file.
var checksumBufs = sync.Pool{New: func() any { b := make([]byte, 1<<20); return &b }}

// fileChecksum is the CRC-32C of the first n bytes of fh, read in blocks
// of a megabyte.
func fileChecksum(fh *os.File, n int64) (uint32, error) {
	bp := checksumBufs.Get().(*[]byte)
	defer checksumBufs.Put(bp)
	buf := *bp
	var crc uint32
	for off := int64(0); off < n; {
		k := min(int64(len(buf)), n-off)
		if _, err := fh.ReadAt(buf[:k], off); err != nil {
			return 0, err
		}
		crc = crc32.Update(crc, castagnoli, buf[:k])
		off += k
	}
	return crc, nil
}

// Release tells the system that the process does not need the file's
// pages resident any more (after a newer bundle took over): they leave
// the process's resident set, and any later read of the File's slices
// reads them again from the file. Nothing is unmapped, so every slice
// stays valid. A File read into memory is left as it is.
func (f *File) Release() {
	if f.mapped {
		release(f.data)
	}
}

// Mapped reports whether the file is mapped into memory (Open on a
// system that maps files) rather than read into the heap.
func (f *File) Mapped() bool { return f.mapped }

// Parse verifies data as a container, like Open. When data is 8-byte
// aligned the File aliases it (do not modify it afterwards); otherwise it
// is copied once into an aligned buffer.
func Parse(data []byte, magic [8]byte, version uint32) (*File, error) {
	if !littleEndian {
		return nil, ErrBigEndian
	}
	if len(data) > 0 && uintptr(unsafe.Pointer(unsafe.SliceData(data)))%align != 0 {
		buf := alignedBuffer(len(data))
		copy(buf, data)
		data = buf
	}
	return parse(data, magic, version, memoryChecksum)
}

// alignedBuffer returns an 8-byte aligned byte slice of length n.
func alignedBuffer(n int) []byte {
	if n == 0 {
		return []byte{}
	}
	words := make([]uint64, (n+align-1)/align)
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), n)
}

func magicString(m []byte) string {
	return string(bytes.TrimRight(m, "\x00"))
}

// parse verifies data as a container; checksum computes the CRC-32C of
// the body (everything before the stored checksum).
func parse(data []byte, magic [8]byte, version uint32, checksum func(body []byte) (uint32, error)) (*File, error) {
	n := uint64(len(data))
	if n < 8 {
		return nil, fmt.Errorf("%w: %d bytes, shorter than the %d-byte header", ErrTruncated, n, headerSize)
	}
	if !bytes.Equal(data[:8], magic[:]) {
		return nil, fmt.Errorf("%w: not a geosvc %s file (magic %q)", ErrBadMagic, magicString(magic[:]), data[:8])
	}
	if n < headerSize {
		return nil, fmt.Errorf("%w: %d bytes, shorter than the %d-byte header", ErrTruncated, n, headerSize)
	}
	le := binary.LittleEndian
	if v := le.Uint32(data[8:]); v != version {
		return nil, fmt.Errorf("%w: bundle format version %d, this build reads %d: rebuild with `geosvc build`", ErrVersion, v, version)
	}
	count := uint64(le.Uint32(data[12:]))
	fileSize := le.Uint64(data[16:])
	tableSize := uint64(le.Uint32(data[24:]))
	if fileSize < n {
		return nil, fmt.Errorf("%w: %d bytes of trailing data after the %d-byte file", ErrCorrupt, n-fileSize, fileSize)
	}
	if fileSize > n {
		return nil, fmt.Errorf("%w: file has %d bytes, header says %d", ErrTruncated, n, fileSize)
	}
	if n < headerSize+checksumSize {
		return nil, fmt.Errorf("%w: %d bytes, no room for the checksum", ErrTruncated, n)
	}
	body := data[:n-checksumSize]
	got, err := checksum(body)
	if err != nil {
		return nil, fmt.Errorf("binfmt: checksum: %w", err)
	}
	if want := le.Uint32(data[n-checksumSize:]); got != want {
		return nil, fmt.Errorf("%w (crc32c %08x, stored %08x)", ErrChecksum, got, want)
	}
	if count > maxSections || headerSize+tableSize > uint64(len(body)) {
		return nil, fmt.Errorf("%w: section table of %d entries, %d bytes does not fit", ErrCorrupt, count, tableSize)
	}
	f := &File{data: data, version: version, sections: make(map[string]Section, count), order: make([]string, 0, count)}
	table := data[headerSize : headerSize+tableSize]
	dataStart := headerSize + tableSize
	var pos uint64
	for i := uint64(0); i < count; i++ {
		if pos+entryFixed > uint64(len(table)) {
			return nil, fmt.Errorf("%w: section table entry %d out of bounds", ErrCorrupt, i)
		}
		e := table[pos:]
		kind := Kind(e[0])
		nameLen := uint64(le.Uint16(e[2:]))
		off := le.Uint64(e[8:])
		length := le.Uint64(e[16:])
		if pos+entryFixed+nameLen > uint64(len(table)) {
			return nil, fmt.Errorf("%w: section table entry %d name out of bounds", ErrCorrupt, i)
		}
		name := string(e[entryFixed : entryFixed+nameLen])
		pos = pad8(pos + entryFixed + nameLen)
		sz := kind.size()
		switch {
		case sz == 0:
			return nil, fmt.Errorf("%w: section %q has unknown kind %d", ErrCorrupt, name, uint8(kind))
		case off%align != 0 || off < dataStart || off > uint64(len(body)) || length > uint64(len(body))-off:
			return nil, fmt.Errorf("%w: section %q (offset %d, %d bytes) outside the file's %d payload bytes", ErrCorrupt, name, off, length, len(body))
		case length%uint64(sz) != 0:
			return nil, fmt.Errorf("%w: section %q length %d is not a multiple of %d", ErrCorrupt, name, length, sz)
		}
		if _, dup := f.sections[name]; dup {
			return nil, fmt.Errorf("%w: duplicate section %q", ErrCorrupt, name)
		}
		f.sections[name] = Section{Name: name, Kind: kind, Offset: off, Length: length}
		f.order = append(f.order, name)
	}
	return f, nil
}

// Version returns the format version the file was written with.
func (f *File) Version() uint32 { return f.version }

// Size returns the file size in bytes.
func (f *File) Size() int { return len(f.data) }

// Sections lists the sections in file order.
func (f *File) Sections() []Section {
	out := make([]Section, len(f.order))
	for i, name := range f.order {
		out[i] = f.sections[name]
	}
	return out
}

// Has reports whether the file has a section called name.
func (f *File) Has(name string) bool {
	_, ok := f.sections[name]
	return ok
}

func (f *File) payload(name string, kind Kind) ([]byte, error) {
	s, ok := f.sections[name]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrNoSection, name)
	}
	if s.Kind != kind {
		return nil, fmt.Errorf("%w: section %q holds %s, not %s", ErrKind, name, s.Kind, kind)
	}
	return f.data[s.Offset : s.Offset+s.Length : s.Offset+s.Length], nil
}

func get[T any](f *File, name string, kind Kind) ([]T, error) {
	b, err := f.payload(name, kind)
	if err != nil {
		return nil, err
	}
	return sliceOf[T](b), nil
}

// Uint8s returns the byte section name, aliasing the file buffer.
func (f *File) Uint8s(name string) ([]uint8, error) {
	return f.payload(name, KindUint8)
}

// Uint32s returns the uint32 section name, aliasing the file buffer.
func (f *File) Uint32s(name string) ([]uint32, error) { return get[uint32](f, name, KindUint32) }

// Int32s returns the int32 section name, aliasing the file buffer.
func (f *File) Int32s(name string) ([]int32, error) { return get[int32](f, name, KindInt32) }

// Uint64s returns the uint64 section name, aliasing the file buffer.
func (f *File) Uint64s(name string) ([]uint64, error) { return get[uint64](f, name, KindUint64) }

// Int64s returns the int64 section name, aliasing the file buffer.
func (f *File) Int64s(name string) ([]int64, error) { return get[int64](f, name, KindInt64) }

// Float32s returns the float32 section name, aliasing the file buffer.
func (f *File) Float32s(name string) ([]float32, error) { return get[float32](f, name, KindFloat32) }

// Float64s returns the float64 section name, aliasing the file buffer.
func (f *File) Float64s(name string) ([]float64, error) { return get[float64](f, name, KindFloat64) }

// Strings returns the string table name. The strings alias the file
// buffer; only the []string itself is allocated.
func (f *File) Strings(name string) ([]string, error) {
	b, err := f.payload(name, KindStrings)
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	if len(b) < 8 {
		return nil, fmt.Errorf("%w: string table %q has no count", ErrCorrupt, name)
	}
	count := le.Uint64(b)
	if count > uint64(len(b))/8 || 8+(count+1)*8 > uint64(len(b)) {
		return nil, fmt.Errorf("%w: string table %q: %d strings do not fit in %d bytes", ErrCorrupt, name, count, len(b))
	}
	offs := sliceOf[uint64](b[8 : 8+(count+1)*8])
	blob := b[8+(count+1)*8:]
	if offs[0] != 0 || offs[count] != uint64(len(blob)) {
		return nil, fmt.Errorf("%w: string table %q: offsets do not span the blob", ErrCorrupt, name)
	}
	out := make([]string, count)
	for i := range out {
		lo, hi := offs[i], offs[i+1]
		if lo > hi || hi > uint64(len(blob)) {
			return nil, fmt.Errorf("%w: string table %q: bad offset at %d", ErrCorrupt, name, i)
		}
		if hi > lo {
			out[i] = unsafe.String(&blob[lo], hi-lo)
		}
	}
	return out, nil
}

// JSON decodes the JSON section name into v.
func (f *File) JSON(name string, v any) error {
	b, err := f.payload(name, KindJSON)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("binfmt: section %q: %w", name, err)
	}
	return nil
}
