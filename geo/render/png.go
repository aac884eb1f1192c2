package render

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"io"
)

// writePNG writes img as a PNG: 8-bit RGB when it is opaque (a map
// always is), else RGBA, every row with the Up filter and zlib at best
// speed. image/png picks each row's filter by trying all five, which is
// most of its time on a map; Up alone compresses maps about as well.
func writePNG(w io.Writer, img *image.RGBA) error {
	b := img.Rect
	width, height := b.Dx(), b.Dy()
	opaque := img.Opaque()
	bpp := 4
	colorType := byte(6)
	if opaque {
		bpp, colorType = 3, 2
	}
	var hdr [13]byte
	binary.BigEndian.PutUint32(hdr[0:], uint32(width))
	binary.BigEndian.PutUint32(hdr[4:], uint32(height))
	hdr[8], hdr[9] = 8, colorType // bit depth, colour type; compression, filter, interlace 0
	if _, err := io.WriteString(w, "\x89PNG\r\n\x1a\n"); err != nil {
		return err
	}
	if err := writeChunk(w, "IHDR", hdr[:]); err != nil {
		return err
	}
	cw := &chunkWriter{w: w}
	bw := bufio.NewWriterSize(cw, 1<<16)
	zw, err := zlib.NewWriterLevel(bw, zlib.BestSpeed)
	if err != nil {
		return err
	}
	row := make([]byte, 1+width*bpp)
	prev := make([]byte, width*bpp)
	cur := make([]byte, width*bpp)
	row[0] = 2 // Up
	for y := 0; y < height; y++ {
		src := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):]
		if opaque {
			for x := 0; x < width; x++ {
				copy(cur[3*x:3*x+3], src[4*x:4*x+3])
			}
		} else {
			// image.RGBA is alpha-premultiplied; PNG is not.
			for x := 0; x < width; x++ {
				p := src[4*x : 4*x+4]
				a := uint32(p[3])
				if a == 0 || a == 255 {
					copy(cur[4*x:4*x+4], p)
					continue
				}
				// As color.NRGBAModel does, in 16 bits.
				a16 := a * 0x101
				cur[4*x] = uint8((uint32(p[0]) * 0x101 * 0xffff / a16) >> 8)
				cur[4*x+1] = uint8((uint32(p[1]) * 0x101 * 0xffff / a16) >> 8)
				cur[4*x+2] = uint8((uint32(p[2]) * 0x101 * 0xffff / a16) >> 8)
				cur[4*x+3] = p[3]
			}
		}
		for i, v := range cur {
			row[1+i] = v - prev[i]
		}
		if _, err := zw.Write(row); err != nil {
			return err
		}
		prev, cur = cur, prev
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return writeChunk(w, "IEND", nil)
}

// chunkWriter writes what it is given as IDAT chunks.
type chunkWriter struct{ w io.Writer }

func (c *chunkWriter) Write(p []byte) (int, error) {
	if err := writeChunk(c.w, "IDAT", p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// writeChunk writes a PNG chunk: length, type, data, CRC of type and data.
func writeChunk(w io.Writer, typ string, data []byte) error {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], typ)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	crc.Write(data)
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], crc.Sum32())
	for _, b := range [][]byte{head[:], data, tail[:]} {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}
