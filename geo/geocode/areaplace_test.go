package geocode

import (
	"testing"

	"github.com/paulmach/orb"
)

// TestAdminPlaceComponents: a state or country result carries its own
// short code and only the areas above it, not the county or town where
// its place node happens to sit.
func TestAdminPlaceComponents(t *testing.T) {
	de := testIndex(t, delaware)
	for _, tc := range []struct {
		name      string
		get       func() []Candidate
		typ       string
		short     string
		formatted string
		forbidden []string
	}{
		{"forward Delaware", func() []Candidate { return de.Forward(Query{Text: "Delaware"}) },
			"administrative_area_level_1", "DE", "Delaware, USA",
			[]string{"administrative_area_level_2", "locality", "neighborhood", "postal_code"}},
		{"reverse Wilmington", func() []Candidate { return de.Reverse(orb.Point{-75.5464, 39.7459}, ReverseOptions{}) },
			"administrative_area_level_1", "DE", "Delaware, USA",
			[]string{"administrative_area_level_2", "locality", "neighborhood", "postal_code"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c *Candidate
			cs := tc.get()
			for i := range cs {
				if cs[i].HasType(tc.typ) {
					c = &cs[i]
					break
				}
			}
			if c == nil {
				t.Fatalf("no %s result among %d", tc.typ, len(cs))
			}
			if _, short := c.Component(tc.typ); short != tc.short {
				t.Errorf("short_name %q, want %q", short, tc.short)
			}
			if c.FormattedAddress != tc.formatted {
				t.Errorf("formatted %q, want %q", c.FormattedAddress, tc.formatted)
			}
			for _, f := range tc.forbidden {
				if l, _ := c.Component(f); l != "" {
					t.Errorf("carries %s component %q: %+v", f, l, c.Components)
				}
			}
		})
	}
}

// TestCountyOneResult: a county found by name and the county of a reverse
// result are one result: the same name (the boundary's "New Castle
// County", though the place node says "New Castle") and place_id.
func TestCountyOneResult(t *testing.T) {
	de := testIndex(t, delaware)
	for _, tc := range []struct {
		query string
		at    orb.Point
		want  string
	}{
		{"New Castle County", orb.Point{-75.6, 39.7}, "New Castle County, DE, USA"},
		{"Kent County, DE", orb.Point{-75.52, 39.16}, "Kent County, DE, USA"},
		{"Sussex County", orb.Point{-75.39, 38.69}, "Sussex County, DE, USA"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			cs := de.Forward(Query{Text: tc.query})
			if len(cs) == 0 || !cs[0].HasType("administrative_area_level_2") || cs[0].FormattedAddress != tc.want {
				t.Fatalf("forward: %+v", cs)
			}
			var rev *Candidate
			for _, c := range de.Reverse(tc.at, ReverseOptions{ResultTypes: []string{"administrative_area_level_2"}}) {
				rev = &c
				break
			}
			if rev == nil || rev.PlaceID != cs[0].PlaceID || rev.FormattedAddress != tc.want {
				t.Errorf("reverse at %v: %+v, forward place_id %s", tc.at, rev, cs[0].PlaceID)
			}
		})
	}
}

// TestParishIsNotTheTown: in Andorra the parish (administrative_area_level_1)
// and its main town share a name; reverse lists both, each as itself.
func TestParishIsNotTheTown(t *testing.T) {
	ad := testIndex(t, andorra)
	cs := ad.Reverse(orb.Point{1.53, 42.51}, ReverseOptions{ResultTypes: []string{"administrative_area_level_1", "locality"}})
	var types []string
	for _, c := range cs {
		types = append(types, c.Types[0]+": "+c.FormattedAddress)
	}
	want := []string{"locality: Andorra la Vella, Andorra", "administrative_area_level_1: Andorra la Vella, Andorra"}
	if len(types) != 2 || types[0] != want[0] || types[1] != want[1] {
		t.Errorf("got %q, want %q", types, want)
	}
}

// TestAreaResultLocated: an administrative area without a place node (the
// United States in the Delaware extract) is one fixed result, located
// inside the area with its bounding box as viewport, wherever the query
// point is.
func TestAreaResultLocated(t *testing.T) {
	de := testIndex(t, delaware)
	var got []Candidate
	for _, p := range []orb.Point{{-75.75, 39.6834}, {-75.55, 39.74}, {-75.3, 38.7}} {
		cs := de.Reverse(p, ReverseOptions{ResultTypes: []string{"country"}})
		if len(cs) != 1 {
			t.Fatalf("at %v: %d country results", p, len(cs))
		}
		if !cs[0].Viewport.Contains(p) || !cs[0].Viewport.Contains(cs[0].Location) {
			t.Errorf("at %v: viewport %v does not hold the point and the location %v", p, cs[0].Viewport, cs[0].Location)
		}
		got = append(got, cs[0])
	}
	for _, c := range got[1:] {
		if c.Location != got[0].Location || c.Viewport != got[0].Viewport || c.PlaceID != got[0].PlaceID {
			t.Errorf("the country moves with the query point: %+v vs %+v", c, got[0])
		}
	}
}
