package bundle

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// pbfMemoryFactor is what a build needs in memory at its peak per byte of
// PBF extract, measured (BENCHMARKS.md, "Country scale"): the peak RSS of
// the stage that holds the most, over the extract's size, with a margin.
const pbfMemoryFactor = 16

// memoryNeed estimates the peak memory a build of the extract at path
// needs, from its size; 0 for formats the estimate does not cover (XML).
func memoryNeed(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil || !isPBF(path) {
		return 0
	}
	return fi.Size() * pbfMemoryFactor
}

// available returns the memory the system says is available to a new
// process (MemAvailable of /proc/meminfo), 0 where it cannot tell.
func available() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) >= 2 && string(f[0]) == "MemAvailable:" {
			kb, err := strconv.ParseInt(string(f[1]), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// checkMemory refuses a build whose estimated need exceeds limit (the
// available memory when limit is 0) with a message that says both, rather
// than letting the system kill it hours in. It returns the limit it
// checked against (0: none known).
func checkMemory(path string, limit int64) (int64, error) {
	given := limit > 0
	if !given {
		limit = available()
	}
	need := memoryNeed(path)
	if need == 0 || limit == 0 || need <= limit {
		return limit, nil
	}
	how := "%.1f GB are available: build it on a machine with more memory, or give a --memory-limit above the estimate to try anyway"
	if given {
		how = "--memory-limit is %.1f GB: raise it, or build on a machine with more memory"
	}
	return limit, fmt.Errorf("building %s needs about %.1f GB of memory (%d bytes per byte of PBF, measured); "+how,
		path, float64(need)/1e9, pbfMemoryFactor, float64(limit)/1e9)
}

// isPBF reports whether path names a PBF file.
func isPBF(path string) bool {
	n := len(path)
	return n > 4 && (path[n-4:] == ".pbf" || path[n-4:] == ".PBF")
}
