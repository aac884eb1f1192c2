package queue_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/queue/queuetest"
)

// TestCheckRecoversStalledJobs: a chunk task that asynq archived (its
// worker kept dying) fails the job with a message; a chunk task that went
// missing is enqueued again; a young job is left alone.
func TestCheckRecoversStalledJobs(t *testing.T) {
	env := queuetest.New(t)
	now := time.Now()
	cfg := env.Config
	cfg.ChunkRows = 4
	cfg.Now = func() time.Time { return now }
	q, err := queue.New(env.Client, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ins := asynq.NewInspectorFromRedisClient(env.Client)

	j, err := q.Submit(ctx, order("key-a", 10, 3)) // 3 chunks
	if err != nil {
		t.Fatal(err)
	}
	if err := ins.DeleteTask(cfg.QueueName, queue.TaskID(j.ID, 0)); err != nil {
		t.Fatal(err)
	}
	if got, err := q.Check(ctx, j); err != nil || got.Status != queue.StatusQueued {
		t.Fatalf("young job: %+v %v", got, err)
	}
	if _, err := ins.GetTaskInfo(cfg.QueueName, queue.TaskID(j.ID, 0)); err == nil {
		t.Fatal("a young job's lost chunk was enqueued again: the check ran too early")
	}
	now = now.Add(3 * time.Minute)
	if got, err := q.Check(ctx, j); err != nil || got.Status != queue.StatusQueued {
		t.Fatalf("job with a lost chunk: %+v %v", got, err)
	}
	if info, err := ins.GetTaskInfo(cfg.QueueName, queue.TaskID(j.ID, 0)); err != nil || info.State != asynq.TaskStatePending {
		t.Fatalf("lost chunk not enqueued again: %+v %v", info, err)
	}

	if err := ins.ArchiveTask(cfg.QueueName, queue.TaskID(j.ID, 2)); err != nil {
		t.Fatal(err)
	}
	if got, _ := q.Check(ctx, j); got.Status != queue.StatusQueued {
		t.Fatalf("checked again within 30 s: %v", got.Status)
	}
	now = now.Add(time.Minute)
	got, err := q.Check(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != queue.StatusFailed || !strings.Contains(got.Message, "chunk 3 of 3 failed for good") {
		t.Fatalf("job with an archived chunk: %s %q", got.Status, got.Message)
	}
}
