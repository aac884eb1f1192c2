package worker

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/queue/queuetest"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// TestRoutingOptionsThroughTheQueue orders matrices with every routing
// option, speeds, avoid flags and an avoided area on the hand-computed
// motorway fixture
// (routing/testdata/motorway.osm) and runs them through a worker on the
// real graph: the cells equal the fixture's hand-computed routes and
// routing's own matrix of the same metric.
func TestRoutingOptionsThroughTheQueue(t *testing.T) {
	g := routingtest.Graph(t, "motorway.osm")
	q, w := graphWorker(t, g, 1)
	// W (9.999, 0) to E (10.011, 0) and to K (10.021, 0) on the island.
	origins := []orb.Point{{9.999, 0}}
	dests := []orb.Point{{10.011, 0}, {10.021, 0}}
	const none = routing.NoRoute
	// A box round the middle of the motorway, which crosses it with no
	// vertex inside: the motorway closes, the old road 111 m north stays.
	box, err := routing.ParseAreas([]byte(`{"type":"Polygon","coordinates":[[[10.0047,-0.0003],[10.0053,-0.0003],[10.0053,0.0003],[10.0047,0.0003],[10.0047,-0.0003]]]}`))
	if err != nil {
		t.Fatal(err)
	}
	areas := routing.Metric{Areas: box}.String()
	for _, tc := range []struct {
		routing  string
		durE     int32 // hand-computed W -> E (NoRoute: none)
		distE    int32
		noRouteK bool
	}{
		{"fastest", 77, 1334, false},
		{"shortest", 77, 1334, false},
		{"fastest;speeds=Motorway:30", 117, 1557, false},
		{"efficient", 77, 1334, false},
		{"safest", 77, 1334, false},
		{"shortest;avoid=motorway", 117, 1557, true},
		{"fastest;avoid=toll", 117, 1557, false},
		{"safest;speeds=Defaultspeed:50;avoid=motorway,unpaved", none, none, true},
		{areas, 117, 1557, false},
	} {
		o := queue.Order{Owner: "k", Routing: tc.routing, Outputs: queue.OutBoth,
			OriginPoints: origins, DestinationPoints: dests,
			Origins: []string{"9.999,0"}, Destinations: []string{"10.011,0", "10.021,0"}}
		j, err := q.Submit(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if err := runChunk(t, w, j.ID, 0); err != nil {
			t.Fatalf("%s: %v", tc.routing, err)
		}
		dur, dist := matrix(t, q, j.ID, queue.KindDuration), matrix(t, q, j.ID, queue.KindDistance)
		if dur[0] != tc.durE || dist[0] != tc.distE {
			t.Errorf("%s: W -> E %d s %d m, want %d s %d m", tc.routing, dur[0], dist[0], tc.durE, tc.distE)
		}
		if (dur[1] == none) != tc.noRouteK {
			t.Errorf("%s: W -> K %d s, want no route: %v", tc.routing, dur[1], tc.noRouteK)
		}
		spec, err := routing.ParseMetric(tc.routing)
		if err != nil {
			t.Fatal(err)
		}
		want, err := g.Matrix(context.Background(), spec, g.SnapAll(spec, origins, 0), g.SnapAll(spec, dests, 0))
		if err != nil {
			t.Fatal(err)
		}
		for k := range dur {
			if dur[k] != want.Durations[k] || dist[k] != want.Distances[k] {
				t.Errorf("%s: cell %d: %d s %d m, routing %d s %d m", tc.routing, k, dur[k], dist[k], want.Durations[k], want.Distances[k])
			}
		}
	}
	if _, _, runs := g.MetricCacheStats(); runs != 7 {
		t.Errorf("%d customizations for 7 custom metrics (fastest and shortest use the hierarchies)", runs)
	}
}

// graphWorker returns a queue with chunks of chunkRows on the test Redis
// (queuetest: REDIS_URL's, else an embedded one) and one worker on it
// computing on graph g.
func graphWorker(t *testing.T, g *routing.Graph, chunkRows int) (*queue.Queue, *Worker) {
	t.Helper()
	env := queuetest.New(t)
	cfg := env.Config
	cfg.ChunkRows = chunkRows
	q, err := queue.New(env.Client, cfg)
	if err != nil {
		t.Fatal(err)
	}
	w, err := newWorker(Options{Redis: env.Client, Queue: q, Concurrency: 1, RetryDelay: time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, graphEngine{g})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.jobs.close)
	return q, w
}
