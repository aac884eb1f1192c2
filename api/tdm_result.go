package api

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/geosvc/geosvc/queue"
)

// resultWindowBytes is about how much of a matrix one Redis read fetches
// while the previous window is being encoded (a variable for tests).
var resultWindowBytes = 1 << 20

// cellBytes is about how many bytes one cell takes in a stored chunk (JSON
// text: digits and a comma).
const cellBytes = 6

// chunkSource reads the stored blobs of a finished job; *queue.Result is
// one.
type chunkSource interface {
	Chunks(ctx context.Context, kind queue.Kind, from, n int) ([][]byte, error)
}

// resultStream writes a finished job as JSON straight from its stored
// chunks, whose rows are JSON text already (queue.EncodeRows), one window of chunks in memory at a time (plus the one being
// read ahead), never the whole matrix or the whole body.
type resultStream struct {
	res    *queue.Result
	src    chunkSource
	window int // chunks per read
	first  *batch
}

// batch is one read of chunk blobs, or the error that ended the reads.
type batch struct {
	blobs [][]byte
	err   error
}

// newResultStream prepares the stream of r and reads its first window, so
// that an expired or unreadable result is known before anything is
// written.
func newResultStream(ctx context.Context, r *queue.Result, src chunkSource) (*resultStream, error) {
	j := r.Job
	chunkBytes := max(1, cellBytes*j.ChunkRows*j.Cols)
	s := &resultStream{res: r, src: src, window: max(1, resultWindowBytes/chunkBytes)}
	blobs, err := src.Chunks(ctx, s.kinds()[0], 0, min(s.window, j.Chunks))
	if err != nil {
		return nil, err
	}
	s.first = &batch{blobs: blobs}
	return s, nil
}

// kinds lists the matrices to write, in the order of the body; a job has
// at least one.
func (s *resultStream) kinds() []queue.Kind {
	var k []queue.Kind
	if s.res.Job.Outputs.Has(queue.OutDistance) {
		k = append(k, queue.KindDistance)
	}
	if s.res.Job.Outputs.Has(queue.OutDuration) {
		k = append(k, queue.KindDuration)
	}
	if len(k) == 0 {
		k = append(k, queue.KindDistance, queue.KindDuration)
	}
	return k
}

// read streams the blobs of kind, chunk by chunk, reading one window ahead.
// The channel closes after the last chunk or after an error batch.
func (s *resultStream) read(ctx context.Context, kind queue.Kind, first *batch) <-chan batch {
	out := make(chan batch, 1)
	go func() {
		defer close(out)
		from := 0
		for from < s.res.Job.Chunks {
			b := first
			first = nil
			n := min(s.window, s.res.Job.Chunks-from)
			if b == nil {
				blobs, err := s.src.Chunks(ctx, kind, from, n)
				b = &batch{blobs: blobs, err: err}
			}
			select {
			case out <- *b:
			case <-ctx.Done():
				return
			}
			if b.err != nil {
				return
			}
			from += n
		}
	}()
	return out
}

// WriteTo writes the body to w: uuid, status, routing, the addresses as
// sent, the wanted matrices (null where there is no route), the estimated
// cells of a job with a fallback speed and the snapping report.
func (s *resultStream) WriteTo(ctx context.Context, w io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := s.writeHead(bw); err != nil {
		return err
	}
	first := s.first
	for _, kind := range s.kinds() {
		name := "distance"
		if kind == queue.KindDuration {
			name = "duration"
		}
		bw.WriteString(`,"` + name + `":[`)
		n := 0
		for b := range s.read(ctx, kind, first) {
			if b.err != nil {
				return b.err
			}
			for _, blob := range b.blobs {
				if n > 0 {
					bw.WriteByte(',')
				}
				if _, err := bw.Write(blob); err != nil {
					return err
				}
				n++
			}
		}
		bw.WriteByte(']')
		first = nil
	}
	if s.res.Fallback {
		if err := s.writeEstimated(ctx, bw); err != nil {
			return err
		}
	}
	if err := s.writeSnapping(ctx, bw); err != nil {
		return err
	}
	bw.WriteByte('}')
	return bw.Flush()
}

// writeEstimated writes the "estimated" member of a job with a fallback
// speed: the [row, column] pairs of the cells the fallback filled, joined
// from the chunks' stored pairs (an empty list when there are none).
func (s *resultStream) writeEstimated(ctx context.Context, bw *bufio.Writer) error {
	bw.WriteString(`,"estimated":[`)
	n := 0
	for b := range s.read(ctx, queue.KindEstimated, nil) {
		if b.err != nil {
			return b.err
		}
		for _, blob := range b.blobs {
			if len(blob) == 0 {
				continue
			}
			if n > 0 {
				bw.WriteByte(',')
			}
			if _, err := bw.Write(blob); err != nil {
				return err
			}
			n++
		}
	}
	return bw.WriteByte(']')
}

// writeHead writes the body's members before the matrices: uuid, status,
// routing, the data bundle's id when the job recorded one, and the
// addresses as sent (the opening brace, no closing one).
func (s *resultStream) writeHead(bw *bufio.Writer) error {
	j := s.res.Job
	buf := make([]byte, 0, 256)
	buf = append(buf, `{"uuid":"`...)
	buf = append(buf, j.ID...)
	buf = append(buf, `","status":"`...)
	buf = append(buf, j.Status...)
	buf = append(buf, `","routing":"`...)
	base, _, _ := strings.Cut(j.Routing, ";") // the option, without speeds or avoid
	buf = append(buf, base...)
	if j.Bundle != "" {
		buf = append(buf, `","bundle":"`...)
		buf = append(buf, j.Bundle...)
	}
	if v := speedVersionOf(j.Routing); v != "" {
		buf = append(buf, `","speed_version":"`...)
		buf = append(buf, v...)
	}
	if j.Departure != "" {
		// Both are the server's own: an RFC 3339 time and an IANA zone
		// name (letters, digits, '/', '_', '-', '+'), nothing to escape.
		buf = append(buf, `","departure_time":"`...)
		buf = append(buf, j.Departure...)
		buf = append(buf, `","time_zone":"`...)
		buf = append(buf, j.TimeZone...)
	}
	buf = append(buf, `","origin_addresses":`...)
	bw.Write(buf)
	if err := writeJSON(bw, s.res.Origins); err != nil {
		return err
	}
	bw.WriteString(`,"destination_addresses":`)
	return writeJSON(bw, s.res.Destinations)
}

// WriteNDJSON writes the result as newline-delimited JSON, for clients
// that cannot hold a whole matrix: a first line with the job's members
// but the matrices (uuid, status, routing, addresses, snapping), then one
// line per origin row, {"row": i, "duration": [...], "distance": [...]}
// (a matrix the order did not ask for left out), copied from the stored
// rows a window of chunks at a time; with a fallback speed each row also
// lists the columns of its estimated cells, "estimated": [j, ...].
func (s *resultStream) WriteNDJSON(ctx context.Context, w io.Writer) error {
	j := s.res.Job
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := s.writeHead(bw); err != nil {
		return err
	}
	if err := s.writeSnapping(ctx, bw); err != nil {
		return err
	}
	bw.WriteString("}\n")
	type matrix struct {
		kind queue.Kind
		name string
		rest []byte
	}
	var ms []*matrix
	if j.Outputs.Has(queue.OutDuration) {
		ms = append(ms, &matrix{kind: queue.KindDuration, name: `,"duration":`})
	}
	if j.Outputs.Has(queue.OutDistance) {
		ms = append(ms, &matrix{kind: queue.KindDistance, name: `,"distance":`})
	}
	blobs := make([][][]byte, len(ms))
	buf := make([]byte, 0, 32)
	row := 0
	var estimated [][]byte // per chunk of the window, with a fallback speed
	var pairs [][2]int     // the current chunk's estimated cells
	for from := 0; from < j.Chunks; from += s.window {
		n := min(s.window, j.Chunks-from)
		for k, m := range ms {
			var err error
			if blobs[k], err = s.src.Chunks(ctx, m.kind, from, n); err != nil {
				return err
			}
		}
		if s.res.Fallback {
			var err error
			if estimated, err = s.src.Chunks(ctx, queue.KindEstimated, from, n); err != nil {
				return err
			}
		}
		for c := range n {
			for k, m := range ms {
				m.rest = blobs[k][c]
			}
			if s.res.Fallback {
				var err error
				if pairs, err = queue.DecodePairs(estimated[c]); err != nil {
					return err
				}
			}
			lo, hi := queue.ChunkRange(j.Rows, j.ChunkRows, from+c)
			for ; row < hi; row++ {
				buf = append(buf[:0], `{"row":`...)
				buf = strconv.AppendInt(buf, int64(row), 10)
				bw.Write(buf)
				for _, m := range ms {
					var r []byte
					if r, m.rest = queue.NextRow(m.rest); r == nil {
						return fmt.Errorf("api: job %s chunk %d holds fewer than its %d rows", j.ID, from+c, hi-lo)
					}
					bw.WriteString(m.name)
					if _, err := bw.Write(r); err != nil {
						return err
					}
				}
				if s.res.Fallback {
					// The columns of this row's estimated cells.
					buf = append(buf[:0], `,"estimated":[`...)
					for k := 0; len(pairs) > 0 && pairs[0][0] == row; k++ {
						if k > 0 {
							buf = append(buf, ',')
						}
						buf = strconv.AppendInt(buf, int64(pairs[0][1]), 10)
						pairs = pairs[1:]
					}
					bw.Write(append(buf, ']'))
				}
				bw.WriteString("}\n")
			}
		}
		clear(blobs)
	}
	return bw.Flush()
}

// writeSnapping writes the "snapping" member: per origin and destination,
// whether it was snapped to a road and how many metres it moved.
func (s *resultStream) writeSnapping(ctx context.Context, bw *bufio.Writer) error {
	blobs, err := s.src.Chunks(ctx, queue.KindOriginSnap, 0, s.res.Job.Chunks)
	if err != nil {
		return err
	}
	var origins []float32
	for _, b := range blobs {
		origins = append(origins, queue.DecodeFloat32s(b)...)
	}
	bw.WriteString(`,"snapping":{"origins":`)
	bw.Write(appendSnaps(nil, origins))
	bw.WriteString(`,"destinations":`)
	bw.Write(appendSnaps(nil, s.res.DestinationSnaps))
	return bw.WriteByte('}')
}

// snapReport is one entry of the snapping report.
type snapReport struct {
	Snapped bool     `json:"snapped"`
	MovedM  *float64 `json:"moved_m,omitempty"`
	// Hint says why a point may not have snapped.
	Hint string `json:"hint,omitempty"`
}

// swappedHint is the hint beside a point that snapped only when read as
// lat,lon.
const swappedHint = "looks like lat,lon: addresses are lon,lat"

// newSnapReport turns a stored snapping distance into its report entry.
func newSnapReport(m float32) snapReport {
	if m == queue.NotSnappedSwapped {
		return snapReport{Hint: swappedHint}
	}
	if m < 0 {
		return snapReport{}
	}
	v := math.Round(float64(m)*100) / 100
	return snapReport{Snapped: true, MovedM: &v}
}

// appendSnaps appends the snapping entries of moved as a JSON array.
func appendSnaps(buf []byte, moved []float32) []byte {
	buf = append(buf, '[')
	for i, m := range moved {
		if i > 0 {
			buf = append(buf, ',')
		}
		r := newSnapReport(m)
		if !r.Snapped {
			if r.Hint != "" {
				buf = append(buf, `{"snapped":false,"hint":"`+swappedHint+`"}`...)
				continue
			}
			buf = append(buf, `{"snapped":false}`...)
			continue
		}
		buf = append(buf, `{"snapped":true,"moved_m":`...)
		buf = strconv.AppendFloat(buf, *r.MovedM, 'f', -1, 64)
		buf = append(buf, '}')
	}
	return append(buf, ']')
}

// writeJSON writes v as compact JSON.
func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
