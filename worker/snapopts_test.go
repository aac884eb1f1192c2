package worker

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// haversine is the great-circle distance in metres with the mean Earth
// radius (IUGG, 6371008.8 m), written here apart from geo's.
func haversine(a, b orb.Point) float64 {
	const r = 6371008.8
	rad := math.Pi / 180
	dLat, dLon := (b[1]-a[1])*rad, (b[0]-a[0])*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(a[1]*rad)*math.Cos(b[1]*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * r * math.Asin(math.Sqrt(h))
}

// stored reads a finished job's cells, origin snaps and estimated pairs.
func stored(t *testing.T, q *queue.Queue, id string) (dur, dist []int32, snaps []float32, est [][2]int, fallback bool) {
	t.Helper()
	ctx := context.Background()
	j, err := q.Get(ctx, id, "")
	if err != nil || j.Status != queue.StatusFinished {
		t.Fatalf("job %s: %+v %v", id, j, err)
	}
	res, err := q.Result(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := res.Chunks(ctx, queue.KindOriginSnap, 0, j.Chunks)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blobs {
		snaps = append(snaps, queue.DecodeFloat32s(b)...)
	}
	if res.Fallback {
		blobs, err := res.Chunks(ctx, queue.KindEstimated, 0, j.Chunks)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blobs {
			p, err := queue.DecodePairs(b)
			if err != nil {
				t.Fatal(err)
			}
			est = append(est, p...)
		}
	}
	return matrix(t, q, id, queue.KindDuration), matrix(t, q, id, queue.KindDistance), snaps, est, res.Fallback
}

// TestSnapOptionsThroughTheQueue orders Delaware matrices with per-point
// options, computed inline (SubmitNow with ComputeAll, the API's path)
// and by a worker chunk by chunk (Submit, the queued path): both store
// the same cells, snaps and estimated cells. The cells are routing's own
// matrix of the same options; a radius below the distance to the road
// leaves a null row; the fallback speed fills exactly the null cells,
// with the haversine distance computed here.
func TestSnapOptionsThroughTheQueue(t *testing.T) {
	g := routingtest.Extract(t, "delaware")
	q, w := graphWorker(t, g, 2)
	inline := newComputer(graphEngine{g}, 0)

	// Newark, Elsmere, 28.7 m from Academy Street (Newark), Dover, the sea.
	origins := []orb.Point{{-75.76, 39.70}, {-75.60, 39.70}, {-75.75, 39.68}, {-75.52, 39.16}, {-75.0, 10.0}}
	// 11 m from East 4th Street (Wilmington), West Loockerman Street
	// (Dover), Academy Street, the sea.
	dests := []orb.Point{{-75.55, 39.74}, {-75.525, 39.158}, {-75.75, 39.68}, {-75.0, 10.0}}
	bearing := [2]float64{90, 45}
	base := queue.Options{
		Origins:      []queue.PointOptions{{}, {}, {RadiusM: 10}, {RadiusM: 5000}, {}},
		Destinations: []queue.PointOptions{{Curb: true}, {Bearing: &bearing}, {}, {}},
	}
	for _, tc := range []struct {
		name    string
		routing string
		opts    func(o queue.Options) queue.Options
	}{
		{"options", "fastest", func(o queue.Options) queue.Options { return o }},
		{"options, snapping any, shortest", "shortest", func(o queue.Options) queue.Options { o.SnapAny = true; return o }},
		{"fallback 50 km/h from the input", "fastest", func(o queue.Options) queue.Options { o.FallbackKmh = 50; return o }},
		{"fallback 80 km/h from the snapped points", "fastest", func(o queue.Options) queue.Options {
			o.FallbackKmh, o.FallbackSnapped = 80, true
			return o
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts(base)
			o := queue.Order{Owner: "k", Routing: tc.routing, Outputs: queue.OutBoth, OriginPoints: origins, DestinationPoints: dests,
				Options: opts}
			for _, p := range origins {
				o.Origins = append(o.Origins, fmt.Sprintf("%g,%g", p[0], p[1]))
			}
			for _, p := range dests {
				o.Destinations = append(o.Destinations, fmt.Sprintf("%g,%g", p[0], p[1]))
			}
			ctx := context.Background()
			a, err := q.SubmitNow(ctx, o, inline.ComputeAll)
			if err != nil || a.Status != queue.StatusFinished {
				t.Fatalf("inline: %+v %v", a, err)
			}
			b, err := q.Submit(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			for i := range b.Chunks {
				if err := runChunk(t, w, b.ID, i); err != nil {
					t.Fatal(err)
				}
			}
			durA, distA, snapsA, estA, fbA := stored(t, q, a.ID)
			durB, distB, snapsB, estB, fbB := stored(t, q, b.ID)
			if !slices.Equal(durA, durB) || !slices.Equal(distA, distB) || !slices.Equal(snapsA, snapsB) ||
				!slices.Equal(estA, estB) || fbA != fbB {
				t.Fatalf("inline and queued differ:\n%v %v %v %v\n%v %v %v %v", durA, distA, snapsA, estA, durB, distB, snapsB, estB)
			}

			// routing's own matrix of the same options.
			m, _ := routing.ParseMetric(tc.routing)
			so := snapOptions(&opts, opts.Origins, len(origins))
			do := snapOptions(&opts, opts.Destinations, len(dests))
			src, dst := g.SnapAllWith(m, origins, 0, so), g.SnapAllWith(m, dests, 0, do)
			want, err := g.Matrix(ctx, m, src, dst)
			if err != nil {
				t.Fatal(err)
			}
			if src[2].OK || !src[3].OK || src[4].OK || dst[3].OK {
				t.Fatalf("snapped: %v %v %v %v: want Academy Street beyond 10 m, Dover within 5 km, the sea nowhere", src[2].OK, src[3].OK, src[4].OK, dst[3].OK)
			}
			if snapsA[2] != queue.NotSnapped {
				t.Errorf("origin 2 (radius 10 m, road 28.7 m away) stored as moved %g", snapsA[2])
			}
			var wantEst [][2]int
			for k := range durA {
				i, j := k/len(dests), k%len(dests)
				if want.Durations[k] != routing.NoRoute {
					if durA[k] != want.Durations[k] || distA[k] != want.Distances[k] {
						t.Errorf("cell %d,%d: %d s %d m; routing's matrix %d s %d m", i, j, durA[k], distA[k], want.Durations[k], want.Distances[k])
					}
					continue
				}
				if opts.FallbackKmh == 0 {
					if durA[k] != routing.NoRoute || distA[k] != routing.NoRoute {
						t.Errorf("cell %d,%d: %d s %d m, want null", i, j, durA[k], distA[k])
					}
					continue
				}
				wantEst = append(wantEst, [2]int{i, j})
				from, to := origins[i], dests[j]
				if opts.FallbackSnapped {
					if src[i].OK {
						from = src[i].Point
					}
					if dst[j].OK {
						to = dst[j].Point
					}
				}
				h := haversine(from, to)
				if wd, wm := int32(math.Round(h/(opts.FallbackKmh/3.6))), int32(math.Round(h)); durA[k] != wd || distA[k] != wm {
					t.Errorf("estimated cell %d,%d: %d s %d m, want %d s %d m", i, j, durA[k], distA[k], wd, wm)
				}
			}
			// The null cells: Academy Street's row (radius) and the sea's
			// row and column.
			if n := len(wantEst); opts.FallbackKmh > 0 && n < len(dests)*2+len(origins)-2 {
				t.Errorf("%d null cells, want at least the two rows and the column", n)
			}
			if opts.FallbackKmh > 0 && !slices.Equal(estA, wantEst) {
				t.Errorf("estimated %v, want %v", estA, wantEst)
			}
			if opts.FallbackKmh == 0 && (estA != nil || fbA) {
				t.Errorf("estimated %v without a fallback speed", estA)
			}
		})
	}
}
