package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hibiken/asynq"

	"github.com/geosvc/geosvc/queue"
)

// ProcessTask runs one chunk task: it skips chunks of jobs that are gone,
// terminal or already written, computes the chunk's rows against every
// destination and stores them once. Worker is an asynq.Handler through it.
func (w *Worker) ProcessTask(ctx context.Context, t *asynq.Task) error {
	ct, err := queue.ParseChunkTask(t)
	if err != nil {
		return fmt.Errorf("%w: %w", err, asynq.SkipRetry)
	}
	run, st, err := w.q.Begin(ctx, ct.Job, ct.Chunk)
	switch {
	case errors.Is(err, queue.ErrExpired):
		w.jobs.drop(ct.Job)
		return nil
	case err != nil:
		return err
	case !run:
		if st.Terminal() {
			w.jobs.drop(ct.Job)
		}
		return nil
	}
	stop := w.q.Heartbeat(ctx, ct.Job, ct.Chunk)
	defer stop()
	e, err := w.jobs.get(ctx, ct.Job)
	if errors.Is(err, queue.ErrExpired) {
		return nil
	}
	if err != nil {
		return err
	}
	if ct.Chunk >= e.spec.Chunks {
		return fmt.Errorf("worker: chunk %d of job %s with %d chunks: %w", ct.Chunk, ct.Job, e.spec.Chunks, asynq.SkipRetry)
	}
	start := time.Now()
	res, err := w.compute.chunk(ctx, e, ct.Chunk)
	if err != nil {
		return err
	}
	cells := len(res.OriginSnaps) * len(res.DestinationSnaps)
	st, written, err := w.q.PutChunk(ctx, ct.Job, ct.Chunk, res)
	if errors.Is(err, queue.ErrExpired) {
		w.jobs.drop(ct.Job)
		return nil
	}
	if err != nil {
		return err
	}
	w.opts.Metrics.chunkDone(time.Since(start), cells, written, st == queue.StatusFinished)
	if st.Terminal() {
		w.jobs.drop(ct.Job)
	}
	return nil
}

// loadJob reads a job's spec and prepares it (Computer.prepare).
func (w *Worker) loadJob(ctx context.Context, id string) (*jobEntry, error) {
	spec, err := w.q.Spec(ctx, id)
	if err != nil {
		return nil, err
	}
	return w.compute.prepare(ctx, spec)
}
