package worker

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/hibiken/asynq"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/routing"
)

// Computer computes a job's chunks on the routing graph of the bundle
// the job was ordered on. A worker's chunk tasks and the API's inline
// orders (small orders computed before the order returns) both go
// through it, so both give the same cells for the same spec.
type Computer struct {
	// bundles are the bundles served; a job's chunks are computed on the
	// one of its spec's Bundle id. engine, when set instead, computes
	// every job (tests).
	bundles     *bundle.Current
	engine      engine
	snapRadiusM float64
	// metrics records ComputeAll's chunks (a worker records its own).
	metrics *Metrics
}

// NewComputer returns a Computer on the bundles cur serves, snapping
// within snapRadiusM metres (routing.DefaultSnapRadiusM when not
// positive). ComputeAll records its chunks, cells and Finished jobs in m
// (nil: nowhere), as a worker does.
func NewComputer(cur *bundle.Current, snapRadiusM float64, m *Metrics) *Computer {
	c := newComputer(nil, snapRadiusM)
	c.bundles = cur
	c.metrics = m
	return c
}

func newComputer(e engine, snapRadiusM float64) *Computer {
	if snapRadiusM <= 0 {
		snapRadiusM = routing.DefaultSnapRadiusM
	}
	return &Computer{engine: e, snapRadiusM: snapRadiusM}
}

// errBundleNotLoaded is returned for a job ordered on a bundle this
// process does not serve (yet: a worker that has not swapped to a new
// build; or any more: one that swapped past it); asynq retries the chunk.
var errBundleNotLoaded = errors.New("the job's data bundle is not loaded in this process")

// engineOf returns the engine of the graph of spec's profile (the car's
// for a record without one) in the bundle spec was ordered on. A bundle
// without that profile's graph fails the job: no retry can compute it.
func (c *Computer) engineOf(spec *queue.Spec) (engine, error) {
	if c.engine != nil {
		return c.engine, nil
	}
	b := c.bundles.ByID(spec.Bundle)
	if b == nil || b.Graph == nil {
		return nil, fmt.Errorf("worker: job %s: bundle %q: %w", spec.ID, spec.Bundle, errBundleNotLoaded)
	}
	g := b.GraphFor(spec.Profile)
	if g == nil {
		return nil, fmt.Errorf("worker: job %s: bundle %q has no %s graph (geosvc build --profiles): %w", spec.ID, spec.Bundle, spec.Profile, asynq.SkipRetry)
	}
	return graphEngine{g}, nil
}

// prepare parses a job's routing (once per job and process), snaps its
// points and builds its destination side: what every chunk of the job
// shares.
func (c *Computer) prepare(ctx context.Context, spec *queue.Spec) (*jobEntry, error) {
	metric, err := routing.ParseMetric(spec.Routing)
	if err != nil {
		return nil, fmt.Errorf("worker: job %s: routing %q: %w: %w", spec.ID, spec.Routing, err, asynq.SkipRetry)
	}
	eng, err := c.engineOf(spec)
	if err != nil {
		return nil, err
	}
	e := &jobEntry{spec: spec, metric: metric, engine: eng}
	// Origins and destinations snap side by side: the job's other chunks
	// wait for this entry, their cores idle meanwhile.
	// A panic there is raised again here, where the callers recover it.
	opts := &spec.Options
	originOpts := snapOptions(opts, opts.Origins, len(spec.Origins))
	destOpts := snapOptions(opts, opts.Destinations, len(spec.Destinations))
	var dst []routing.Snap
	var panicked any
	snapped := make(chan struct{})
	go func() {
		defer close(snapped)
		defer func() { panicked = recover() }()
		dst = eng.SnapAll(metric, spec.Destinations, c.snapRadiusM, destOpts)
	}()
	e.origins = eng.SnapAll(metric, spec.Origins, c.snapRadiusM, originOpts)
	<-snapped
	if panicked != nil {
		panic(panicked)
	}
	e.originMoved = c.moved(eng, metric, spec.Origins, e.origins, originOpts)
	e.destMoved = c.moved(eng, metric, spec.Destinations, dst, destOpts)
	if opts.FallbackKmh > 0 {
		e.originFallback = fallbackPoints(e.origins, opts.FallbackSnapped)
		e.destFallback = fallbackPoints(dst, opts.FallbackSnapped)
	}
	if e.targets, e.bytes, err = eng.Targets(ctx, metric, dst); err != nil {
		return nil, err
	}
	e.bytes += entryBytes(spec, e.origins, len(e.originMoved)+len(e.destMoved)) +
		16*int64(len(e.originFallback)+len(e.destFallback))
	return e, nil
}

// chunk computes chunk i of a prepared job: its origin rows against every
// destination, the matrices the job asked for.
func (c *Computer) chunk(ctx context.Context, e *jobEntry, i int) (queue.ChunkResult, error) {
	if i < 0 || i >= e.spec.Chunks {
		return queue.ChunkResult{}, fmt.Errorf("worker: chunk %d of job %s with %d chunks", i, e.spec.ID, e.spec.Chunks)
	}
	lo, hi := e.spec.ChunkRange(i)
	tab, err := e.engine.Table(ctx, e.origins[lo:hi], e.targets)
	if err != nil {
		return queue.ChunkResult{}, err
	}
	if tab.Rows != hi-lo || tab.Cols != len(e.spec.Destinations) {
		return queue.ChunkResult{}, fmt.Errorf("worker: table of %d x %d for chunk of %d x %d", tab.Rows, tab.Cols, hi-lo, len(e.spec.Destinations))
	}
	res := queue.ChunkResult{OriginSnaps: e.originMoved[lo:hi], DestinationSnaps: e.destMoved}
	if kmh := e.spec.Options.FallbackKmh; kmh > 0 {
		res.Estimated = fillFallback(tab, lo, e.originFallback, e.destFallback, kmh)
	}
	if e.spec.Outputs.Has(queue.OutDuration) {
		res.Durations = tab.Durations
	}
	if e.spec.Outputs.Has(queue.OutDistance) {
		res.Distances = tab.Distances
	}
	return res, nil
}

// ComputeAll computes every chunk of spec in order, the same way a worker
// computes each of them (the inline path of small orders). Its metrics
// count the chunks and cells, and the job as Finished, when it is
// computed (it is stored Finished next).
func (c *Computer) ComputeAll(ctx context.Context, spec *queue.Spec) (out []queue.ChunkResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("worker: compute job %s: panic: %v", spec.ID, r)
		}
	}()
	e, err := c.prepare(ctx, spec)
	if err != nil {
		return nil, err
	}
	out = make([]queue.ChunkResult, spec.Chunks)
	for i := range out {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		start := time.Now()
		if out[i], err = c.chunk(ctx, e, i); err != nil {
			return nil, err
		}
		c.metrics.chunkDone(time.Since(start), len(out[i].OriginSnaps)*len(out[i].DestinationSnaps), true, i == len(out)-1)
	}
	return out, nil
}

// moved returns how far each snap moved its input pts[i], rounded to
// centimetres; where snapping failed, queue.NotSnappedSwapped when the
// point read the other way round (x and y swapped, Google's lat,lng habit)
// would have snapped, else queue.NotSnapped.
// The swapped points are snapped with the options of the points they
// stand for (opts, nil for none).
func (c *Computer) moved(eng engine, metric routing.Metric, pts []orb.Point, snaps []routing.Snap, opts []routing.SnapOptions) []float32 {
	out := make([]float32, len(snaps))
	var swapped []orb.Point
	var swappedOpts []routing.SnapOptions
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
			if opts != nil {
				swappedOpts = append(swappedOpts, opts[i])
			}
		}
	}
	if len(swapped) > 0 {
		for k, s := range eng.SnapAll(metric, swapped, c.snapRadiusM, swappedOpts) {
			if s.OK {
				out[at[k]] = queue.NotSnappedSwapped
			}
		}
	}
	return out
}
