package queue

import (
	"fmt"
	"time"
)

// Defaults for Config.
const (
	// DefaultPrefix is the Redis key prefix of job records and results.
	DefaultPrefix = "geosvc:tdm"
	// DefaultQueueName is the asynq queue chunk tasks go to.
	DefaultQueueName = "tdm"
	// DefaultChunkRows is the number of origin rows per chunk: a 1000 x 1000
	// job becomes 20 tasks, enough to keep every worker of a small cluster
	// busy while the per-chunk Redis round trips stay negligible.
	DefaultChunkRows = 50
	// DefaultRetention is how long a job and its results are kept.
	DefaultRetention = 24 * time.Hour
	// DefaultTombstoneTTL is how long after its results expire a fetch of a
	// job still answers "expired" rather than "unknown".
	DefaultTombstoneTTL = 7 * 24 * time.Hour
	// DefaultMaxRetry is how often a failing chunk is retried before the
	// job is marked Failed.
	DefaultMaxRetry = 5
	// DefaultTaskTimeout bounds one chunk's run.
	DefaultTaskTimeout = 5 * time.Minute
)

// Config tunes a Queue. The zero value of every field means its default.
type Config struct {
	// Prefix is the Redis key prefix of job records and results.
	Prefix string
	// QueueName is the asynq queue chunk tasks are enqueued to.
	QueueName string
	// ChunkRows is the number of origin rows per chunk task.
	ChunkRows int
	// Retention is how long a job and its results are kept.
	Retention time.Duration
	// TombstoneTTL is how long, beyond Retention, an expired job is still
	// recognised (fetch answers 410 instead of 404).
	TombstoneTTL time.Duration
	// MaxRetry is the number of retries of a failing chunk.
	MaxRetry int
	// TaskTimeout bounds one chunk's run.
	TaskTimeout time.Duration
	// Now returns the current time (tests set it); default time.Now.
	Now func() time.Time
}

// withDefaults returns c with every zero field set to its default.
func (c Config) withDefaults() (Config, error) {
	if c.Prefix == "" {
		c.Prefix = DefaultPrefix
	}
	if c.QueueName == "" {
		c.QueueName = DefaultQueueName
	}
	if c.ChunkRows == 0 {
		c.ChunkRows = DefaultChunkRows
	}
	if c.Retention == 0 {
		c.Retention = DefaultRetention
	}
	if c.TombstoneTTL == 0 {
		c.TombstoneTTL = DefaultTombstoneTTL
	}
	if c.MaxRetry == 0 {
		c.MaxRetry = DefaultMaxRetry
	}
	if c.TaskTimeout == 0 {
		c.TaskTimeout = DefaultTaskTimeout
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	switch {
	case c.ChunkRows < 1:
		return c, fmt.Errorf("queue: chunk rows must be at least 1, got %d", c.ChunkRows)
	case c.Retention < time.Second:
		return c, fmt.Errorf("queue: retention must be at least 1s, got %v", c.Retention)
	case c.TombstoneTTL < 0 || c.MaxRetry < 0 || c.TaskTimeout < 0:
		return c, fmt.Errorf("queue: negative tombstone TTL, max retry or task timeout")
	}
	return c, nil
}
