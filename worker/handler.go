package worker

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/hibiken/asynq"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/routing"
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
	lo, hi := e.spec.ChunkRange(ct.Chunk)
	start := time.Now()
	tab, err := w.engine.Table(ctx, e.origins[lo:hi], e.targets)
	if err != nil {
		return err
	}
	if tab.Rows != hi-lo || tab.Cols != len(e.spec.Destinations) {
		return fmt.Errorf("worker: table of %d x %d for chunk of %d x %d", tab.Rows, tab.Cols, hi-lo, len(e.spec.Destinations))
	}
	res := queue.ChunkResult{OriginSnaps: e.originMoved[lo:hi], DestinationSnaps: e.destMoved}
	if e.spec.Outputs.Has(queue.OutDuration) {
		res.Durations = tab.Durations
	}
	if e.spec.Outputs.Has(queue.OutDistance) {
		res.Distances = tab.Distances
	}
	st, written, err := w.q.PutChunk(ctx, ct.Job, ct.Chunk, res)
	if errors.Is(err, queue.ErrExpired) {
		w.jobs.drop(ct.Job)
		return nil
	}
	if err != nil {
		return err
	}
	w.opts.Metrics.chunkDone(time.Since(start), tab.Rows*tab.Cols, written, st == queue.StatusFinished)
	if st.Terminal() {
		w.jobs.drop(ct.Job)
	}
	return nil
}

// loadJob reads a job's spec, snaps its points and builds its destination
// side.
func (w *Worker) loadJob(ctx context.Context, id string) (*jobEntry, error) {
	spec, err := w.q.Spec(ctx, id)
	if err != nil {
		return nil, err
	}
	// The job's routing is parsed here, once per job and worker process.
	metric, err := routing.ParseMetricSpec(spec.Routing)
	if err != nil {
		return nil, fmt.Errorf("worker: job %s: routing %q: %w: %w", id, spec.Routing, err, asynq.SkipRetry)
	}
	e := &jobEntry{spec: spec, metric: metric}
	e.origins = w.engine.SnapAll(metric, spec.Origins, w.opts.SnapRadiusM)
	dst := w.engine.SnapAll(metric, spec.Destinations, w.opts.SnapRadiusM)
	e.originMoved = w.moved(metric, spec.Origins, e.origins)
	e.destMoved = w.moved(metric, spec.Destinations, dst)
	if e.targets, e.bytes, err = w.engine.Targets(ctx, metric, dst); err != nil {
		return nil, err
	}
	e.bytes += entryBytes(spec, e.origins, len(e.originMoved)+len(e.destMoved))
	return e, nil
}

// moved returns how far each snap moved its input pts[i], rounded to
// centimetres; where snapping failed, queue.NotSnappedSwapped when the
// point read the other way round (x and y swapped, Google's lat,lng habit)
// would have snapped, else queue.NotSnapped.
func (w *Worker) moved(metric routing.MetricSpec, pts []orb.Point, snaps []routing.Snap) []float32 {
	out := make([]float32, len(snaps))
	var swapped []orb.Point
	var at []int
	for i, s := range snaps {
		if s.OK {
			out[i] = float32(math.Round(s.DistanceM*100) / 100)
			continue
		}
		out[i] = queue.NotSnapped
		if p := pts[i]; math.Abs(p[0]) <= 90 && p[0] != p[1] {
			swapped = append(swapped, orb.Point{p[1], p[0]})
			at = append(at, i)
		}
	}
	if len(swapped) > 0 {
		for k, s := range w.engine.SnapAll(metric, swapped, w.opts.SnapRadiusM) {
			if s.OK {
				out[at[k]] = queue.NotSnappedSwapped
			}
		}
	}
	return out
}
