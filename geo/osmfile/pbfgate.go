package osmfile

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
)

// PBF framing limits (the osmpbf decoder's and the format's).
const (
	maxBlobHeaderSize = 64 << 10
	maxBlobSize       = 32 << 20
)

// GatePBF returns a reader that passes the PBF stream r on one file block
// at a time and ends with ErrPlainNodes instead of a block of plain nodes.
// Wrap every PBF stream given to osmpbf.New in it.
func GatePBF(r io.Reader) io.Reader { return &pbfGate{r: r} }

// pbfGate passes a PBF stream on one file block at a time and refuses the
// blocks that would crash the osmpbf decoder. paulmach/osm v0.8.0 panics
// ("nodes are not supported") on a primitive group of plain, non-dense
// nodes, inside a decoder goroutine of its own where no recover of ours can
// reach; so the gate looks into every OSMData block first (decompressing it
// on the side) and, on plain nodes, returns ErrPlainNodes instead of the
// block: the scanner then stops with that error. Blocks it cannot parse
// pass unchanged, for the decoder to report.
type pbfGate struct {
	r   io.Reader
	buf []byte // the current block, served from off
	off int
	err error

	zr io.ReadCloser
	br *bufio.Reader
}

// Read implements io.Reader.
func (g *pbfGate) Read(p []byte) (int, error) {
	for g.off >= len(g.buf) {
		if g.err != nil {
			return 0, g.err
		}
		g.buf, g.off = g.buf[:0], 0
		g.err = g.load()
	}
	n := copy(p, g.buf[g.off:])
	g.off += n
	return n, nil
}

// load reads the next file block into buf, checked.
func (g *pbfGate) load() error {
	var size [4]byte
	if _, err := io.ReadFull(g.r, size[:]); err != nil {
		return err // io.EOF at a block boundary is the normal end
	}
	hl := binary.BigEndian.Uint32(size[:])
	if hl >= maxBlobHeaderSize {
		return fmt.Errorf("corrupt PBF: block header of %d bytes", hl)
	}
	g.buf = append(g.buf, size[:]...)
	header, err := g.readN(int(hl))
	if err != nil {
		return err
	}
	typ, dataSize := parseBlobHeader(header)
	if dataSize < 0 || dataSize >= maxBlobSize {
		return fmt.Errorf("corrupt PBF: block of %d bytes", dataSize)
	}
	blob, err := g.readN(dataSize)
	if err != nil {
		return err
	}
	if typ == "OSMData" {
		plain, err := g.hasPlainNodes(blob)
		if err != nil {
			return err
		}
		if plain {
			g.buf = g.buf[:0]
			return ErrPlainNodes
		}
	}
	return nil
}

// readN appends n bytes of the stream to buf and returns them.
func (g *pbfGate) readN(n int) ([]byte, error) {
	start := len(g.buf)
	g.buf = append(g.buf, make([]byte, n)...)
	if _, err := io.ReadFull(g.r, g.buf[start:]); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("truncated PBF: %w", err)
	}
	return g.buf[start:], nil
}

// parseBlobHeader returns the type and datasize of a BlobHeader message
// (-1 when datasize is missing or the message is malformed).
func parseBlobHeader(b []byte) (typ string, dataSize int) {
	dataSize = -1
	for len(b) > 0 {
		num, wt, n := protowire.ConsumeTag(b)
		if n < 0 {
			return typ, -1
		}
		b = b[n:]
		switch {
		case num == 1 && wt == protowire.BytesType:
			v, m := protowire.ConsumeBytes(b)
			typ, n = string(v), m
		case num == 3 && wt == protowire.VarintType:
			v, m := protowire.ConsumeVarint(b)
			dataSize, n = int(int32(v)), m
		default:
			n = protowire.ConsumeFieldValue(num, wt, b)
		}
		if n < 0 {
			return typ, -1
		}
		b = b[n:]
	}
	return typ, dataSize
}

// hasPlainNodes reports whether a Blob's PrimitiveBlock holds a group of
// plain nodes. Malformed or unsupported blobs report false: the decoder
// returns its own error for them.
func (g *pbfGate) hasPlainNodes(blob []byte) (bool, error) {
	var raw, zdata []byte
	for len(blob) > 0 {
		num, wt, n := protowire.ConsumeTag(blob)
		if n < 0 {
			return false, nil
		}
		blob = blob[n:]
		switch {
		case num == 1 && wt == protowire.BytesType:
			raw, n = protowire.ConsumeBytes(blob)
		case num == 3 && wt == protowire.BytesType:
			zdata, n = protowire.ConsumeBytes(blob)
		default:
			n = protowire.ConsumeFieldValue(num, wt, blob)
		}
		if n < 0 {
			return false, nil
		}
		blob = blob[n:]
	}
	var src io.Reader
	switch {
	case raw != nil:
		src = bytes.NewReader(raw)
	case zdata != nil:
		var err error
		if g.zr == nil {
			g.zr, err = zlib.NewReader(bytes.NewReader(zdata))
		} else {
			err = g.zr.(zlib.Resetter).Reset(bytes.NewReader(zdata), nil)
		}
		if err != nil {
			return false, nil
		}
		src = g.zr
	default:
		return false, nil
	}
	if g.br == nil {
		g.br = bufio.NewReaderSize(src, 32<<10)
	} else {
		g.br.Reset(src)
	}
	return blockHasPlainNodes(&countingReader{r: g.br}), nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bufio.Reader
	n int64
}

// ReadByte implements io.ByteReader.
func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// discard skips k bytes.
func (c *countingReader) discard(k uint64) error {
	if k > maxBlobSize {
		return errors.New("field too long")
	}
	d, err := c.r.Discard(int(k))
	c.n += int64(d)
	return err
}

// skipValue skips a field value of wire type wt.
func (c *countingReader) skipValue(wt uint64) error {
	switch wt {
	case 0:
		_, err := binary.ReadUvarint(c)
		return err
	case 1:
		return c.discard(8)
	case 5:
		return c.discard(4)
	case 2:
		l, err := binary.ReadUvarint(c)
		if err != nil {
			return err
		}
		return c.discard(l)
	}
	return errors.New("unsupported wire type")
}

// blockHasPlainNodes scans a PrimitiveBlock: field 2 are its groups, and a
// group's field 1 is a plain node.
func blockHasPlainNodes(c *countingReader) bool {
	for {
		tag, err := binary.ReadUvarint(c)
		if err != nil {
			return false
		}
		num, wt := tag>>3, tag&7
		if num != 2 || wt != 2 {
			if c.skipValue(wt) != nil {
				return false
			}
			continue
		}
		l, err := binary.ReadUvarint(c)
		if err != nil {
			return false
		}
		end := c.n + int64(l)
		for c.n < end {
			t, err := binary.ReadUvarint(c)
			if err != nil {
				return false
			}
			if t>>3 == 1 {
				return true
			}
			if c.skipValue(t&7) != nil {
				return false
			}
		}
	}
}
