package binfmt

import "sync"

// Deferred holds the checks a layer opened with OpenDeferred leaves for
// later: the file's checksum (File.Verify), then the layer's own
// whole-file check (every reference in range), then letting go of the
// pages they read. A server opens its bundle so, answers at once and
// verifies in the background; a corrupt file stops it (docs/scale.md).
// The zero Deferred (a layer opened and checked at once) verifies as nil.
type Deferred struct {
	file  *File
	check func() error
	once  sync.Once
	err   error
}

// Defer records the checks of a layer opened from f with OpenDeferred.
func Defer(f *File, check func() error) *Deferred {
	return &Deferred{file: f, check: check}
}

// Verify runs the recorded checks once and returns their first error
// (every later call returns the same); nil on a nil Deferred.
func (d *Deferred) Verify() error {
	if d == nil || d.file == nil {
		return nil
	}
	d.once.Do(func() {
		if d.err = d.file.Verify(); d.err != nil {
			return
		}
		if d.check != nil {
			d.err = d.check()
		}
		// The checks read most of the file: its pages leave the
		// resident set again (they stay in the page cache) until
		// queries touch them.
		d.file.Release()
	})
	return d.err
}
