package progress

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// FileRead returns a Fraction of how far this process has read path: the
// largest offset of the descriptors it has open on that file, over the
// file's size (Linux's /proc/self/fdinfo; elsewhere, or while the file is
// not open, the fraction is unknown). Readers need no hook of their own, so
// every pass over an OSM extract shows its progress.
func FileRead(path string) Fraction {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	if p, err := filepath.EvalSymlinks(abs); err == nil {
		abs = p
	}
	fi, err := os.Stat(abs)
	if err != nil || fi.Size() == 0 {
		return nil
	}
	size := float64(fi.Size())
	return func() (float64, bool) {
		pos, ok := readOffset(abs)
		if !ok {
			return 0, false
		}
		return float64(pos) / size, true
	}
}

// readOffset returns the largest file offset of this process's descriptors
// open on path.
func readOffset(path string) (int64, bool) {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0, false
	}
	best, found := int64(0), false
	for _, fd := range fds {
		target, err := os.Readlink("/proc/self/fd/" + fd.Name())
		if err != nil || target != path {
			continue
		}
		info, err := os.ReadFile("/proc/self/fdinfo/" + fd.Name())
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(info), "\n") {
			v, ok := strings.CutPrefix(line, "pos:")
			if !ok {
				continue
			}
			if pos, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				best, found = max(best, pos), true
			}
		}
	}
	return best, found
}
