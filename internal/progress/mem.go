package progress

import (
	"bufio"
	"bytes"
	"os"
	"runtime/debug"
	"strconv"
)

// peakRSS reads the process's peak resident set size (VmHWM) from
// /proc/self/status; ok is false on systems without it.
func peakRSS() (int64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	return parseVmHWM(b)
}

// parseVmHWM finds the "VmHWM: N kB" line of a /proc status file.
func parseVmHWM(b []byte) (int64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) >= 2 && string(f[0]) == "VmHWM:" {
			kb, err := strconv.ParseInt(string(f[1]), 10, 64)
			if err != nil {
				return 0, false
			}
			return kb << 10, true
		}
	}
	return 0, false
}

// resetPeakRSS starts a new peak: the memory the Go runtime holds but no
// longer uses goes back to the system (a garbage collection), then
// writing 5 to /proc/self/clear_refs resets VmHWM to the current resident
// set (Linux 4.0 and later). Where it cannot, peaks run from the
// process's start.
func resetPeakRSS() {
	if _, ok := peakRSS(); !ok {
		return
	}
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}
