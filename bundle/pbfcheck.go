package bundle

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// checkPBF walks the block framing of a file named .pbf before a build
// reads it (lengths and headers only, nothing decompressed: a second for
// a country): a file that is not a PBF, or one cut short (a download that
// stopped), is an error that says so, rather than a decoder's message
// half way through the build. Other formats pass unchecked.
func checkPBF(path string) error {
	if !strings.HasSuffix(strings.ToLower(path), ".pbf") {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	name := filepath.Base(path)
	r := bufio.NewReaderSize(f, 1<<16)
	var off int64
	for blocks := 0; ; blocks++ {
		var n [4]byte
		if _, err := io.ReadFull(r, n[:]); err == io.EOF && blocks > 0 {
			return nil
		} else if err != nil {
			return fmt.Errorf("%s is truncated: it ends inside the length of block %d (at byte %d of %d)", name, blocks+1, off, st.Size())
		}
		size := binary.BigEndian.Uint32(n[:])
		if size == 0 || size > 64<<10 {
			if blocks == 0 {
				return fmt.Errorf("%s is not an OpenStreetMap PBF file (its first bytes are no block header)", name)
			}
			return fmt.Errorf("%s is corrupt: block %d at byte %d has a header of %d bytes", name, blocks+1, off, size)
		}
		hdr := make([]byte, size)
		if _, err := io.ReadFull(r, hdr); err != nil {
			return fmt.Errorf("%s is truncated: it ends inside the header of block %d (at byte %d of %d)", name, blocks+1, off, st.Size())
		}
		typ, data, err := blobHeader(hdr)
		if err != nil || blocks == 0 && typ != "OSMHeader" || blocks > 0 && typ != "OSMData" && typ != "OSMHeader" {
			if blocks == 0 {
				return fmt.Errorf("%s is not an OpenStreetMap PBF file (its first block is no OSMHeader)", name)
			}
			return fmt.Errorf("%s is corrupt: block %d at byte %d has a bad header", name, blocks+1, off)
		}
		off += 4 + int64(size)
		if off+data > st.Size() {
			return fmt.Errorf("%s is truncated: block %d needs %d bytes from byte %d, the file has %d", name, blocks+1, data, off, st.Size())
		}
		if _, err := r.Discard(int(data)); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		off += data
	}
}

// blobHeader reads the type (field 1) and the data size (field 3) of a
// PBF BlobHeader message.
func blobHeader(b []byte) (typ string, size int64, err error) {
	bad := errors.New("bad blob header")
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			return "", 0, bad
		}
		b = b[n:]
		switch field, wire := key>>3, key&7; wire {
		case 0:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return "", 0, bad
			}
			b = b[n:]
			if field == 3 {
				size = int64(v)
			}
		case 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				return "", 0, bad
			}
			if field == 1 {
				typ = string(b[n : n+int(l)])
			}
			b = b[n+int(l):]
		default:
			return "", 0, bad
		}
	}
	if typ == "" || size <= 0 || size > 32<<20 {
		return "", 0, bad
	}
	return typ, size, nil
}
