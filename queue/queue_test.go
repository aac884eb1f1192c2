package queue_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/queue/queuetest"
)

// order returns an order of rows x cols made-up points.
func order(owner string, rows, cols int) queue.Order {
	o := queue.Order{Owner: owner, Routing: "shortest", Outputs: queue.OutBoth}
	for i := range rows {
		p := orb.Point{-75.5 + float64(i)/1000, 39.1}
		o.OriginPoints = append(o.OriginPoints, p)
		o.Origins = append(o.Origins, " -75.5 , 39.1 ")
	}
	for j := range cols {
		p := orb.Point{-75.6, 39.2 + float64(j)/1000}
		o.DestinationPoints = append(o.DestinationPoints, p)
		o.Destinations = append(o.Destinations, "-75.6,39.2")
	}
	return o
}

// newQueue returns a queue on a test Redis with chunks of chunkRows rows.
func newQueue(t *testing.T, chunkRows int) (*queue.Queue, *queuetest.Env) {
	t.Helper()
	env := queuetest.New(t)
	cfg := env.Config
	cfg.ChunkRows = chunkRows
	q, err := queue.New(env.Client, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return q, env
}

// chunkResult is a recognisable result for chunk i: every duration is
// 1000*i + column, every distance its negation minus one.
func chunkResult(rows, cols, i int) queue.ChunkResult {
	r := queue.ChunkResult{OriginSnaps: make([]float32, rows), DestinationSnaps: make([]float32, cols)}
	for k := range rows * cols {
		r.Durations = append(r.Durations, int32(1000*i+k%cols))
		d := int32(2000*i + k%cols + 1)
		if k%cols == 1 {
			d = -1 // no route
		}
		r.Distances = append(r.Distances, d)
	}
	for k := range r.OriginSnaps {
		r.OriginSnaps[k] = float32(i) + 0.5
	}
	r.DestinationSnaps[0] = queue.NotSnapped
	return r
}

func TestSubmitStoresJobAndEnqueuesChunks(t *testing.T) {
	q, env := newQueue(t, 4)
	ctx := context.Background()
	j, err := q.Submit(ctx, order("key-a", 10, 3))
	if err != nil {
		t.Fatal(err)
	}
	got, err := q.Get(ctx, j.ID, "key-a")
	if err != nil {
		t.Fatal(err)
	}
	want := queue.Job{
		ID: j.ID, Owner: "key-a", Status: queue.StatusQueued, Routing: "shortest",
		Outputs: queue.OutBoth, Rows: 10, Cols: 3, Chunks: 3, ChunkRows: 4, Created: j.Created,
	}
	if *got != want {
		t.Errorf("Get = %+v\nwant %+v", *got, want)
	}
	ins := asynq.NewInspectorFromRedisClient(env.Client)
	tasks, err := ins.ListPendingTasks(env.Config.QueueName)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, ti := range tasks {
		ids = append(ids, ti.ID)
		if ti.MaxRetry != queue.DefaultMaxRetry || ti.Type != queue.TaskType {
			t.Errorf("task %s: type %q max retry %d", ti.ID, ti.Type, ti.MaxRetry)
		}
	}
	slices.Sort(ids)
	wantIDs := []string{j.ID + ":0", j.ID + ":1", j.ID + ":2"}
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("pending task ids = %v, want %v", ids, wantIDs)
	}
	spec, err := q.Spec(ctx, j.ID)
	if err != nil {
		t.Fatal(err)
	}
	o := order("key-a", 10, 3)
	if !slices.Equal(spec.Origins, o.OriginPoints) || !slices.Equal(spec.Destinations, o.DestinationPoints) ||
		spec.Routing != "shortest" || spec.Chunks != 3 || spec.ChunkRows != 4 {
		t.Errorf("Spec = %+v", spec)
	}
	if lo, hi := spec.ChunkRange(2); lo != 8 || hi != 10 {
		t.Errorf("ChunkRange(2) = %d, %d, want 8, 10", lo, hi)
	}
}

// TestSubmitRecordsDeparture: an order's departure time and zone are
// kept in the job record and read back by Get (for fetch to echo); an
// order without them has neither.
func TestSubmitRecordsDeparture(t *testing.T) {
	q, _ := newQueue(t, 4)
	ctx := context.Background()
	o := order("key-a", 2, 2)
	o.Departure, o.TimeZone = "2026-11-30T08:30:00-05:00", "America/New_York"
	j, err := q.Submit(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := q.Get(ctx, j.ID, "key-a")
	if err != nil {
		t.Fatal(err)
	}
	if got.Departure != "2026-11-30T08:30:00-05:00" || got.TimeZone != "America/New_York" || j.Departure != got.Departure || j.TimeZone != got.TimeZone {
		t.Errorf("Get: departure %q zone %q (Submit's %q %q)", got.Departure, got.TimeZone, j.Departure, j.TimeZone)
	}
	plain, err := q.Submit(ctx, order("key-a", 2, 2))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := q.Get(ctx, plain.ID, "key-a"); err != nil || got.Departure != "" || got.TimeZone != "" {
		t.Errorf("without a departure: %+v %v", got, err)
	}
}

func TestSubmitRejectsEmptyOrder(t *testing.T) {
	q, _ := newQueue(t, 4)
	o := order("k", 2, 2)
	o.Origins = o.Origins[:1]
	if _, err := q.Submit(context.Background(), o); err == nil {
		t.Error("Submit with mismatched addresses succeeded")
	}
	if _, err := q.Submit(context.Background(), order("k", 0, 2)); err == nil {
		t.Error("Submit with no origins succeeded")
	}
}

func TestPutChunkWritesOnceAndFinishesOnDistinctChunks(t *testing.T) {
	q, _ := newQueue(t, 4)
	ctx := context.Background()
	j, err := q.Submit(ctx, order("k", 10, 3))
	if err != nil {
		t.Fatal(err)
	}
	run, st, err := q.Begin(ctx, j.ID, 2)
	if err != nil || !run || st != queue.StatusProcessing {
		t.Fatalf("Begin = %v, %v, %v; want true, Processing", run, st, err)
	}
	// The job is Processing now: another chunk begins without the script.
	if run, st, err := q.Begin(ctx, j.ID, 0); err != nil || !run || st != queue.StatusProcessing {
		t.Fatalf("Begin of a second chunk = %v, %v, %v; want true, Processing", run, st, err)
	}
	if got, err := q.Get(ctx, j.ID, "k"); err != nil || got.Status != queue.StatusProcessing {
		t.Fatalf("after Begin: Get = %+v, %v; want Processing", got, err)
	}
	// The last (short) chunk, twice at the same time, then once more with
	// different data.
	var wg sync.WaitGroup
	written := make([]bool, 2)
	for k := range 2 {
		wg.Go(func() {
			_, w, err := q.PutChunk(ctx, j.ID, 2, chunkResult(2, 3, 2))
			if err != nil {
				t.Error(err)
			}
			written[k] = w
		})
	}
	wg.Wait()
	if written[0] == written[1] {
		t.Errorf("concurrent puts wrote %v, want exactly one", written)
	}
	if _, w, _ := q.PutChunk(ctx, j.ID, 2, chunkResult(2, 3, 9)); w {
		t.Error("third put of chunk 2 wrote")
	}
	if run, _, _ := q.Begin(ctx, j.ID, 2); run {
		t.Error("Begin of a written chunk says run")
	}
	got, _ := q.Get(ctx, j.ID, "")
	if got.Status != queue.StatusProcessing || got.RowsDone != 2 || got.Started.IsZero() {
		t.Errorf("after chunk 2: status %s rows done %d started %v, want Processing 2", got.Status, got.RowsDone, got.Started)
	}
	for _, i := range []int{0, 0, 1} {
		if _, _, err := q.PutChunk(ctx, j.ID, i, chunkResult(4, 3, i)); err != nil {
			t.Fatal(err)
		}
	}
	got, _ = q.Get(ctx, j.ID, "")
	if got.Status != queue.StatusFinished || got.RowsDone != 10 || got.Finished.IsZero() {
		t.Fatalf("after all chunks: %+v, want Finished with 10 rows", got)
	}
	// A rerun after the job finished changes nothing.
	st, w, err := q.PutChunk(ctx, j.ID, 1, chunkResult(4, 3, 7))
	if err != nil || w || st != queue.StatusFinished {
		t.Errorf("put after finish = %v, %v, %v; want Finished, not written", st, w, err)
	}
	if run, st, _ := q.Begin(ctx, j.ID, 1); run || st != queue.StatusFinished {
		t.Errorf("Begin after finish = %v, %v", run, st)
	}
	res, err := q.Result(ctx, got)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Origins) != 10 || res.Origins[0] != " -75.5 , 39.1 " || res.DestinationSnaps[0] != queue.NotSnapped {
		t.Errorf("Result = %+v", res)
	}
	blobs, err := res.Chunks(ctx, queue.KindDuration, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range blobs {
		rows := 4
		if i == 2 {
			rows = 2
		}
		got, n, err := queue.DecodeRows(b)
		if want := chunkResult(rows, 3, i).Durations; err != nil || n != rows || !slices.Equal(got, want) {
			t.Errorf("chunk %d durations = %v (%d rows, %v), want %v", i, got, n, err, want)
		}
	}
	snaps, _ := res.Chunks(ctx, queue.KindOriginSnap, 1, 1)
	if got := queue.DecodeFloat32s(snaps[0]); !slices.Equal(got, []float32{1.5, 1.5, 1.5, 1.5}) {
		t.Errorf("chunk 1 origin snaps = %v", got)
	}
}

func TestPutChunkStoresOnlyWantedMatrices(t *testing.T) {
	q, _ := newQueue(t, 50)
	ctx := context.Background()
	o := order("k", 2, 2)
	o.Outputs = queue.OutDistance
	j, _ := q.Submit(ctx, o)
	r := chunkResult(2, 2, 0)
	r.Durations = nil
	if st, w, err := q.PutChunk(ctx, j.ID, 0, r); err != nil || !w || st != queue.StatusFinished {
		t.Fatalf("PutChunk = %v, %v, %v", st, w, err)
	}
	got, _ := q.Get(ctx, j.ID, "k")
	if got.Outputs != queue.OutDistance {
		t.Errorf("outputs = %v, want distance", got.Outputs)
	}
	res, _ := q.Result(ctx, got)
	if _, err := res.Chunks(ctx, queue.KindDuration, 0, 1); !errors.Is(err, queue.ErrExpired) {
		t.Errorf("duration blob of a distance-only job: err %v, want ErrExpired (absent)", err)
	}
	b, err := res.Chunks(ctx, queue.KindDistance, 0, 1)
	if err != nil || string(b[0]) != "[1,null],[1,null]" {
		t.Errorf("distance blob = %q, %v; want the rows as JSON text", b, err)
	}
}

func TestCancel(t *testing.T) {
	q, env := newQueue(t, 4)
	ctx := context.Background()
	j, _ := q.Submit(ctx, order("k", 10, 3))
	if _, _, err := q.PutChunk(ctx, j.ID, 0, chunkResult(4, 3, 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Cancel(ctx, j.ID, "other"); !errors.Is(err, queue.ErrNotFound) {
		t.Errorf("cancel by another key: %v, want ErrNotFound", err)
	}
	got, err := q.Cancel(ctx, j.ID, "k")
	if err != nil || got.Status != queue.StatusCancelled || got.Message == "" {
		t.Fatalf("Cancel = %+v, %v", got, err)
	}
	tasks, _ := asynq.NewInspectorFromRedisClient(env.Client).ListPendingTasks(env.Config.QueueName)
	if len(tasks) != 0 {
		t.Errorf("%d tasks still pending after cancel", len(tasks))
	}
	if run, st, _ := q.Begin(ctx, j.ID, 1); run || st != queue.StatusCancelled {
		t.Errorf("Begin after cancel = %v, %v", run, st)
	}
	if st, w, _ := q.PutChunk(ctx, j.ID, 1, chunkResult(4, 3, 1)); w || st != queue.StatusCancelled {
		t.Errorf("PutChunk after cancel = %v, %v", st, w)
	}
	if got, _ := q.Cancel(ctx, j.ID, "k"); got.Status != queue.StatusCancelled {
		t.Errorf("second cancel: %v", got.Status)
	}
	if st, _ := q.Fail(ctx, j.ID, "boom"); st != queue.StatusCancelled {
		t.Errorf("Fail of a cancelled job = %v, want it left Cancelled", st)
	}
}

func TestCancelFinishedJobLeavesIt(t *testing.T) {
	q, _ := newQueue(t, 50)
	ctx := context.Background()
	j, _ := q.Submit(ctx, order("k", 2, 2))
	q.PutChunk(ctx, j.ID, 0, chunkResult(2, 2, 0))
	got, err := q.Cancel(ctx, j.ID, "k")
	if err != nil || got.Status != queue.StatusFinished {
		t.Errorf("Cancel of finished job = %+v, %v", got, err)
	}
}

func TestFail(t *testing.T) {
	q, _ := newQueue(t, 4)
	ctx := context.Background()
	j, _ := q.Submit(ctx, order("k", 10, 3))
	st, err := q.Fail(ctx, j.ID, "chunk 1: boom")
	if err != nil || st != queue.StatusFailed {
		t.Fatalf("Fail = %v, %v", st, err)
	}
	got, _ := q.Get(ctx, j.ID, "k")
	if got.Status != queue.StatusFailed || got.Message != "chunk 1: boom" {
		t.Errorf("after Fail: %+v", got)
	}
	if _, w, _ := q.PutChunk(ctx, j.ID, 0, chunkResult(4, 3, 0)); w {
		t.Error("PutChunk wrote into a failed job")
	}
}

func TestExpiredAndUnknownJobs(t *testing.T) {
	q, env := newQueue(t, 4)
	ctx := context.Background()
	j, _ := q.Submit(ctx, order("k", 10, 3))
	tests := []struct {
		name, id, owner string
		want            error
	}{
		{"unknown", "7d8ae1a0-5b3e-4b8e-9a38-2a8f0c6d1e11", "k", queue.ErrNotFound},
		{"malformed", "not-a-uuid", "k", queue.ErrNotFound},
		{"other owner", j.ID, "other", queue.ErrNotFound},
		{"owner", j.ID, "k", nil},
	}
	for _, tt := range tests {
		if _, err := q.Get(ctx, tt.id, tt.owner); !errors.Is(err, tt.want) {
			t.Errorf("%s: Get err = %v, want %v", tt.name, err, tt.want)
		}
	}
	if env.Mini != nil {
		env.Mini.FastForward(queue.DefaultRetention + time.Second)
	} else {
		env.Expire(t, j.ID)
	}
	if _, err := q.Get(ctx, j.ID, "k"); !errors.Is(err, queue.ErrExpired) {
		t.Errorf("after retention: Get err = %v, want ErrExpired", err)
	}
	if _, err := q.Get(ctx, j.ID, "other"); !errors.Is(err, queue.ErrNotFound) {
		t.Errorf("after retention, other owner: Get err = %v, want ErrNotFound", err)
	}
	if _, _, err := q.Begin(ctx, j.ID, 0); !errors.Is(err, queue.ErrExpired) {
		t.Errorf("Begin of expired job: %v", err)
	}
	if _, _, err := q.PutChunk(ctx, j.ID, 0, chunkResult(4, 3, 0)); !errors.Is(err, queue.ErrExpired) {
		t.Errorf("PutChunk of expired job: %v", err)
	}
	if env.Mini != nil {
		env.Mini.FastForward(queue.DefaultTombstoneTTL)
		if _, err := q.Get(ctx, j.ID, "k"); !errors.Is(err, queue.ErrNotFound) {
			t.Errorf("after the tombstone: Get err = %v, want ErrNotFound", err)
		}
	}
}
