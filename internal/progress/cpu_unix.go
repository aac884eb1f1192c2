//go:build unix

package progress

import "syscall"

// usage reads the CPU time (user and system, seconds) and the major page
// faults (pages read from disk) of the process so far; ok is false where
// the system does not tell.
func usage() (cpu float64, majflt int64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, false
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9, int64(ru.Majflt), true
}
