package worker

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
	"github.com/geosvc/geosvc/routing/speeds"
)

// TestLiveSpeedUpdateRacingJobs: 20 matrix jobs at hour 8 on
// alternatives.osm, each of four one-row chunks, while speed updates
// (Main Street's C1->C2 faster at each) are applied between and during
// their chunks: every finished job equals routing's own table on the
// speed version its key names, and jobs that straddled an update
// finished on the version they started with.
func TestLiveSpeedUpdateRacingJobs(t *testing.T) {
	prof, err := profile.Load(filepath.Join("..", "configs", "car.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	net, err := osmroad.Read(filepath.Join("..", "routing", "testdata", "alternatives.osm"), prof)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := routing.Build(net, prof)
	if err != nil {
		t.Fatal(err)
	}
	update := 0
	apply := func() {
		update++
		d, err := speeds.ParseCSV([]byte(fmt.Sprintf("3,4,%d,,8\n4,3,%d,,8\n", 30+7*update, 40+5*update)))
		if err != nil {
			t.Error(err)
			return
		}
		g.SetSpeeds(g.MapSpeeds(d))
	}
	apply()
	q, w := graphWorker(t, g, 1)
	pts := []orb.Point{{10.0001, 0}, {10.0099, 0}, {10.002, 0.001}, {10.002, -0.0015}}
	var addr []string
	for _, p := range pts {
		addr = append(addr, fmt.Sprintf("%g,%g", p[0], p[1]))
	}
	ctx := context.Background()
	straddled, versions := 0, map[string]bool{}
	for round := 0; round < 5; round++ {
		var ids []string
		var keys []string
		for range 4 {
			m, v := g.AtHour(routing.Fastest, 8)
			versions[v] = true
			o := queue.Order{Owner: "k", Routing: m.String(), Outputs: queue.OutBoth,
				OriginPoints: pts, DestinationPoints: pts, Origins: addr, Destinations: addr}
			j, err := q.Submit(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			ids, keys = append(ids, j.ID), append(keys, m.String())
		}
		// Chunk 0 of every job beside an update, then the others beside
		// another.
		for _, chunks := range [][]int{{0}, {1, 2, 3}} {
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done(); apply() }()
			for _, id := range ids {
				for _, c := range chunks {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if err := w.ProcessTask(ctx, queue.NewChunkTask(id, c)); err != nil {
							t.Error(err)
						}
					}()
				}
			}
			wg.Wait()
		}
		cur := g.Speeds().Version()
		for k, id := range ids {
			j, err := q.Get(ctx, id, "")
			if err != nil || j.Status != queue.StatusFinished {
				t.Fatalf("job %s: %+v %v", id, j, err)
			}
			if j.Routing != keys[k] {
				t.Errorf("job %s: routing %q, ordered %q", id, j.Routing, keys[k])
			}
			m, err := routing.ParseMetric(j.Routing)
			if err != nil {
				t.Fatal(err)
			}
			if m.Bucket.Version != cur {
				straddled++
			}
			want, err := g.Matrix(ctx, m, g.SnapAll(m, pts, 0), g.SnapAll(m, pts, 0))
			if err != nil {
				t.Fatal(err)
			}
			dur, dist := matrix(t, q, id, queue.KindDuration), matrix(t, q, id, queue.KindDistance)
			for c := range dur {
				if dur[c] != want.Durations[c] || dist[c] != want.Distances[c] {
					t.Errorf("job %s (%s): cell %d: %d s %d m, routing's table %d s %d m", id, m.Bucket, c, dur[c], dist[c], want.Durations[c], want.Distances[c])
				}
			}
		}
	}
	if straddled != 20 || len(versions) != 5 {
		t.Errorf("%d of 20 jobs ran across an update, on %d versions", straddled, len(versions))
	}
	// The versions give different tables: S -> T at hour 8 at 30 and
	// at 100 km/h on C1->C2.
	var durs []int32
	for _, kmh := range []int{30, 100} {
		d, _ := speeds.ParseCSV([]byte(fmt.Sprintf("3,4,%d,,8\n", kmh)))
		g.SetSpeeds(g.MapSpeeds(d))
		m, _ := g.AtHour(routing.Fastest, 8)
		tab, err := g.Matrix(ctx, m, g.SnapAll(m, pts[:1], 0), g.SnapAll(m, pts[1:2], 0))
		if err != nil {
			t.Fatal(err)
		}
		durs = append(durs, tab.Durations[0])
	}
	if durs[0] <= durs[1] {
		t.Errorf("S -> T at 30 and 100 km/h on C1->C2: %v s", durs)
	}
}
