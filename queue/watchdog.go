package queue

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/hibiken/asynq"
)

// Stalled jobs. asynq moves a chunk task to its archive when the task has
// run out of retries because the worker running it kept dying (lease
// expiry), without calling the worker's error handler, and a task could in
// principle vanish from the queue; either way the job would sit in
// Processing until it expires. Check looks after that: for a job running
// longer than stallAfter, at most once per stallEvery, it asks asynq about
// every chunk not yet done, marks the job Failed when one was archived,
// and enqueues again any chunk whose task is gone.
const (
	stallAfter = 2 * time.Minute
	stallEvery = 30 * time.Second
)

// checks remembers when each job was last checked, per process.
type checks struct {
	mu   sync.Mutex
	last map[string]time.Time
}

func (c *checks) due(id string, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil {
		c.last = map[string]time.Time{}
	}
	if t, ok := c.last[id]; ok && now.Sub(t) < stallEvery {
		return false
	}
	if len(c.last) > 10000 {
		c.last = map[string]time.Time{}
	}
	c.last[id] = now
	return true
}

// Check returns j, or j as it is after recovering it from a chunk task
// that failed for good or went missing (see stallAfter). Fetch calls it.
func (q *Queue) Check(ctx context.Context, j *Job) (*Job, error) {
	now := q.now()
	since := j.Started
	if since.IsZero() {
		since = j.Created
	}
	if j.Status.Terminal() || now.Sub(since) < stallAfter || !q.checks.due(j.ID, now) {
		return j, nil
	}
	done, err := q.rdb.SMembers(ctx, q.keys.done(j.ID)).Result()
	if err != nil {
		return j, fmt.Errorf("queue: check job: %w", err)
	}
	isDone := make(map[int]bool, len(done))
	for _, d := range done {
		if i, err := strconv.Atoi(d); err == nil {
			isDone[i] = true
		}
	}
	changed := false
	for i := 0; i < j.Chunks; i++ {
		if isDone[i] {
			continue
		}
		info, err := q.inspector.GetTaskInfo(q.cfg.QueueName, TaskID(j.ID, i))
		switch {
		case errors.Is(err, asynq.ErrTaskNotFound), errors.Is(err, asynq.ErrQueueNotFound):
			if _, err := q.client.EnqueueContext(ctx, NewChunkTask(j.ID, i),
				asynq.Queue(q.cfg.QueueName), asynq.TaskID(TaskID(j.ID, i)),
				asynq.MaxRetry(q.cfg.MaxRetry), asynq.Timeout(q.cfg.TaskTimeout)); err != nil && !errors.Is(err, asynq.ErrTaskIDConflict) {
				return j, fmt.Errorf("queue: enqueue lost chunk %d: %w", i, err)
			}
		case err != nil:
			return j, fmt.Errorf("queue: check chunk %d: %w", i, err)
		case info.State == asynq.TaskStateArchived:
			msg := fmt.Sprintf("chunk %d of %d failed for good: %s", i+1, j.Chunks, info.LastErr)
			if info.LastErr == "" {
				msg = fmt.Sprintf("chunk %d of %d failed for good (its worker stopped %d times)", i+1, j.Chunks, info.Retried+1)
			}
			if _, err := q.Fail(ctx, j.ID, msg); err != nil {
				return j, err
			}
			changed = true
		}
		if changed {
			break
		}
	}
	if !changed {
		return j, nil
	}
	return q.Get(ctx, j.ID, "")
}
