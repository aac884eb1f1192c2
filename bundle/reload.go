package bundle

import (
	"context"
	"log/slog"
	"os"
	"time"
)

// Reloader keeps a process serving the bundle in one directory: when the
// directory's manifest changes (a build finished there, or the directory
// is a symlink repointed at another build: OSRM's osrm-datastore
// workflow), or when poked (SIGHUP), it opens the new bundle, checksums
// and all, and makes it current. Requests and matrix jobs that started on
// the old bundle finish on it (Current). A bundle that fails to open (a
// build still writing, a corrupt file) leaves the served one in place.
type Reloader struct {
	// Dir is the bundle directory (or a symlink to one).
	Dir string
	// Current is what the process serves.
	Current *Current
	// Open opens a bundle: Open, or OpenRouting for a worker.
	Open func(dir string) (*Bundle, error)
	// Swapped, when set, is told of every swap and how long opening took.
	Swapped func(old, new *Bundle, took time.Duration)
	// Logger logs swaps and refusals; default slog.Default().
	Logger *slog.Logger

	lastErr string
}

// Check opens the bundle in Dir when its id (its manifest) differs from
// the served one's, and makes it current. It returns whether it swapped,
// and why it could not.
func (r *Reloader) Check() (bool, error) {
	log := r.Logger
	if log == nil {
		log = slog.Default()
	}
	_, id, err := check(r.Dir)
	if err == nil {
		if cur := r.Current.Load(); cur != nil && cur.ID == id {
			r.lastErr = ""
			return false, nil
		}
		start := time.Now()
		var b *Bundle
		if b, err = r.Open(r.Dir); err == nil {
			err = b.Verify()
		}
		if err == nil {
			took := time.Since(start)
			old := r.Current.Load()
			r.Current.Store(b)
			r.lastErr = ""
			oldID := ""
			if old != nil {
				oldID = old.ID
			}
			log.Info("data bundle swapped", "dir", r.Dir, "id", b.ID, "was", oldID, "took", took.Round(time.Millisecond))
			if r.Swapped != nil {
				r.Swapped(old, b, took)
			}
			return true, nil
		}
	}
	// Said once per distinct reason, not at every poll.
	if msg := err.Error(); msg != r.lastErr {
		r.lastErr = msg
		log.Warn("data bundle not swapped: the served one stays", "dir", r.Dir, "err", err)
	}
	return false, err
}

// Run checks every interval (0: only when poked) and whenever poke
// receives, until ctx ends.
func (r *Reloader) Run(ctx context.Context, interval time.Duration, poke <-chan os.Signal) {
	var tick <-chan time.Time
	if interval > 0 {
		t := time.NewTicker(interval)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
		case <-poke:
		}
		_, _ = r.Check()
	}
}
