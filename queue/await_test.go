package queue_test

import (
	"context"
	"testing"
	"time"

	"github.com/geosvc/geosvc/queue"
)

// TestAwaitEveryEnd: Await returns when the job ends, whatever ends it
// (the last chunk, a cancel, a failure), with the job as it ended; a job
// that has ended already is returned at once; an unknown one is
// ErrNotFound.
func TestAwaitEveryEnd(t *testing.T) {
	q, _ := newQueue(t, 4)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		end  func(id string)
		want queue.Status
	}{
		{"finished", func(id string) {
			q.PutChunk(ctx, id, 0, chunkResult(4, 3, 0))
			q.PutChunk(ctx, id, 1, chunkResult(2, 3, 4))
		}, queue.StatusFinished},
		{"cancelled", func(id string) { q.Cancel(ctx, id, "k") }, queue.StatusCancelled},
		{"failed", func(id string) { q.Fail(ctx, id, "chunk 0 failed") }, queue.StatusFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := q.Submit(ctx, order("k", 6, 3))
			if err != nil {
				t.Fatal(err)
			}
			got := make(chan *queue.Job, 1)
			go func() {
				aj, err := q.Await(ctx, j.ID, "k", queue.MaxWait)
				if err != nil {
					t.Error(err)
				}
				got <- aj
			}()
			time.Sleep(20 * time.Millisecond) // let Await subscribe; it also re-reads after subscribing
			tc.end(j.ID)
			if aj := <-got; aj == nil || aj.Status != tc.want {
				t.Errorf("Await = %+v, want %s", aj, tc.want)
			}
			if aj, err := q.Await(ctx, j.ID, "k", queue.MaxWait); err != nil || aj.Status != tc.want {
				t.Errorf("Await of an ended job = %+v, %v", aj, err)
			}
		})
	}
	if _, err := q.Await(ctx, "bd9288e5-ebe8-425c-846e-a7efcad1daac", "k", time.Second); err != queue.ErrNotFound {
		t.Errorf("unknown job: %v", err)
	}
}
