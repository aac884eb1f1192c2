package queue

import (
	"context"
	"time"
)

// MaxWait is the longest a fetch may wait for a job to end.
const MaxWait = 30 * time.Second

// Await returns job id of owner (as Get does) once it has ended
// (Finished, Failed or Cancelled), or as it is when wait has passed. It
// listens on the job's end channel, to which the scripts that end a job
// publish, so it answers as soon as the job ends, without polling; a
// subscription is made before the job is read, so an end that happens in
// between is not missed. It returns ctx.Err() when ctx ends first (the
// client went away).
func (q *Queue) Await(ctx context.Context, id, owner string, wait time.Duration) (*Job, error) {
	j, err := q.Get(ctx, id, owner)
	if err != nil || j.Status.Terminal() || wait <= 0 {
		return j, err
	}
	sub := q.rdb.Subscribe(ctx, q.keys.ended(id))
	defer sub.Close()
	if _, err := sub.Receive(ctx); err != nil { // the subscription is active
		return nil, err
	}
	if j, err = q.Get(ctx, id, owner); err != nil || j.Status.Terminal() {
		return j, err
	}
	t := time.NewTimer(min(wait, MaxWait))
	defer t.Stop()
	select {
	case <-sub.Channel():
	case <-t.C:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return q.Get(ctx, id, owner)
}
