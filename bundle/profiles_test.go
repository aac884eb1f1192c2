package bundle

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/osmfile/extracts"
	"github.com/geosvc/geosvc/routing"
)

func TestParseProfiles(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{"", nil, ""},
		{"car", nil, ""},
		{"car,truck", nil, ""},
		{"car,bicycle,foot", []string{"bicycle", "foot"}, ""},
		{"foot, Bicycle ,car,foot", []string{"bicycle", "foot"}, ""},
		{"foot", []string{"foot"}, ""},
		{"car,bike", nil, `unknown routing profile "bike": --profiles takes a comma-separated list of car, truck, bicycle, foot`},
	} {
		got, err := ParseProfiles(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseProfiles(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseProfiles(%q) = %v, %v, want %v", tc.in, got, err, tc.want)
		}
	}
}

// TestBuildProfilesRoundTrip builds Monaco with --profiles
// car,bicycle,foot, opens it, and routes on each profile's graph: the
// manifest lists the profiles and every profile's files (NAME/routing.*),
// each graph is the profile's own (foot walks more of Monaco's steps and
// pedestrian streets than a car drives), and a rebuild with another list
// is stale. A car-only bundle has no other graph.
func TestBuildProfilesRoundTrip(t *testing.T) {
	pbf := extracts.Require(t, "monaco")
	out := filepath.Join(t.TempDir(), "monaco")
	m, err := Build(context.Background(), Options{OSMPath: pbf, Out: out, Profiles: []string{ProfileBicycle, ProfileFoot}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Profiles, []string{"bicycle", "foot"}) {
		t.Errorf("manifest profiles %v", m.Profiles)
	}
	files := map[string]string{}
	for _, l := range m.Layers {
		files[l.File] = l.Name
	}
	for _, f := range []string{"routing.graph", "routing.fastest", "bicycle/routing.graph", "bicycle/routing.snap", "bicycle/routing.cch",
		"bicycle/routing.fastest", "bicycle/routing.shortest", "foot/routing.graph", "foot/routing.shortest"} {
		if files[f] == "" {
			t.Errorf("manifest lists no %s (layers %v)", f, files)
		}
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	if files["bicycle/routing.snap"] != "routing.bicycle.snap" || files["foot/routing.graph"] != "routing.foot" {
		t.Errorf("layer names %v", files)
	}
	b, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Verify(); err != nil {
		t.Fatal(err)
	}
	if got := b.Profiles(); !slices.Equal(got, []string{"car", "bicycle", "foot"}) {
		t.Errorf("Profiles() = %v", got)
	}
	if b.GraphFor("") != b.Graph || b.GraphFor("car") != b.Graph || b.GraphFor("truck") != nil {
		t.Error("GraphFor of car, \"\" or truck")
	}
	// Monaco: from the Place du Casino to the Prince's Palace.
	from, to := orb.Point{7.4276, 43.7393}, orb.Point{7.4200, 43.7314}
	nodes := map[string]int{}
	for _, p := range b.Profiles() {
		g := b.GraphFor(p)
		if g == nil {
			t.Fatalf("no %s graph", p)
		}
		nodes[p] = g.Meta().Nodes
		s := g.SnapAll(routing.Fastest, []orb.Point{from, to}, 0)
		r, err := g.Route(context.Background(), routing.Fastest, s[0], s[1])
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		t.Logf("%s: %d nodes, Casino to the Palace %d m in %d s", p, nodes[p], r.DistanceM, r.DurationS)
		if r.DistanceM < 800 || r.DistanceM > 4000 {
			t.Errorf("%s route of %d m", p, r.DistanceM)
		}
	}
	if !(nodes["foot"] > nodes["car"] && nodes["bicycle"] > nodes["car"]) {
		t.Errorf("graph nodes %v: bicycle and foot should have more than the car", nodes)
	}
	inputs, err := profileInputs([]string{ProfileFoot})
	if err != nil {
		t.Fatal(err)
	}
	src, _ := HashFile(pbf)
	carIn, _ := Options{}.inputs(m.Inputs[0].Source)
	if stale, why := Stale(out, m, Version(), src, append(carIn, inputs...)); !stale || !strings.Contains(why, "profile.bicycle") {
		t.Errorf("rebuild with --profiles car,foot: stale %v (%s)", stale, why)
	}

	// A car-only bundle (the default) has no other graph.
	tiny, err := tinyBundles()
	if err != nil {
		t.Fatal(err)
	}
	cb, err := OpenRouting(tiny[0])
	if err != nil {
		t.Fatal(err)
	}
	if cb.GraphFor("bicycle") != nil || !slices.Equal(cb.Profiles(), []string{"car"}) || len(cb.Manifest.Profiles) != 0 {
		t.Errorf("car-only bundle: profiles %v, bicycle graph %v", cb.Profiles(), cb.GraphFor("bicycle"))
	}
}
