package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// ErrNotFound is returned for an unknown job id, or a job that belongs to
// another owner.
var ErrNotFound = errors.New("queue: no such job")

// ErrExpired is returned for a job whose retention has passed.
var ErrExpired = errors.New("queue: job expired")

// Queue is the TDM job store on Redis together with the asynq client that
// enqueues chunk tasks. It is safe for concurrent use.
type Queue struct {
	rdb       redis.UniversalClient
	cfg       Config
	keys      keyspace
	client    *asynq.Client
	inspector *asynq.Inspector
	now       func() time.Time

	// orphans remembers, for Sweep, since when each active task without a
	// heartbeat has been seen so.
	orphanMu sync.Mutex
	orphans  map[string]time.Time
}

// New returns a Queue on rdb. The Redis client stays owned by the caller.
func New(rdb redis.UniversalClient, cfg Config) (*Queue, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Queue{
		rdb:       rdb,
		cfg:       cfg,
		keys:      keyspace{cfg.Prefix},
		client:    asynq.NewClientFromRedisClient(rdb),
		inspector: asynq.NewInspectorFromRedisClient(rdb),
		now:       cfg.Now,
	}, nil
}

// Config returns the queue's configuration with defaults filled in.
func (q *Queue) Config() Config { return q.cfg }

// Submit stores the order as a Queued job and enqueues one task per chunk of
// origin rows. The record is written before the tasks, so a worker always
// finds it. If enqueueing fails part-way the job is marked Failed (and when
// even that fails, a worker's janitor fails it later: the order is listed
// in the submitting set until its tasks are in). Submit finishes its work
// when ctx is cancelled after the call began (a client that half-closed
// its connection still gets its job), within 10 s.
func (q *Queue) Submit(ctx context.Context, o Order) (*Job, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	now := q.now()
	job, fields, err := q.newRecord(o, now)
	if err != nil {
		return nil, err
	}
	id := job.ID
	_, err = q.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		q.storeRecord(ctx, p, id, fields, now)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("queue: store job: %w", err)
	}
	if err := q.rdb.ZAdd(ctx, q.keys.submitting(), redis.Z{Score: float64(now.UnixMilli()), Member: id}).Err(); err != nil {
		q.end(ctx, id, StatusFailed, "the order could not be queued: "+err.Error())
		return nil, fmt.Errorf("queue: list order: %w", err)
	}
	for i := range job.Chunks {
		_, err := q.client.EnqueueContext(ctx, NewChunkTask(id, i),
			asynq.Queue(q.cfg.QueueName), asynq.TaskID(TaskID(id, i)),
			asynq.MaxRetry(q.cfg.MaxRetry), asynq.Timeout(q.cfg.TaskTimeout))
		if err != nil {
			err = fmt.Errorf("queue: enqueue chunk %d of %d: %w", i, job.Chunks, err)
			if _, ferr := q.end(ctx, id, StatusFailed, err.Error()); ferr == nil {
				q.rdb.ZRem(ctx, q.keys.submitting(), id)
			}
			return nil, err
		}
	}
	q.rdb.ZRem(ctx, q.keys.submitting(), id)
	return job, nil
}

// newRecord returns the job of order o made at now, with a new id, and the
// fields of its record (the job hash) as Submit and SubmitNow store them.
func (q *Queue) newRecord(o Order, now time.Time) (*Job, map[string]any, error) {
	rows, cols := len(o.OriginPoints), len(o.DestinationPoints)
	if rows == 0 || cols == 0 || rows != len(o.Origins) || cols != len(o.Destinations) {
		return nil, nil, fmt.Errorf("queue: order needs as many addresses as points, at least one each")
	}
	if o.Outputs == 0 {
		o.Outputs = OutBoth
	}
	origins, err := json.Marshal(o.Origins)
	if err != nil {
		return nil, nil, err
	}
	destinations, err := json.Marshal(o.Destinations)
	if err != nil {
		return nil, nil, err
	}
	options, err := encodeOptions(o.Options)
	if err != nil {
		return nil, nil, err
	}
	if _, err := decodeOptions(options, rows, cols); err != nil {
		return nil, nil, fmt.Errorf("queue: order: %w", err)
	}
	id := uuid.NewString()
	chunks := ChunkCount(rows, q.cfg.ChunkRows)
	job := &Job{
		ID: id, Owner: o.Owner, Status: StatusQueued, Routing: o.Routing, Outputs: o.Outputs, Bundle: o.Bundle,
		Departure: o.Departure, TimeZone: o.TimeZone,
		Rows: rows, Cols: cols, Chunks: chunks, ChunkRows: q.cfg.ChunkRows,
		Created: time.UnixMilli(now.UnixMilli()),
	}
	fields := map[string]any{
		"owner":        o.Owner,
		"status":       string(StatusQueued),
		"metric":       o.Routing,
		"bundle":       o.Bundle,
		"outputs":      int(o.Outputs),
		"rows":         rows,
		"cols":         cols,
		"chunks":       chunks,
		"chunk_rows":   q.cfg.ChunkRows,
		"created":      now.UnixMilli(),
		"expires":      now.Add(q.cfg.Retention).UnixMilli(),
		"origins":      origins,
		"destinations": destinations,
		"pts_o":        encodePoints(o.OriginPoints),
		"pts_d":        encodePoints(o.DestinationPoints),
	}
	if o.Profile != "" && o.Profile != "car" {
		// Written only for another profile than the car's: a record
		// without it reads as a car job, as every older record does.
		fields["profile"] = o.Profile
	}
	if o.Departure != "" {
		// Written only for an order with a departure time: a record
		// without them reads as an order without one.
		fields["departure"] = o.Departure
		fields["time_zone"] = o.TimeZone
	}
	if options != "" {
		// Written only when there are options: a record without the
		// field reads as a job without them, as every older record does.
		fields["options"] = options
		if o.Options.FallbackKmh > 0 {
			fields["fallback"] = 1 // for fetch, which needs no more of them
		}
	}
	return job, fields, nil
}

// storeRecord queues on p the writes of a new job record: the hash, its
// expiry and the tombstone that outlives it.
func (q *Queue) storeRecord(ctx context.Context, p redis.Pipeliner, id string, fields map[string]any, now time.Time) {
	expires := now.Add(q.cfg.Retention)
	p.HSet(ctx, q.keys.job(id), fields)
	p.PExpireAt(ctx, q.keys.job(id), expires)
	p.Set(ctx, q.keys.tombstone(id), fields["owner"], q.cfg.Retention+q.cfg.TombstoneTTL)
}

// Get returns the job's record and progress. owner, when not empty, must be
// the job's owner, else Get reports ErrNotFound. An expired job is
// ErrExpired.
func (q *Queue) Get(ctx context.Context, id, owner string) (*Job, error) {
	if uuid.Validate(id) != nil {
		return nil, ErrNotFound
	}
	v, err := infoScript.Run(ctx, q.rdb,
		[]string{q.keys.job(id), q.keys.done(id), q.keys.tombstone(id)}).Slice()
	if err != nil {
		return nil, fmt.Errorf("queue: read job: %w", err)
	}
	switch v[0] {
	case "none":
		return nil, ErrNotFound
	case "gone":
		if owner != "" && v[1] != owner {
			return nil, ErrNotFound
		}
		return nil, ErrExpired
	}
	if len(v) != 18 {
		return nil, fmt.Errorf("queue: job record of %s: %d fields", id, len(v))
	}
	s := func(i int) string { x, _ := v[i].(string); return x }
	n := func(i int) int { x, _ := strconv.Atoi(s(i)); return x }
	ms := func(i int) time.Time {
		x, err := strconv.ParseInt(s(i), 10, 64)
		if err != nil || x == 0 {
			return time.Time{}
		}
		return time.UnixMilli(x)
	}
	done, _ := v[1].(int64)
	lastDone, _ := v[2].(int64)
	j := &Job{
		ID: id, Owner: s(3), Status: Status(s(4)), Routing: s(5), Outputs: Outputs(n(6)),
		Rows: n(7), Cols: n(8), Chunks: n(9), ChunkRows: n(10),
		Created: ms(11), Started: ms(12), Finished: ms(13), Message: s(14), Bundle: s(15),
		Departure: s(16), TimeZone: s(17),
	}
	if owner != "" && j.Owner != owner {
		return nil, ErrNotFound
	}
	j.RowsDone = rowsDone(j.Rows, j.ChunkRows, j.Chunks, int(done), lastDone == 1)
	return j, nil
}

// Cancel stops a Queued or Processing job of owner (any owner when empty):
// it becomes Cancelled, its partial results are dropped, workers skip its
// remaining chunks and the chunk tasks still waiting in asynq are deleted.
// A job already in a terminal state is left as it is. Cancel returns the
// job as it is after the call.
func (q *Queue) Cancel(ctx context.Context, id, owner string) (*Job, error) {
	j, err := q.Get(ctx, id, owner)
	if err != nil {
		return nil, err
	}
	if j.Status.Terminal() {
		return j, nil
	}
	st, err := q.end(ctx, id, StatusCancelled, "cancelled by the client")
	if err != nil {
		return nil, err
	}
	if st == StatusCancelled {
		for i := range j.Chunks {
			// Best effort: a task that is running, done or already gone
			// cannot be deleted and is skipped by the worker instead.
			_ = q.inspector.DeleteTask(q.cfg.QueueName, TaskID(id, i))
		}
	}
	return q.Get(ctx, id, owner)
}

// Fail marks a running job Failed with msg; a terminal job is left alone.
// It returns the status after the call.
func (q *Queue) Fail(ctx context.Context, id, msg string) (Status, error) {
	return q.end(ctx, id, StatusFailed, msg)
}

// end moves a running job to st (Cancelled or Failed).
func (q *Queue) end(ctx context.Context, id string, st Status, msg string) (Status, error) {
	r, err := endScript.Run(ctx, q.rdb, []string{q.keys.job(id), q.keys.results(id)},
		string(st), q.now().UnixMilli(), msg).Text()
	if err != nil {
		return "", fmt.Errorf("queue: end job: %w", err)
	}
	if r == "gone" {
		return "", ErrExpired
	}
	return Status(r), nil
}
