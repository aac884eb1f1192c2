package queue

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// ComputeFunc computes every chunk of a job's spec, in chunk order (the
// worker's Computer.ComputeAll).
type ComputeFunc func(ctx context.Context, spec *Spec) ([]ChunkResult, error)

// SubmitNow is Submit for an order small enough to compute at once: it
// stores the job, computes it with compute before it returns and stores
// every chunk, so that the job is Finished (or Failed, compute's error
// its message) when SubmitNow returns; no task is enqueued. The record,
// the chunk blobs and their expiry are those of a job a worker computed:
// compute gets the spec read back from the stored record exactly as a
// worker reads it, and the chunks are written by the worker's script.
// While the job computes it is listed in the submitting set, so that a
// worker's janitor fails it should this process die meanwhile. Like
// Submit, it finishes its work when ctx is cancelled after the call
// began.
func (q *Queue) SubmitNow(ctx context.Context, o Order, compute ComputeFunc) (*Job, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	now := q.now()
	job, fields, err := q.newRecord(o, now)
	if err != nil {
		return nil, err
	}
	id := job.ID
	// Started at once. It stays Queued, with no task, while it is
	// computed: should this process die meanwhile, a janitor finds it
	// in the submitting set, half queued, and fails it.
	fields["started"] = now.UnixMilli()
	// Listed before the record exists (a janitor ignores an entry
	// without a job), and apart from its transaction: the set has no hash
	// tag, and a transaction stays in one Redis Cluster slot.
	if err := q.rdb.ZAdd(ctx, q.keys.submitting(), redis.Z{Score: float64(now.UnixMilli()), Member: id}).Err(); err != nil {
		return nil, fmt.Errorf("queue: list order: %w", err)
	}
	var specCmd *redis.SliceCmd
	_, err = q.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		q.storeRecord(ctx, p, id, fields, now)
		specCmd = p.HMGet(ctx, q.keys.job(id), specFields...)
		return nil
	})
	if err != nil {
		// The entry stays: a janitor fails the record should it exist.
		return nil, fmt.Errorf("queue: store job: %w", err)
	}
	spec, err := parseSpec(id, specCmd.Val())
	if err != nil {
		return nil, q.abandon(ctx, id, err)
	}
	chunks, err := compute(ctx, spec)
	if err == nil && len(chunks) != spec.Chunks {
		err = fmt.Errorf("queue: %d chunks computed for a job of %d", len(chunks), spec.Chunks)
	}
	if err != nil {
		st, ferr := q.end(ctx, id, StatusFailed, "the matrix could not be computed: "+err.Error())
		if ferr != nil {
			return nil, q.abandon(ctx, id, ferr)
		}
		q.rdb.ZRem(ctx, q.keys.submitting(), id)
		job.Status, job.Message = st, err.Error()
		return job, nil
	}
	// A pipeline, not a transaction: the chunks (in the job's slot) and
	// the submitting set (in another) go in one round trip.
	puts := make([]*redis.Cmd, len(chunks))
	_, err = q.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, r := range chunks {
			// Eval, not EvalSha: a pipeline cannot fall back on NOSCRIPT.
			puts[i] = putScript.Eval(ctx, p, q.putKeys(id), q.putArgs(i, r)...)
		}
		p.ZRem(ctx, q.keys.submitting(), id)
		return nil
	})
	if err != nil {
		return nil, q.abandon(ctx, id, fmt.Errorf("queue: put chunks: %w", err))
	}
	st := StatusProcessing
	for _, c := range puts {
		v, err := c.Slice()
		if err != nil {
			return nil, q.abandon(ctx, id, fmt.Errorf("queue: put chunk: %w", err))
		}
		if st, _, err = putReply(v); err != nil {
			return nil, q.abandon(ctx, id, err)
		}
	}
	job.Status = st
	job.Started = job.Created
	job.RowsDone = job.Rows
	return job, nil
}

// abandon fails a job SubmitNow could not complete (its client gets an
// error, not the id) and returns err. When even that fails, the job stays
// in the submitting set for a janitor to fail.
func (q *Queue) abandon(ctx context.Context, id string, err error) error {
	if _, ferr := q.end(ctx, id, StatusFailed, "the order could not be completed: "+err.Error()); ferr == nil {
		q.rdb.ZRem(ctx, q.keys.submitting(), id)
	}
	return err
}
