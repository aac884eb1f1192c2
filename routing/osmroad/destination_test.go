package osmroad

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/routing/profile"
)

func TestDestination(t *testing.T) {
	for _, tc := range []struct {
		tags osm.Tags
		want string
	}{
		{osm.Tags{{Key: "destination:ref", Value: "I 95 South"}, {Key: "destination", Value: "Newark;Baltimore"}}, "I-95 South: Newark, Baltimore"},
		{osm.Tags{{Key: "destination:ref", Value: "US 40 West;I 95"}, {Key: "destination", Value: "Newark"}}, "US-40 West / I-95: Newark"},
		{osm.Tags{{Key: "destination", Value: " Dover ; Smyrna "}}, "Dover, Smyrna"},
		{osm.Tags{{Key: "destination:ref", Value: "DE 1"}}, "DE-1"},
		{osm.Tags{{Key: "destination:ref", Value: "(221)"}}, "(221)"},
		{osm.Tags{{Key: "destination", Value: "Martin Luther King Jr Boulevard,Fourth Street"}}, "Martin Luther King Jr Boulevard, Fourth Street"},
		{osm.Tags{{Key: "destination", Value: "Washington, DC;Baltimore"}}, "Washington, DC, Baltimore"},
		{osm.Tags{{Key: "destination", Value: "Dover,"}}, "Dover"},
		{osm.Tags{{Key: "highway", Value: "motorway_link"}}, ""},
	} {
		if got := destination(tc.tags); got != tc.want {
			t.Errorf("Destination(%v) = %q, want %q", tc.tags, got, tc.want)
		}
	}
}

// TestRampSigns: routing/testdata/ramp.osm's exit ramp carries its
// destination and, from the motorway_junction node it leaves, its exit
// number; the motorway its route number.
func TestRampSigns(t *testing.T) {
	prof, err := profile.Load(filepath.Join("..", "..", "configs", "car.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	net, err := Read(filepath.Join("..", "testdata", "ramp.osm"), prof)
	if err != nil {
		t.Fatal(err)
	}
	ramps, motorways := 0, 0
	for _, e := range net.Edges {
		switch e.WayID {
		case 502:
			ramps++
			if net.Names[e.Destination] != "US-13 South: Dover, Smyrna" || net.Names[e.Exit] != "3B" || e.Name != 0 {
				t.Errorf("ramp edge: destination %q exit %q name %q", net.Names[e.Destination], net.Names[e.Exit], net.Names[e.Name])
			}
		case 501:
			motorways++
			if net.Names[e.Ref] != "I-95" || net.Names[e.Name] != "Delaware Turnpike" || e.Exit != 0 || e.Destination != 0 {
				t.Errorf("motorway edge: ref %q name %q exit %q", net.Names[e.Ref], net.Names[e.Name], net.Names[e.Exit])
			}
		}
	}
	if ramps != 1 || motorways != 2 {
		t.Errorf("%d ramp edges, %d motorway edges; want 1 and 2", ramps, motorways)
	}
}

// FuzzDestination: any destination tags give a text without the tags'
// separators or surrounding spaces, empty only without a word in them.
func FuzzDestination(f *testing.F) {
	f.Add("I 95 South", "Newark;Baltimore")
	f.Add("US 40 West;I 95", " Dover ; ")
	f.Add("", ";;")
	f.Fuzz(func(t *testing.T, ref, dest string) {
		got := destination(osm.Tags{{Key: "destination:ref", Value: ref}, {Key: "destination", Value: dest}})
		if strings.Contains(got, ";") || got != strings.TrimSpace(got) {
			t.Fatalf("Destination(%q, %q) = %q", ref, dest, got)
		}
		words := strings.TrimSpace(strings.ReplaceAll(ref+dest, ";", " ")) != ""
		if (got != "") != words {
			t.Fatalf("Destination(%q, %q) = %q", ref, dest, got)
		}
	})
}
