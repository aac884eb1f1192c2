package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/paulmach/orb"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/queue/queuetest"
	"github.com/geosvc/geosvc/routing"
)

// fakeEngine computes a made-up matrix from the points' longitudes: a point
// at longitude 0 cannot be snapped; every other point moves lat/10 metres;
// cell (o, d) is duration 100*o+d+offset and distance 1000*o+10*d, o and d
// the longitudes.
type fakeEngine struct {
	builds  atomic.Int32
	tables  atomic.Int32
	offset  atomic.Int32
	panics  atomic.Bool
	barrier *sync.WaitGroup // when set, Table waits until it is released
}

func (f *fakeEngine) SnapAll(_ routing.Metric, pts []orb.Point, _ float64, _ []routing.SnapOptions) []routing.Snap {
	out := make([]routing.Snap, len(pts))
	for i, p := range pts {
		if p[0] != 0 {
			out[i] = routing.Snap{Input: p, Point: p, DistanceM: p[1] / 10, OK: true}
		}
	}
	return out
}

func (f *fakeEngine) Targets(_ context.Context, _ routing.Metric, dst []routing.Snap) (targets, int64, error) {
	f.builds.Add(1)
	return dst, 1000, nil
}

func (f *fakeEngine) Table(_ context.Context, src []routing.Snap, t targets) (routing.Table, error) {
	f.tables.Add(1)
	if f.panics.Load() {
		panic("fake engine exploded")
	}
	if f.barrier != nil {
		f.barrier.Done()
		f.barrier.Wait()
	}
	dst := t.([]routing.Snap)
	tab := routing.Table{Rows: len(src), Cols: len(dst)}
	for _, s := range src {
		for _, d := range dst {
			if !s.OK || !d.OK {
				tab.Durations = append(tab.Durations, routing.NoRoute)
				tab.Distances = append(tab.Distances, routing.NoRoute)
				continue
			}
			o, x := int32(s.Input[0]), int32(d.Input[0])
			tab.Durations = append(tab.Durations, 100*o+x+f.offset.Load())
			tab.Distances = append(tab.Distances, 1000*o+10*x)
		}
	}
	return tab, nil
}

// setup returns a queue with chunks of chunkRows and a worker on it using
// the fake engine.
func setup(t *testing.T, chunkRows int, f *fakeEngine) (*queue.Queue, *Worker, *queuetest.Env) {
	t.Helper()
	env := queuetest.New(t)
	cfg := env.Config
	cfg.ChunkRows = chunkRows
	cfg.MaxRetry = 1
	q, err := queue.New(env.Client, cfg)
	if err != nil {
		t.Fatal(err)
	}
	w, err := newWorker(Options{
		Redis: env.Client, Queue: q, Concurrency: 2, RetryDelay: time.Millisecond,
		DelayedTaskCheckInterval: 50 * time.Millisecond,
		Logger:                   slog.New(slog.NewTextHandler(io.Discard, nil)),
	}, f)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.jobs.close)
	return q, w, env
}

// submit orders rows x cols points with longitudes 1..rows and 1..cols;
// origin 2 (longitude 0) cannot be snapped when unsnappable is set.
func submit(t *testing.T, q *queue.Queue, rows, cols int, unsnappable bool) *queue.Job {
	t.Helper()
	o := queue.Order{Owner: "k", Outputs: queue.OutBoth}
	for i := range rows {
		p := orb.Point{float64(i + 1), 39.5}
		if unsnappable && i == 2 {
			p[0] = 0
		}
		o.OriginPoints = append(o.OriginPoints, p)
		o.Origins = append(o.Origins, fmt.Sprintf("%g,%g", p[0], p[1]))
	}
	for j := range cols {
		p := orb.Point{float64(j + 1), 38}
		o.DestinationPoints = append(o.DestinationPoints, p)
		o.Destinations = append(o.Destinations, fmt.Sprintf("%g,%g", p[0], p[1]))
	}
	j, err := q.Submit(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// matrix reads a finished job's matrix of kind, row by row.
func matrix(t *testing.T, q *queue.Queue, id string, kind queue.Kind) []int32 {
	t.Helper()
	ctx := context.Background()
	j, err := q.Get(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := q.Result(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := res.Chunks(ctx, kind, 0, j.Chunks)
	if err != nil {
		t.Fatal(err)
	}
	var all []int32
	for _, b := range blobs {
		cells, _, err := queue.DecodeRows(b)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, cells...)
	}
	return all
}

// runChunk runs chunk i of job id through the handler.
func runChunk(t *testing.T, w *Worker, id string, i int) error {
	t.Helper()
	return w.ProcessTask(context.Background(), queue.NewChunkTask(id, i))
}

func TestProcessTaskComputesEveryChunkOnce(t *testing.T) {
	f := &fakeEngine{}
	q, w, _ := setup(t, 2, f)
	j := submit(t, q, 5, 3, true)
	for i := range 3 {
		if err := runChunk(t, w, j.ID, i); err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
	}
	got, _ := q.Get(context.Background(), j.ID, "")
	if got.Status != queue.StatusFinished || got.RowsDone != 5 {
		t.Fatalf("job after all chunks: %s, %d rows", got.Status, got.RowsDone)
	}
	wantDur := []int32{101, 102, 103, 201, 202, 203, -1, -1, -1, 401, 402, 403, 501, 502, 503}
	if d := matrix(t, q, j.ID, queue.KindDuration); !slices.Equal(d, wantDur) {
		t.Errorf("durations = %v\nwant %v", d, wantDur)
	}
	wantDist := []int32{1010, 1020, 1030, 2010, 2020, 2030, -1, -1, -1, 4010, 4020, 4030, 5010, 5020, 5030}
	if d := matrix(t, q, j.ID, queue.KindDistance); !slices.Equal(d, wantDist) {
		t.Errorf("distances = %v\nwant %v", d, wantDist)
	}
	if n := f.builds.Load(); n != 1 {
		t.Errorf("targets built %d times for one job, want 1", n)
	}
	res, _ := q.Result(context.Background(), got)
	if !slices.Equal(res.DestinationSnaps, []float32{3.8, 3.8, 3.8}) {
		t.Errorf("destination snaps = %v", res.DestinationSnaps)
	}
	blobs, _ := res.Chunks(context.Background(), queue.KindOriginSnap, 1, 1)
	// The origin at longitude 0 does not snap, but its swapped reading
	// (lat, 0) would in the fake engine: it is marked as a swapped pair.
	if s := queue.DecodeFloat32s(blobs[0]); !slices.Equal(s, []float32{queue.NotSnappedSwapped, 3.95}) {
		t.Errorf("origin snaps of chunk 1 = %v", s)
	}
}

func TestChunkRunTwiceAtOnceAndAfterFinishChangesNothing(t *testing.T) {
	f := &fakeEngine{}
	q, w, _ := setup(t, 2, f)
	ctx := context.Background()
	j := submit(t, q, 4, 2, false)
	// Two runs of chunk 0 both compute (the barrier holds each in Table
	// until both are there) and race to store.
	var barrier sync.WaitGroup
	barrier.Add(2)
	f.barrier = &barrier
	var runs sync.WaitGroup
	for range 2 {
		runs.Go(func() {
			if err := runChunk(t, w, j.ID, 0); err != nil {
				t.Error(err)
			}
		})
	}
	runs.Wait()
	f.barrier = nil
	if n := f.tables.Load(); n != 2 {
		t.Fatalf("Table ran %d times, want 2 concurrent runs", n)
	}
	mid, _ := q.Get(ctx, j.ID, "")
	if mid.RowsDone != 2 || mid.Status != queue.StatusProcessing {
		t.Errorf("after the double run: %d rows, %s; want 2, Processing", mid.RowsDone, mid.Status)
	}
	if err := runChunk(t, w, j.ID, 1); err != nil {
		t.Fatal(err)
	}
	before := matrix(t, q, j.ID, queue.KindDuration)
	done, _ := q.Get(ctx, j.ID, "")
	// Once more after the job finished, computing different numbers.
	f.offset.Store(50)
	for i := range 2 {
		if err := runChunk(t, w, j.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	after := matrix(t, q, j.ID, queue.KindDuration)
	if !slices.Equal(before, after) || !slices.Equal(before, []int32{101, 102, 201, 202, 301, 302, 401, 402}) {
		t.Errorf("durations before %v, after rerun %v", before, after)
	}
	again, _ := q.Get(ctx, j.ID, "")
	if *again != *done || again.RowsDone != 4 || again.Status != queue.StatusFinished {
		t.Errorf("job after rerun %+v\nwant %+v", again, done)
	}
	if n := f.tables.Load(); n != 3 {
		t.Errorf("Table ran %d times; reruns of a finished job must not compute", n)
	}
}

func TestProcessTaskSkips(t *testing.T) {
	f := &fakeEngine{}
	q, w, env := setup(t, 2, f)
	ctx := context.Background()
	cancelled := submit(t, q, 4, 2, false)
	if _, err := q.Cancel(ctx, cancelled.ID, "k"); err != nil {
		t.Fatal(err)
	}
	expired := submit(t, q, 4, 2, false)
	env.Expire(t, expired.ID)
	tests := []struct {
		name string
		task *asynq.Task
		skip bool // SkipRetry expected
	}{
		{"cancelled job", queue.NewChunkTask(cancelled.ID, 1), false},
		{"expired job", queue.NewChunkTask(expired.ID, 0), false},
		{"unknown job", queue.NewChunkTask("0b6c8a53-06a5-4b61-9a0e-7f4b0ad0a6a1", 0), false},
		{"bad payload", asynq.NewTask(queue.TaskType, []byte(`{"job":"x"}`)), true},
		{"wrong type", asynq.NewTask("other", nil), true},
	}
	for _, tt := range tests {
		err := w.ProcessTask(ctx, tt.task)
		if got := errors.Is(err, asynq.SkipRetry); got != tt.skip || (!tt.skip && err != nil) {
			t.Errorf("%s: err = %v, want skip-retry %v", tt.name, err, tt.skip)
		}
	}
	if n := f.tables.Load(); n != 0 {
		t.Errorf("Table ran %d times for skipped chunks", n)
	}
	j := submit(t, q, 4, 2, false)
	if err := runChunk(t, w, j.ID, 7); !errors.Is(err, asynq.SkipRetry) {
		t.Errorf("chunk out of range: %v, want skip-retry", err)
	}
}

func TestConcurrentChunksBuildTargetsOnce(t *testing.T) {
	f := &fakeEngine{}
	q, w, _ := setup(t, 1, f)
	j := submit(t, q, 8, 3, false)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			if err := runChunk(t, w, j.ID, i); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := f.builds.Load(); n != 1 {
		t.Errorf("targets built %d times by 8 concurrent chunks, want 1", n)
	}
	if got, _ := q.Get(context.Background(), j.ID, ""); got.Status != queue.StatusFinished {
		t.Errorf("status %s", got.Status)
	}
}

func TestHandleErrorFailsJobOnlyWhenFinal(t *testing.T) {
	q, w, _ := setup(t, 2, &fakeEngine{})
	ctx := context.Background()
	j := submit(t, q, 4, 2, false)
	w.handleError(ctx, queue.NewChunkTask(j.ID, 1), errors.New("transient"))
	if got, _ := q.Get(ctx, j.ID, ""); got.Status != queue.StatusQueued {
		t.Errorf("after a retryable error: %s, want Queued", got.Status)
	}
	w.handleError(ctx, queue.NewChunkTask(j.ID, 1), fmt.Errorf("bad: %w", asynq.SkipRetry))
	got, _ := q.Get(ctx, j.ID, "")
	if got.Status != queue.StatusFailed || got.Message == "" {
		t.Errorf("after a final error: %+v, want Failed with a message", got)
	}
}

// waitStatus polls job id until it reaches a terminal state.
func waitStatus(t *testing.T, q *queue.Queue, id string) *queue.Job {
	t.Helper()
	for range 1000 {
		j, err := q.Get(context.Background(), id, "")
		if err != nil {
			t.Fatal(err)
		}
		if j.Status.Terminal() {
			return j
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("job %s did not finish", id)
	return nil
}

func TestServerRunsJobs(t *testing.T) {
	f := &fakeEngine{}
	q, w, _ := setup(t, 2, f)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.srv.Shutdown()
	j := submit(t, q, 7, 4, false)
	if got := waitStatus(t, q, j.ID); got.Status != queue.StatusFinished || got.RowsDone != 7 {
		t.Fatalf("job ended %s with %d rows", got.Status, got.RowsDone)
	}
	if d := matrix(t, q, j.ID, queue.KindDistance); len(d) != 28 || d[27] != 7040 {
		t.Errorf("distances = %v", d)
	}
	// A chunk that keeps panicking fails the job after its retry.
	f.panics.Store(true)
	bad := submit(t, q, 2, 2, false)
	got := waitStatus(t, q, bad.ID)
	if got.Status != queue.StatusFailed || got.Message == "" {
		t.Errorf("panicking job ended %+v, want Failed with a message", got)
	}
}

// TestJobCachePanicEndsFlight: a panic while a job is loaded becomes an
// error for that call, and later calls load again instead of waiting on
// the dead flight until their deadline.
func TestJobCachePanicEndsFlight(t *testing.T) {
	calls := 0
	c, err := newJobCache(1<<20, time.Minute, func(ctx context.Context, id string) (*jobEntry, error) {
		calls++
		if calls == 1 {
			panic("boom")
		}
		return nil, errors.New("still failing")
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	if _, err := c.get(context.Background(), "job"); err == nil || !strings.Contains(err.Error(), "panic: boom") {
		t.Fatalf("first get: %v, want the panic as an error", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := c.get(ctx, "job"); err == nil || err.Error() != "still failing" {
		t.Fatalf("second get: %v, want a fresh load", err)
	}
	if calls != 2 {
		t.Fatalf("load called %d times, want 2", calls)
	}
}

// TestMovedMarksSwappedPairs: a point that does not snap is marked as a
// likely swapped pair only when its swapped reading is a coordinate that
// snaps.
func TestMovedMarksSwappedPairs(t *testing.T) {
	c := newComputer(&fakeEngine{}, 0)
	pts := []orb.Point{{0, 39.5}, {0, 0}, {5, 20}}
	got := c.moved(c.engine, routing.Fastest, pts, c.engine.SnapAll(routing.Fastest, pts, 0, nil), nil)
	want := []float32{queue.NotSnappedSwapped, queue.NotSnapped, 2}
	if !slices.Equal(got, want) {
		t.Errorf("moved = %v, want %v", got, want)
	}
}

// TestComputeAllIsWhatTheWorkerStores: the inline path's ComputeAll gives,
// chunk by chunk, what ProcessTask stores for the same job, and counts its
// chunks, cells and the Finished job in its metrics.
func TestComputeAllIsWhatTheWorkerStores(t *testing.T) {
	f := &fakeEngine{}
	q, w, _ := setup(t, 2, f)
	j := submit(t, q, 5, 3, true)
	for i := range j.Chunks {
		if err := runChunk(t, w, j.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	durations, distances := matrix(t, q, j.ID, queue.KindDuration), matrix(t, q, j.ID, queue.KindDistance)
	spec, err := q.Spec(context.Background(), j.ID)
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	c := newComputer(f, 0)
	c.metrics = NewMetrics(reg)
	chunks, err := c.ComputeAll(context.Background(), spec)
	if err != nil || len(chunks) != j.Chunks {
		t.Fatalf("ComputeAll = %d chunks, %v; want %d", len(chunks), err, j.Chunks)
	}
	var gotT, gotD []int32
	for _, r := range chunks {
		gotT, gotD = append(gotT, r.Durations...), append(gotD, r.Distances...)
		if len(r.DestinationSnaps) != 3 {
			t.Errorf("destination snaps %v", r.DestinationSnaps)
		}
	}
	if !slices.Equal(gotT, durations) || !slices.Equal(gotD, distances) {
		t.Errorf("ComputeAll durations %v distances %v\nstored %v %v", gotT, gotD, durations, distances)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			got[mf.GetName()] += m.GetCounter().GetValue() + float64(m.GetHistogram().GetSampleCount())
		}
	}
	want := map[string]float64{"geosvc_tdm_cells_total": 15, "geosvc_tdm_jobs_ended_total": 1, "geosvc_tdm_chunk_duration_seconds": 3}
	for name, v := range want {
		if got[name] != v {
			t.Errorf("%s = %v, want %v", name, got[name], v)
		}
	}
	f.panics.Store(true)
	if _, err := c.ComputeAll(context.Background(), spec); err == nil || !strings.Contains(err.Error(), "panic") {
		t.Errorf("a panicking engine: %v, want an error", err)
	}
}

// destSnapPanics is a fakeEngine whose snapping panics on a job's
// destinations (the side prepare snaps on a goroutine of its own).
type destSnapPanics struct {
	*fakeEngine
	cols int
}

func (d destSnapPanics) SnapAll(m routing.Metric, pts []orb.Point, r float64, opts []routing.SnapOptions) []routing.Snap {
	if len(pts) == d.cols {
		panic("destinations exploded")
	}
	return d.fakeEngine.SnapAll(m, pts, r, opts)
}

// TestPrepareSnapPanicIsAnError: a panic while the destinations snap,
// beside the origins, reaches ComputeAll's recover as an error instead of
// ending the process.
func TestPrepareSnapPanicIsAnError(t *testing.T) {
	q, _, _ := setup(t, 2, &fakeEngine{})
	j := submit(t, q, 5, 3, true)
	spec, err := q.Spec(context.Background(), j.ID)
	if err != nil {
		t.Fatal(err)
	}
	c := newComputer(destSnapPanics{&fakeEngine{}, 3}, 0)
	if _, err := c.ComputeAll(context.Background(), spec); err == nil || !strings.Contains(err.Error(), "destinations exploded") {
		t.Fatalf("ComputeAll = %v, want the snapping panic as an error", err)
	}
	if _, err := newComputer(destSnapPanics{&fakeEngine{}, 4}, 0).ComputeAll(context.Background(), spec); err != nil {
		t.Fatalf("ComputeAll without a panic: %v", err)
	}
}
