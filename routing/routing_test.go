package routing

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// TestHierarchiesMatchDijkstra checks, on real extracts and both metrics,
// that the CH table, the CH point-to-point route and a plain Dijkstra on
// the uncontracted edge-based graph agree exactly, in seconds and metres,
// on 40 x 50 = 2000 random snapped pairs.
func TestHierarchiesMatchDijkstra(t *testing.T) {
	cases := []struct {
		extract string
		metric  Metric
	}{
		{"andorra", Fastest},
		{"andorra", Shortest},
		{"delaware", Fastest},
		{"delaware", Shortest},
	}
	for _, tc := range cases {
		t.Run(tc.extract+"/"+tc.metric.String(), func(t *testing.T) {
			g := testGraph(t, tc.extract)
			src := roadPoints(g, 40, 11, 15)
			dst := roadPoints(g, 50, 12, 15)
			// Some targets on the sources' own roads, behind and ahead.
			for i := 0; i < 5; i++ {
				s := src[i]
				s.Fraction = s.Fraction * 0.5
				dst[i] = s
				s2 := src[i]
				s2.Fraction = s2.Fraction + (1-s2.Fraction)*0.5
				dst[5+i] = s2
			}
			want := g.dijkstraTable(tc.metric, src, dst)
			got := tableOf(g, src, targetsOf(t, g, tc.metric, dst))
			par := g.tableParallel(src, targetsOf(t, g, tc.metric, dst), 2)
			// Tables of a few rows sweep the hierarchy instead (PHAST).
			for i := 0; i < 4; i++ {
				one := tableOf(g, src[i:i+1], targetsOf(t, g, tc.metric, dst))
				for j := range dst {
					wd, wm := want.At(i, j)
					if gd, gm := one.At(0, j); gd != wd || gm != wm {
						t.Fatalf("one-row cell %d,%d: %ds %dm, dijkstra %ds %dm", i, j, gd, gm, wd, wm)
					}
				}
			}
			routes, noRoute := 0, 0
			for i := range src {
				for j := range dst {
					wd, wm := want.At(i, j)
					if gd, gm := got.At(i, j); gd != wd || gm != wm {
						t.Fatalf("cell %d,%d: table %ds %dm, dijkstra %ds %dm", i, j, gd, gm, wd, wm)
					}
					if pd, pm := par.At(i, j); pd != wd || pm != wm {
						t.Fatalf("cell %d,%d: parallel table %ds %dm, dijkstra %ds %dm", i, j, pd, pm, wd, wm)
					}
					r, err := g.Route(bg, tc.metric, src[i], dst[j])
					if wd == NoRoute {
						noRoute++
						if !errors.Is(err, ErrNoRoute) {
							t.Fatalf("cell %d,%d: dijkstra finds no route, Route says %v", i, j, err)
						}
						continue
					}
					if err != nil {
						t.Fatalf("cell %d,%d: %v", i, j, err)
					}
					if r.DurationS != int(wd) || r.DistanceM != int(wm) {
						t.Fatalf("cell %d,%d: route %ds %dm, dijkstra %ds %dm", i, j, r.DurationS, r.DistanceM, wd, wm)
					}
					checkRouteShape(t, r)
					routes++
				}
			}
			t.Logf("%d routes compared, %d pairs without a route", routes, noRoute)
			if noRoute > len(src)*len(dst)/20 {
				t.Errorf("%d of %d pairs have no route: the largest component should connect almost all road points", noRoute, len(src)*len(dst))
			}
		})
	}
}

// checkRouteShape checks that a route's segments add up to its totals.
func checkRouteShape(t *testing.T, r *Route) {
	t.Helper()
	var dur, dist float64
	for _, s := range r.Segments {
		dur += s.DurationS
		dist += s.DistanceM
		if len(s.Geometry) < 2 {
			t.Fatalf("segment on edge %d has %d points", s.Edge, len(s.Geometry))
		}
	}
	if d := dur - float64(r.DurationS); d > 1 || d < -1 {
		t.Fatalf("segments sum to %.1fs, route says %ds", dur, r.DurationS)
	}
	if d := dist - float64(r.DistanceM); d > 1 || d < -1 {
		t.Fatalf("segments sum to %.1fm, route says %dm", dist, r.DistanceM)
	}
	if len(r.Geometry) < 2 {
		t.Fatalf("route geometry has %d points", len(r.Geometry))
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	g := testGraph(t, "andorra")
	dir := t.TempDir()
	if err := g.Save(dir); err != nil {
		t.Fatal(err)
	}
	h, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if h.Meta() != g.Meta() {
		t.Fatalf("meta %+v, want %+v", h.Meta(), g.Meta())
	}
	if err := h.validate(); err != nil {
		t.Fatalf("the loaded graph: %v", err)
	}
	src := roadPoints(g, 30, 5, 10)
	dst := roadPoints(g, 30, 6, 10)
	// Snapping must also survive the round trip.
	for i := range src {
		if s := h.Snap(Fastest, src[i].Input, 0); s != src[i] {
			t.Fatalf("snap %d after load %+v, before %+v", i, s, src[i])
		}
	}
	for _, m := range []Metric{Fastest, Shortest} {
		a := matrixOf(t, g, m, src, dst)
		b := matrixOf(t, h, m, src, dst)
		for k := range a.Durations {
			if a.Durations[k] != b.Durations[k] || a.Distances[k] != b.Distances[k] {
				t.Fatalf("%s cell %d differs after load", m, k)
			}
		}
	}

	// Every part, damaged, fails Load with a clear error.
	for _, part := range Files() {
		data, err := os.ReadFile(filepath.Join(dir, part))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(part, func(t *testing.T) { damagedPart(t, dir, part, data) })
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("Load of a missing directory succeeded")
	}
}

// damagedPart checks that a graph whose file part is truncated, corrupt,
// of another version or not a graph at all fails Load with the error of
// that.
func damagedPart(t *testing.T, dir, part string, data []byte) {
	bad := []struct {
		name string
		data []byte
		want error
	}{
		{"truncated", data[:len(data)/2], binfmt.ErrTruncated},
		{"corrupt byte", flip(data, len(data)/3), binfmt.ErrChecksum},
		{"wrong version", withVersion(data, formatVersion+1), binfmt.ErrVersion},
		{"not a graph", []byte("hello, this is not a geosvc routing graph file at all"), binfmt.ErrBadMagic},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			d := t.TempDir()
			for _, f := range Files() {
				b, err := os.ReadFile(filepath.Join(dir, f))
				if f == part {
					b = tc.data
				}
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(d, f), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Load(d)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), part) {
				t.Fatalf("Load = %v, want %v naming %s", err, tc.want, part)
			}
		})
	}
}

func flip(data []byte, i int) []byte {
	d := append([]byte(nil), data...)
	d[i] ^= 0x40
	return d
}

// withVersion rewrites the version field of a binfmt header (bytes 8..12).
func withVersion(data []byte, v uint32) []byte {
	d := append([]byte(nil), data...)
	d[8], d[9], d[10], d[11] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	return d
}
