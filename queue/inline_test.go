package queue_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/geosvc/geosvc/queue"
)

// storedJob reads every key of job id: the record's fields (times left
// out), and the other keys' types and sizes.
func storedJob(t *testing.T, rdb redis.UniversalClient, prefix, id string) (map[string]string, []string) {
	t.Helper()
	ctx := context.Background()
	rec, err := rdb.HGetAll(ctx, prefix+":{"+id+"}:job").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"created", "started", "finished", "expires"} {
		if rec[k] == "" {
			t.Errorf("record has no %s", k)
		}
		delete(rec, k)
	}
	keys, err := rdb.Keys(ctx, prefix+":{"+id+"}:*").Result()
	if err != nil {
		t.Fatal(err)
	}
	var shape []string
	for _, k := range keys {
		k = strings.Replace(k, id, "ID", 1)
		if strings.HasSuffix(k, ":res") {
			fields, _ := rdb.HGetAll(ctx, strings.Replace(k, "ID", id, 1)).Result()
			k += " " + strings.Join(slices.Sorted(maps.Keys(fields)), " ")
		}
		shape = append(shape, k)
	}
	slices.Sort(shape)
	return rec, shape
}

func TestSubmitNowStoresTheJobAWorkerWould(t *testing.T) {
	q, env := newQueue(t, 4)
	ctx := context.Background()
	o := order("key-a", 10, 3)

	// The worker's way: Submit, Begin and PutChunk per chunk.
	queued, err := q.Submit(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	for i := range queued.Chunks {
		if _, _, err := q.Begin(ctx, queued.ID, i); err != nil {
			t.Fatal(err)
		}
		lo, hi := queue.ChunkRange(10, 4, i)
		if _, _, err := q.PutChunk(ctx, queued.ID, i, chunkResult(hi-lo, 3, i)); err != nil {
			t.Fatal(err)
		}
	}

	// Inline: the spec compute sees is the one the worker reads.
	var seen *queue.Spec
	inline, err := q.SubmitNow(ctx, o, func(_ context.Context, s *queue.Spec) ([]queue.ChunkResult, error) {
		seen = s
		var out []queue.ChunkResult
		for i := range s.Chunks {
			lo, hi := s.ChunkRange(i)
			out = append(out, chunkResult(hi-lo, 3, i))
		}
		return out, nil
	})
	if err != nil || inline.Status != queue.StatusFinished {
		t.Fatalf("SubmitNow = %+v, %v", inline, err)
	}
	spec, err := q.Spec(ctx, queued.ID)
	if err != nil {
		t.Fatal(err)
	}
	spec.ID = inline.ID
	if seen == nil || seen.ID != spec.ID || seen.Routing != spec.Routing || seen.Outputs != spec.Outputs ||
		seen.Chunks != spec.Chunks || seen.ChunkRows != spec.ChunkRows ||
		!slices.Equal(seen.Origins, spec.Origins) || !slices.Equal(seen.Destinations, spec.Destinations) {
		t.Errorf("inline spec %+v\nworker spec %+v", seen, spec)
	}
	recQ, keysQ := storedJob(t, env.Client, env.Config.Prefix, queued.ID)
	recI, keysI := storedJob(t, env.Client, env.Config.Prefix, inline.ID)
	if !maps.Equal(recQ, recI) {
		t.Errorf("inline record %v\nworker's %v", recI, recQ)
	}
	if !slices.Equal(keysQ, keysI) {
		t.Errorf("inline keys %v\nworker's %v", keysI, keysQ)
	}
	for _, id := range []string{queued.ID, inline.ID} {
		ttl, _ := env.Client.PTTL(ctx, env.Config.Prefix+":{"+id+"}:res").Result()
		if ttl <= 0 {
			t.Errorf("results of %s: TTL %v", id, ttl)
		}
	}
	if n, _ := env.Client.ZCard(ctx, env.Config.Prefix+":submitting").Result(); n != 0 {
		t.Errorf("%d orders left in the submitting set", n)
	}

	// A computation that fails leaves a Failed job with its reason.
	failed, err := q.SubmitNow(ctx, o, func(context.Context, *queue.Spec) ([]queue.ChunkResult, error) {
		return nil, errors.New("no graph")
	})
	if err != nil || failed.Status != queue.StatusFailed {
		t.Fatalf("failing SubmitNow = %+v, %v", failed, err)
	}
	got, err := q.Get(ctx, failed.ID, "key-a")
	if err != nil || got.Status != queue.StatusFailed || !strings.Contains(got.Message, "no graph") {
		t.Errorf("failed job %+v, %v", got, err)
	}
	// A wrong number of chunks is a failure, not a half-written job.
	short, err := q.SubmitNow(ctx, o, func(context.Context, *queue.Spec) ([]queue.ChunkResult, error) {
		return []queue.ChunkResult{chunkResult(4, 3, 0)}, nil
	})
	if err != nil || short.Status != queue.StatusFailed {
		t.Errorf("short SubmitNow = %+v, %v", short, err)
	}
}
