//go:build unix

package binfmt

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only and shared.
func mapFile(f *os.File, size int) ([]byte, bool, error) {
	data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, false, err
	}
	return data, true, nil
}

// unmap unmaps a mapping no slice refers to yet.
func unmap(data []byte) { _ = syscall.Munmap(data) }

// release drops the mapping's pages from the resident set; they are
// read again from the file if touched.
func release(data []byte) { _ = syscall.Madvise(data, syscall.MADV_DONTNEED) }
