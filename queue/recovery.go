package queue

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// Recovery in seconds. asynq gives a dead worker's task back only when
// its lease (30 s) has run out and its recoverer (every minute) has seen
// it, so a chunk whose worker was killed would wait more than a minute.
// Instead a worker running a chunk keeps a heartbeat: an entry of the
// running set whose score is when the chunk is presumed dead, pushed
// HeartbeatTTL ahead every HeartbeatEvery. A janitor in every worker
// process (Sweep) claims the entries whose time has passed, one janitor
// per entry (ZREM answers 1 once), and enqueues the chunk again, or fails
// the job when the chunk has died more than MaxRetry times. Chunk writes
// are idempotent, so the dead run's task, should asynq run it again, and
// the new one cannot both count.
//
// The same janitor finishes what an API process left half done: an order
// is listed in the submitting set while its tasks are enqueued; an entry
// older than submitGrace is an order whose API process or Redis failed
// mid-way, whose client got no uuid: its job is failed with a message.
const (
	// HeartbeatEvery is how often a running chunk's heartbeat is renewed
	// and how often a worker's janitor sweeps.
	HeartbeatEvery = time.Second
	// HeartbeatTTL is how long after its last heartbeat a chunk is
	// presumed dead.
	HeartbeatTTL = 3 * time.Second
	// submitGrace is how long an order may take to enqueue its chunks.
	submitGrace = 10 * time.Second
)

// running is the sorted set of running chunks ("id/chunk"), scored by when
// each is presumed dead (Unix ms); submitting the set of orders being
// enqueued, scored by when they began. Both are single keys (no hash
// tag), used by single-key commands only.
func (k keyspace) running() string    { return k.prefix + ":running" }
func (k keyspace) submitting() string { return k.prefix + ":submitting" }

// orphanClaim is the key one janitor sets to enqueue again the chunk of an
// orphaned task (asynq task id taskID of job id), so that only one does.
func (k keyspace) orphanClaim(id, taskID string) string {
	return k.prefix + ":{" + id + "}:orphan:" + taskID
}

// attempts is the hash of how many times each chunk of job id was
// enqueued again after its worker died.
func (k keyspace) attempts(id string) string { return k.prefix + ":{" + id + "}:attempts" }

func runningMember(id string, chunk int) string { return id + "/" + strconv.Itoa(chunk) }

// Heartbeat marks chunk i of job id as running and keeps renewing its
// heartbeat until the returned func is called (when the run ends, however
// it ends), which removes it. Redis errors are left to the next beat.
func (q *Queue) Heartbeat(ctx context.Context, id string, i int) (stop func()) {
	member := runningMember(id, i)
	beat := func(ctx context.Context) {
		q.rdb.ZAdd(ctx, q.keys.running(), redis.Z{Score: float64(q.now().Add(HeartbeatTTL).UnixMilli()), Member: member})
	}
	beat(ctx)
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(HeartbeatEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				beat(ctx)
			}
		}
	}()
	return func() {
		cancel()
		<-done
		rctx, rcancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer rcancel()
		q.rdb.ZRem(rctx, q.keys.running(), member)
	}
}

// SweepReport says what one Sweep did.
type SweepReport struct {
	// Requeued are the chunks ("id/chunk") enqueued again after their
	// worker died; Failed the jobs failed because a chunk died too often
	// or an order was left half queued.
	Requeued, Failed []string
}

// Sweep is the janitor's round: chunks whose heartbeat stopped are
// enqueued again (or their job failed after MaxRetry deaths), and orders
// left half queued are failed.
func (q *Queue) Sweep(ctx context.Context) (SweepReport, error) {
	var rep SweepReport
	now := q.now().UnixMilli()
	dead, err := q.rdb.ZRangeByScore(ctx, q.keys.running(), &redis.ZRangeBy{Min: "-inf", Max: strconv.FormatInt(now, 10), Count: 100}).Result()
	if err != nil {
		return rep, fmt.Errorf("queue: sweep: %w", err)
	}
	for _, m := range dead {
		if n, err := q.rdb.ZRem(ctx, q.keys.running(), m).Result(); err != nil || n == 0 {
			continue // another janitor claimed it
		}
		id, cs, ok := strings.Cut(m, "/")
		i, err := strconv.Atoi(cs)
		if !ok || err != nil {
			continue
		}
		did, err := q.requeue(ctx, id, i)
		switch {
		case err != nil:
			return rep, err
		case did == requeued:
			rep.Requeued = append(rep.Requeued, m)
		case did == failedJob:
			rep.Failed = append(rep.Failed, id)
		}
	}
	if err := q.sweepOrphans(ctx, &rep); err != nil {
		return rep, err
	}
	stale, err := q.rdb.ZRangeByScore(ctx, q.keys.submitting(), &redis.ZRangeBy{Min: "-inf", Max: strconv.FormatInt(now-submitGrace.Milliseconds(), 10), Count: 100}).Result()
	if err != nil {
		return rep, fmt.Errorf("queue: sweep: %w", err)
	}
	for _, id := range stale {
		if n, err := q.rdb.ZRem(ctx, q.keys.submitting(), id).Result(); err != nil || n == 0 {
			continue
		}
		if !q.halfQueued(ctx, id) {
			continue
		}
		st, err := q.end(ctx, id, StatusFailed, "the order was not fully queued (its API process or Redis failed while it was stored); order again")
		if err == nil && st == StatusFailed {
			rep.Failed = append(rep.Failed, id)
		}
	}
	return rep, nil
}

// sweepOrphans enqueues again the chunks of tasks that a worker took from
// asynq but died before its first heartbeat (the instant between asynq
// handing over a task and the handler's Begin, where a kill between two
// chunks lands): asynq holds such a task active, and would give it back
// only after its lease and recoverer, over a minute later. A task seen
// active without a heartbeat for HeartbeatTTL is taken for dead; one
// janitor claims it. Should its worker be alive after all (stalled that
// long before Begin), the chunk runs twice, which the write-once chunk
// store makes harmless.
func (q *Queue) sweepOrphans(ctx context.Context, rep *SweepReport) error {
	active, err := q.inspector.ListActiveTasks(q.cfg.QueueName, asynq.PageSize(1000))
	if errors.Is(err, asynq.ErrQueueNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("queue: sweep: %w", err)
	}
	now := q.now()
	q.orphanMu.Lock()
	defer q.orphanMu.Unlock()
	if q.orphans == nil {
		q.orphans = map[string]time.Time{}
	}
	seen := make(map[string]bool, len(active))
	for _, t := range active {
		ct, err := ParseChunkTask(asynq.NewTask(t.Type, t.Payload))
		if err != nil {
			continue
		}
		seen[t.ID] = true
		_, err = q.rdb.ZScore(ctx, q.keys.running(), runningMember(ct.Job, ct.Chunk)).Result()
		if err == nil {
			delete(q.orphans, t.ID) // it beats
			continue
		}
		if !errors.Is(err, redis.Nil) {
			return fmt.Errorf("queue: sweep: %w", err)
		}
		first, ok := q.orphans[t.ID]
		if !ok {
			q.orphans[t.ID] = now
			continue
		}
		if now.Sub(first) < HeartbeatTTL {
			continue
		}
		delete(q.orphans, t.ID)
		if ok, err := q.rdb.SetNX(ctx, q.keys.orphanClaim(ct.Job, t.ID), 1, time.Hour).Result(); err != nil || !ok {
			continue // another janitor took it
		}
		did, err := q.requeue(ctx, ct.Job, ct.Chunk)
		switch {
		case err != nil:
			return err
		case did == requeued:
			rep.Requeued = append(rep.Requeued, runningMember(ct.Job, ct.Chunk))
		case did == failedJob:
			rep.Failed = append(rep.Failed, ct.Job)
		}
	}
	for id := range q.orphans {
		if !seen[id] {
			delete(q.orphans, id)
		}
	}
	return nil
}

// halfQueued reports whether job id is Queued with a chunk task missing
// (not one that was queued in full but whose submitting entry outlived
// its order).
func (q *Queue) halfQueued(ctx context.Context, id string) bool {
	j, err := q.Get(ctx, id, "")
	if err != nil || j.Status != StatusQueued {
		return false
	}
	for i := 0; i < j.Chunks; i++ {
		if _, err := q.inspector.GetTaskInfo(q.cfg.QueueName, TaskID(id, i)); errors.Is(err, asynq.ErrTaskNotFound) || errors.Is(err, asynq.ErrQueueNotFound) {
			return true
		}
	}
	return false
}

// What requeue did.
const (
	nothing   = iota // the job has ended or the chunk is written
	requeued         // the chunk is enqueued again
	failedJob        // the chunk died too often: its job is Failed
)

// requeue enqueues chunk i of job id again after its worker died, unless
// the job has ended or the chunk is written; after MaxRetry deaths it
// fails the job instead.
func (q *Queue) requeue(ctx context.Context, id string, i int) (int, error) {
	j, err := q.Get(ctx, id, "")
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrExpired) {
		return nothing, nil
	}
	if err != nil {
		return nothing, err
	}
	if j.Status.Terminal() {
		return nothing, nil
	}
	if written, err := q.rdb.SIsMember(ctx, q.keys.done(id), strconv.Itoa(i)).Result(); err != nil || written {
		return nothing, err
	}
	n, err := q.rdb.HIncrBy(ctx, q.keys.attempts(id), strconv.Itoa(i), 1).Result()
	if err != nil {
		return nothing, fmt.Errorf("queue: requeue: %w", err)
	}
	q.rdb.PExpireAt(ctx, q.keys.attempts(id), j.Created.Add(q.cfg.Retention))
	if n > int64(q.cfg.MaxRetry) {
		msg := fmt.Sprintf("chunk %d of %d failed for good: its worker stopped %d times while computing it", i+1, j.Chunks, n)
		if _, err := q.end(ctx, id, StatusFailed, msg); err != nil {
			return nothing, err
		}
		return failedJob, nil
	}
	_, err = q.client.EnqueueContext(ctx, NewChunkTask(id, i),
		asynq.Queue(q.cfg.QueueName), asynq.TaskID(TaskID(id, i)+":r"+strconv.FormatInt(n, 10)),
		asynq.MaxRetry(q.cfg.MaxRetry), asynq.Timeout(q.cfg.TaskTimeout))
	if err != nil && !errors.Is(err, asynq.ErrTaskIDConflict) {
		return nothing, fmt.Errorf("queue: requeue chunk %d of %s: %w", i, id, err)
	}
	return requeued, nil
}
