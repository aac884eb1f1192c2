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
