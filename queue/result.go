package queue

import (
	"context"
	"encoding/json"
	"fmt"
	"unsafe"
)

// Result gives access to a Finished job's addresses and chunk blobs.
type Result struct {
	// Job is the job the result belongs to.
	Job *Job
	// Origins and Destinations are the addresses exactly as sent.
	Origins, Destinations []string
	// DestinationSnaps is, per destination, how far it was moved to the
	// road in metres (NotSnapped when it could not be snapped).
	DestinationSnaps []float32
	// Fallback tells whether the job was ordered with a fallback speed:
	// its chunks have KindEstimated blobs.
	Fallback bool

	q *Queue
}

// Result opens the result of job j, which must be Finished.
func (q *Queue) Result(ctx context.Context, j *Job) (*Result, error) {
	if j.Status != StatusFinished {
		return nil, fmt.Errorf("queue: job %s is %s, not Finished", j.ID, j.Status)
	}
	v, err := q.rdb.HMGet(ctx, q.keys.job(j.ID), "origins", "destinations", "snap_d", "fallback").Result()
	if err != nil {
		return nil, fmt.Errorf("queue: read result: %w", err)
	}
	r := &Result{Job: j, q: q}
	if v[0] == nil || v[1] == nil || v[2] == nil {
		return nil, ErrExpired
	}
	if err := json.Unmarshal([]byte(v[0].(string)), &r.Origins); err != nil {
		return nil, fmt.Errorf("queue: stored origins: %w", err)
	}
	if err := json.Unmarshal([]byte(v[1].(string)), &r.Destinations); err != nil {
		return nil, fmt.Errorf("queue: stored destinations: %w", err)
	}
	r.DestinationSnaps = DecodeFloat32s([]byte(v[2].(string)))
	r.Fallback = v[3] != nil
	return r, nil
}

// Chunks reads the blobs of kind for chunks [from, from+n), one per chunk
// and in order, in one round trip. A missing blob (the result expired
// meanwhile) is ErrExpired. The blobs share the memory of the strings
// Redis answered (a 1000 x 1000 result is 10.8 MB, copied once less per
// fetch): they are read-only, and writing into one is a bug.
func (r *Result) Chunks(ctx context.Context, kind Kind, from, n int) ([][]byte, error) {
	fields := make([]string, n)
	for k := range fields {
		fields[k] = chunkField(kind, from+k)
	}
	v, err := r.q.rdb.HMGet(ctx, r.q.keys.results(r.Job.ID), fields...).Result()
	if err != nil {
		return nil, fmt.Errorf("queue: read chunks: %w", err)
	}
	out := make([][]byte, n)
	for k, x := range v {
		s, ok := x.(string)
		if !ok {
			return nil, ErrExpired
		}
		out[k] = unsafe.Slice(unsafe.StringData(s), len(s))
	}
	return out, nil
}
