package worker

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/queue"
)

// TestComputeOnTheJobsProfile: a job is computed on the graph of its
// record's profile (the car's without one); a profile the bundle lacks
// fails the job without retries. On routing's roundabout fixture the
// walker crosses the one-way ring against its direction, the car goes
// round it.
func TestComputeOnTheJobsProfile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "b")
	if _, err := bundle.Build(context.Background(), bundle.Options{
		OSMPath: filepath.Join("..", "routing", "testdata", "roundabout.osm"), Out: dir, Profiles: []string{bundle.ProfileFoot},
	}); err != nil {
		t.Fatal(err)
	}
	b, err := bundle.OpenRouting(dir)
	if err != nil {
		t.Fatal(err)
	}
	cur := &bundle.Current{}
	cur.Store(b)
	c := NewComputer(cur, 0, nil)
	spec := func(profile string) *queue.Spec {
		return &queue.Spec{ID: "job-" + profile, Routing: "shortest", Outputs: queue.OutBoth, Chunks: 1, ChunkRows: 10,
			Origins: []orb.Point{{10.002, 0}}, Destinations: []orb.Point{{10.000, 0.002}}, Bundle: b.ID, Profile: profile}
	}
	dist := map[string]int32{}
	for _, p := range []string{"", "car", "foot"} {
		eng, err := c.engineOf(spec(p))
		if err != nil {
			t.Fatal(err)
		}
		if want := b.GraphFor(p); eng.(graphEngine).g != want || want == nil {
			t.Errorf("profile %q: engine on another graph", p)
		}
		out, err := c.ComputeAll(context.Background(), spec(p))
		if err != nil {
			t.Fatal(err)
		}
		dist[p] = out[0].Distances[0]
	}
	if dist[""] != 694 || dist["car"] != 694 || !(dist["foot"] < dist["car"]) {
		t.Errorf("S2 to W2: %v m; want 694 m for the car (round the ring) and less on foot", dist)
	}
	_, err = c.engineOf(spec("bicycle"))
	if err == nil || !errors.Is(err, asynq.SkipRetry) {
		t.Errorf("a profile the bundle lacks: %v, want a SkipRetry error", err)
	}
}
