package api

import (
	"compress/gzip"
	"io"
	"strings"
)

// writeGzip gzips what produce writes to w. Producing (reading chunks and
// formatting numbers) and compressing run on two goroutines, so a large
// body costs about the longer of the two rather than their sum.
func writeGzip(w io.Writer, level int, produce func(io.Writer) error) error {
	gz, err := gzip.NewWriterLevel(w, level)
	if err != nil {
		return err
	}
	aw := newAsyncWriter(gz)
	err = produce(aw)
	if cerr := aw.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return gz.Close()
}

// asyncWriter hands copies of its writes to a goroutine that writes them to
// the underlying writer, a few buffers ahead.
type asyncWriter struct {
	w    io.Writer
	bufs chan []byte
	free chan []byte
	done chan error
	err  error
}

// newAsyncWriter starts the goroutine writing to w.
func newAsyncWriter(w io.Writer) *asyncWriter {
	a := &asyncWriter{w: w, bufs: make(chan []byte, 4), free: make(chan []byte, 6), done: make(chan error, 1)}
	go func() {
		var err error
		for b := range a.bufs {
			if err == nil {
				_, err = a.w.Write(b)
			}
			a.free <- b[:0]
		}
		a.done <- err
	}()
	return a
}

// Write queues a copy of p. An error of the underlying writer surfaces at
// Close.
func (a *asyncWriter) Write(p []byte) (int, error) {
	var b []byte
	select {
	case b = <-a.free:
	default:
	}
	a.bufs <- append(b, p...)
	return len(p), nil
}

// Close waits until everything queued is written and returns the first
// error of the underlying writer.
func (a *asyncWriter) Close() error {
	if a.bufs != nil {
		close(a.bufs)
		a.err = <-a.done
		a.bufs = nil
	}
	return a.err
}

// acceptsGzip reports whether an Accept-Encoding header admits gzip.
func acceptsGzip(header string) bool {
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.TrimSpace(name) != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}
