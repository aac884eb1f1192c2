//go:build !unix

package binfmt

import (
	"io"
	"os"
)

// mapFile reads the first size bytes of f into an aligned buffer where
// files cannot be mapped.
func mapFile(f *os.File, size int) ([]byte, bool, error) {
	buf := alignedBuffer(size)
	if _, err := io.ReadFull(f, buf); err != nil {
		return nil, false, err
	}
	return buf, false, nil
}

func unmap([]byte)   {}
func release([]byte) {}
