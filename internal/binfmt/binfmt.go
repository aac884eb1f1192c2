// Package binfmt owns geosvc's versioned, checksummed binary container: the
// file format every bundle layer (road graph, contraction hierarchies,
// snapping index, ...) is written in so that servers load it in one read
// without parsing anything.
//
// A file is a fixed header (caller-chosen 8-byte magic, caller-chosen format
// version, section count, total size), a section table (name, element kind,
// byte offset, byte length), the section payloads, each 8-byte aligned, and
// a trailing CRC-32 (Castagnoli) over everything before it. All integers are
// little-endian; the package refuses big-endian hosts.
//
// Typed getters on a File return slices that alias the file buffer: nothing
// is copied or decoded on load, and the slices must be treated as read-only.
package binfmt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"unsafe"
)

// Sentinel errors, usable with errors.Is on every error Open and Parse
// return.
var (
	// ErrBadMagic: the data is not a file of the expected kind.
	ErrBadMagic = errors.New("binfmt: bad magic")
	// ErrVersion: the file was written by another format version.
	ErrVersion = errors.New("binfmt: unsupported format version")
	// ErrTruncated: the data is shorter than the header says.
	ErrTruncated = errors.New("binfmt: truncated")
	// ErrChecksum: the trailing CRC-32 does not match the content.
	ErrChecksum = errors.New("binfmt: checksum mismatch: file corrupt")
	// ErrCorrupt: the checksum matches but the header or section table is
	// inconsistent (a writer bug or a crafted file).
	ErrCorrupt = errors.New("binfmt: corrupt file")
	// ErrNoSection: a getter asked for a section the file does not have.
	ErrNoSection = errors.New("binfmt: no such section")
	// ErrKind: a getter asked for a section of another element kind.
	ErrKind = errors.New("binfmt: wrong section kind")
	// ErrBigEndian: the host is big-endian; the format is little-endian
	// and read without conversion.
	ErrBigEndian = errors.New("binfmt: big-endian hosts are not supported (the format is little-endian and memory-mapped as is)")
)

// Kind is the element kind of a section.
type Kind uint8

// Element kinds.
const (
	KindUint8 Kind = iota + 1
	KindUint32
	KindInt32
	KindUint64
	KindInt64
	KindFloat32
	KindFloat64
	// KindStrings is a string table: count, count+1 uint64 offsets, blob.
	KindStrings
	// KindJSON is one JSON document.
	KindJSON
)

var kindNames = [...]string{
	KindUint8:   "uint8",
	KindUint32:  "uint32",
	KindInt32:   "int32",
	KindUint64:  "uint64",
	KindInt64:   "int64",
	KindFloat32: "float32",
	KindFloat64: "float64",
	KindStrings: "strings",
	KindJSON:    "json",
}

// String returns the kind's name, e.g. "uint32".
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// size returns the element size in bytes (1 for strings and JSON, whose
// payload is checked separately), or 0 for an unknown kind.
func (k Kind) size() int {
	switch k {
	case KindUint8, KindStrings, KindJSON:
		return 1
	case KindUint32, KindInt32, KindFloat32:
		return 4
	case KindUint64, KindInt64, KindFloat64:
		return 8
	}
	return 0
}

// Layout constants.
const (
	headerSize   = 32 // magic 8, version 4, count 4, file size 8, table size 4, reserved 4
	entryFixed   = 24 // kind 1, reserved 1, name length 2, reserved 4, offset 8, length 8
	checksumSize = 4
	align        = 8
	// MaxNameLen is the longest section name.
	MaxNameLen = 1024
	// maxSections bounds the section count a reader accepts.
	maxSections = 1 << 16
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

func pad8(n uint64) uint64 { return (n + align - 1) &^ (align - 1) }

// bytesOf returns the bytes of a slice of fixed-size elements, without
// copying.
func bytesOf[T any](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*int(unsafe.Sizeof(zero)))
}

// sliceOf views b (8-byte aligned, a multiple of the element size) as a
// slice of T, without copying.
func sliceOf[T any](b []byte) []T {
	var zero T
	n := len(b) / int(unsafe.Sizeof(zero))
	if n == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}
