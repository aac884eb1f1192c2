package routing

import (
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/osmroad"
)

// clipNetwork keeps the edges of net lying inside b (and the restrictions
// between them), so that a test builds a graph of a few square kilometres
// of a real extract in a moment.
func clipNetwork(net *osmroad.Network, b orb.Bound) *osmroad.Network {
	out := *net
	out.Edges, out.Shape, out.Restrictions = nil, nil, nil
	newID := make([]int32, len(net.Edges))
	for i, e := range net.Edges {
		newID[i] = -1
		sh := net.Shape[e.ShapeStart:e.ShapeEnd]
		inside := true
		for _, p := range sh {
			inside = inside && b.Contains(p)
		}
		if !inside {
			continue
		}
		newID[i] = int32(len(out.Edges))
		e.ShapeStart = uint32(len(out.Shape))
		out.Shape = append(out.Shape, sh...)
		e.ShapeEnd = uint32(len(out.Shape))
		out.Edges = append(out.Edges, e)
	}
	for _, r := range net.Restrictions {
		if newID[r.FromEdge] >= 0 && newID[r.ToEdge] >= 0 {
			r.FromEdge, r.ToEdge = uint32(newID[r.FromEdge]), uint32(newID[r.ToEdge])
			out.Restrictions = append(out.Restrictions, r)
		}
	}
	return &out
}

// TestRampSteps: on Delaware's roads near Wilmington, from South Basin
// Road (DE-141) onto I-95 South by the ramp of exit 3B. OSM way 17218411
// (motorway_link) is tagged destination:ref=I 95 South,
// destination=Newark;Baltimore, and the motorway_junction node where it
// leaves Basin Road has ref=3B: the step onto it says so.
func TestRampSteps(t *testing.T) {
	path := extractPath(t, "delaware")
	prof := carProfile(t)
	net, err := osmroad.Read(path, prof)
	if err != nil {
		t.Fatal(err)
	}
	box := orb.Bound{Min: orb.Point{-75.66, 39.67}, Max: orb.Point{-75.57, 39.73}}
	g, _, err := Build(clipNetwork(net, box), prof)
	if err != nil {
		t.Fatal(err)
	}
	// From Basin Road north of the exit (the motorway edge ending where
	// the ramp leaves, -75.60658, 39.70550) to a node of I-95 southbound
	// (way 43002341, Delaware Turnpike) 550 m past the ramp's end
	// (-75.61059, 39.70000).
	from := g.Snap(orb.Point{-75.6069, 39.7062}, 50)
	to := g.Snap(orb.Point{-75.616955, 39.6965735}, 1)
	if !from.OK || !to.OK {
		t.Fatalf("snaps %+v %+v", from, to)
	}
	r, err := g.Route(Fastest, from, to)
	if err != nil {
		t.Fatal(err)
	}
	steps := r.Steps()
	var ramp *Step
	var lines []string
	for i := range steps {
		s := &steps[i]
		lines = append(lines, s.Maneuver.String()+" "+s.Street+" ramp="+map[bool]string{true: "yes", false: "no"}[s.Ramp]+" toward="+s.Toward+" exit="+s.Exit)
		if s.Ramp && ramp == nil {
			ramp = s
		}
	}
	if ramp == nil || ramp.Toward != "I-95 South: Newark, Baltimore" || ramp.Exit != "3B" {
		t.Fatalf("no ramp step toward I-95 South: Newark, Baltimore, exit 3B:\n%s", strings.Join(lines, "\n"))
	}
	// Onto the ramp, then onto I-95 by its name, nothing in between.
	want := []string{"depart South Basin Road ramp=no toward= exit=", "straight  ramp=yes toward=I-95 South: Newark, Baltimore exit=3B",
		"straight Delaware Turnpike ramp=no toward= exit=", "arrive Delaware Turnpike ramp=no toward= exit="}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}
