package worker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/routing"
)

// Defaults for Options.
const (
	// DefaultTaskCheckInterval is how often an idle worker slot polls for
	// a task. asynq's own default (1 s) would add up to a second to every
	// job; a few milliseconds keep the order-to-finish latency low at the
	// price of some idle Redis traffic.
	DefaultTaskCheckInterval = 10 * time.Millisecond
	// DefaultDelayedTaskCheckInterval is how often retries that are due
	// are moved back to their queue.
	DefaultDelayedTaskCheckInterval = time.Second
	// DefaultShutdownTimeout is how long Shutdown lets running chunks
	// finish before they are handed back to the queue.
	DefaultShutdownTimeout = 30 * time.Second
	// DefaultCacheBytes bounds the per-job caches (snapped points and
	// destination buckets) of one worker process.
	DefaultCacheBytes int64 = 512 << 20
	// DefaultCacheTTL is how long a job's cache entry lives at most.
	DefaultCacheTTL = 10 * time.Minute
	// DefaultRetryDelay is the delay before the first retry of a failed
	// chunk; it doubles with every retry, up to a minute.
	DefaultRetryDelay = time.Second
)

// Options configures a Worker. Redis, Queue and Graph are required; a zero
// value elsewhere means the default.
type Options struct {
	// Redis is the connection asynq and the queue use; the caller owns it.
	Redis redis.UniversalClient
	// Queue is the job store; the worker reads specs and writes chunks
	// through it.
	Queue *queue.Queue
	// Bundle holds the data bundles matrices are computed on: each job on
	// the one it was ordered on (its id), the current one or one served
	// just before a swap.
	Bundle *bundle.Current
	// Concurrency is the number of chunks computed at the same time
	// (default: the number of CPUs).
	Concurrency int
	// Queues maps asynq queue names to priorities (default: the Queue's
	// queue with priority 1).
	Queues map[string]int
	// StrictPriority drains higher-priority queues first.
	StrictPriority bool
	// TaskCheckInterval is the idle polling interval.
	TaskCheckInterval time.Duration
	// DelayedTaskCheckInterval is how often due retries are re-queued.
	DelayedTaskCheckInterval time.Duration
	// ShutdownTimeout bounds how long Shutdown waits for running chunks.
	ShutdownTimeout time.Duration
	// CacheBytes bounds the per-job caches.
	CacheBytes int64
	// CacheTTL bounds how long a job stays cached.
	CacheTTL time.Duration
	// SnapRadiusM is the snapping radius in metres (default
	// routing.DefaultSnapRadiusM).
	SnapRadiusM float64
	// RetryDelay is the delay before the first retry of a failed chunk.
	RetryDelay time.Duration
	// Logger receives the worker's and asynq's logs (default
	// slog.Default()).
	Logger *slog.Logger
	// Metrics records chunks, cells and job ends; nil records nothing
	// (NewMetrics).
	Metrics *Metrics
}

// Worker is an asynq server running chunk tasks.
type Worker struct {
	opts Options
	q    *queue.Queue
	// compute computes chunks; the API's inline orders use the same.
	compute *Computer
	jobs    *jobCache
	srv     *asynq.Server
	log     *slog.Logger

	// stopJanitor ends the janitor, which closes janitorDone.
	stopJanitor func()
	janitorDone chan struct{}
}

// New returns a Worker; Start or Run begins taking tasks.
func New(opts Options) (*Worker, error) {
	if opts.Bundle == nil {
		return nil, errors.New("worker: no data bundle")
	}
	return newWorker(opts, nil)
}

// newWorker returns a worker computing with e.
func newWorker(opts Options, e engine) (*Worker, error) {
	if opts.Redis == nil || opts.Queue == nil {
		return nil, errors.New("worker: Redis and Queue are required")
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = runtime.NumCPU()
	}
	if len(opts.Queues) == 0 {
		opts.Queues = map[string]int{opts.Queue.Config().QueueName: 1}
	}
	if opts.TaskCheckInterval <= 0 {
		opts.TaskCheckInterval = DefaultTaskCheckInterval
	}
	if opts.DelayedTaskCheckInterval <= 0 {
		opts.DelayedTaskCheckInterval = DefaultDelayedTaskCheckInterval
	}
	if opts.ShutdownTimeout <= 0 {
		opts.ShutdownTimeout = DefaultShutdownTimeout
	}
	if opts.CacheBytes <= 0 {
		opts.CacheBytes = DefaultCacheBytes
	}
	if opts.CacheTTL <= 0 {
		opts.CacheTTL = DefaultCacheTTL
	}
	if opts.SnapRadiusM <= 0 {
		opts.SnapRadiusM = routing.DefaultSnapRadiusM
	}
	if opts.RetryDelay <= 0 {
		opts.RetryDelay = DefaultRetryDelay
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	compute := newComputer(e, opts.SnapRadiusM)
	compute.bundles = opts.Bundle
	w := &Worker{opts: opts, q: opts.Queue, compute: compute, log: opts.Logger.With("component", "worker")}
	jobs, err := newJobCache(opts.CacheBytes, opts.CacheTTL, w.loadJob)
	if err != nil {
		return nil, fmt.Errorf("worker: cache: %w", err)
	}
	w.jobs = jobs
	w.srv = asynq.NewServerFromRedisClient(opts.Redis, asynq.Config{
		Concurrency:              opts.Concurrency,
		Queues:                   opts.Queues,
		StrictPriority:           opts.StrictPriority,
		TaskCheckInterval:        opts.TaskCheckInterval,
		DelayedTaskCheckInterval: opts.DelayedTaskCheckInterval,
		ShutdownTimeout:          opts.ShutdownTimeout,
		RetryDelayFunc:           w.retryDelay,
		ErrorHandler:             asynq.ErrorHandlerFunc(w.handleError),
		Logger:                   slogLogger{w.log},
		LogLevel:                 asynq.WarnLevel,
	})
	return w, nil
}

// Start begins taking tasks in the background, and the janitor (see
// queue.Sweep): every queue.HeartbeatEvery it enqueues again the chunks
// whose worker died and fails orders left half queued.
func (w *Worker) Start() error {
	mux := asynq.NewServeMux()
	mux.Handle(queue.TaskType, w)
	if err := w.srv.Start(mux); err != nil {
		return fmt.Errorf("worker: start: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w.stopJanitor = cancel
	w.janitorDone = make(chan struct{})
	go w.janitor(ctx)
	w.log.Info("worker started", "concurrency", w.opts.Concurrency, "queues", w.opts.Queues,
		"task_check_interval", w.opts.TaskCheckInterval)
	return nil
}

// Run starts the worker and blocks until ctx is done, then shuts it down
// gracefully.
func (w *Worker) Run(ctx context.Context) error {
	if err := w.Start(); err != nil {
		return err
	}
	<-ctx.Done()
	w.Shutdown()
	return nil
}

// Stop makes the worker take no new chunks; running ones go on until
// Shutdown. Call it as soon as a stop is decided.
func (w *Worker) Stop() { w.srv.Stop() }

// janitor sweeps until ctx ends. A Redis that is away makes a round fail;
// the next round tries again, so a restarted Redis needs no restart here.
func (w *Worker) janitor(ctx context.Context) {
	defer close(w.janitorDone)
	t := time.NewTicker(queue.HeartbeatEvery)
	defer t.Stop()
	failing := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		rep, err := w.q.Sweep(ctx)
		switch {
		case err != nil && !failing:
			w.log.Warn("janitor: Redis unavailable, retrying every second", "err", err)
			failing = true
		case err == nil && failing:
			w.log.Info("janitor: Redis back")
			failing = false
		}
		for _, c := range rep.Requeued {
			w.log.Warn("janitor: chunk enqueued again, its worker stopped", "chunk", c)
		}
		for _, id := range rep.Failed {
			w.log.Warn("janitor: job failed", "job", id)
		}
		w.opts.Metrics.swept(len(rep.Requeued), len(rep.Failed))
	}
}

// Shutdown stops taking tasks, waits up to the shutdown timeout for running
// chunks and hands unfinished ones back to the queue (asynq reruns them;
// the write-once chunk store makes that safe).
func (w *Worker) Shutdown() {
	w.srv.Shutdown()
	if w.stopJanitor != nil {
		w.stopJanitor()
		<-w.janitorDone
	}
	w.jobs.close()
	w.log.Info("worker stopped")
}

// retryDelay is exponential from RetryDelay, capped at a minute.
func (w *Worker) retryDelay(n int, _ error, _ *asynq.Task) time.Duration {
	return min(w.opts.RetryDelay<<min(n, 16), time.Minute)
}

// handleError marks the job Failed when a chunk has failed for good.
func (w *Worker) handleError(ctx context.Context, t *asynq.Task, err error) {
	retried, _ := asynq.GetRetryCount(ctx)
	maxRetry, known := asynq.GetMaxRetry(ctx)
	final := (known && retried >= maxRetry) || errors.Is(err, asynq.SkipRetry)
	ct, perr := queue.ParseChunkTask(t)
	w.log.Warn("chunk failed", "job", ct.Job, "chunk", ct.Chunk, "retried", retried, "final", final, "err", err)
	w.opts.Metrics.chunkFailed(final && perr == nil)
	if !final || perr != nil {
		return
	}
	msg := fmt.Sprintf("chunk %d failed after %d retries: %v", ct.Chunk, retried, err)
	bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if _, err := w.q.Fail(bg, ct.Job, msg); err != nil && !errors.Is(err, queue.ErrExpired) {
		w.log.Error("mark job failed", "job", ct.Job, "err", err)
	}
	w.jobs.drop(ct.Job)
}

// slogLogger adapts slog to asynq.Logger.
type slogLogger struct{ l *slog.Logger }

func (s slogLogger) Debug(args ...any) { s.l.Debug(fmt.Sprint(args...)) }
func (s slogLogger) Info(args ...any)  { s.l.Info(fmt.Sprint(args...)) }
func (s slogLogger) Warn(args ...any)  { s.l.Warn(fmt.Sprint(args...)) }
func (s slogLogger) Error(args ...any) { s.l.Error(fmt.Sprint(args...)) }
func (s slogLogger) Fatal(args ...any) { s.l.Error(fmt.Sprint(args...)); os.Exit(1) }
