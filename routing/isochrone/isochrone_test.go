package isochrone

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"os"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"

	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/routingtest"
)

var bg = context.Background()

// toleranceCells is the geometric tolerance of a polygon, in grid cells:
// the polygon is the area within bufferCells cells of the reached roads,
// traced on the grid (half a cell) and simplified (half a cell), so no
// point of it lies farther than bufferCells + 1 cells from a reached
// road.
const toleranceCells = bufferCells + 1

// checkPolygons compares each contour's polygon with the Dijkstra oracle
// (routing.Graph.Reach, unbounded) on the sampled junctions: a junction
// reached within the contour and outside the polygon is a failure; one
// inside whose own cost exceeds the contour is a failure unless it lies
// within the geometric tolerance (toleranceCells cells) of a reached
// road. It returns, per contour, how many sampled junctions were inside
// though not reached, and their excess costs.
func checkPolygons(t *testing.T, g *routing.Graph, s routing.Snap, req Request, js []routing.Junction) []excess {
	t.Helper()
	want, err := g.Reach(bg, req.Metric, s, 1e9, req.Reverse)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := Compute(bg, g, s, req)
	if err != nil {
		t.Fatal(err)
	}
	r, err := g.OneToAll(bg, req.Metric, s, req.Reverse)
	if err != nil {
		t.Fatal(err)
	}
	var out []excess
	for k, c := range cs {
		if c.Value != req.Contours[k] {
			t.Fatalf("contour %d is %v, want %v", k, c.Value, req.Contours[k])
		}
		lines := Lines(g, r.Within(c.Value, req.Quantity))
		ex := excess{contour: c.Value, cell: c.CellM}
		for _, j := range js {
			cost, ok := want[j.Vertex]
			v := math.Inf(1)
			if ok {
				v = cost.DurationS
				if req.Quantity == routing.QuantityDistance {
					v = cost.DistanceM
				}
			}
			in := geometryContains(c.Geometry, j.Point)
			switch {
			case v <= c.Value && !in:
				t.Errorf("%v reverse=%v contour %v: junction %d at %v reached (%v) but outside the polygon", req.Metric, req.Reverse, c.Value, j.Vertex, j.Point, v)
			case v > c.Value && in:
				ex.inside++
				ex.over = append(ex.over, v-c.Value)
				if d := nearestM(lines, j.Point); d > toleranceCells*c.CellM {
					t.Errorf("%v reverse=%v contour %v: junction %d at %v costs %v, inside the polygon %.0f m from the nearest reached road (tolerance %.0f m)",
						req.Metric, req.Reverse, c.Value, j.Vertex, j.Point, v, d, toleranceCells*c.CellM)
				}
			case v <= c.Value:
				ex.reached++
			}
		}
		out = append(out, ex)
	}
	return out
}

// excess counts one contour's sampled junctions.
type excess struct {
	contour, cell   float64
	reached, inside int
	over            []float64 // costs beyond the contour of those inside, not reached
}

func (e excess) String() string {
	sort.Float64s(e.over)
	q := func(f float64) float64 {
		if len(e.over) == 0 {
			return 0
		}
		return e.over[min(len(e.over)-1, int(f*float64(len(e.over))))]
	}
	return fmt.Sprintf("contour %v (cell %.0f m): %d reached inside; %d inside not reached, excess p50 %.0f p90 %.0f max %.0f", e.contour, e.cell, e.reached, e.inside, q(0.5), q(0.9), q(1))
}

func geometryContains(g orb.Geometry, p orb.Point) bool {
	switch g := g.(type) {
	case orb.Polygon:
		return planar.PolygonContains(g, p)
	case orb.MultiPolygon:
		return planar.MultiPolygonContains(g, p)
	}
	return false
}

// nearestM is the distance in metres from p to the nearest line.
func nearestM(lines orb.MultiLineString, p orb.Point) float64 {
	pr := projection{lon0: p[0], lat0: p[1], kx: 111320 * math.Cos(p[1]*math.Pi/180), ky: 110574}
	best := math.Inf(1)
	for _, l := range lines {
		for i := 1; i < len(l); i++ {
			a, b := pr.to(l[i-1]), pr.to(l[i])
			if d := planar.DistanceFromSegment(a, b, orb.Point{}); d < best {
				best = d
			}
		}
	}
	return best
}

// sampleJunctions returns n seeded random junctions of the graph.
func sampleJunctions(g *routing.Graph, n int, seed int64) []routing.Junction {
	b := g.Bounds()
	all := g.JunctionsWithin(b.Center(), 1e7)
	rng := rand.New(rand.NewSource(seed))
	out := make([]routing.Junction, n)
	for i := range out {
		out[i] = all[rng.Intn(len(all))]
	}
	return out
}

// TestIsochroneDelaware: 10, 20 and 30 minute isochrones (and 5, 10, 20
// km isodistances) on Delaware, forward and in reverse, on the plain
// metrics and a customized one, checked on 1000 random junctions against
// the Dijkstra oracle (checkPolygons). It logs, per contour, how many
// junctions lie inside though not reached and by how much they miss.
func TestIsochroneDelaware(t *testing.T) {
	g := routingtest.Extract(t, "delaware")
	js := sampleJunctions(g, 1000, 24)
	custom, err := routing.NewMetric("fastest", map[string]float64{"Motorway": 80}, []string{"toll"})
	if err != nil {
		t.Fatal(err)
	}
	origins := []orb.Point{{-75.5466, 39.7459}, {-75.5244, 39.1582}, {-75.0900, 38.7200}} // Wilmington, Dover, Lewes
	for _, tc := range []struct {
		name string
		req  Request
	}{
		{"fastest", Request{Metric: routing.Fastest, Contours: []float64{600, 1200, 1800}}},
		{"fastest-reverse", Request{Metric: routing.Fastest, Contours: []float64{600, 1800}, Reverse: true}},
		{"shortest-distance", Request{Metric: routing.Shortest, Quantity: routing.QuantityDistance, Contours: []float64{5000, 10000, 20000}}},
		{"custom", Request{Metric: custom, Contours: []float64{900, 1800}}},
		{"custom-reverse", Request{Metric: custom, Contours: []float64{1800}, Reverse: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, o := range origins {
				s := g.Snap(tc.req.Metric, o, 0)
				if !s.OK {
					t.Fatalf("%v not snapped", o)
				}
				for _, e := range checkPolygons(t, g, s, tc.req, js) {
					if e.reached == 0 {
						t.Errorf("from %v: %v: no sampled junction reached", o, e)
					}
					t.Logf("from %v: %v", o, e)
				}
			}
		})
	}
}

// BenchmarkIsochroneDelaware: a 30-minute isochrone on Delaware in
// process, from Wilmington and from Dover: the one-to-all search
// ("search"), and the whole polygon answer ("polygon": the search, the
// stretches within 30 minutes and the polygon).
func BenchmarkIsochroneDelaware(b *testing.B) {
	benchIsochrones(b, routingtest.Extract(b, "delaware"), wilmington, dover)
}

// BenchmarkIsochroneBundle is BenchmarkIsochroneDelaware on the car
// graph of the bundle in $GEOSVC_BENCH_DATA (skipped without it): the
// country-scale figure on a tiling of Delaware (scripts/bench-scale.sh
// builds /tmp/geosvc-scale/delaware-4x4). Origins: Wilmington and Dover
// of the first copy, and Dover of the copy one step east and north (a
// step is about a quarter of the 4 x 4 tiling's extent: an inner copy,
// whose isochrone reaches across the joins).
func BenchmarkIsochroneBundle(b *testing.B) {
	dir := os.Getenv("GEOSVC_BENCH_DATA")
	if dir == "" {
		b.Skip("GEOSVC_BENCH_DATA names no bundle directory")
	}
	g, err := routing.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s: %d edge-based nodes", dir, g.Meta().Nodes)
	benchIsochrones(b, g, wilmington, dover, benchOrigin{"dover-inner", innerDover(g.Bounds())})
}

// benchOrigin is a named origin of the isochrone benchmarks.
type benchOrigin struct {
	name string
	p    orb.Point
}

var (
	wilmington = benchOrigin{"wilmington", orb.Point{-75.5466, 39.7459}}
	dover      = benchOrigin{"dover", orb.Point{-75.5244, 39.1582}}
)

// benchIsochrones times the search and the polygon of a 30-minute
// isochrone from each origin.
func benchIsochrones(b *testing.B, g *routing.Graph, origins ...benchOrigin) {
	for _, o := range origins {
		s := g.Snap(routing.Fastest, o.p, 5000)
		if !s.OK {
			b.Fatalf("%s: %v not snapped", o.name, o.p)
		}
		b.Run(o.name+"/search", func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := g.OneToAll(bg, routing.Fastest, s, false); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(o.name+"/polygon", func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := Compute(bg, g, s, Request{Metric: routing.Fastest, Contours: []float64{1800}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// innerDover is Dover shifted by a quarter of bound's extent.
func innerDover(bound orb.Bound) orb.Point {
	return orb.Point{-75.5244 + (bound.Max[0]-bound.Min[0])/4, 39.1582 + (bound.Max[1]-bound.Min[1])/4}
}

// reportCPU reports the process's CPU time (user and system) per op, a
// figure a loaded machine inflates far less than the wall time: call
// defer reportCPU(b)() before the loop.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
