package routing

import (
	"math"
	"testing"

	"github.com/geosvc/geosvc/geo"
)

// TestJunctionsWithin: every junction found is within the radius and has
// one or three or more roads; the nearest is no farther than a road
// vertex near the point.
func TestJunctionsWithin(t *testing.T) {
	g := testGraph(t, "andorra")
	p := roadPoints(g, 1, 5, 0)[0].Point
	js := g.JunctionsWithin(p, 1000)
	if len(js) == 0 {
		t.Fatal("no junction within 1 km of a road point")
	}
	for k, j := range js {
		if j.Roads == 2 || j.Roads < 1 {
			t.Errorf("junction %d has %d roads", j.Vertex, j.Roads)
		}
		if d := geo.HaversineM(p, j.Point); math.Abs(d-j.DistanceM) > 1e-6 || d > 1000 {
			t.Errorf("junction %d at %.1f m (says %.1f)", j.Vertex, d, j.DistanceM)
		}
		if k > 0 && js[k-1].DistanceM > j.DistanceM {
			t.Errorf("not nearest first at %d", k)
		}
	}
}
