package routing

import (
	"strings"
	"testing"

	"github.com/paulmach/orb"
)

// TestRampSteps: on Delaware's roads between Newark and New Castle.
// From South Basin Road (DE-141) onto I-95 South by the ramp of exit 3B:
// OSM way 17218411 (motorway_link) is tagged destination:ref=I 95 South,
// destination=Newark;Baltimore, and the motorway_junction node where it
// leaves Basin Road has ref=3B: the step onto it says so. Then from
// Newark to New Castle along I-95 and DE-273, whose ways are named
// Christiana Road, Christiana Bypass, Frenchtown Road, "State Road 273"
// or only by the ref DE 273: the description names the road by its
// names, never flipping to the ref or the numbered name in between.
func TestRampSteps(t *testing.T) {
	g := testGraph(t, "delaware") // built once per test binary, shared with the other Delaware tests
	// From Basin Road north of the exit (the motorway edge ending where
	// the ramp leaves, -75.60658, 39.70550) to a node of I-95 southbound
	// (way 43002341, Delaware Turnpike) 550 m past the ramp's end
	// (-75.61059, 39.70000).
	from := g.Snap(Fastest, orb.Point{-75.6069, 39.7062}, 50)
	to := g.Snap(Fastest, orb.Point{-75.616955, 39.6965735}, 1)
	if !from.OK || !to.OK {
		t.Fatalf("snaps %+v %+v", from, to)
	}
	r, err := g.Route(bg, Fastest, from, to)
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

	// Newark (Matthew Flocco Drive) to New Castle (Harmony Street): I-95
	// north, exit 3A (DE-273 East: Dover), then DE-273 to New Castle.
	r, err = g.Route(bg, Fastest, g.Snap(Fastest, orb.Point{-75.7395, 39.6530}, 500), g.Snap(Fastest, orb.Point{-75.5650, 39.6630}, 500))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	ramp = nil
	for _, s := range r.Steps() {
		if s.Ramp && s.Toward == "DE-273 East: Dover" && s.Exit == "3A" {
			got = nil // the steps after the exit
			ramp = &s
			continue
		}
		if s.Street == "DE-273" || s.Street == "State Road 273" {
			t.Errorf("step onto %q: a run of DE-273 flips to its ref", s.Street)
		}
		got = append(got, s.Street)
	}
	wantAfter := "Christiana Road, Christiana Bypass, Christiana Road, Frenchtown Road, Delaware Street"
	if ramp == nil || !strings.HasPrefix(strings.Join(got, ", "), wantAfter) {
		t.Errorf("after exit 3A (%v): %s, want %s ...", ramp != nil, strings.Join(got, ", "), wantAfter)
	}
}
