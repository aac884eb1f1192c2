//go:build !unix

package progress

// usage is unknown on this system.
func usage() (cpu float64, majflt int64, ok bool) { return 0, 0, false }
