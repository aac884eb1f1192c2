package api

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
)

// gzipPrefix is the start of a gzip member whose body begins with a
// constant text: the gzip header, then the text deflated and flushed to a
// byte boundary (a sync flush, no final block). A request completes it
// with its own tail (gzipTail), so a large constant part, such as a
// country's polygon, is compressed once and each answer costs a copy and a
// checksum of its tail only.
type gzipPrefix struct {
	// member is the gzip header and the deflated text.
	member []byte
	// crc is the CRC-32 of the text, n its length.
	crc uint32
	n   int
}

// gzipHeader is a gzip member header: deflate, no name, no time, unknown
// OS (RFC 1952).
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}

// newGzipPrefix compresses text, the constant start of every body it
// will begin, at level (compress/flate's).
func newGzipPrefix(level int, text ...[]byte) (*gzipPrefix, error) {
	var b bytes.Buffer
	b.Write(gzipHeader)
	fw, err := flate.NewWriter(&b, level)
	if err != nil {
		return nil, err
	}
	p := &gzipPrefix{}
	for _, t := range text {
		if _, err := fw.Write(t); err != nil {
			return nil, err
		}
		p.crc = crc32.Update(p.crc, crc32.IEEETable, t)
		p.n += len(t)
	}
	// A sync flush ends the blocks written so far and aligns the stream
	// to a byte, where a stored block can follow.
	if err := fw.Flush(); err != nil {
		return nil, err
	}
	p.member = b.Bytes()
	return p, nil
}

// appendTail appends to b the end of the member begun by p: tail in
// stored (uncompressed) final blocks, then the checksum and length of
// the whole text. The stored blocks cost 5 bytes per 65,535 of tail; the
// tails this is for (properties and a time stamp) are a few hundred bytes.
func (p *gzipPrefix) appendTail(b, tail []byte) []byte {
	crc := crc32.Update(p.crc, crc32.IEEETable, tail)
	n := p.n + len(tail)
	for {
		k := min(len(tail), 0xffff)
		final := byte(0)
		if k == len(tail) {
			final = 1
		}
		// A stored block: BFINAL and BTYPE 00 in a byte of its own, then
		// LEN and its complement, then the bytes.
		b = append(b, final)
		b = binary.LittleEndian.AppendUint16(b, uint16(k))
		b = binary.LittleEndian.AppendUint16(b, ^uint16(k))
		b = append(b, tail[:k]...)
		tail = tail[k:]
		if final == 1 {
			break
		}
	}
	b = binary.LittleEndian.AppendUint32(b, crc)
	return binary.LittleEndian.AppendUint32(b, uint32(n))
}
