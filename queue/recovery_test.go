package queue_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/queue/queuetest"
)

// clock is a settable clock for the queue.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func clockedQueue(t *testing.T, chunkRows, maxRetry int) (*queue.Queue, *queuetest.Env, *clock) {
	t.Helper()
	env := queuetest.New(t)
	c := &clock{t: time.Now()}
	cfg := env.Config
	cfg.ChunkRows, cfg.MaxRetry, cfg.Now = chunkRows, maxRetry, c.now
	q, err := queue.New(env.Client, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return q, env, c
}

// dead lists chunk i of job id as running with its heartbeat ending at
// until, as a worker that then dies leaves it.
func dead(t *testing.T, env *queuetest.Env, id string, i int, until time.Time) {
	t.Helper()
	member := id + "/" + string(rune('0'+i))
	if err := env.Client.ZAdd(context.Background(), env.Config.Prefix+":running", redis.Z{Score: float64(until.UnixMilli()), Member: member}).Err(); err != nil {
		t.Fatal(err)
	}
}

// TestSweepRequeuesDeadChunks: a chunk whose heartbeat ran out is enqueued
// again (under a task id of its own), once, by one janitor; a written
// chunk is not; a chunk that dies more than MaxRetry times fails its job.
func TestSweepRequeuesDeadChunks(t *testing.T) {
	q, env, c := clockedQueue(t, 4, 2)
	ctx := context.Background()
	j, err := q.Submit(ctx, order("k", 8, 3))
	if err != nil {
		t.Fatal(err)
	}
	dead(t, env, j.ID, 0, c.now().Add(queue.HeartbeatTTL))
	if rep, err := q.Sweep(ctx); err != nil || len(rep.Requeued) != 0 {
		t.Fatalf("sweep within the heartbeat: %+v, %v", rep, err)
	}
	c.add(queue.HeartbeatTTL + time.Second)
	rep, err := q.Sweep(ctx)
	if err != nil || len(rep.Requeued) != 1 || rep.Requeued[0] != j.ID+"/0" {
		t.Fatalf("sweep after the heartbeat: %+v, %v", rep, err)
	}
	ins := asynq.NewInspectorFromRedisClient(env.Client)
	if info, err := ins.GetTaskInfo(env.Config.QueueName, queue.TaskID(j.ID, 0)+":r1"); err != nil || info.State != asynq.TaskStatePending {
		t.Errorf("the requeued task: %+v, %v", info, err)
	}
	if rep, _ := q.Sweep(ctx); len(rep.Requeued) != 0 {
		t.Errorf("a second sweep requeued again: %+v", rep)
	}
	// A written chunk is left alone.
	if _, _, err := q.PutChunk(ctx, j.ID, 1, chunkResult(4, 3, 1)); err != nil {
		t.Fatal(err)
	}
	dead(t, env, j.ID, 1, c.now())
	c.add(time.Second)
	if rep, _ := q.Sweep(ctx); len(rep.Requeued) != 0 || len(rep.Failed) != 0 {
		t.Errorf("a written chunk: %+v", rep)
	}
	// Chunk 0 dies twice more: MaxRetry (2) deaths are requeued, the third fails the job.
	for n := 2; n <= 3; n++ {
		dead(t, env, j.ID, 0, c.now())
		c.add(time.Second)
		rep, err := q.Sweep(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n == 2 && len(rep.Requeued) != 1 || n == 3 && len(rep.Failed) != 1 {
			t.Fatalf("death %d: %+v", n, rep)
		}
	}
	got, err := q.Get(ctx, j.ID, "")
	if err != nil || got.Status != queue.StatusFailed || !strings.Contains(got.Message, "stopped 3 times") {
		t.Errorf("job after three deaths: %+v, %v", got, err)
	}
}

// TestSweepFailsHalfQueuedOrders: an order whose tasks were not all
// enqueued (its API process died mid-way) is failed with a message after
// the grace period; an order queued in full whose entry outlived it is
// left alone.
func TestSweepFailsHalfQueuedOrders(t *testing.T) {
	q, env, c := clockedQueue(t, 2, 5)
	ctx := context.Background()
	half, _ := q.Submit(ctx, order("k", 6, 2))
	full, _ := q.Submit(ctx, order("k", 6, 2))
	ins := asynq.NewInspectorFromRedisClient(env.Client)
	if err := ins.DeleteTask(env.Config.QueueName, queue.TaskID(half.ID, 2)); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{half.ID, full.ID} {
		env.Client.ZAdd(ctx, env.Config.Prefix+":submitting", redis.Z{Score: float64(c.now().UnixMilli()), Member: id})
	}
	if rep, _ := q.Sweep(ctx); len(rep.Failed) != 0 {
		t.Fatalf("within the grace period: %+v", rep)
	}
	c.add(11 * time.Second)
	rep, err := q.Sweep(ctx)
	if err != nil || len(rep.Failed) != 1 || rep.Failed[0] != half.ID {
		t.Fatalf("after the grace period: %+v, %v", rep, err)
	}
	h, _ := q.Get(ctx, half.ID, "")
	f, _ := q.Get(ctx, full.ID, "")
	if h.Status != queue.StatusFailed || !strings.Contains(h.Message, "not fully queued") || f.Status != queue.StatusQueued {
		t.Errorf("half: %s %q; full: %s", h.Status, h.Message, f.Status)
	}
}

// TestHeartbeat: a running chunk is listed until its run ends.
func TestHeartbeat(t *testing.T) {
	q, env, _ := clockedQueue(t, 2, 5)
	ctx := context.Background()
	stop := q.Heartbeat(ctx, "bd9288e5-ebe8-425c-846e-a7efcad1daac", 3)
	key := env.Config.Prefix + ":running"
	if s, err := env.Client.ZScore(ctx, key, "bd9288e5-ebe8-425c-846e-a7efcad1daac/3").Result(); err != nil || s == 0 {
		t.Errorf("running chunk not listed: %v %v", s, err)
	}
	stop()
	if n := env.Client.ZCard(ctx, key).Val(); n != 0 {
		t.Errorf("%d entries after the run ended", n)
	}
}

// TestSweepRequeuesOrphanedTasks: a task a worker took from asynq but
// never began (it died between the two) is enqueued again by one janitor
// once it has been seen active without a heartbeat for HeartbeatTTL; a
// task whose chunk beats is left alone.
func TestSweepRequeuesOrphanedTasks(t *testing.T) {
	q, env, c := clockedQueue(t, 4, 3)
	other, err := queue.New(env.Client, q.Config()) // a second janitor
	if err != nil {
		t.Fatal(err)
	}
	// The live worker's heartbeats reach past the test's clock.
	cfg := q.Config()
	cfg.Now = func() time.Time { return c.now().Add(time.Hour) }
	beater, err := queue.New(env.Client, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	j, err := q.Submit(ctx, order("k", 8, 3))
	if err != nil {
		t.Fatal(err)
	}
	// A worker takes both chunks: it begins chunk 0 (its heartbeat runs)
	// and hangs before beginning chunk 1, as one killed at that instant.
	took := make(chan queue.ChunkTask, 2)
	release := make(chan struct{})
	srv := asynq.NewServerFromRedisClient(env.Client, asynq.Config{
		Concurrency: 2, Queues: map[string]int{env.Config.QueueName: 1},
		TaskCheckInterval: 10 * time.Millisecond, LogLevel: asynq.FatalLevel,
	})
	err = srv.Start(asynq.HandlerFunc(func(ctx context.Context, task *asynq.Task) error {
		ct, err := queue.ParseChunkTask(task)
		if err != nil {
			return err
		}
		if ct.Chunk == 0 {
			stop := beater.Heartbeat(ctx, ct.Job, ct.Chunk)
			defer stop()
		}
		took <- ct
		<-release
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	defer close(release)
	<-took
	<-took

	for _, jan := range []*queue.Queue{q, other} {
		if rep, err := jan.Sweep(ctx); err != nil || len(rep.Requeued) != 0 {
			t.Fatalf("first sight of the orphan: %+v, %v", rep, err)
		}
	}
	c.add(queue.HeartbeatTTL)
	rep, err := q.Sweep(ctx)
	if err != nil || len(rep.Requeued) != 1 || rep.Requeued[0] != j.ID+"/1" {
		t.Fatalf("sweep after HeartbeatTTL: %+v, %v (want chunk 1 only)", rep, err)
	}
	if rep, err := other.Sweep(ctx); err != nil || len(rep.Requeued) != 0 {
		t.Errorf("the second janitor enqueued it again: %+v, %v", rep, err)
	}
	ins := asynq.NewInspectorFromRedisClient(env.Client)
	if info, err := ins.GetTaskInfo(env.Config.QueueName, queue.TaskID(j.ID, 1)+":r1"); err != nil {
		t.Errorf("the requeued task: %+v, %v", info, err)
	}
}

// TestSweepFailsInlineOrdersLeftComputing: an order computed inline whose
// API process died while computing it (here: the computation has not
// returned) is failed by a janitor after the grace period.
func TestSweepFailsInlineOrdersLeftComputing(t *testing.T) {
	q, _, c := clockedQueue(t, 2, 5)
	ctx := context.Background()
	var id string
	computing, release := make(chan struct{}), make(chan struct{})
	done := make(chan *queue.Job, 1)
	go func() {
		j, _ := q.SubmitNow(ctx, order("k", 4, 2), func(_ context.Context, s *queue.Spec) ([]queue.ChunkResult, error) {
			id = s.ID
			close(computing)
			<-release
			return nil, errors.New("the API process is gone")
		})
		done <- j
	}()
	<-computing
	if rep, _ := q.Sweep(ctx); len(rep.Failed) != 0 {
		t.Fatalf("within the grace period: %+v", rep)
	}
	c.add(11 * time.Second)
	rep, err := q.Sweep(ctx)
	if err != nil || len(rep.Failed) != 1 || rep.Failed[0] != id {
		t.Fatalf("after the grace period: %+v, %v", rep, err)
	}
	j, _ := q.Get(ctx, id, "")
	if j.Status != queue.StatusFailed || !strings.Contains(j.Message, "not fully queued") {
		t.Errorf("job %s %q", j.Status, j.Message)
	}
	close(release)
	if j := <-done; j.Status != queue.StatusFailed {
		t.Errorf("SubmitNow ended %s", j.Status)
	}
}
