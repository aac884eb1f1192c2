package routing

import (
	"math"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/profile"
)

func TestTurn(t *testing.T) {
	for _, tc := range []struct {
		from, to float64
		want     Maneuver
	}{
		{0, 10, Straight}, {350, 10, Straight}, {0, 45, SlightRight}, {0, 90, Right}, {0, 150, SharpRight},
		{0, 180, UTurn}, {0, 315, SlightLeft}, {0, 270, Left}, {0, 210, SharpLeft}, {90, 0, Left}, {270, 0, Right},
	} {
		if got := turn(tc.from, tc.to); got != tc.want {
			t.Errorf("turn(%v, %v) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
}

// TestSteps: north on A Street, right onto B Street (two segments, one
// step; a bend still on B Street is no step), left onto an unnamed
// road, then arrive.
func TestSteps(t *testing.T) {
	p := func(x, y float64) orb.Point { return orb.Point{-75.5 + x*1e-3, 39 + y*1e-3} }
	r := &Route{
		Segments: []Segment{
			{Name: "A Street", DistanceM: 100, DurationS: 10, Geometry: orb.LineString{p(0, 0), p(0, 1)}},
			{Name: "B Street", DistanceM: 80, DurationS: 8, Geometry: orb.LineString{p(0, 1), p(1, 1)}},
			{Name: "B Street", DistanceM: 70, DurationS: 7, Geometry: orb.LineString{p(1, 1), p(2, 1.2)}},
			{Name: "", DistanceM: 50, DurationS: 5, Geometry: orb.LineString{p(2, 1.2), p(2, 2.5)}},
		},
		Geometry: orb.LineString{p(0, 0), p(0, 1), p(1, 1), p(2, 1.2), p(2, 2.5)},
	}
	steps := r.Steps()
	want := []struct {
		m      Maneuver
		street string
		dist   float64
		at     orb.Point
	}{
		{Depart, "A Street", 100, p(0, 0)},
		{Right, "B Street", 150, p(0, 1)},
		{Left, "", 50, p(2, 1.2)},
		{Arrive, "", 0, p(2, 2.5)},
	}
	if len(steps) != len(want) {
		t.Fatalf("%d steps, want %d: %+v", len(steps), len(want), steps)
	}
	for i, w := range want {
		s := steps[i]
		if s.Maneuver != w.m || s.Street != w.street || s.DistanceM != w.dist || s.Point != w.at {
			t.Errorf("step %d = %v %q %.0f m at %v, want %v %q %.0f m at %v", i, s.Maneuver, s.Street, s.DistanceM, s.Point, w.m, w.street, w.dist, w.at)
		}
	}
}

// TestStepsOfRealRoutes: on Andorra's roads, the steps of 50 random
// routes start with Depart, end with Arrive at the route's end, add up to
// the route's length and time, and change street or turn (or take a ramp
// toward somewhere else, or enter or leave a roundabout) at every step.
func TestStepsOfRealRoutes(t *testing.T) {
	g := testGraph(t, "andorra")
	pts := roadPoints(g, 100, 7, 0)
	n := 0
	for i := 0; i+1 < len(pts); i += 2 {
		r, err := g.Route(bg, Fastest, pts[i], pts[i+1])
		if err != nil || len(r.Segments) == 0 {
			continue
		}
		n++
		steps := r.Steps()
		if len(steps) < 2 || steps[0].Maneuver != Depart || steps[len(steps)-1].Maneuver != Arrive ||
			steps[len(steps)-1].Point != r.Geometry[len(r.Geometry)-1] {
			t.Fatalf("route %d: steps %+v", i, steps)
		}
		var dist, dur float64
		for k, s := range steps {
			dist += s.DistanceM
			dur += s.DurationS
			fork := s.Ramp && s.Toward != steps[k-1].Toward        // a ramp toward somewhere else
			ring := s.Roundabout || k > 0 && steps[k-1].Roundabout // into or out of a roundabout
			if k > 0 && k < len(steps)-1 && s.Street == steps[k-1].Street && s.Maneuver == Straight && !fork && !ring {
				t.Errorf("route %d step %d: straight on along the same street %q", i, k, s.Street)
			}
		}
		if math.Abs(dist-float64(r.DistanceM)) > 1 || math.Abs(dur-float64(r.DurationS)) > 1 {
			t.Errorf("route %d: steps add up to %.1f m %.1f s, route %d m %d s", i, dist, dur, r.DistanceM, r.DurationS)
		}
	}
	if n < 30 {
		t.Fatalf("only %d routes", n)
	}
}

func TestRoadsInScan(t *testing.T) {
	g := testGraph(t, "andorra")
	all, some := 0, 0
	g.roadsIn(g.Bounds(), func([]orb.Point, profile.RoadType, string) { all++ })
	c := g.Bounds().Center()
	small := orb.Bound{Min: orb.Point{c[0] - 0.01, c[1] - 0.01}, Max: orb.Point{c[0] + 0.01, c[1] + 0.01}}
	g.roadsIn(small, func(shape []orb.Point, _ profile.RoadType, class string) {
		some++
		if !orb.LineString(shape).Bound().Intersects(small) || class == "" {
			t.Errorf("road %v (%s) outside the bound", orb.LineString(shape).Bound(), class)
		}
	})
	if all == 0 || some == 0 || some >= all {
		t.Errorf("%d roads in all, %d in the small bound", all, some)
	}
}

// TestStepsDisplayNames: a road keeps one display name along a run of
// ways named by name or by ref that share a route number, its name once
// a way gives one (DE-273 / State Road 273 / DE-273 is one step "State
// Road 273"; Interstate 95 / I-95 / I-95 / US-202 / Interstate 95 one
// step "Interstate 95"; DE-273 / Christiana Road one step "Christiana
// Road"), but two real names are two roads (Christiana Road, then
// Frenchtown Road, both DE-273); a ramp is a
// step of its own with its signs, the signs of later link pieces filling
// in what the first lacked, and a fork of the ramp toward another
// destination a step again.
func TestStepsDisplayNames(t *testing.T) {
	p := func(x, y float64) orb.Point { return orb.Point{-75.5 + x*1e-3, 39 + y*1e-3} }
	east := func(i int) orb.LineString { return orb.LineString{p(float64(i), 0), p(float64(i+1), 0)} }
	seg := func(i int, name, ref, class, dest, exit string) Segment {
		return Segment{Name: name, Ref: ref, Class: class, Dest: dest, Exit: exit, DistanceM: 100, DurationS: 5, Geometry: east(i)}
	}
	// tiny is a way of a few centimetres at the start of stretch i.
	tiny := func(i int, name, ref string) Segment {
		return Segment{Name: name, Ref: ref, Class: "primary", DistanceM: 0.004, DurationS: 0, Geometry: orb.LineString{p(float64(i), 0), p(float64(i)+0.00005, 0)}}
	}
	for _, tc := range []struct {
		name string
		segs []Segment
		want []string // "maneuver street [ramp toward exit]"
	}{
		{"state road", []Segment{seg(0, "DE-273", "DE-273", "primary", "", ""), seg(1, "State Road 273", "DE-273", "primary", "", ""), seg(2, "DE-273", "DE-273", "primary", "", "")},
			[]string{"depart State Road 273", "arrive State Road 273"}},
		{"ref then name", []Segment{seg(0, "DE-273", "DE-273", "primary", "", ""), seg(1, "Christiana Road", "DE-273", "primary", "", ""), seg(2, "DE-273", "DE-273", "primary", "", "")},
			[]string{"depart Christiana Road", "arrive Christiana Road"}},
		{"two names on one route", []Segment{seg(0, "Christiana Road", "DE-273", "primary", "", ""), seg(1, "DE-273", "DE-273", "primary", "", ""), seg(2, "Frenchtown Road", "DE-273", "primary", "", "")},
			[]string{"depart Christiana Road", "straight Frenchtown Road", "arrive Frenchtown Road"}},
		{"interstate", []Segment{seg(0, "Interstate 95", "I-95", "motorway", "", ""), seg(1, "I-95", "I-95", "motorway", "", ""),
			seg(2, "I-95 / US-202", "I-95 / US-202", "motorway", "", ""), seg(3, "Interstate 95", "I-95", "motorway", "", "")},
			[]string{"depart Interstate 95", "arrive Interstate 95"}},
		{"another road", []Segment{seg(0, "DE-273", "DE-273", "primary", "", ""), seg(1, "Main Street", "", "primary", "", "")},
			[]string{"depart DE-273", "straight Main Street", "arrive Main Street"}},
		{"a road met for no distance", []Segment{seg(0, "Grove Street", "", "residential", "", ""), tiny(1, "DE-1A", "DE-1A"), seg(1, "Grove Street", "", "residential", "", "")},
			[]string{"depart Grove Street", "arrive Grove Street"}},
		{"a road met for no distance, then another", []Segment{seg(0, "Grove Street", "", "residential", "", ""), tiny(1, "DE-1A", "DE-1A"), seg(1, "Main Street", "", "residential", "", "")},
			[]string{"depart Grove Street", "straight Main Street", "arrive Main Street"}},
		{"ramp", []Segment{seg(0, "Basin Road", "DE-141", "primary", "", ""), seg(1, "", "", "motorway_link", "", "3B"),
			seg(2, "", "", "motorway_link", "I-95 South: Newark", ""), seg(3, "Delaware Turnpike", "I-95", "motorway", "", "")},
			[]string{"depart Basin Road", "straight  [ramp I-95 South: Newark 3B]", "straight Delaware Turnpike", "arrive Delaware Turnpike"}},
		{"ramp fork", []Segment{seg(0, "Basin Road", "DE-141", "primary", "", ""), seg(1, "", "", "motorway_link", "I-95", ""),
			seg(2, "", "", "motorway_link", "I-95 South: Newark", ""), seg(3, "Delaware Turnpike", "I-95", "motorway", "", "")},
			[]string{"depart Basin Road", "straight  [ramp I-95 ]", "straight  [ramp I-95 South: Newark ]", "straight Delaware Turnpike", "arrive Delaware Turnpike"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Route{Segments: tc.segs}
			for _, s := range tc.segs {
				r.Geometry = append(r.Geometry, s.Geometry...)
			}
			var got []string
			for _, s := range r.Steps() {
				line := s.Maneuver.String() + " " + s.Street
				if s.Ramp {
					line += " [ramp " + s.Toward + " " + s.Exit + "]"
				}
				got = append(got, line)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("steps %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("step %d %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}
