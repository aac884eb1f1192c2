package mapdata

import (
	"sync"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"

	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

// built holds one build per extract for the test binary.
var built sync.Map // name -> *builtLayer

type builtLayer struct {
	once sync.Once
	l    *Layer
	rep  *Report
	err  error
}

// buildExtract builds (once per test binary) the layer of a named extract
// (extracts.Path); a missing extract skips, or fails under CI=true.
func buildExtract(tb testing.TB, name string) (*Layer, *Report) {
	tb.Helper()
	path := extracts.Require(tb, name)
	v, _ := built.LoadOrStore(name, &builtLayer{})
	b := v.(*builtLayer)
	b.once.Do(func() { b.l, b.rep, b.err = Build(BuildOptions{OSMPath: path}) })
	if b.err != nil {
		tb.Fatal(b.err)
	}
	return b.l, b.rep
}

// classesAt returns the classes of the areas containing p at a scale.
func classesAt(l *Layer, p orb.Point, mpp float64) map[Class]bool {
	out := map[Class]bool{}
	for _, a := range l.Areas(orb.Bound{Min: p, Max: p}, mpp) {
		if planar.PolygonContains(a.Polygon, p) {
			out[a.Class] = true
		}
	}
	return out
}

func TestDelawareAreas(t *testing.T) {
	l, rep := buildExtract(t, "delaware")
	t.Log(rep)
	tests := []struct {
		name  string
		p     orb.Point
		class Class
		want  bool
	}{
		{"Delaware Bay", orb.Point{-75.2, 39.1}, Water, true},
		{"Atlantic off Rehoboth", orb.Point{-75.0, 38.7}, Water, true},
		{"Dover", orb.Point{-75.52, 39.16}, Water, false},
		{"Georgetown", orb.Point{-75.385, 38.69}, Water, false},
	}
	for _, tc := range tests {
		for _, mpp := range []float64{1, 5, 20, 100, 300, 1000} {
			got := classesAt(l, tc.p, mpp)
			if got[tc.class] != tc.want {
				t.Errorf("%s %v at %g m/px: %s = %v, want %v (classes %v)", tc.name, tc.p, mpp, tc.class, got[tc.class], tc.want, got)
			}
		}
	}
}

// inSea reports whether p lies in the assembled sea.
func inSea(rep *Report, p orb.Point) bool {
	for _, s := range rep.Sea {
		if planar.PolygonContains(s, p) {
			return true
		}
	}
	return false
}

func TestDebugOthers(t *testing.T) {
	for _, n := range []string{"andorra", "monaco", "porto_portugal"} {
		_, rep := buildExtract(t, n)
		t.Log(n, rep)
	}
}
