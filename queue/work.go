package queue

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// Begin is called by a worker before it computes chunk i of job id. It
// moves a Queued job to Processing and reports whether the chunk still needs
// computing: run is false when the job is terminal (Finished, Failed,
// Cancelled) or the chunk is already written. A job that no longer exists
// is ErrExpired.
func (q *Queue) Begin(ctx context.Context, id string, i int) (run bool, st Status, err error) {
	// Once the job left Queued (every chunk but the first few), two reads
	// in one round trip answer; only a Queued job needs the script, which
	// moves it to Processing atomically. The answer is advice either way:
	// PutChunk checks the status again when it writes.
	var status *redis.StringCmd
	var done *redis.BoolCmd
	_, err = q.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		status = p.HGet(ctx, q.keys.job(id), "status")
		done = p.SIsMember(ctx, q.keys.done(id), i)
		return nil
	})
	switch {
	case errors.Is(status.Err(), redis.Nil):
		return false, "", ErrExpired
	case err != nil:
		return false, "", fmt.Errorf("queue: begin chunk: %w", err)
	}
	switch st = Status(status.Val()); st {
	case StatusProcessing:
		return !done.Val(), st, nil
	case StatusQueued:
		return q.beginQueued(ctx, id, i)
	}
	return false, st, nil
}

// beginQueued is Begin for a job read as Queued: beginScript moves it to
// Processing (unless another chunk did meanwhile) and reads the chunk's
// state, atomically.
func (q *Queue) beginQueued(ctx context.Context, id string, i int) (run bool, st Status, err error) {
	r, err := beginScript.Run(ctx, q.rdb, []string{q.keys.job(id), q.keys.done(id)},
		i, q.now().UnixMilli()).Text()
	switch {
	case err != nil:
		return false, "", fmt.Errorf("queue: begin chunk: %w", err)
	case r == "gone":
		return false, "", ErrExpired
	case r == "done":
		return false, StatusProcessing, nil
	}
	st = Status(r)
	return st == StatusProcessing, st, nil
}

// specFields are the fields of the job record a Spec is read from.
var specFields = []string{"metric", "outputs", "chunks", "chunk_rows", "pts_o", "pts_d", "bundle", "options", "profile"}

// optionalSpecFields are the fields of specFields a record may lack: jobs
// ordered before they were recorded, without options, or for the car
// (no profile) have none.
var optionalSpecFields = map[string]bool{"bundle": true, "options": true, "profile": true}

// Spec reads what a worker needs to compute the job's chunks.
func (q *Queue) Spec(ctx context.Context, id string) (*Spec, error) {
	v, err := q.rdb.HMGet(ctx, q.keys.job(id), specFields...).Result()
	if err != nil {
		return nil, fmt.Errorf("queue: read job spec: %w", err)
	}
	return parseSpec(id, v)
}

// parseSpec reads a Spec from the values of specFields.
func parseSpec(id string, v []any) (*Spec, error) {
	s := make([]string, len(v))
	for i, x := range v {
		if x == nil && !optionalSpecFields[specFields[i]] {
			return nil, ErrExpired
		}
		s[i], _ = x.(string)
	}
	outputs, _ := strconv.Atoi(s[1])
	chunks, _ := strconv.Atoi(s[2])
	chunkRows, _ := strconv.Atoi(s[3])
	spec := &Spec{
		ID: id, Routing: s[0], Outputs: Outputs(outputs), Chunks: chunks, ChunkRows: chunkRows,
		Origins: decodePoints([]byte(s[4])), Destinations: decodePoints([]byte(s[5])), Bundle: s[6],
		Profile: s[8],
	}
	if chunkRows < 1 || chunks != ChunkCount(len(spec.Origins), chunkRows) || len(spec.Destinations) == 0 {
		return nil, fmt.Errorf("queue: job %s: inconsistent record", id)
	}
	var err error
	if spec.Options, err = decodeOptions(s[7], len(spec.Origins), len(spec.Destinations)); err != nil {
		return nil, fmt.Errorf("queue: job %s: %w", id, err)
	}
	return spec, nil
}

// ChunkResult is one computed chunk: rows of the chunk times all
// destinations, row-major.
type ChunkResult struct {
	// Durations in seconds and Distances in metres, routing.NoRoute where
	// there is none; nil for a matrix the job did not ask for.
	Durations, Distances []int32
	// OriginSnaps is, per origin row of the chunk, how far the origin was
	// moved to the road in metres, NotSnapped if it could not be snapped.
	OriginSnaps []float32
	// DestinationSnaps is the same for every destination of the job.
	DestinationSnaps []float32
	// Estimated lists the cells of the chunk filled by the fallback speed,
	// each [row, column] of the whole matrix, in row-major order; nil for
	// a job without a fallback speed (non-nil, maybe empty, with one).
	Estimated [][2]int
}

// PutChunk stores chunk i of job id unless it is already stored, and
// finishes the job when it was the last distinct chunk. written tells
// whether this call stored it; st is the job's status afterwards. Nothing
// is written for a job that is Failed, Cancelled or Finished, and a job that
// no longer exists is ErrExpired.
func (q *Queue) PutChunk(ctx context.Context, id string, i int, r ChunkResult) (st Status, written bool, err error) {
	v, err := putScript.Run(ctx, q.rdb, q.putKeys(id), q.putArgs(i, r)...).Slice()
	if err != nil {
		return "", false, fmt.Errorf("queue: put chunk: %w", err)
	}
	return putReply(v)
}

// putKeys are the keys of putScript for job id.
func (q *Queue) putKeys(id string) []string {
	return []string{q.keys.job(id), q.keys.done(id), q.keys.results(id)}
}

// putArgs are the arguments of putScript for chunk i: the blobs as they
// are stored.
func (q *Queue) putArgs(i int, r ChunkResult) []any {
	args := []any{i, q.now().UnixMilli(), EncodeFloat32s(r.DestinationSnaps),
		chunkField(KindOriginSnap, i), EncodeFloat32s(r.OriginSnaps)}
	cols := len(r.DestinationSnaps)
	if r.Durations != nil {
		args = append(args, chunkField(KindDuration, i), EncodeRows(r.Durations, cols))
	}
	if r.Distances != nil {
		args = append(args, chunkField(KindDistance, i), EncodeRows(r.Distances, cols))
	}
	if r.Estimated != nil {
		args = append(args, chunkField(KindEstimated, i), EncodePairs(r.Estimated))
	}
	return args
}

// putReply reads putScript's reply.
func putReply(v []any) (st Status, written bool, err error) {
	if len(v) != 2 {
		return "", false, errors.New("queue: put chunk: unexpected reply")
	}
	s, _ := v[0].(string)
	w, _ := v[1].(int64)
	if s == "gone" {
		return "", false, ErrExpired
	}
	return Status(s), w == 1, nil
}
